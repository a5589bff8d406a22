// An all-reduce run: G buffers (the emulator's virtual GPUs), the record's schedule (app/core/allreduce.h), and
// per transfer one launch of kernels/allreduce/peer_range.cuh, traced like any first launch (traced_run.h). The
// trace's steps are the schedule's; each step's figures sum its transfers' launches, and the transfers say what
// moved between which GPUs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "../core/allreduce.h"
#include "../core/catalog.h"
#include "../core/reference.h"
#include "../core/trace_builder.h"
#include "../../kernels/step_label.h"
#include "device.h"
#include "device_memory.h"
#include "executor.h"
#include "family_run.h"
#include "emulator_scope.h"
#include "traced_run.h"

namespace redlab {

std::unique_ptr<Device> make_cpu_device();

namespace {

void add_stats(StepStats& to, const StepStats& x) {
  to.active_threads += x.active_threads;
  to.active_warps += x.active_warps;
  to.divergent_warps += x.divergent_warps;
  to.smem_load_requests += x.smem_load_requests;
  to.smem_load_wavefronts += x.smem_load_wavefronts;
  to.smem_load_ideal += x.smem_load_ideal;
  to.smem_store_requests += x.smem_store_requests;
  to.smem_store_wavefronts += x.smem_store_wavefronts;
  to.smem_store_ideal += x.smem_store_ideal;
  to.gmem_load_requests += x.gmem_load_requests;
  to.gmem_load_sectors += x.gmem_load_sectors;
  to.gmem_store_requests += x.gmem_store_requests;
  to.gmem_store_sectors += x.gmem_store_sectors;
  to.smem_atomic_requests += x.smem_atomic_requests;
  to.smem_atomic_wavefronts += x.smem_atomic_wavefronts;
  to.gmem_atomic_requests += x.gmem_atomic_requests;
  to.gmem_atomic_sectors += x.gmem_atomic_sectors;
}

Phase phase_of(const std::string& name) {
  for (int p = int(Phase::reduce_scatter); p <= int(Phase::broadcast); ++p)
    if (name == rec::phase_name(Phase(p))) return Phase(p);
  return Phase::reduce;
}

// Every GPU's buffer against the host's element-wise combination of the G inputs: integers, min and max exactly;
// float sums within eps x sum|x| x (G + 1), G additions in some order. The run's result is GPU 0's buffer folded
// with the operator, beside the same fold of the references.
Check check_allreduce(const Scenario& s, const std::vector<std::uint8_t>& input,
                      const std::vector<std::vector<std::uint8_t>>& out) {
  const std::size_t es = elem_size(s.type);
  const unsigned g = s.gpus;
  const bool exact = s.type == ElemType::int32 || s.op != OpKind::sum;
  const double eps = s.type == ElemType::float32 ? std::numeric_limits<float>::epsilon()
                                                 : std::numeric_limits<double>::epsilon();
  Check c;
  c.correct = true;
  std::uint64_t fold = identity_bits(s.type, s.op), fold_reference = fold;
  double worst = -1;
  for (std::uint64_t i = 0; i < s.n; ++i) {
    std::uint64_t want = identity_bits(s.type, s.op);
    double sum = 0, abs = 0;
    for (unsigned h = 0; h < g; ++h) {
      std::uint64_t v = 0;
      std::memcpy(&v, input.data() + (std::uint64_t(h) * s.n + i) * es, es);
      want = combine_bits(s.type, s.op, want, v);
      sum += value_as_double(s.type, v);
      abs += std::fabs(value_as_double(s.type, v));
    }
    fold_reference = combine_bits(s.type, s.op, fold_reference, want);
    for (unsigned h = 0; h < g; ++h) {
      std::uint64_t got = 0;
      std::memcpy(&got, out[h].data() + i * es, es);
      if (h == 0) fold = combine_bits(s.type, s.op, fold, got);
      const double error = std::fabs(value_as_double(s.type, got) - (exact ? value_as_double(s.type, want) : sum));
      const double bound = exact ? 0 : eps * abs * (g + 1);
      const bool ok = exact ? got == want : std::isfinite(value_as_double(s.type, got)) && error <= bound;
      if (!ok) c.correct = false;
      if (error - bound > worst) {
        worst = error - bound;
        c.abs_error = error;
        c.bound = bound;
      }
    }
  }
  c.reference_bits = fold_reference;
  c.result_text = format_value(s.type, fold);
  c.reference_text = format_value(s.type, fold_reference);
  return c;
}

}  // namespace

Trace run_allreduce(Device& dev, const Plan& p, const RunOptions& options) {
  const Scenario& s = p.scenario;
  const KernelRecord& k = *p.kernel;
  // Not yet on real GPUs: --backend auto runs the virtual ones (the trace says so), --backend cuda is refused.
  if (dev.backend() != Backend::emulator) {
    if (s.backend == BackendChoice::cuda)
      throw ScenarioError("--backend cuda: the all-reduce kernels run on the emulator's virtual GPUs for now (--backend "
                          "cpu or auto); `redlab bench --gpus G` measures NCCL's all-reduce on this machine's GPUs");
    const std::unique_ptr<Device> cpu = make_cpu_device();
    return run_allreduce(*cpu, p, options);
  }
  const unsigned g = s.gpus;
  const std::size_t es = elem_size(s.type);
  const std::uint64_t bytes = s.n * es;
  check_fits(dev, p, double(bytes) * g + (options.trace ? double(options.trace_budget) : 0.0), "");

  // GPU h's input: elements [h n, (h+1) n) of the scenario's input sequence over G n elements.
  Scenario whole = s;
  whole.n = s.n * g;
  std::vector<std::uint8_t> input(whole.n * es);
  RunControl* control = options.control;
  const std::atomic<bool>* cancel = control ? &control->cancel : nullptr;
  if (!fill_input(whole, input.data(), cancel)) throw RunCancelled();
  std::vector<DeviceBuffer> buffers;
  for (unsigned h = 0; h < g; ++h) {
    buffers.emplace_back(dev, bytes);
    dev.upload(buffers[h].p, input.data() + h * bytes, bytes);
  }

  const std::vector<allreduce::Step> schedule = allreduce::schedule(allreduce::Algorithm(k.algorithm), g, s.n);
  Trace t;
  t.scenario = s;
  t.gpus = g;
  t.grid = p.grid;
  t.block = s.block;
  t.warps_per_block = s.block / 32;
  t.elems_per_block = p.elems_per_block;
  t.passes = p.passes;
  for (const allreduce::Step& step : schedule) {
    Step st;
    st.phase = phase_of(step.phase);
    st.label = step.label;
    st.param = std::int32_t(step.param);
    st.label_kind = k.algorithm == std::uint8_t(allreduce::Algorithm::ring)   ? rec::Label::exchange
                    : k.algorithm == std::uint8_t(allreduce::Algorithm::tree) ? rec::Label::distance
                                                                              : rec::Label::root;
    t.steps.push_back(st);
  }
  if (options.trace)
    for (std::uint32_t b : s.focus_blocks) t.focus.push_back({b, std::vector<std::vector<WarpStep>>(schedule.size())});
  t.transfers.resize(schedule.size());

  const EmulatorRunScope emulator_scope(control);
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t digest = 0;
  for (std::size_t si = 0; si < schedule.size(); ++si) {
    bool focus_taken = false;
    for (const allreduce::Transfer& x : schedule[si].transfers) {
      if (cancel && *cancel) throw RunCancelled();
      LaunchArgs a;
      a.op = s.op;
      a.block = s.block;
      a.n = x.elements();
      a.grid = allreduce_launch_grid(a.n, s.block);
      a.in = static_cast<const std::uint8_t*>(buffers[x.from].p) + x.lo * es;
      a.out = static_cast<std::uint8_t*>(buffers[x.to].p) + x.lo * es;
      a.combine = x.combine;
      a.phase = t.steps[si].phase;
      GpuTransfer moved{.from = x.from, .to = x.to, .chunk = x.chunk, .lo = x.lo, .hi = x.hi,
                        .bytes = x.elements() * es, .combine = x.combine};
      if (!options.trace) {
        dev.launch(k, s.type, a);
        t.transfers[si].push_back(moved);
        continue;
      }
      // The launch as a plan of its own: its range, its grid, the room its grid-stride needs.
      Plan launch = p;
      launch.scenario.n = a.n;
      launch.grid = a.grid;
      launch.elems_per_block = s.block;
      launch.trace = k.trace_shape(k, kernel_shape(launch.scenario), a.grid);
      launch.scenario.focus_blocks.clear();
      for (std::uint32_t b : s.focus_blocks)
        if (b < a.grid) launch.scenario.focus_blocks.push_back(b);
      TraceBuilder builder(launch, dev.measures_clocks());
      // Each block runs once (the emulator runs a chunk's blocks only): a combine is not applied twice.
      trace_in_chunks(dev, builder, options.trace_budget, [&](const rec::Layout& layout, const rec::Buffers& raw) {
        const EmulatorBlockRange only(layout.block_lo, layout.block_hi);
        dev.launch(k, s.type, a, &layout, &raw);
      }, nullptr, true);
      Trace one = builder.finish();
      if (one.fault) {   // the launch stopped: the trace keeps where
        t.fault = one.fault;
        t.transfers[si].push_back(moved);
        return t;
      }
      if (!one.steps.empty()) {
        moved.stats = one.steps[0].stats;
        add_stats(t.steps[si].stats, moved.stats);
        t.steps[si].line = one.steps[0].line;
      }
      rec::hash_mix(digest, one.digest);
      t.traced_blocks += one.traced_blocks;
      t.trace_bytes_peak = std::max(t.trace_bytes_peak, one.trace_bytes_peak);
      t.trace_chunks += one.trace_chunks;
      if (x.to == 0 && !focus_taken) {
        focus_taken = true;
        for (FocusBlock& f : t.focus)
          for (const FocusBlock& from : one.focus)
            if (from.block == f.block && !from.steps.empty()) f.steps[si] = from.steps[0];
      }
      t.transfers[si].push_back(moved);
    }
  }
  t.digest = digest;
  t.trace_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  std::vector<std::vector<std::uint8_t>> out(g, std::vector<std::uint8_t>(bytes));
  for (unsigned h = 0; h < g; ++h) dev.download(out[h].data(), buffers[h].p, bytes);
  set_check(t, check_allreduce(s, input, out));
  stamp_trace(t, dev.backend(), dev.name() + ", " + std::to_string(g) + " virtual GPUs");
  return t;
}

}  // namespace redlab
