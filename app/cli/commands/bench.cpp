// `redlab bench`: timings on the GPU (medians of CUDA-event runs, GB/s, the device's ceilings, the ratio to CUB in
// alternating rounds); with --gpus G, the all-reduce across G GPUs beside NCCL.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/source.h"
#include "core/allreduce.h"
#include "core/catalog.h"
#include "core/printable.h"
#include "core/scenario.h"
#include "exec/bench.h"
#include "exec/device.h"
#include "exec/multi_gpu.h"
#include "exec/nccl.h"

namespace redlab::cli {
namespace {

struct BenchArgs {
  std::string kernels =
      "neighbored_modulo,neighbored_strided,interleaved,load_add,unroll_last_warp,"
      "unroll_complete,multi_element,grid_stride_warp,vectorized,cub_device";
  std::string sizes = "2^22,2^28";
  std::string type = "int32", op = "sum", block = "256", finish = "relaunch", output;
  std::string blocks;  // a block-size sweep: "32,64,..." or "all"
  bool block_given = false;
  int reps = 30, warmup = 3;
  bool json = false, shmoo = false;
  std::string rows, cols, block_rows = "8";  // transposes
  unsigned gpus = 0;  // > 0: all-reduce across this many GPUs (NCCL and the link)
};

// bench --gpus G: ncclAllReduce across G GPUs (NCCL's own choice, then Ring and Tree forced), per size, with
// nccl-tests' algbw and busbw, beside the link's ceiling (a peer copy) and the rings NCCL built.
int bench_gpus(const BenchArgs& a) {
  std::string err;
  const auto type = parse_type(a.type, &err);
  const auto op = type ? parse_op(a.op, &err) : std::nullopt;
  if (!op) {
    print_message(stderr, "redlab: %s\n", err.c_str());
    return 2;
  }
  if (a.gpus < allreduce::kMinGpus || a.gpus > allreduce::kMaxGpus) {
    print_message(stderr, "redlab: --gpus: %u is out of range; use %u..%u\n", a.gpus, allreduce::kMinGpus,
                  allreduce::kMaxGpus);
    return 2;
  }
  const std::size_t es = elem_size(*type);
  std::vector<std::uint64_t> sizes;
  if (a.sizes == BenchArgs{}.sizes) {  // nccl-tests' range: 8 B to 1 GiB, by 8
    for (std::uint64_t bytes = 8; bytes <= (std::uint64_t(1) << 30); bytes *= 8)  // 8 x 8^10 = 2^30
      sizes.push_back(std::max<std::uint64_t>(1, bytes / es));
  } else {
    std::stringstream ss(a.sizes);
    for (std::string item; std::getline(ss, item, ',');) {
      std::uint64_t n = 0;
      if (!parse_size(item, n) || n < 1 || n > kMaxN) {
        print_message(stderr, "redlab: --n: '%s' is not a size; use sizes from 1 to 2^31 separated by commas\n",
                      item.c_str());
        return 2;
      }
      sizes.push_back(n);
    }
  }
  // --kernels: the all-reduce kernels to time (NCCL's: its own choice, then Ring and Tree forced); by default every
  // one of the catalog, NCCL first.
  std::vector<AllReduceEngine> engines;
  const auto add = [&engines](const KernelRecord& k) {
    if (k.reference) {  // NCCL's all-reduce, what the schedules are measured against
      for (const AllReduceEngine& e : nccl_engines()) engines.push_back(e);
    } else {
      engines.push_back({&k, ""});
    }
  };
  if (a.kernels != BenchArgs{}.kernels) {
    std::stringstream ks(a.kernels);
    for (std::string id; std::getline(ks, id, ',');) {
      if (id.empty()) continue;
      const KernelRecord* k = find_kernel(id);
      if (!k || k->family != Family::allreduce) {
        std::string all;
        for (const KernelRecord* x : catalog())
          if (x->family == Family::allreduce) all += (all.empty() ? "" : ", ") + x->id;
        print_message(stderr, "redlab: bench --gpus --kernels: '%s' is not an all-reduce (%s)\n", id.c_str(),
                      all.c_str());
        return 2;
      }
      add(*k);
    }
  } else {
    for (const KernelRecord* k : catalog())
      if (k->family == Family::allreduce && k->reference) add(*k);
    for (const KernelRecord* k : catalog())
      if (k->family == Family::allreduce && !k->reference) add(*k);
  }
  if (engines.empty()) {
    print_message(stderr, "redlab: bench --gpus --kernels: no kernel named\n");
    return 2;
  }
#if REDLAB_HAVE_CUDA
  std::string why;
  if (usable_gpus(a.gpus, &why) != a.gpus) {
    print_message(stderr, "redlab: bench --gpus %u: %s\n", a.gpus, why.c_str());
    return 2;
  }
  const double link = peer_copy_bandwidth(std::uint64_t(1) << 30, &why);
  AllReduceRequest r;
  r.gpus = a.gpus;
  r.type = *type;
  r.op = *op;
  r.sizes = sizes;
  r.engines = engines;
  r.reps = std::max(1, std::min(a.reps, 15));
  // Each size's row as soon as every engine has timed it: 1 GiB on 8 GPUs takes a while.
  bool all_correct = true;
  const AllReduceReport rep = time_allreduce(r, [&](const AllReduceReport& so_far, std::size_t row) {
    if (row == 0) {
      print_message(stdout, "all-reduce on %s, NCCL %s, %s %s; median of %d samples of %d back-to-back calls\n",
                    so_far.device.c_str(), so_far.nccl_version.c_str(), to_string(*type), to_string(*op), r.reps,
                    r.iters);
      print_message(
          stdout,
          "busbw = bytes / time x 2(G-1)/G (nccl-tests; algbw = bytes / time); link ceiling: cudaMemcpyPeer GPU "
          "1 -> 0 of 1 GiB, %.1f GB/s\n",
          link / 1e9);
      print_message(stdout,
                    "NCCL out of place; redlab's kernels (block %u) in place, one launch per transfer on the receiving "
                    "GPU\n\n",
                    r.block);
      print_message(stdout, "%12s", "");
      for (const AllReduceColumn& c : so_far.columns) print_message(stdout, "  %19s", c.engine.heading().c_str());
      print_message(stdout, "\n%12s", "bytes");
      for (std::size_t i = 0; i < so_far.columns.size(); ++i) print_message(stdout, "  %10s %8s", "time us", "busbw");
      print_message(stdout, "  check\n");
    }
    bool ok = true;
    print_message(stdout, "%12llu", static_cast<unsigned long long>(so_far.columns.front().rows[row].bytes));
    for (const AllReduceColumn& c : so_far.columns) {
      const AllReduceTiming& t = c.rows[row];
      ok = ok && t.correct;
      print_message(stdout, "  %10.1f %8.1f", t.seconds * 1e6, t.busbw / 1e9);
    }
    print_message(stdout, "  %s\n", ok ? "ok" : "WRONG");
    std::fflush(stdout);
    all_correct = all_correct && ok;
  });
  if (!rep.error.empty()) {
    print_message(stderr, "redlab: bench --gpus %u: %s\n", a.gpus, rep.error.c_str());
    return 2;
  }
  // The largest size against the link and against NCCL's ring.
  const std::size_t last = sizes.size() - 1;
  double nccl_ring = 0;
  for (const AllReduceColumn& c : rep.columns)
    if (c.engine.is_nccl() && c.engine.nccl_algo == "Ring") nccl_ring = c.rows[last].busbw;
  print_message(stdout, "\nGB/s. At %llu bytes, busbw as a share of the link ceiling (%.1f GB/s)%s:\n",
                static_cast<unsigned long long>(rep.columns.front().rows[last].bytes), link / 1e9,
                nccl_ring > 0 ? " and of NCCL_ALGO=Ring's" : "");
  for (const AllReduceColumn& c : rep.columns) {
    print_message(stdout, "  %-19s %6.1f GB/s  %5.1f %% of the link", c.engine.heading().c_str(),
                  c.rows[last].busbw / 1e9, link > 0 ? 100 * c.rows[last].busbw / link : 0.0);
    if (nccl_ring > 0) print_message(stdout, "  %5.1f %% of NCCL's ring", 100 * c.rows[last].busbw / nccl_ring);
    print_message(stdout, "\n");
  }
  // Each ring once, as the GPUs pass data round it, with how many of NCCL's channels take it.
  print_message(stdout, "Rings NCCL built (from its log):%s\n", rep.rings.empty() ? " none logged" : "");
  for (const allreduce::NcclRing& ring : rep.rings) {
    std::string order;
    for (const unsigned g : ring.order) order += (order.empty() ? "" : " -> ") + std::to_string(g);
    print_message(stdout, "  %2u channel%s  %s%s\n", ring.channels, ring.channels == 1 ? " " : "s", order.c_str(),
                  ring.complete ? "" : "  (incomplete: a GPU's line is missing or contradicts another's)");
  }
  return all_correct ? 0 : 1;
#else
  print_message(stderr, "redlab: bench --gpus %u: this redlab was built without CUDA (REDLAB_CUDA=OFF)\n", a.gpus);
  return 2;
#endif
}

int cmd_bench(const BenchArgs& a) {
  if (a.gpus && !a.blocks.empty()) {
    print_message(stderr,
                  "redlab: bench --gpus: --blocks sweeps one GPU's reductions; time the all-reduce without it\n");
    return 2;
  }
  if (a.gpus) return bench_gpus(a);
  BenchRequest r;
  std::string err;
  std::stringstream ks(a.kernels);
  std::string item;
  while (std::getline(ks, item, ','))
    if (!item.empty()) r.kernels.push_back(item);
  if (a.shmoo) {
    for (unsigned k = 10; k <= 28; ++k) r.sizes.push_back(std::uint64_t(1) << k);
  } else {
    std::stringstream ss(a.sizes);
    while (std::getline(ss, item, ',')) {
      std::uint64_t n = 0;
      if (!parse_size(item, n) || n < 1 || n > kMaxN) {
        print_message(stderr, "redlab: --n: '%s' is not a size; use sizes from 1 to 2^31 separated by commas\n",
                      item.c_str());
        return 2;
      }
      r.sizes.push_back(n);
    }
  }
  auto type = parse_type(a.type, &err);
  auto op = type ? parse_op(a.op, &err) : std::nullopt;
  auto finish = op ? parse_finish(a.finish, &err) : std::nullopt;
  std::uint64_t block = 0;
  if (!finish) {
    print_message(stderr, "redlab: %s\n", err.c_str());
    return 2;
  }
  if (!parse_size(a.block, block) || !is_block_size(block)) {
    print_message(stderr, "redlab: --block: '%s' is not accepted; use a power of two from 32 to 1024\n",
                  a.block.c_str());
    return 2;
  }
  r.type = *type;
  r.op = *op;
  r.finish = *finish;
  r.block = unsigned(block);
  if (!a.blocks.empty()) {
    if (a.block_given) {
      print_message(stderr, "redlab: --block and --blocks: give one (--blocks times every kernel at each block)\n");
      return 2;
    }
    std::stringstream bs(a.blocks);
    for (std::string b; std::getline(bs, b, ',');) {
      if (b == "all") {
        for (const unsigned x : all_block_sizes())
          if (std::find(r.blocks.begin(), r.blocks.end(), x) == r.blocks.end()) r.blocks.push_back(x);
        continue;
      }
      std::uint64_t v = 0;
      if (!parse_size(b, v) || !is_block_size(v) ||
          std::find(r.blocks.begin(), r.blocks.end(), unsigned(v)) != r.blocks.end()) {
        print_message(stderr,
                      "redlab: --blocks: '%s' is not accepted; use powers of two from 32 to 1024, each once, "
                      "separated by commas (or all)\n",
                      b.c_str());
        return 2;
      }
      r.blocks.push_back(unsigned(v));
    }
    if (r.blocks.empty()) {
      print_message(stderr, "redlab: --blocks: no block size given\n");
      return 2;
    }
    r.block = r.blocks.front();
  }
  r.reps = a.reps;
  r.warmup = a.warmup;
  if (!a.rows.empty() || !a.cols.empty()) {
    std::uint64_t rows = 0, cols = 0, k = 0;
    if (!parse_size(a.rows.empty() ? "8192" : a.rows, rows) || !parse_size(a.cols.empty() ? "8192" : a.cols, cols) ||
        rows < 1 || cols < 1 || rows > 65536 || cols > 65536) {
      print_message(stderr, "redlab: --rows/--cols: use 1..65536\n");
      return 2;
    }
    if (!parse_size(a.block_rows, k) || k < 1 || k > 32 || (k & (k - 1))) {
      print_message(stderr, "redlab: --block-rows: '%s' is not accepted; use a power of two from 1 to 32\n",
                    a.block_rows.c_str());
      return 2;
    }
    r.rows = unsigned(rows);
    r.cols = unsigned(cols);
    r.block_rows = unsigned(k);
    if (a.type == "int32") r.type = ElemType::float32;  // transposes move float matrices
  }
  const BenchReport rep = run_bench(r);
  if (!a.output.empty()) {
    std::ofstream f(a.output);
    f << bench_json(rep).dump(2) << "\n";
    if (!f) throw std::runtime_error("cannot write " + a.output);
  }
  if (a.json)
    std::cout << bench_json(rep).dump(2) << "\n";
  else
    std::cout << bench_text(rep);
  for (const auto& row : rep.rows)
    if (!row.correct) return 1;
  return 0;
}

class BenchCommand : public Command {
  BenchArgs args_;
  SourceArgs source_;
  CLI::App* bench_ = nullptr;

 public:
  CLI::App* declare(CLI::App& parent) override {
    CLI::App* bench = bench_ = parent.add_subcommand(
        "bench", "GPU timings: medians of CUDA-event runs, GB/s, ceilings, speedups, ratio to CUB");
    bench->add_option("--kernels", args_.kernels, "kernel ids, comma-separated; the first is the baseline");
    bench->add_option("--n", args_.sizes, "sizes, comma-separated (2^22,2^28)");
    bench->add_option("--type", args_.type, "int32|float32|float64");
    bench->add_option("--op", args_.op, "sum|min|max");
    bench->add_option("--block", args_.block, "threads per block");
    bench->add_option("--blocks", args_.blocks,
                      "a block-size sweep: every kernel at each of these blocks (32,64,...,1024 or all)");
    bench->add_option("--finish", args_.finish, "relaunch|host|atomic");
    bench->add_option("--reps", args_.reps, "timed repetitions (median reported)");
    bench->add_option("--warmup", args_.warmup, "untimed warm-up runs");
    bench->add_option("-o,--output", args_.output, "also write the JSON report to this file");
    bench->add_flag("--json", args_.json, "JSON output");
    bench->add_flag("--shmoo", args_.shmoo, "sizes 2^10 .. 2^28");
    bench->add_option("--rows", args_.rows, "transposes: matrix rows (default 8192)");
    bench->add_option("--cols", args_.cols, "transposes: matrix columns (default 8192)");
    bench->add_option("--block-rows", args_.block_rows, "transposes: block (32, K)");
    bench->add_option("--gpus", args_.gpus,
                      "all-reduce across G GPUs: NCCL's algbw and busbw per size, and the link's ceiling");
    source_.add_to(*bench, false);
    return bench;
  }
  int run(const Invocation& in) override {
    args_.block_given = bench_->count("--block") > 0;
    if (!args_.blocks.empty() && (!source_.file.empty() || !source_.library.empty())) {
      print_message(stderr,
                    "redlab: --blocks: a kernel file is compiled for one --block; time each block in its own run\n");
      return 2;
    }
    const SourceCommand file{args_.type,
                             args_.block,
                             args_.block_rows,
                             args_.op,
                             "cuda",
                             "",
                             true,
                             bench_->count("--kernels") ? args_.kernels : ""};
    if (const auto rc = kernel_file_part(in.argc, in.argv, source_, file)) return *rc;
    return cmd_bench(args_);
  }
};

const CommandRegistration bench_command{Order::bench, [] { return std::unique_ptr<Command>(new BenchCommand); }};

}  // namespace
}  // namespace redlab::cli
