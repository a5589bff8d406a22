// `redlab selftest`: every kernel x type x op x awkward size x block size must give the
// reference result; on a GPU, traced runs must equal the CPU emulator's traces (masks, addresses, values).
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "cli/command.h"
#include "core/printable.h"
#include "core/catalog.h"
#include "core/plan.h"
#include "exec/device_memory.h"
#include "exec/executor.h"
#include "exec/family_run.h"
#include "exec/occupancy_calc.h"
#if REDLAB_HAVE_CUDA
#include "exec/multi_gpu.h"
#endif
#include "core/hw_counts.h"
#include "core/kernel_file.h"
#include "model/model.h"

namespace redlab::cli {
namespace {

const ElemType kTypes[] = {ElemType::int32, ElemType::float32, ElemType::float64};
const OpKind kOps[] = {OpKind::sum, OpKind::min, OpKind::max};
const unsigned kBlocks[] = {32, 64, 128, 256, 512, 1024};
const Finish kFinishes[] = {Finish::relaunch, Finish::host, Finish::atomic};

// Compares two traces of one scenario; returns "" or what differs first. `focus_detail` false: single-pass
// kernels, whose focus blocks may or may not be the one that took the last ticket.
std::string trace_difference(const Trace& g, const Trace& c, bool focus_detail = true) {
  if (g.result != c.result && g.scenario.type == ElemType::int32)
    return "results differ: " + g.result + " vs " + c.result;
  if (g.steps.size() != c.steps.size()) return "step counts differ";
  for (std::size_t s = 0; s < g.steps.size(); ++s) {
    StepStats a = g.steps[s].stats, b = c.steps[s].stats;
    a.cycles.reset();
    b.cycles.reset();
    if (!(a == b)) return "step " + std::to_string(s) + " (" + g.steps[s].label + ") statistics differ";
    if (g.steps[s].label != c.steps[s].label) return "step " + std::to_string(s) + " labels differ";
  }
  // An all-reduce's transfers: who sent which range to whom, and each launch's figures.
  if (g.transfers.size() != c.transfers.size()) return "transfer steps differ";
  for (std::size_t s = 0; s < g.transfers.size(); ++s) {
    if (g.transfers[s].size() != c.transfers[s].size()) return "step " + std::to_string(s) + ": transfer counts differ";
    for (std::size_t x = 0; x < g.transfers[s].size(); ++x) {
      GpuTransfer a = g.transfers[s][x], b = c.transfers[s][x];
      a.stats.cycles.reset();
      b.stats.cycles.reset();
      if (!(a == b)) return "step " + std::to_string(s) + " transfer " + std::to_string(x) + " differs";
    }
  }
  // The focus blocks first: where they differ says more than a digest.
  if (focus_detail) {
    if (g.focus.size() != c.focus.size()) return "focus blocks differ";
    for (std::size_t f = 0; f < g.focus.size(); ++f)
      for (std::size_t s = 0; s < g.focus[f].steps.size(); ++s)
        for (std::size_t w = 0; w < g.focus[f].steps[s].size(); ++w) {
          const WarpStep& x = g.focus[f].steps[s][w];
          const WarpStep& y = c.focus[f].steps[s][w];
          const std::string where =
              "block " + std::to_string(g.focus[f].block) + " step " + std::to_string(s) + " warp " + std::to_string(w);
          if (x.active != y.active) return where + ": active masks differ";
          if (x.accesses.size() != y.accesses.size()) return where + ": request counts differ";
          for (std::size_t k = 0; k < x.accesses.size(); ++k) {
            const WarpAccess& p = x.accesses[k];
            const WarpAccess& q = y.accesses[k];
            if (p.mask != q.mask || p.space != q.space || p.kind != q.kind || p.width != q.width)
              return where + ": request " + std::to_string(k) + " differs (mask/space/kind/width)";
            // Where an access was made: the emulator records it and the GPU does not (kernels/probe.cuh); a GPU trace's
            // names come from the emulator's run of its focus blocks, and may be missing (a block that took a last
            // ticket); two traces that both name one agree.
            if (p.line && q.line && p.line != q.line)
              return where + ": request " + std::to_string(k) + " was made at line " + std::to_string(p.line) +
                     " on one and line " + std::to_string(q.line) + " on the other";
            for (unsigned lane = 0; lane < 32; ++lane) {
              if (!(p.mask >> lane & 1u)) continue;
              if (p.addr[lane] != q.addr[lane])
                return where + ": request " + std::to_string(k) + " lane " + std::to_string(lane) +
                       " addresses differ (" + std::to_string(p.addr[lane]) + " vs " + std::to_string(q.addr[lane]) +
                       ")";
              if (p.bits[lane] != q.bits[lane])
                return where + ": request " + std::to_string(k) + " lane " + std::to_string(lane) + " values differ (" +
                       std::to_string(p.bits[lane]) + " vs " + std::to_string(q.bits[lane]) + ")";
            }
          }
        }
  }
  if (g.digest != c.digest) return "digests of all blocks' records differ";
  return {};
}

// The scenarios selftest checks for one kernel, by family. Correctness: reductions, every type x op x awkward
// size x block size (every finish, CUB algorithm and cluster size in turn); transposes, float32/float64 x awkward shapes x
// K (--block-rows) in {1, 8, 32}. Traces (GPU against the emulator): smaller sizes, the first and last blocks
// in focus; the largest reduction also runs on the GPU in chunks of 1 MiB of trace memory.
struct Case {
  Scenario s;
  RunOptions gpu;
};

std::vector<Case> reduction_cases(const KernelRecord& k, bool traces, bool quick, unsigned& index) {
  std::vector<Case> v;
  const std::vector<std::uint64_t> sizes =
      traces ? std::vector<std::uint64_t>{1, 33, 257, 4097, 65539}
             : std::vector<std::uint64_t>{1, 2, 31, 32, 33, 255, 256, 257, 1000, 4097, (1u << 20) + 3};
  const std::vector<unsigned> blocks =
      traces ? std::vector<unsigned>{32, 256, 1024} : std::vector<unsigned>(std::begin(kBlocks), std::end(kBlocks));
  for (ElemType type : kTypes)
    for (OpKind op : kOps)
      for (std::uint64_t n : sizes)
        for (unsigned block : blocks) {
          if (!traces && quick && n > 100000 && block != 256 && block != 1024) continue;
          Case c;
          Scenario& s = c.s;
          s.kernel = k.id;
          s.type = type;
          s.op = op;
          s.n = n;
          s.block = block;
          if (k.clustered) s.cluster = 1u << (index % 5);  // cluster kernels: 1, 2, 4, 8 and 16 blocks in turn
          if (traces) {
            s.seed = 7 + index++;
            s.finish = Finish::relaunch;
            const std::uint32_t grid = make_plan(s).grid;
            s.focus_blocks = {0};
            if (grid > 1) s.focus_blocks.push_back(grid - 1);
            if (n == 65539 && block == 256) c.gpu.trace_budget = std::size_t(1) << 20;
          } else {
            s.seed = 1000 + index;
            s.finish = kFinishes[index % 3];
            if (k.no_atomic && s.finish == Finish::atomic) s.finish = Finish::relaunch;
            s.algo = index % 3;  // cub_block: every algorithm in turn
            s.dynamic_smem = k.has_dynamic_smem && index % 2 == 1;
            ++index;
          }
          v.push_back(c);
        }
  return v;
}

std::vector<Case> transpose_cases(const KernelRecord& k, bool traces, bool quick, unsigned& index) {
  using Shape = std::pair<std::uint32_t, std::uint32_t>;
  const std::vector<Shape> shapes =
      traces ? std::vector<Shape>{{1, 1}, {33, 31}, {64, 96}, {100, 257}}
             : std::vector<Shape>{{1, 1}, {31, 33}, {32, 32}, {33, 31}, {100, 257}, {1024, 1024}, {2048, 1000}};
  std::vector<Case> v;
  for (ElemType type : {ElemType::float32, ElemType::float64})
    for (auto [rows, cols] : shapes)
      for (unsigned K : {1u, 8u, 32u}) {
        if (!traces && quick && std::uint64_t(rows) * cols > 100000 && K != 8) continue;
        Case c;
        Scenario& s = c.s;
        s.kernel = k.id;
        s.type = type;
        s.rows = rows;
        s.cols = cols;
        s.block_rows = K;
        s.seed = (traces ? 7 : 2000) + index++;
        resolve_shape(s);
        if (traces) {
          const std::uint32_t grid = make_plan(s).grid;
          s.focus_blocks = {0};
          if (grid > 1) s.focus_blocks.push_back(grid - 1);
        }
        v.push_back(c);
      }
  return v;
}

// All-reduce: every GPU count 2..8 x type x op x size (ones G does not divide) x a block size in turn. Traced:
// fewer, with sizes that take several grid strides, focus on GPU 0's blocks 0 and 1.
std::vector<Case> allreduce_cases(const KernelRecord& k, bool traces, bool quick, unsigned& index) {
  std::vector<Case> v;
  const std::vector<std::uint64_t> sizes =
      traces ? std::vector<std::uint64_t>{1, 1001, 65539, 1200007} : std::vector<std::uint64_t>{1, 7, 33, 1001, 4099};
  for (unsigned gpus = 2; gpus <= 8; ++gpus)
    for (ElemType type : kTypes)
      for (OpKind op : kOps)
        for (std::uint64_t n : sizes) {
          if (quick && n > 1001 && gpus % 2) continue;
          if (traces && (op == OpKind::min || (type == ElemType::float64 && n > 65539))) continue;
          Case c;
          Scenario& s = c.s;
          s.kernel = k.id;
          s.type = type;
          s.op = op;
          s.n = n;
          s.gpus = gpus;
          s.block = std::array<unsigned, 3>{32, 256, 1024}[index % 3];
          s.seed = 3000 + index++;
          if (traces) {
            s.focus_blocks = {0};
            if (make_plan(s).grid > 1) s.focus_blocks.push_back(1);
          }
          v.push_back(c);
        }
  return v;
}

std::vector<Case> cases(const KernelRecord& k, bool traces, bool quick, unsigned& index) {
  if (k.family == Family::allreduce) return allreduce_cases(k, traces, quick, index);
  return family_record(k.family).takes_matrix ? transpose_cases(k, traces, quick, index)
                                              : reduction_cases(k, traces, quick, index);
}

// The window's GPU paths, through its session (app/model/model.h) without a window: a run on the device, the
// Timings window's live measurement (a reduction and a transpose beside copy), the bank lab's measurement, and
// a cancelled run. The GPU machine has no display; this is how the window's GPU side is checked there.
void selftest_window_session(unsigned& passed, unsigned& failed) {
  using namespace model;
  auto check = [&](bool ok, const std::string& what) {
    if (ok) {
      ++passed;
    } else {
      ++failed;
      print_message(stdout, "FAIL window session: %s\n", what.c_str());
    }
  };
  GuiOptions o;
  o.screenshot = "selftest";  // headless: poll(true) settles the work
  Model model(o);
  model.work.a.scenario.kernel = "interleaved";
  model.work.a.scenario.n = std::uint64_t(1) << 20;
  model.work.a.scenario.backend = BackendChoice::cuda;
  model.work.request_run(model.work.a);
  model.poll(true);
  check(model.work.a.trace && model.work.a.trace->backend == Backend::cuda && model.work.a.trace->correct &&
            !model.work.a.trace->steps.empty() && model.work.a.tree.valid,
        "a run on the GPU: " + (model.work.a.error.empty() ? std::string("no trace") : model.work.a.error));

  // The source and per-step views' hardware counts: a child redlab collects them with CUPTI; every kind of
  // access agrees with the model or has a stated cause.
  model.view.show_hw = true;
  model.work.request_hw_counts();
  model.poll(true);
  const HwState* hw = model.work.hw_counts();
  bool hw_ok = hw && hw->counts.collected && !hw->counts.instructions.empty() && model.work.a.trace;
  std::string hw_note = hw ? hw->counts.why : "no counts for the scenario";
  if (hw_ok) {
    const KernelRecord* k = find_kernel(model.work.a.scenario.kernel);
    const HwComparison c = compare_hw(*model.work.a.trace, hw->counts, &model.work.kernel_sources(k->source_file));
    for (const HwKindFigures& f : c.total) {
      hw_ok = hw_ok && f.cause != HwCause::unexplained;
      if (f.cause == HwCause::unexplained) hw_note = f.why;
    }
    hw_ok = hw_ok && c.total[std::size_t(HwKind::global_load)].hw_instructions > 0;
  }
  check(hw_ok, "the views' hardware counts (CUPTI in a child redlab): " + hw_note);

  model.work.request_timings(model.work.a.scenario);
  model.poll(true);
  const LiveTimings& live = model.work.live_timings();
  bool timed = live.rep && !live.matrix;
  if (timed)
    for (const TimRow& r : live.rep->rows) timed = timed && r.correct && r.median_ms > 0;
  check(timed, "the Timings window's measurement: " + live.error);

  Scenario t;
  t.kernel = "transpose_padded";
  t.type = ElemType::float32;
  t.rows = 2048;
  t.cols = 1024;
  t.backend = BackendChoice::cuda;
  resolve_shape(t);
  model.work.request_timings(t);
  model.poll(true);
  const std::vector<TransposeLine> lines = live.rep ? transpose_lines(*live.rep) : std::vector<TransposeLine>{};
  check(live.matrix && lines.size() == 2 && lines[1].pct_of_copy > 0,
        "the Timings window's transpose measurement (copy and the kernel): " + live.error);

  // One warp reading a column of a 32 x 32 tile: 32 wavefronts; consecutive words: 1. Cycles follow them.
  for (const auto& [stride, wavefronts] : {std::pair{128u, 32u}, std::pair{4u, 1u}}) {
    WarpAddresses wa;
    wa.mask = 0xffffffffu;
    for (unsigned l = 0; l < 32; ++l) wa.addr[l] = l * stride;
    wa.width = 4;
    model.work.request_access_measure(wa, std::to_string(stride), bank_report(wa).wavefronts);
    model.poll(true);
    const AccessMeasure& m = model.work.access_measure();
    check(m.have && m.model_wavefronts == wavefronts && m.cycles > 0.5 * wavefronts && m.cycles < 2.0 * wavefronts + 2,
          "the bank lab's measurement of stride " + std::to_string(stride) + ": " + std::to_string(m.cycles) +
              " cycles for " + std::to_string(wavefronts) + " wavefronts " + m.why);
  }

  // A long traced run, cancelled: it stops before its chunks are done and the session keeps the old trace.
  model.work.a.scenario.n = std::uint64_t(1) << 28;
  model.work.request_run(model.work.a);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const auto c0 = std::chrono::steady_clock::now();
  model.work.cancel_run(model.work.a);
  model.poll(true);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
  check(!model.work.a.running() && model.work.a.trace && model.work.a.trace->scenario.n == (1u << 20) && secs < 1.0,
        "a cancelled GPU run: stopped in " + std::to_string(secs) + " s, " + model.work.a.error);

  // A kernel file of the student's own (File > Open kernel source), made from interleaved: compiled for the
  // emulator's host library, then run on the GPU through NVRTC in a second redlab; its trace is the catalog's.
  if (model.work.a.trace) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("redlab-selftest-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    const std::string file_id = "selftest_file";  // the kernel the file declares
    const std::string file = (dir / (file_id + ".cu")).string();
    std::ofstream(file) << make_kernel_file(*find_kernel("interleaved"), file_id,
                                            {.dynamic_smem = model.work.a.trace->scenario.dynamic_smem},
                                            read_catalog_source);
    Model su(o);
    su.work.a.scenario = model.work.a.trace->scenario;
    su.work.a.scenario.backend = BackendChoice::cuda;
    su.work.open_kernel_source(su.work.a, file);
    su.poll(true);
    const Trace* t = su.work.a.trace ? &*su.work.a.trace : nullptr;
    check(t && t->backend == Backend::cuda && t->scenario.kernel == file_id && t->correct &&
              t->digest == model.work.a.trace->digest && t->steps.size() == model.work.a.trace->steps.size(),
          "a kernel file in the window, on the GPU through NVRTC: " +
              (t ? "digest " + std::to_string(t->digest) + " against the catalog's " +
                       std::to_string(model.work.a.trace->digest)
                 : su.work.a.user.errors));
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  print_message(stdout, "  %-20s %u passed, %u failed\n", "window session", passed, failed);
}

#if REDLAB_HAVE_CUDA
// Making a kernel's first launch ready (Device::load, which a run calls on a thread of its own while the host fills
// the input, before any buffer exists) launches nothing: every traceable kernel's traced and timed builds, loaded
// with no buffers, leave the GPU without an error (a launch would read address 0 and fault).
void selftest_loading(const std::vector<std::string>& only, unsigned& passed, unsigned& failed) {
  std::string why;
  const std::unique_ptr<Device> dev = make_cuda_device(&why);
  if (!dev) return;
  DeviceBuffer word(*dev, 4);
  unsigned kp = 0, kf = 0;
  for (const KernelRecord* k : catalog()) {
    if (!k->traceable || (!only.empty() && std::find(only.begin(), only.end(), k->id) == only.end())) continue;
    for (const ElemType type : {ElemType::int32, ElemType::float32, ElemType::float64}) {
      if (!k->launcher(Backend::cuda, type)) continue;
      Scenario s;
      s.kernel = k->id;
      s.type = type;
      s.n = std::uint64_t(1) << 20;
      resolve_shape(s);
      std::optional<LaunchArgs> first;
      try {
        first = first_launch_args(make_plan(s));
      } catch (const ScenarioError&) {}
      if (!first) continue;
      try {
        dev->load(*k, type, *first, true);
        dev->load(*k, type, *first, false);
        std::uint32_t x = 0;
        dev->download(&x, word.p, 4);  // a launch's fault would be reported here
        ++kp;
      } catch (const std::exception& e) {
        print_message(stdout, "FAIL loading %s %s: %s\n", k->id.c_str(), to_string(type), e.what());
        ++kf;
      }
    }
  }
  print_message(stdout, "  %-20s first launches made ready, none run: %u passed, %u failed\n", "(every kernel)", kp,
                kf);
  passed += kp;
  failed += kf;
}
// Occupancy on the GPU: for every traceable kernel at block sizes 32, 256 and 1024 (transposes: 1, 8 and 32 rows of
// 32), the calculator's blocks per SM (cuda_occupancy.h, from the card's limits and the kernel's attributes) equal
// the CUDA runtime's own (cudaOccupancyMaxActiveBlocksPerMultiprocessor); on a compute capability 9.0 card the SM's
// limits equal the reference file's (assets/reference/sm_limits.json), the card's name and SM count aside.
void selftest_occupancy(const std::vector<std::string>& only, unsigned& passed, unsigned& failed) {
  std::string why;
  const std::unique_ptr<Device> dev = make_cuda_device(&why);
  if (!dev) return;
  unsigned kp = 0, kf = 0;
  const std::optional<SmLimits> reference = reference_sm(&why);
  for (const KernelRecord* k : catalog()) {
    if (!k->traceable || k->family == Family::allreduce ||
        (!only.empty() && std::find(only.begin(), only.end(), k->id) == only.end()))
      continue;
    for (const unsigned size : {32u, 256u, 1024u}) {
      Scenario s;
      s.kernel = k->id;
      s.type = k->family == Family::transpose ? ElemType::float32 : ElemType::int32;
      s.n = std::uint64_t(1) << 20;
      if (k->family == Family::transpose) {
        s.rows = s.cols = 1024;
        s.block_rows = size / 32;
      } else {
        s.block = size;
      }
      resolve_shape(s);
      std::optional<Occupancy> o;
      try {
        o = occupancy_of(*dev, make_plan(s), &why);
      } catch (const std::exception& e) { why = e.what(); }
      if (!o) continue;  // (a library's launch, a kernel not built for this type)
      bool same_sm = true;
      if (reference && o->sm.major == 9 && o->sm.minor == 0) {
        SmLimits sm = o->sm;
        sm.card = reference->card;  // (the name and the SM count are the card's own: an H100 PCIe has 114 SMs)
        sm.sms = reference->sms;
        same_sm = sm == *reference;
      }
      // A cluster kernel: the runtime's count of clusters the card holds, at least one and never above the pooled
      // bound (SMs x blocks / cluster); printed, as the figure the emulator cannot give.
      bool clusters_ok = true;
      if (o->cluster > 1) {
        clusters_ok = o->runtime_clusters && *o->runtime_clusters > 0 && *o->runtime_clusters <= o->clusters_at_most();
        print_message(stdout,
                      "  %-20s block %u, clusters of %u: %d at once (cudaOccupancyMaxActiveClusters), at most %lld\n",
                      k->id.c_str(), s.block, o->cluster, o->runtime_clusters.value_or(-1),
                      static_cast<long long>(o->clusters_at_most()));
      }
      if (o->runtime_blocks == o->blocks && same_sm && clusters_ok) {
        ++kp;
        continue;
      }
      print_message(stdout, "FAIL occupancy %s block %u: the calculator %d blocks per SM, the CUDA runtime %d%s%s\n",
                    k->id.c_str(), s.block, o->blocks, o->runtime_blocks.value_or(-1),
                    same_sm ? "" : "; this SM's limits differ from assets/reference/sm_limits.json",
                    clusters_ok ? "" : "; the runtime's clusters missing or above the bound");
      ++kf;
    }
  }
  print_message(stdout, "  %-20s occupancy, the calculator against the CUDA runtime: %u passed, %u failed\n",
                "(every kernel)", kp, kf);
  passed += kp;
  failed += kf;
}
#endif

int cmd_selftest(const std::string& backend_text, bool quick, const std::string& kernels) {
  std::string err;
  std::vector<std::string> only;
  std::stringstream list(kernels);
  for (std::string id; std::getline(list, id, ',');) {
    if (id.empty()) continue;
    if (!find_kernel(id)) {
      print_message(stderr, "redlab: selftest --kernels: no kernel '%s'; `redlab list` names them\n", id.c_str());
      return 2;
    }
    only.push_back(id);
  }
  auto choice = parse_backend(backend_text, &err);
  if (!choice) {
    print_message(stderr, "redlab: %s\n", err.c_str());
    return 2;
  }
  std::string notice;
  auto ex = make_executor(*choice, &notice);
  if (!notice.empty()) print_message(stderr, "redlab: %s\n", notice.c_str());
  print_message(stdout, "selftest on %s: %s\n", to_string(ex->backend()), ex->device().c_str());
  const auto t0 = std::chrono::steady_clock::now();

  unsigned passed = 0, failed = 0, index = 0;
  RunOptions timed;
  timed.trace = false;
  const bool on_gpu = ex->backend() == Backend::cuda;
  std::unique_ptr<Executor> cpu;
  if (on_gpu) cpu = make_cpu_executor();
  // The GPUs an all-reduce may use here: the most, up to 8, that all reach each other.
  unsigned machine_gpus = 1;
#if REDLAB_HAVE_CUDA
  for (unsigned g = 8; g >= 2 && on_gpu && machine_gpus == 1; --g)
    if (usable_gpus(g, nullptr) == g) machine_gpus = g;
  if (on_gpu) {
    selftest_loading(only, passed, failed);
    selftest_occupancy(only, passed, failed);
  }
#endif
  for (const KernelRecord* k : catalog()) {
    if (!only.empty() && std::find(only.begin(), only.end(), k->id) == only.end()) continue;
    if (k->gpu_only && !on_gpu) continue;
    // An all-reduce on a GPU runs on as many of this machine's GPUs as it names; those that need more are left to
    // the emulator's virtual GPUs (selftest --backend cpu), and said.
    unsigned more_gpus = 0;
    auto runs_here = [&](Case& c) {
      if (k->family != Family::allreduce || !on_gpu) return true;
      if (c.s.gpus > machine_gpus) return ++more_gpus, false;
      c.s.backend = BackendChoice::cuda;  // never the virtual GPUs in place of the real ones
      return true;
    };
    unsigned kp = 0, kf = 0;
    for (Case c : cases(*k, false, quick, index)) {
      if (!runs_here(c)) continue;
      try {
        const Trace t = ex->run(c.s, timed);
        if (t.correct) {
          ++kp;
          continue;
        }
        print_message(stdout, "FAIL %s: result %s, reference %s (|error| %.3g, bound %.3g)\n", describe(c.s).c_str(),
                      t.result.c_str(), t.reference.c_str(), t.abs_error, t.error_bound);
      } catch (const std::exception& e) { print_message(stdout, "FAIL %s: %s\n", describe(c.s).c_str(), e.what()); }
      ++kf;
    }
    print_message(stdout, "  %-20s correctness: %u passed, %u failed\n", k->id.c_str(), kp, kf);
    std::fflush(stdout);
    passed += kp;
    failed += kf;
    if (more_gpus)
      print_message(
          stdout,
          "  %-20s %u cases need more GPUs than this machine's %u (selftest --backend cpu runs them on virtual "
          "GPUs)\n",
          k->id.c_str(), more_gpus, machine_gpus);
    // GPU traces against the emulator's, for the same scenarios.
    if (!on_gpu || k->gpu_only || !k->traceable) continue;
    kp = kf = 0;
    for (Case c : cases(*k, true, quick, index)) {
      if (!runs_here(c)) continue;
      try {
        const Trace g = ex->run(c.s, c.gpu);
        const Trace e = cpu->run(c.s);
        // A single-pass kernel's last steps run in whichever block finished last: compare the per-step
        // figures and the digest (the launch row names no block), not the focus detail.
        const std::string diff = trace_difference(g, e, !k->single_pass);
        if (diff.empty() && g.correct && e.correct) {
          ++kp;
          continue;
        }
        print_message(stdout, "FAIL trace %s: %s\n", describe(c.s).c_str(),
                      diff.empty() ? "a result is wrong" : diff.c_str());
      } catch (const std::exception& e) {
        print_message(stdout, "FAIL trace %s: %s\n", describe(c.s).c_str(), e.what());
      }
      ++kf;
    }
    print_message(stdout, "  %-20s GPU trace == CPU trace: %u passed, %u failed\n", k->id.c_str(), kp, kf);
    std::fflush(stdout);
    passed += kp;
    failed += kf;
  }
  if (on_gpu && only.empty()) {
    unsigned wp = 0, wf = 0;
    selftest_window_session(wp, wf);
    passed += wp;
    failed += wf;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  print_message(stdout, "selftest (%s, %.1f s): %u passed, %u failed\n", to_string(ex->backend()), secs, passed,
                failed);
  return failed ? 1 : 0;
}

class SelftestCommand : public Command {
  std::string backend_ = "auto", kernels_;
  bool quick_ = false;

 public:
  CLI::App* declare(CLI::App& parent) override {
    CLI::App* selftest = parent.add_subcommand("selftest", "correctness matrix and GPU-vs-CPU trace equality");
    selftest->add_option("--backend", backend_, "cuda, cpu or auto");
    selftest->add_flag("--quick", quick_, "a smaller matrix (largest size on two block sizes only)");
    selftest->add_option("--kernels", kernels_, "only these kernels (ids separated by commas)");
    return selftest;
  }
  int run(const Invocation&) override { return cmd_selftest(backend_, quick_, kernels_); }
};

const CommandRegistration selftest_command{Order::selftest,
                                           [] { return std::unique_ptr<Command>(new SelftestCommand); }};

}  // namespace
}  // namespace redlab::cli
