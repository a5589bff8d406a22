// `redlab bench`: the same scenario for a list of kernels and sizes, timed in one run on the GPU.
#include "exec/bench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "core/catalog.h"
#include "core/plan.h"
#include "core/reference.h"
#include "exec/device.h"
#include "exec/device_memory.h"
#include "exec/family_run.h"

namespace redlab {
namespace {

struct Stats {
  double median = 0, min = 0, max = 0;
};
Stats stats_of(std::vector<float> ms) {
  Stats s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  const std::size_t m = ms.size() / 2;
  s.median = ms.size() % 2 ? ms[m] : 0.5 * (double(ms[m - 1]) + ms[m]);
  s.min = ms.front();
  s.max = ms.back();
  return s;
}

double gbps(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0; }

}  // namespace

BenchReport run_bench(const BenchRequest& req) {
  if (req.kernels.empty() || req.sizes.empty()) throw ScenarioError("bench: give at least one kernel and one size");
  if (req.reps < 3 || req.reps > 1000 || req.warmup < 0 || req.warmup > 100)
    throw ScenarioError("--reps/--warmup: use 3..1000 repetitions and 0..100 warm-ups");
  std::vector<const KernelRecord*> kernels;
  for (const std::string& id : req.kernels) {
    const KernelRecord* k = find_kernel(id);
    if (!k) throw ScenarioError("--kernels: '" + id + "' is not a kernel redlab can time; use ids from redlab list");
    if (!kernels.empty() && k->family != kernels[0]->family)
      throw ScenarioError("--kernels: time " + std::string(family_record(kernels[0]->family).name) + "s and " +
                          family_record(k->family).name + "s in separate runs (they take different sizes)");
    kernels.push_back(k);
  }
  const FamilyRecord& family = family_record(kernels[0]->family);
  if (!req.blocks.empty() && family.takes_matrix)
    throw ScenarioError("--blocks: a transpose's block is 32 x --block-rows; time each --block-rows in its own run");
  // The block sizes every kernel is timed at (a sweep), else the one block.
  const std::vector<unsigned> blocks = req.blocks.empty() ? std::vector<unsigned>{req.block} : req.blocks;
#if REDLAB_HAVE_CUDA
  std::string why;
  auto dev = make_cuda_device(&why);
#else
  std::string why = "no CUDA device: this redlab was built without CUDA";
  std::unique_ptr<Device> dev;
#endif
  if (!dev)
    throw ScenarioError("bench: " + why +
                        "; timings exist only on a GPU (recorded H200 figures: assets/reference/timings.json, "
                        "assets/reference/transpose_<type>.json)");
  BenchReport rep;
  rep.device = dev->name();
  rep.driver = dev->driver();
  rep.date = now_iso();
  rep.host = host_name();
  rep.request = req;
  const std::size_t l2 = dev->l2_bytes();

  // The scenario every kernel is timed on: one per size (reductions), or the one matrix (transposes).
  std::vector<Scenario> sizes;
  for (std::uint64_t n : family.takes_matrix ? std::vector<std::uint64_t>{0} : req.sizes) {
    Scenario s;
    s.n = n;
    s.block = blocks.front();
    s.type = req.type;
    s.op = req.op;
    s.finish = req.finish;
    s.rows = req.rows;
    s.cols = req.cols;
    s.block_rows = req.block_rows;
    s.input = InputKind::random;
    s.seed = 12345;
    s.kernel = kernels[0]->id;
    family.resolve(s);
    sizes.push_back(s);
  }
  const KernelRecord* reference = family.bench_pairs ? reference_kernel(family.id) : nullptr;

  for (const Scenario& base : sizes) {
    const std::size_t es = elem_size(base.type);
    std::vector<std::uint8_t> host(base.n * es);
    fill_input(base, host.data());
    auto plan_of = [&](const KernelRecord& k, unsigned block) {
      Scenario s = base;
      s.kernel = k.id;
      s.block = block;
      return make_plan(s);
    };
    const Plan first_plan = plan_of(*kernels[0], base.block);
    const FamilyRunner& runner = family_runner(first_plan);
    // Data under 4x the L2 rotates over copies, so that no timed run finds its data in L2 from the run before.
    const std::size_t copy_bytes = runner.bytes_per_copy(first_plan);
    const std::size_t copies = rotating_copies(copy_bytes, l2);

    // The device's ceilings, over the same rotation: a device-to-device copy (read + write) and a read-only
    // pass with 16-byte loads, of the input's bytes.
    const std::size_t bytes = base.n * es;
    BenchCeiling ceil;
    ceil.n = base.n;
    ceil.fits_l2 = l2 && copy_bytes <= l2;
    {
      std::vector<DeviceBuffer> src;
      for (std::size_t c = 0; c < copies; ++c) {
        src.emplace_back(*dev, (bytes + 15) / 16 * 16);
        dev->upload(src.back().p, host.data(), bytes);
      }
      DeviceBuffer dst(*dev, bytes), sink(*dev, 4096 * 4);
      auto ms =
          dev->time_ms([](int) {}, [&](int r) { dev->copy(dst.p, src[r % copies].p, bytes); }, req.warmup, req.reps);
      ceil.copy_gbps = gbps(2.0 * double(bytes), stats_of(ms).median);
      auto rd = dev->time_ms([](int) {}, [&](int r) { dev->read_only(src[r % copies].p, bytes / 16 * 16, sink.p); },
                             req.warmup, req.reps);
      ceil.read_gbps = gbps(double(bytes / 16 * 16), stats_of(rd).median);
    }
    rep.ceilings.push_back(ceil);

    // One kernel's run with its copies, timed in rounds: prepare outside the timed region, then the whole run.
    struct Timed {
      Plan plan;
      std::unique_ptr<PlanRun> run;
    };
    auto make_timed = [&](const KernelRecord& k, unsigned block) {
      Timed t{plan_of(k, block), nullptr};
      check_fits(*dev, t.plan, runner.device_bytes(t.plan, copies), " to time");
      t.run = runner.make(*dev, t.plan, host.data(), copies);
      return t;
    };
    auto rounds = [](Timed& t) {
      return Device::TimedRun{[&t](int) { t.run->prepare(); },
                              [&t](int) {
                                t.run->run_first();
                                t.run->finish();
                              }};
    };
    auto fill_row = [&](Timed& t, const std::vector<float>& ms, BenchRow& row) {
      const Stats st = stats_of(ms);
      row.median_ms = st.median;
      row.min_ms = st.min;
      row.max_ms = st.max;
      row.reps = int(ms.size());
      row.correct = t.run->check().correct;
    };

    // The reference alone for its own row; every other kernel in rounds alternating with it, so that their
    // ratio is one of medians taken under the same conditions.
    std::optional<Timed> ref;
    BenchRow ref_row;
    if (reference) {
      ref.emplace(make_timed(*reference, base.block));
      ref_row.kernel = reference->id;
      ref_row.n = base.n;
      ref_row.block = reference->own_launch ? 0 : base.block;
      fill_row(*ref, dev->time_rounds_ms({rounds(*ref)}, req.warmup, req.reps)[0], ref_row);
    }

    // In a sweep, the speedup columns compare kernels at the same block.
    for (const unsigned block : blocks) {
      const std::size_t first_row = rep.rows.size();
      for (const KernelRecord* k : kernels) {
        // A library that launches its own way is the same run at every block: timed at the first only.
        if (k->own_launch && block != blocks.front()) continue;
        BenchRow row;
        row.kernel = k->id;
        row.n = base.n;
        row.block = k->own_launch ? 0 : block;
        double ref_ms = ref ? ref_row.median_ms : 0;
        if (k == reference) {
          row = ref_row;
        } else if (k->host_only) {
          std::vector<float> all;
          time_host_loop_ms(plan_of(*k, block).scenario, 1, std::min(req.reps, 5), &all);
          const Stats st = stats_of(all);
          row.median_ms = st.median;
          row.min_ms = st.min;
          row.max_ms = st.max;
          row.reps = int(all.size());
          row.correct = true;
        } else {
          Timed t = make_timed(*k, block);
          if (ref) {
            const auto ms = dev->time_rounds_ms({rounds(*ref), rounds(t)}, req.warmup, req.reps);
            fill_row(t, ms[1], row);
            ref_ms = stats_of(ms[0]).median;
          } else {
            fill_row(t, dev->time_rounds_ms({rounds(t)}, req.warmup, req.reps)[0], row);
          }
        }
        // GB/s: the bytes the family moves (reductions read the input; transposes read it and write it). The
        // read-only ceiling compares only with what only reads.
        row.gbps = gbps(double(family.traffic) * double(bytes), row.median_ms);
        row.pct_copy = ceil.copy_gbps > 0 ? 100.0 * row.gbps / ceil.copy_gbps : 0;
        row.pct_read = family.traffic == 1 && ceil.read_gbps > 0 ? 100.0 * row.gbps / ceil.read_gbps : 0;
        row.ratio_cub = ref && row.median_ms > 0 ? ref_ms / row.median_ms : 0;
        const BenchRow& first = rep.rows.size() > first_row ? rep.rows[first_row] : row;
        row.speedup = row.median_ms > 0 ? first.median_ms / row.median_ms : 0;
        const BenchRow& prev = rep.rows.size() > first_row ? rep.rows.back() : row;
        row.step_speedup = row.median_ms > 0 ? prev.median_ms / row.median_ms : 0;
        rep.rows.push_back(row);
      }
    }
  }
  return rep;
}

nlohmann::json bench_json(const BenchReport& r) {
  using nlohmann::json;
  json ceilings = json::array(), rows = json::array();
  for (const auto& c : r.ceilings)
    ceilings.push_back({{"n", c.n}, {"copy_gbps", c.copy_gbps}, {"read_gbps", c.read_gbps}, {"fits_l2", c.fits_l2}});
  for (const auto& x : r.rows)
    rows.push_back({{"kernel", x.kernel},
                    {"n", x.n},
                    {"block", x.block},
                    {"median_ms", x.median_ms},
                    {"min_ms", x.min_ms},
                    {"max_ms", x.max_ms},
                    {"reps", x.reps},
                    {"gbps", x.gbps},
                    {"pct_copy", x.pct_copy},
                    {"pct_read", x.pct_read},
                    {"speedup", x.speedup},
                    {"step_speedup", x.step_speedup},
                    {"ratio_cub", x.ratio_cub},
                    {"correct", x.correct}});
  nlohmann::json out = {
      {"device", r.device},
      {"driver", r.driver},
      {"date", r.date},
      {"host", r.host},
      {"type", to_string(r.request.type)},
      {"op", to_string(r.request.op)},
      {"block", r.request.block},
      {"matrix_rows", r.request.rows},
      {"matrix_cols", r.request.cols},
      {"matrix_block_rows", r.request.block_rows},
      {"finish", to_string(r.request.finish)},
      {"warmup", r.request.warmup},
      {"reps", r.request.reps},
      {"timing",
       "median of CUDA-event times of the whole reduction (every launch), after warm-up; inputs "
       "smaller than 4x the L2 rotate over copies; GB/s = input bytes / median (decimal); copy ceiling "
       "counts read + write; x CUB: each kernel timed in rounds alternating with cub_device, ratio of "
       "the two medians"},
      {"ceilings", ceilings},
      {"rows", rows}};
  if (r.sweep()) out["blocks"] = r.request.blocks;
  return out;
}

BenchReport bench_from_json(const nlohmann::json& j) {
  BenchReport r;
  try {
    r.device = j.at("device");
    r.driver = j.at("driver");
    r.date = j.at("date");
    r.host = j.value("host", "");
    std::string err;
    if (auto t = parse_type(j.at("type"), &err)) r.request.type = *t;
    if (auto o = parse_op(j.at("op"), &err)) r.request.op = *o;
    r.request.block = j.at("block");
    r.request.rows = j.value("matrix_rows", 0u);
    r.request.cols = j.value("matrix_cols", 0u);
    r.request.block_rows = j.value("matrix_block_rows", 8u);
    r.request.reps = j.value("reps", 0);
    r.request.warmup = j.value("warmup", 0);
    if (j.contains("blocks"))
      for (const auto& b : j.at("blocks")) {
        const unsigned block = b.get<unsigned>();
        if (!is_block_size(block) ||
            std::find(r.request.blocks.begin(), r.request.blocks.end(), block) != r.request.blocks.end())
          throw std::runtime_error("not a redlab bench file: \"blocks\" holds " + std::to_string(block) +
                                   " (powers of two from 32 to 1024, each once)");
        r.request.blocks.push_back(block);
      }
    for (const auto& c : j.at("ceilings"))
      r.ceilings.push_back({c.at("n"), c.at("copy_gbps"), c.at("read_gbps"), c.at("fits_l2")});
    for (const auto& x : j.at("rows")) {
      BenchRow row;
      row.kernel = x.at("kernel");
      row.n = x.at("n");
      row.block = x.value("block", r.request.block);  // (files written before sweeps: every row at the file's block)
      row.median_ms = x.at("median_ms");
      row.min_ms = x.value("min_ms", 0.0);
      row.max_ms = x.value("max_ms", 0.0);
      row.reps = x.value("reps", 0);
      row.gbps = x.at("gbps");
      row.pct_copy = x.at("pct_copy");
      row.pct_read = x.at("pct_read");
      row.speedup = x.at("speedup");
      row.step_speedup = x.at("step_speedup");
      row.ratio_cub = x.at("ratio_cub");
      row.correct = x.at("correct");
      r.rows.push_back(row);
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("not a redlab bench file: ") + e.what());
  }
  return r;
}

std::string bench_text(const BenchReport& r) {
  std::ostringstream o;
  char line[256];
  const bool sweep = r.sweep();
  o << r.device << ", " << r.driver << ", " << r.date << "\n";
  o << to_string(r.request.type) << " " << to_string(r.request.op) << ", ";
  if (sweep) {
    o << "blocks";
    for (std::size_t i = 0; i < r.request.blocks.size(); ++i) o << (i ? ", " : " ") << r.request.blocks[i];
  } else {
    o << "block " << r.request.block;
  }
  o << ", median of " << r.request.reps << " CUDA-event timings after " << r.request.warmup
    << " warm-ups (whole reduction)";
  if (!r.request.rows)
    o << "; inputs under 4x the L2 rotate over copies; x CUB from rounds alternating each kernel with cub_device";
  if (sweep) o << "; x first and x prev compare kernels at the same block; block - : the library's own launch";
  o << "\n";
  for (const auto& c : r.ceilings) {
    if (r.request.rows)
      o << "\ntranspose " << r.request.rows << " x " << r.request.cols << ", block (32, " << r.request.block_rows
        << "); GB/s counts read + write; x first is relative to the first kernel";
    std::snprintf(line, sizeof line, "\nn = %llu (%.1f MB%s): copy %.0f GB/s (read+write), read-only %.0f GB/s\n",
                  (unsigned long long)c.n, double(c.n * elem_size(r.request.type)) / 1e6,
                  c.fits_l2 ? ", fits in L2" : "", c.copy_gbps, c.read_gbps);
    o << line;
    std::snprintf(line, sizeof line, "  %-20s%s %10s %9s %7s %7s %8s %8s %8s  %s\n", "kernel", sweep ? "  block" : "",
                  "median ms", "GB/s", "%copy", "%read", "x first", "x prev", "x CUB", "check");
    o << line;
    for (const auto& x : r.rows) {
      if (x.n != c.n) continue;
      char block[16] = "";
      if (sweep) std::snprintf(block, sizeof block, "  %5s", x.block ? std::to_string(x.block).c_str() : "-");
      std::snprintf(line, sizeof line, "  %-20s%s %10.4f %9.1f %7.1f %7.1f %8.2f %8.2f %8.2f  %s\n", x.kernel.c_str(),
                    block, x.median_ms, x.gbps, x.pct_copy, x.pct_read, x.speedup, x.step_speedup, x.ratio_cub,
                    x.correct ? "ok" : "WRONG");
      o << line;
    }
  }
  return o.str();
}

}  // namespace redlab
