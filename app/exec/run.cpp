// The run pipeline, written once for every family and both executors: plan -> input -> PlanRun (the
// family's buffers and launches) -> the first launch traced in chunks (or timed) -> finish -> check.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <ratio>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/catalog.h"
#include "core/trace_builder.h"
#include "core/version.h"
#include "exec/device.h"
#include "exec/executor.h"
#include "exec/family_run.h"
#include "exec/occupancy_calc.h"
#include "exec/traced_run.h"
#include "exec/emulator_scope.h"

namespace redlab {

std::unique_ptr<Device> make_cpu_device();

namespace {

std::string gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  return buf;
}

}  // namespace

void Device::launch(const KernelRecord& k, ElemType type, const LaunchArgs& a, const rec::Layout* layout,
                    const rec::Buffers* buffers) {
  const LaunchFn fn = k.launcher(backend(), type);
  if (!fn)
    throw ScenarioError("--kernel " + k.id + ": not built for " + name() + " with element type " + to_string(type) +
                        (k.gpu_only ? " (it runs on the GPU only)" : ""));
  invoke(fn, a, layout, buffers);
}

std::string now_iso() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

void stamp_trace(Trace& t, Backend backend, const std::string& device) {
  t.backend = backend;
  t.device = device;
  t.host = host_name();
  t.recorded_at = now_iso();
  t.redlab_version = version();
}

void set_check(Trace& t, const Check& c) {
  t.result = c.result_text;
  t.reference = c.reference_text;
  t.abs_error = c.abs_error;
  t.error_bound = c.bound;
  t.correct = c.correct;
}

double time_host_loop_ms(const Scenario& s, int warmup, int reps, std::vector<float>* all) {
  std::vector<std::uint8_t> input(s.n * elem_size(s.type));
  fill_input(s, input.data());
  std::vector<float> ms;
  volatile std::uint64_t sink = 0;
  for (int r = 0; r < warmup + reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    sink = sink + host_fold(s, input.data());
    const auto t1 = std::chrono::steady_clock::now();
    if (r >= warmup) ms.push_back(float(std::chrono::duration<double, std::milli>(t1 - t0).count()));
  }
  if (all) *all = ms;
  std::sort(ms.begin(), ms.end());
  return ms.empty() ? 0 : ms[ms.size() / 2];
}

void check_fits(Device& dev, const Plan& p, double need, const char* purpose) {
  if (need > double(dev.free_memory()))
    throw ScenarioError(p.family->size_text(p.scenario) + " " + gb(need) + " on " + dev.name() + purpose +
                        ", which has " + gb(double(dev.free_memory())) + " free; " + p.family->smaller);
}

static void check_host_fits(const Plan& p, double need) {
  const double free_bytes = double(host_free_for_runs());
  if (free_bytes > 0 && need > free_bytes)
    throw ScenarioError(p.family->size_text(p.scenario) + " " + gb(need) + " of host memory for the input, which has " +
                        gb(free_bytes) + " free; " + p.family->smaller);
}

// A GPU's records hold no place (kernels/probe.cuh says why), so the emulator runs each focus block of the same
// plan on its own (the launch's memory as it starts, that block alone) and its places are copied onto the GPU's
// accesses at the same step, warp and position, where the two agree on space, kind, width and lanes. A block that
// made more accesses on the GPU than alone (a single-pass kernel's last block, which also did the finish) is run
// again after every other block, so that it is last there too. Accesses that still do not match stay unnamed, as
// does the whole trace when the emulator cannot run the plan or its memory would be large (the names are a help, not
// a figure). The cost is the copy of the input into the emulator's memory: at 2^24 int32 (64 MB) 50 ms on this
// project's 2-core machine, 0.2 s more on an H100's `stats` of 0.8 s; past 256 MiB of the emulator's memory a run is
// not named.
namespace {

// The places of one focus block's accesses on the emulator: that block alone, or after every other block.
struct EmulatorFocusRun {
  FocusBlock row;
  std::vector<std::string> files;
};

std::optional<EmulatorFocusRun> emulator_focus_run(Device& dev, PlanRun& run, const Plan& p, unsigned long long block,
                                                   bool last, std::size_t budget) {
  TraceBuilder builder(p, false);
  name_emulator_sites(builder);
  // The blocks that run with it: itself, or its whole cluster (a cluster's blocks run together).
  const unsigned long long cluster = p.kernel->clustered ? std::max(1u, p.scenario.cluster) : 1;
  const unsigned long long first = block / cluster * cluster, end = first + cluster;
  for (;;) {
    const rec::Layout layout = builder.layout(block, block + 1);
    RawDeviceTrace raw(dev, layout);
    raw.clear(dev, layout);
    run.prepare();
    try {
      if (last) {  // every other block first, untraced (an empty range would mean the whole grid)
        if (first > 0) {
          const EmulatorBlockRange before(0, first);
          run.run_first();
        }
        if (end < p.grid) {
          const EmulatorBlockRange after(end, p.grid);
          run.run_first();
        }
      }
      const EmulatorBlockRange only(first, end);
      run.run_first(&layout, &raw.buffers);
    } catch (const TraceRoomShort&) {
      if (!builder.grow(budget)) return std::nullopt;
      continue;
    }
    // A single-pass kernel's last block records its finish in the launch row, which the trace gives back to that
    // block (trace_in_chunks does the same; the block's figures are not added: only its places are wanted).
    dev.analyse_trace(layout, raw.buffers, raw.analysis);
    const ChunkSummary summary = raw.summary(dev, layout);
    if (layout.launch_row && summary.last_block == block)
      builder.add_launch_row(raw.row(dev, layout, layout.blocks(), p.grid), block);
    builder.add_focus(raw.row(dev, layout, 0, block));
    const FocusBlock* f = builder.focus_with_launch_row(std::uint32_t(block));
    if (!f) return std::nullopt;
    return EmulatorFocusRun{*f, builder.trace().access_files};
  }
}

}  // namespace

std::size_t copy_access_places(const FocusBlock& from, const std::vector<std::string>& from_files, FocusBlock& to,
                               std::vector<std::string>& files) {
  std::size_t missing = 0;
  for (std::size_t s = 0; s < to.steps.size(); ++s)
    for (std::size_t w = 0; w < to.steps[s].size(); ++w) {
      std::vector<WarpAccess>& gpu = to.steps[s][w].accesses;
      const std::vector<WarpAccess>* emu =
          s < from.steps.size() && w < from.steps[s].size() ? &from.steps[s][w].accesses : nullptr;
      const std::size_t n = emu ? std::min(gpu.size(), emu->size()) : 0;
      missing += gpu.size() - n;
      for (std::size_t i = 0; i < n; ++i) {
        const WarpAccess& e = (*emu)[i];
        WarpAccess& g = gpu[i];
        if (g.space != e.space || g.kind != e.kind || g.width != e.width || g.mask != e.mask) continue;
        g.line = e.line;
        g.column = e.column;
        g.file = e.file ? access_file_number(files, from_files.at(e.file - 1)) : 0;
      }
    }
  return missing;
}

void name_accesses_from_emulator(const Plan& p, const std::uint8_t* input, std::size_t budget, Trace& gpu) {
  constexpr double kMostHostBytes = double(std::size_t(256) << 20);
  if (gpu.focus.empty() || gpu.fault) return;
  const FamilyRunner& runner = family_runner(p);
  if (runner.device_bytes(p, 1) > kMostHostBytes) return;
  const EmulatorBlocksUncounted uncounted;
  try {
    const std::unique_ptr<Device> dev = make_cpu_device();
    const std::unique_ptr<PlanRun> run = runner.make(*dev, p, input, 1);
    std::vector<std::string>& files = gpu.access_files;  // names as they are found: a run that fails keeps them
    files.clear();
    for (FocusBlock& f : gpu.focus) {
      std::optional<EmulatorFocusRun> alone = emulator_focus_run(*dev, *run, p, f.block, false, budget);
      if (!alone) return;
      if (!gpu.shared_arrays) {
        std::vector<emu::DeclaredShared> declared;
        add_launch_shared_arrays(declared);
        gpu.shared_arrays = trace_shared_arrays(std::move(declared));
      }
      if (copy_access_places(alone->row, alone->files, f, files) > 0 && p.kernel->single_pass && p.grid > 1) {
        // A fresh copy of the launch's memory: the runs alone have moved the count of finished blocks.
        const std::unique_ptr<PlanRun> fresh = runner.make(*dev, p, input, 1);
        if (std::optional<EmulatorFocusRun> last = emulator_focus_run(*dev, *fresh, p, f.block, true, budget))
          copy_access_places(last->row, last->files, f, files);
      }
    }
  } catch (const std::exception&) {
    // The emulator could not run the plan (a kernel built for the GPU only, a race it stops at): no names.
  }
}

std::size_t trace_budget_for(const Device& dev, const RunOptions& options) {
  if (options.trace_budget) return *options.trace_budget;
  if (dev.backend() != Backend::cuda) return kTraceBudget;
  // Each chunk reruns the whole launch on a GPU, so a chunk is as large as a sixteenth of the free memory allows,
  // up to kGpuTraceBudget: beyond that the chunks' summaries, each copied back at once, cost more than the reruns
  // saved (docs/emulator.md, "Tracing at scale", has the measurements).
  return std::clamp(dev.free_memory() / 16, kTraceBudget, kGpuTraceBudget);
}

Trace run_plan(Device& dev, const Plan& p, const RunOptions& options) {
  if (p.kernel->family == Family::allreduce) return run_allreduce(dev, p, options);
  const bool trace = options.trace && p.kernel->traceable;
  const FamilyRunner& runner = family_runner(p);
  // The input's copy is host memory for every backend; on the emulator the device's buffers and the trace
  // are host memory too, so there the three are counted together (before, 2^31 elements on the CPU
  // were accepted and grew to 16.9 GB; the host-only loop ended in std::bad_alloc).
  const double input_bytes = double(p.scenario.n) * double(elem_size(p.scenario.type));
  const bool on_host = dev.backend() == Backend::emulator;
  const std::size_t trace_budget = trace_budget_for(dev, options);
  check_fits(dev, p, runner.device_bytes(p, 1) + (trace ? double(trace_budget) : 0.0) + (on_host ? input_bytes : 0.0),
             "");
  if (!on_host) check_host_fits(p, input_bytes);

  RunControl* control = options.control;
  const std::atomic<bool>* cancel = control ? &control->cancel : nullptr;
  // The kernel's build is made ready on the device while the host fills the input (CUDA loads a kernel at its
  // first launch: 40-50 ms of a first trace on an H100 host); a traced run's later launches use the traced build
  // too (finish, below). What cannot be loaded fails at the launch instead.
  std::future<void> loading;
  if (const std::optional<LaunchArgs> first = first_launch_args(p); first && !on_host)
    loading = std::async(std::launch::async, [&dev, &p, a = *first, trace] {
      try {
        dev.load(*p.kernel, p.scenario.type, a, trace);
      } catch (const std::exception&) {}
    });
  // Not zeroed: filling touches the pages (hundreds of MB at large n), and that part can be cancelled.
  const std::unique_ptr<std::uint8_t[]> input(new std::uint8_t[p.scenario.n * elem_size(p.scenario.type)]);
  const bool filled = fill_input(p.scenario, input.get(), cancel);
  if (loading.valid()) loading.get();
  if (!filled) throw RunCancelled();
  const std::unique_ptr<PlanRun> run = runner.make(dev, p, input.get(), 1);
  if (cancel && *cancel) throw RunCancelled();

  const EmulatorRunScope emulator_scope(control);
  TraceBuilder builder(p, dev.measures_clocks());
  if (on_host) name_emulator_sites(builder);  // the GPU's records hold no place

  std::vector<emu::DeclaredShared> declared;  // the emulator's: by every chunk's blocks
  if (trace) {
    // On the emulator a chunk runs only its blocks, memory carried from chunk to chunk: tracing time grows
    // linearly with n. The GPU reruns the whole launch per chunk (its launches are cheap; blocks cannot be
    // left out of a CUDA launch).
    const bool subset = on_host;
    trace_in_chunks(
        dev, builder, trace_budget,
        [&](const rec::Layout& layout, const rec::Buffers& buffers) {
          if (!subset || layout.block_lo == 0) run->prepare();
          if (subset) {
            const EmulatorBlockRange only(layout.block_lo, layout.block_hi);
            run->run_first(&layout, &buffers);
            add_launch_shared_arrays(declared);
          } else {
            run->run_first(&layout, &buffers);
          }
        },
        control, subset);
  } else {
    run->prepare();
    if (options.before_first) options.before_first();
    run->run_first();
    if (options.after_first) options.after_first();
  }
  Trace t = trace ? builder.finish() : std::move(builder.trace());
  if (trace && on_host) {  // a chunk that stopped at a fault declared what it had reached
    add_launch_shared_arrays(declared);
    t.shared_arrays = trace_shared_arrays(std::move(declared));
  }
  if (!trace) {  // nothing recorded: no per-step figures, no focus detail
    t.steps.clear();
    t.focus.clear();
  }
  if (trace && !on_host) name_accesses_from_emulator(p, input.get(), options.trace_budget.value_or(kTraceBudget), t);
  if (t.fault) {  // the launch did not end: no later pass, no result to check
    t.passes = p.passes;
    stamp_trace(t, dev.backend(), run->device_name(dev));
    return t;
  }
  run->finish(trace && !on_host);
  t.passes = p.passes;
  set_check(t, run->check());
  try {  // (a figure beside the run: where it cannot be had, the run stands without it)
    t.occupancy =
        occupancy_of(dev, p, nullptr, t.shared_arrays ? declared_static_smem(*t.shared_arrays) : std::nullopt);
  } catch (const std::exception&) {}
  stamp_trace(t, dev.backend(), run->device_name(dev));
  return t;
}

}  // namespace redlab
