// What each subcommand does, once its options are read: list, stats, trace, bank, new-kernel and bench
// (selftest.cpp and source.cpp hold the rest).
#include "commands.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <future>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/printable.h"
#include "core/bank_model.h"
#include "core/catalog.h"
#include "core/file_write.h"
#include "core/gallery.h"
#include "core/kernel_file.h"
#include "core/resources.h"
#include "core/stats_json.h"
#include "core/version.h"
#include "exec/bank_measure.h"
#include "exec/bench.h"
#include "exec/device.h"
#include "exec/estimate.h"
#include "exec/executor.h"
#include "exec/hw_collect.h"
#include "exec/multi_gpu.h"
#include "exec/nccl.h"
#if REDLAB_HAVE_CUDA
#include "exec/nvrtc.h"
#endif
#include "core/allreduce.h"
#include "core/hw_counts.h"
#include "core/kernel_source.h"
#include <fstream>

namespace redlab::cli {

namespace {
// Runs the scenario; a run that takes more than a second reports its progress on stderr once a second (blocks
// run over all the chunks' launches, the chunk, the time so far), on one line rewritten in a terminal. One the
// estimate puts over 10 s says so first, with the host memory it will hold (the window asks instead).
Trace run(const Scenario& s) {
  std::string notice;
  auto ex = make_executor(s.backend, &notice);
  if (!notice.empty()) print_message(stderr, "redlab: %s\n", notice.c_str());
  if (ex->backend() == Backend::emulator) {
    const RunEstimate e = estimate_run(s, true);
    if (e.seconds > 10.0 && e.bytes <= double(host_free_for_runs()))   // one that cannot fit is refused instead
      print_message(stderr, "redlab: this run takes about %.0f s on the CPU (%u chunk%s, %.2f GB of host "
                   "memory); Ctrl+C stops it\n", e.seconds, e.chunks, e.chunks == 1 ? "" : "s", e.bytes / 1e9);
  }
  RunControl control;
  RunOptions options;
  options.control = &control;
  auto pending = std::async(std::launch::async, [&] { return ex->run(s, options); });
  const auto t0 = std::chrono::steady_clock::now();
  const bool tty = isatty(fileno(stderr));
  bool printed = false;
  while (pending.wait_for(std::chrono::seconds(1)) != std::future_status::ready) {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (control.chunks)
      print_message(stderr, "redlab: traced %llu of %llu blocks, chunk %u of %u, %.0f s%s",
                   static_cast<unsigned long long>(control.blocks_run.load()),
                   static_cast<unsigned long long>(control.blocks_expected.load()),
                   std::min(control.chunks_done.load() + 1, control.chunks.load()), control.chunks.load(), secs,
                   tty ? "   \r" : "\n");
    else
      print_message(stderr, "redlab: preparing the input and buffers, %.0f s%s", secs, tty ? "   \r" : "\n");
    printed = true;
  }
  if (printed && tty) print_message(stderr, "\n");
  return pending.get();
}
}  // namespace

int cmd_version(bool verbose) {
  std::printf("redlab %s\n", version());
  if (!verbose) return 0;
  // One line each: what it is, or why it is not there.
  auto line = [](const char* what, const std::string& found, const std::string& why) {
    print_message(stdout, "%-8s %s\n", what, found.empty() ? ("none: " + why).c_str() : found.c_str());
  };
  const std::string root = resource_root();
  line("data:", root, "its assets, lessons and kernels' sources were not found beside the executable; set REDLAB_DATA_DIR");
  std::string why;
#if REDLAB_HAVE_CUDA
  line("built:", std::string("CUDA ") + REDLAB_BUILT_CUDA + ", the catalog for " + REDLAB_BUILT_ARCHITECTURES, "");
  const std::unique_ptr<Device> gpu = make_cuda_device(&why);
  line("GPU:", gpu ? gpu->name() + ", " + gpu->driver() : "", why);
  std::string path;
  const std::string nvrtc = nvrtc_version(&why, &path);
  line("NVRTC:", nvrtc.empty() ? "" : nvrtc + ", " + path, why);
#else
  line("built:", "without CUDA (REDLAB_CUDA=OFF): every kernel runs on the CPU emulator", "");
  line("NVRTC:", "", "this redlab was built without CUDA");
#endif
  const std::string cupti = cupti_library(&why);
  line("CUPTI:", cupti, why);
  const std::string nccl = nccl_version(&why);
  line("NCCL:", nccl, why);
  return 0;
}

int cmd_list(bool json, const std::string& find, bool ids) {
  const nlohmann::json found = list_json(find);
  if (found.empty()) {   // a search that finds nothing says so (exit 1, as grep does)
    print_message(stderr, "redlab: list --find: no kernel matches '%s' (its id, title, what it teaches, or a name from "
                         "the notes: reduce0..reduce7, Harris 1..7, PMPP §10.3, 000..004)\n", find.c_str());
    return 1;
  }
  if (ids) {
    for (const auto& k : found) std::cout << k.at("id").get<std::string>() << "\n";
  } else if (json) {
    std::cout << found.dump(2) << "\n";
  } else {
    std::cout << list_text(find);
  }
  return 0;
}

int cmd_list_gallery(bool json) {
  const Gallery gallery = load_gallery();
  if (!gallery.error.empty()) {
    print_message(stderr, "redlab: list --gallery: %s\n", gallery.error.c_str());
    return 2;
  }
  for (const std::string& p : gallery.problems) print_message(stderr, "redlab: list --gallery: left out: %s\n", p.c_str());
  if (json) {
    nlohmann::json entries = nlohmann::json::array();
    for (const GalleryEntry& g : gallery.entries) {
      entries.push_back({{"file", g.file}, {"id", g.id}, {"from", g.from}, {"scenario", g.options}, {"expect", g.expect},
                         {"title", g.title}, {"explanation", g.explanation}, {"path", g.source}});
    }
    std::cout << nlohmann::json{{"entries", entries}}.dump(2) << "\n";
    return 0;
  }
  std::cout << "The gallery of mistakes: kernel files that are wrong on purpose, each explained at its top.\n"
               "Run one with the command shown; start from one with `redlab new-kernel mine.cu --from gallery/NAME`.\n";
  for (const GalleryEntry& g : gallery.entries) {
    std::string run = "redlab stats --source " + shell_quoted(g.source);
    for (const std::string& a : scenario_arguments(g)) run += " " + shell_quoted(a);
    std::cout << "\n  " << std::filesystem::path(g.file).stem().string() << "  (" << g.expect << ", from " << g.from
              << ")\n      " << text_in(g.title, "en") << "\n      " << run << "\n";
  }
  return 0;
}

// The exit code of a run: 0 a correct result, 1 a wrong one, 2 a fault in the kernel (its report on stderr first, as
// a fault without a trace is reported; the trace up to it follows).
int run_outcome(const Trace& t) {
  if (!t.fault) return t.correct ? 0 : 1;
  print_message(stderr, "redlab: %s\n", t.fault->message.c_str());
  return 2;
}

int cmd_stats(const Scenario& s, bool json, bool hw, const std::string& hw_from) {
  if (!hw) {
    Trace t = run(s);
    const int code = run_outcome(t);
    if (json)
      std::cout << stats_json(t).dump(2) << "\n";
    else
      std::cout << stats_text(t);
    return code;
  }
  // The hardware first: CUPTI must see the kernels' module load, before this process's first CUDA call.
  HwCounts counts;
  if (hw_from.empty()) {
    counts = collect_hw_counts(s);
  } else {
    try {
      counts = read_hw_counts(hw_from, s);
    } catch (const std::exception& e) {
      print_message(stderr, "redlab: --hw-from: %s\n", e.what());
      return 2;
    }
  }
  if (!counts.collected) print_message(stderr, "redlab: --hw: %s; the model alone follows\n", counts.why.c_str());
  Trace t = run(s);
  const int code = run_outcome(t);
  const KernelRecord* k = find_kernel(s.kernel);
  const KernelSources sources = load_kernel_sources(k ? k->source_file : std::string());
  if (json) {
    nlohmann::json j = stats_json(t);
    j["hw"] = hw_json(t, counts, &sources);
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << stats_text(t) << "\n" << hw_text(t, counts, sources);
  }
  return code;
}

int cmd_hw_only(const Scenario& s) {
  const HwCounts counts = collect_hw_counts(s);
  const nlohmann::json j = {{"kernel", s.kernel}, {"n", s.n}, {"block", s.block}, {"type", to_string(s.type)},
                            {"hw", {{"collection", hw_counts_to_json(counts)}}}};
  std::cout << j.dump() << "\n";
  return 0;
}

int cmd_hw_metrics() {
  std::string why;
  const auto list = hw_metric_list(&why);
  if (list.empty()) {
    print_message(stderr, "redlab: --hw-metrics: %s\n", why.empty() ? "CUPTI listed no metric" : why.c_str());
    return 2;
  }
  for (const auto& [name, what] : list) print_message(stdout, "%-64s %s\n", name.c_str(), what.c_str());
  return 0;
}

int cmd_trace(const Scenario& s, const std::string& out) {
  Trace t = run(s);
  const int code = run_outcome(t);
  // A kernel file's trace carries its record as data: the redlab that asked for it (the window, an exercise) reads
  // the record from here and never loads the file's library itself.
  if (kernel_file_loaded())
    if (const KernelRecord* k = find_kernel(s.kernel)) t.kernel_record = *k;
  save_trace(t, out);
  print_message(stderr, "redlab: wrote %s (%s, %zu steps, %s)\n", out.c_str(), describe(s).c_str(), t.steps.size(),
               t.fault ? "up to the kernel's fault" : t.correct ? "result correct" : "RESULT WRONG");
  return code;
}

namespace {
// Parses 32 lane addresses ('-' inactive); returns "" or the error.
std::string parse_lanes(const std::string& addrs, WarpAddresses& a) {
  std::stringstream ss(addrs);
  std::string tok;
  unsigned lane = 0;
  while (ss >> tok) {
    if (lane >= 32) return "--addrs: more than 32 addresses; give exactly 32 (one per lane, '-' inactive)";
    if (tok != "-") {
      std::uint64_t v = 0;
      if (!parse_size(tok, v) || v > 0xffffffffull)
        return "--addrs: '" + tok + "' (lane " + std::to_string(lane) + ") is not a byte address; use 0..4294967295 or '-'";
      if (v % a.width != 0)
        return "--addrs: " + std::to_string(v) + " (lane " + std::to_string(lane) + ") is not aligned to the " +
               std::to_string(a.width) + "-byte width";
      a.addr[lane] = std::uint32_t(v);
      a.mask |= 1u << lane;
    }
    ++lane;
  }
  if (lane != 32)
    return "--addrs: " + std::to_string(lane) + " address(es); give exactly 32 (one per lane, '-' for inactive)";
  return {};
}
}  // namespace

int cmd_bank_reference(const std::string& csv, bool measure) {
  std::ifstream f(csv);
  if (!f) {
    print_message(stderr, "redlab: --reference: cannot open '%s'\n", csv.c_str());
    return 2;
  }
  std::string line;
  std::getline(f, line);
  if (line.rfind("pattern,access,width_bytes,lane_byte_addresses,ncu_wavefronts", 0) != 0) {
    print_message(stderr, "redlab: --reference: '%s' is not a wavefront CSV (header pattern,access,width_bytes,lane_byte_addresses,ncu_wavefronts)\n", csv.c_str());
    return 2;
  }
  unsigned rows = 0, agree = 0;
  std::string why;
  print_message(stdout, "%-28s %-5s %5s %6s %6s%s\n", "pattern", "access", "width", "model", "ncu", measure ? "  cycles/access" : "");
  while (std::getline(f, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();   // CSV rows end in CRLF (RFC 4180)
    if (line.empty()) continue;
    std::vector<std::string> c;
    std::stringstream ss(line);
    std::string item;
    while (std::getline(ss, item, ',')) c.push_back(item);
    if (c.size() != 5) {
      print_message(stderr, "redlab: --reference: bad row '%s'\n", line.c_str());
      return 2;
    }
    // Every field checked before use: width 4, 8 or 16, access load or store, a count.
    WarpAddresses a;
    if (c[2] != "4" && c[2] != "8" && c[2] != "16") {
      print_message(stderr, "redlab: --reference: row %u: width_bytes '%s' is not accepted; use 4, 8 or 16\n", rows + 1,
                   c[2].c_str());
      return 2;
    }
    if (c[1] != "load" && c[1] != "store") {
      print_message(stderr, "redlab: --reference: row %u: access '%s' is not accepted; use load or store\n", rows + 1,
                   c[1].c_str());
      return 2;
    }
    a.width = unsigned(std::stoul(c[2]));
    a.store = c[1] == "store";
    if (std::string err = parse_lanes(c[3], a); !err.empty()) {
      print_message(stderr, "redlab: --reference: row %u: %s\n", rows + 1, err.c_str());
      return 2;
    }
    std::uint64_t measured = 0;
    if (!parse_size(c[4], measured) || measured < 1 || measured > 1024) {
      print_message(stderr, "redlab: --reference: row %u: ncu_wavefronts '%s' is not accepted; use a whole number 1..1024\n",
                   rows + 1, c[4].c_str());
      return 2;
    }
    const unsigned model = wavefronts(a), ncu = unsigned(measured);
    ++rows;
    agree += model == ncu;
    std::string cycles;
    if (measure) {
      AccessTiming t;
      if (measure_shared_access(a, &t, &why)) {
        char b[32];
        std::snprintf(b, sizeof b, "  %8.2f", t.cycles);
        cycles = b;
      } else {
        cycles = "  -";
      }
    }
    print_message(stdout, "%-28s %-5s %5u %6u %6u%s%s\n", c[0].c_str(), c[1].c_str(), a.width, model, ncu, cycles.c_str(),
                model == ncu ? "" : "  MISMATCH");
  }
  print_message(stdout, "model agrees with %u of %u measured rows%s\n", agree, rows,
              measure && !why.empty() ? ("; not timed: " + why).c_str() : "");
  return agree == rows ? 0 : 1;
}

int cmd_bank(const std::string& width_text, const std::string& access, const std::string& addrs, bool json,
             bool measure) {
  WarpAddresses a;
  if (width_text == "4" || width_text == "8" || width_text == "16") {
    a.width = unsigned(std::stoul(width_text));
  } else {
    print_message(stderr, "redlab: --width: '%s' is not accepted; use 4, 8 or 16\n", width_text.c_str());
    return 2;
  }
  if (access != "load" && access != "store") {
    print_message(stderr, "redlab: --access: '%s' is not accepted; use load or store\n", access.c_str());
    return 2;
  }
  a.store = access == "store";
  if (std::string err = parse_lanes(addrs, a); !err.empty()) {
    print_message(stderr, "redlab: %s\n", err.c_str());
    return 2;
  }
  const BankReport r = bank_report(a);
  nlohmann::json j = bank_json(a, r);
  std::string text = bank_text(a, r);
  if (measure) {
    AccessTiming t;
    std::string why;
    char b[256];
    if (measure_shared_access(a, &t, &why)) {
      std::snprintf(b, sizeof b, "measured on %s: %.2f cycles per access (a conflict-free 4-byte load: %.2f)\n",
                    t.device.c_str(), t.cycles, t.baseline_cycles);
      j["measured"] = {{"device", t.device}, {"cycles_per_access", t.cycles}, {"baseline_cycles", t.baseline_cycles}};
    } else {
      std::snprintf(b, sizeof b, "not measured: %s\n", why.c_str());
      j["measured"] = nullptr;
    }
    text += b;
  }
  if (json)
    std::cout << j.dump(2) << "\n";
  else
    std::cout << text;
  return 0;
}

int cmd_new_kernel(const std::string& file, const std::string& from, const std::string& lang, bool dynamic_smem,
                   bool force) {
  if (lang != "en" && lang != "zh_CN") {
    print_message(stderr, "redlab: --lang: '%s' is not accepted; use en or zh_CN\n", lang.c_str());
    return 2;
  }
  const auto read_text = [](const std::string& path) -> std::optional<std::string> {
    std::ifstream f(path);
    if (path.empty() || !f) return std::nullopt;
    std::ostringstream all;
    all << f.rdbuf();
    return all.str();
  };
  // gallery/NAME: a file of the gallery of mistakes, copied under the new file's name.
  const std::string gallery_prefix = "gallery/";
  const bool from_gallery = from.rfind(gallery_prefix, 0) == 0;
  std::string id, text, origin;
  try {
    id = kernel_id_from_path(file);
    if (from_gallery) {
      // A gallery file is copied as it is: its mistake is in the kernel it has.
      if (dynamic_smem)
        throw std::invalid_argument("--dynamic-smem: a file of the gallery of mistakes is copied as it is; start "
                                    "from a catalog kernel (--from interleaved --dynamic-smem)");
      const Gallery gallery = load_gallery();
      if (!gallery.error.empty()) throw std::runtime_error(gallery.error);
      const std::string name = from.substr(gallery_prefix.size());
      const GalleryEntry* g = find_gallery_entry(gallery, name);
      if (!g) {
        std::string names;
        for (const GalleryEntry& e : gallery.entries) names += (names.empty() ? "" : ", ") + std::filesystem::path(e.file).stem().string();
        throw std::invalid_argument("--from: '" + from + "' is not in the gallery of mistakes; it has " + names +
                                    " (redlab list --gallery)");
      }
      const std::optional<std::string> source = read_text(g->source);
      if (!source) throw std::invalid_argument("cannot read " + g->source);
      const std::string title = text_in(g->title, lang), lead = lang == "zh_CN" ? "错误示例库" : "the gallery of mistakes";
      text = "// " + id + ": " + (lang == "zh_CN" ? "你的核函数，复制自" + lead + "中的 " + g->id + "：" + title
                                                    : "your kernel, a copy of " + g->id + " from " + lead + ": " + title) +
             "\n" + rename_kernel_file(*source, g->id, id);
      const std::map<std::string, std::string> gives = {{"deadlock", "a deadlock"}, {"wrong_result", "a wrong result"},
                                                        {"race", "a race"}, {"out_of_bounds", "an out-of-bounds index"}};
      origin = "the gallery's " + g->id + ", which gives " + gives.at(g->expect);
    } else {
      const KernelRecord* k = find_kernel(from);
      if (!k) {
        print_message(stderr, "redlab: --from: '%s' is not a kernel redlab has; `redlab list` shows them (or "
                     "gallery/NAME: `redlab list --gallery`)\n", from.c_str());
        return 2;
      }
      text = make_kernel_file(*k, id, {.lang = lang, .dynamic_smem = dynamic_smem},
                              read_catalog_source);
      origin = "the catalog's " + from;
    }
  } catch (const std::invalid_argument& e) {
    print_message(stderr, "redlab: new-kernel: %s\n", e.what());
    return 2;
  } catch (const std::runtime_error& e) {   // the gallery's index
    print_message(stderr, "redlab: new-kernel: %s\n", e.what());
    return 2;
  }
  std::error_code ec;
  if (!force && std::filesystem::exists(file, ec)) {
    print_message(stderr, "redlab: new-kernel: '%s' exists; use --force to replace it\n", file.c_str());
    return 2;
  }
  write_file_atomically(file, text);
  const auto lines = std::count(text.begin(), text.end(), '\n');
  print_message(stdout, "wrote %s: the kernel %s, from %s (%ld lines: %s)\n", file.c_str(), id.c_str(), origin.c_str(),
              long(lines),
              from_gallery ? "the mistake explained and the probe's calls described at the top, the kernel, its record"
                           : "the kernel, each probe call explained before its first use, its record last");
  return 0;
}

namespace {

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
  if (a.sizes == BenchArgs{}.sizes) {   // nccl-tests' range: 8 B to 1 GiB, by 8
    for (std::uint64_t bytes = 8; bytes <= (std::uint64_t(1) << 30); bytes *= 8)   // 8 x 8^10 = 2^30
      sizes.push_back(std::max<std::uint64_t>(1, bytes / es));
  } else {
    std::stringstream ss(a.sizes);
    for (std::string item; std::getline(ss, item, ',');) {
      std::uint64_t n = 0;
      if (!parse_size(item, n) || n < 1 || n > kMaxN) {
        print_message(stderr, "redlab: --n: '%s' is not a size; use sizes from 1 to 2^31 separated by commas\n", item.c_str());
        return 2;
      }
      sizes.push_back(n);
    }
  }
  // --kernels: the all-reduce kernels to time (nccl: NCCL's own choice, then Ring and Tree forced); by default all.
  std::vector<std::string> engines;
  if (a.kernels != BenchArgs{}.kernels) {
    std::stringstream ks(a.kernels);
    for (std::string id; std::getline(ks, id, ',');) {
      if (id.empty()) continue;
      const KernelRecord* k = find_kernel(id);
      if (!k || k->family != Family::allreduce) {
        std::string all;
        for (const KernelRecord* x : catalog())
          if (x->family == Family::allreduce) all += (all.empty() ? "" : ", ") + x->id;
        print_message(stderr, "redlab: bench --gpus --kernels: '%s' is not an all-reduce (%s)\n", id.c_str(), all.c_str());
        return 2;
      }
      if (id == "nccl") engines.insert(engines.end(), {"nccl", "nccl:Ring", "nccl:Tree"});
      else engines.push_back(id);
    }
  } else {
    engines = {"nccl", "nccl:Ring", "nccl:Tree", "allreduce_ring", "allreduce_tree", "allreduce_naive"};
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
  auto heading = [](const std::string& engine) {
    if (engine == "nccl") return std::string("NCCL (its choice)");
    if (engine.rfind("nccl:", 0) == 0) return "NCCL_ALGO=" + engine.substr(5);
    return engine;
  };
  // Each size's row as soon as every engine has timed it: 1 GiB on 8 GPUs takes a while.
  bool all_correct = true;
  const AllReduceReport rep = time_allreduce(r, [&](const AllReduceReport& so_far, std::size_t row) {
    if (row == 0) {
      print_message(stdout, "all-reduce on %s, NCCL %s, %s %s; median of %d samples of %d back-to-back calls\n",
                  so_far.device.c_str(), so_far.nccl_version.c_str(), to_string(*type), to_string(*op), r.reps, r.iters);
      print_message(stdout, "busbw = bytes / time x 2(G-1)/G (nccl-tests; algbw = bytes / time); link ceiling: cudaMemcpyPeer GPU "
                  "1 -> 0 of 1 GiB, %.1f GB/s\n", link / 1e9);
      print_message(stdout, "NCCL out of place; redlab's kernels (block %u) in place, one launch per transfer on the receiving "
                  "GPU\n\n", r.block);
      print_message(stdout, "%12s", "");
      for (const AllReduceColumn& c : so_far.columns) print_message(stdout, "  %19s", heading(c.engine).c_str());
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
    if (c.engine == "nccl:Ring") nccl_ring = c.rows[last].busbw;
  print_message(stdout, "\nGB/s. At %llu bytes, busbw as a share of the link ceiling (%.1f GB/s)%s:\n",
              static_cast<unsigned long long>(rep.columns.front().rows[last].bytes), link / 1e9,
              nccl_ring > 0 ? " and of NCCL_ALGO=Ring's" : "");
  for (const AllReduceColumn& c : rep.columns) {
    print_message(stdout, "  %-19s %6.1f GB/s  %5.1f %% of the link", heading(c.engine).c_str(), c.rows[last].busbw / 1e9,
                link > 0 ? 100 * c.rows[last].busbw / link : 0.0);
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

}  // namespace

int cmd_bench(const BenchArgs& a) {
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
  if (!parse_size(a.block, block) || block < 32 || block > 1024 || (block & (block - 1))) {
    print_message(stderr, "redlab: --block: '%s' is not accepted; use a power of two from 32 to 1024\n", a.block.c_str());
    return 2;
  }
  r.type = *type;
  r.op = *op;
  r.finish = *finish;
  r.block = unsigned(block);
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

}  // namespace redlab::cli
