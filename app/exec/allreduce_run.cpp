// An all-reduce run: G buffers (the emulator's virtual GPUs), the record's schedule (app/core/allreduce.h), and
// per transfer one launch of kernels/allreduce/peer_range.cuh, traced like any first launch (traced_run.h). The
// trace's steps are the schedule's; each step's figures sum its transfers' launches, and the transfers say what
// moved between which GPUs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <ratio>
#include <string>
#include <vector>

#include "core/allreduce.h"
#include "core/catalog.h"
#include "core/reference.h"
#include "core/trace_builder.h"
#include "kernels/step_label.h"
#include "exec/device.h"
#include "exec/device_memory.h"
#include "exec/executor.h"
#include "exec/family_run.h"
#include "exec/emulator_scope.h"
#include "exec/nccl.h"
#include "exec/traced_run.h"

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
  to.dsmem_load_requests += x.dsmem_load_requests;
  to.dsmem_load_bytes += x.dsmem_load_bytes;
  to.dsmem_store_requests += x.dsmem_store_requests;
  to.dsmem_store_bytes += x.dsmem_store_bytes;
}

// Every GPU's buffer against the host's element-wise combination of the G inputs: integers, min and max exactly;
// float sums within eps x sum|x| x (G + 1), G additions in some order. The run's result is GPU 0's buffer folded
// with the operator, beside the same fold of the references.
Check check_allreduce(const Scenario& s, const std::vector<std::uint8_t>& input,
                      const std::vector<std::vector<std::uint8_t>>& out) {
  const std::size_t es = elem_size(s.type);
  const unsigned g = s.gpus;
  const bool exact = s.type == ElemType::int32 || s.op != OpKind::sum;
  const double eps =
      s.type == ElemType::float32 ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
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
  const unsigned g = s.gpus;
  // The GPUs: on the emulator G virtual ones (one device, G buffers); on CUDA GPUs 0..G-1, each transfer launched
  // on the receiving GPU, reading the sender's memory through peer access. Where this machine has fewer GPUs, or
  // two cannot reach each other, --backend cuda is refused with why and --backend auto runs the virtual ones.
  std::vector<std::unique_ptr<Device>> owned;
  std::vector<Device*> gpus;
  if (dev.backend() != Backend::emulator) {
    std::string why;
#if REDLAB_HAVE_CUDA
    owned = make_cuda_devices(g, &why);
#else
    why = "this redlab was built without CUDA";
#endif
    if (owned.empty()) {
      if (k.gpu_only)
        throw ScenarioError("--kernel " + k.id + " --gpus " + std::to_string(g) + ": " + why +
                            "; it runs on GPUs only (the catalog's all-reduce kernels also run on virtual GPUs)");
      if (s.backend == BackendChoice::cuda)
        throw ScenarioError("--backend cuda --gpus " + std::to_string(g) + ": " + why +
                            "; --backend cpu runs the all-reduce on the emulator's virtual GPUs");
      const std::unique_ptr<Device> cpu = make_cpu_device();
      Trace t = run_allreduce(*cpu, p, options);
      t.device += " (" + why + ")";
      return t;
    }
    for (const auto& d : owned) gpus.push_back(d.get());
  } else {
    gpus.assign(g, &dev);
  }
  const bool on_host = dev.backend() == Backend::emulator;
  const std::size_t es = elem_size(s.type);
  const std::uint64_t bytes = s.n * es;
  const double trace_bytes = options.trace ? double(options.trace_budget.value_or(kTraceBudget)) : 0.0;
  if (on_host) {
    check_fits(dev, p, double(bytes) * g + trace_bytes, "");
  } else {
    // Each GPU: its buffer, the trace's chunk, and the copy of a combine's range its reruns start from.
    for (Device* d : gpus) check_fits(*d, p, double(bytes) * 2 + trace_bytes, "");
  }

  // GPU h's input: elements [h n, (h+1) n) of the scenario's input sequence over G n elements.
  Scenario whole = s;
  whole.n = s.n * g;
  std::vector<std::uint8_t> input(whole.n * es);
  RunControl* control = options.control;
  const std::atomic<bool>* cancel = control ? &control->cancel : nullptr;
  if (!fill_input(whole, input.data(), cancel)) throw RunCancelled();
  std::vector<DeviceBuffer> buffers;
  for (unsigned h = 0; h < g; ++h) {
    buffers.emplace_back(*gpus[h], bytes);
    gpus[h]->upload(buffers[h].p, input.data() + h * bytes, bytes);
  }

  if (k.algorithm == std::uint8_t(allreduce::Algorithm::nccl)) {
    // NCCL's own kernels on every GPU at once: no steps of redlab's to trace, the result checked as the others'.
    if (on_host) throw ScenarioError("--kernel " + k.id + ": NCCL runs on GPUs only");
    std::vector<void*> in_place;
    for (const DeviceBuffer& b : buffers) in_place.push_back(b.p);
    const auto t0 = std::chrono::steady_clock::now();
    if (const std::string e = nccl_all_reduce_in_place(in_place, s.n, s.type, s.op); !e.empty()) throw ScenarioError(e);
    Trace t;
    t.scenario = s;
    t.gpus = g;
    t.grid = p.grid;
    t.block = s.block;
    t.passes = p.passes;
    std::vector<std::vector<std::uint8_t>> out(g, std::vector<std::uint8_t>(bytes));
    for (unsigned h = 0; h < g; ++h) gpus[h]->download(out[h].data(), buffers[h].p, bytes);
    t.trace_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    set_check(t, check_allreduce(s, input, out));
    stamp_trace(t, dev.backend(), std::to_string(g) + " x " + gpus[0]->name() + ", NCCL " + nccl_version(nullptr));
    return t;
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
    st.phase = parse_phase(step.phase).value_or(Phase::reduce);
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
      GpuTransfer moved{.from = x.from,
                        .to = x.to,
                        .chunk = x.chunk,
                        .lo = x.lo,
                        .hi = x.hi,
                        .bytes = x.elements() * es,
                        .combine = x.combine};
      Device& to = *gpus[x.to];
      if (!options.trace) {
        to.launch(k, s.type, a);
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
      TraceBuilder builder(launch, to.measures_clocks());
      if (on_host) name_emulator_sites(builder);
      // A combine is applied once. The emulator runs each chunk's blocks only; a GPU reruns the whole launch per
      // chunk, so each rerun starts from the receiver's range as it was before the first.
      std::optional<DeviceBuffer> before;
      const std::size_t range_bytes = x.elements() * es;
      if (!on_host && x.combine && range_bytes) {
        before.emplace(to, range_bytes);
        to.copy(before->p, a.out, range_bytes);
      }
      int reruns = 0;
      trace_in_chunks(
          to, builder, options.trace_budget.value_or(kTraceBudget),
          [&](const rec::Layout& layout, const rec::Buffers& raw) {
            if (on_host) {
              const EmulatorBlockRange only(layout.block_lo, layout.block_hi);
              to.launch(k, s.type, a, &layout, &raw);
              return;
            }
            if (reruns++ > 0 && before) to.copy(a.out, before->p, range_bytes);
            to.launch(k, s.type, a, &layout, &raw);
          },
          nullptr, on_host);
      Trace one = builder.finish();
      if (one.fault) {  // the launch stopped: the trace keeps where
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
            if (from.block == f.block && !from.steps.empty()) {
              f.steps[si] = from.steps[0];
              for (WarpStep& w : f.steps[si])
                for (WarpAccess& a : w.accesses)
                  if (a.file) a.file = access_file_number(t.access_files, one.access_files.at(a.file - 1));
            }
      }
      t.transfers[si].push_back(moved);
    }
  }
  t.digest = digest;
  t.trace_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  std::vector<std::vector<std::uint8_t>> out(g, std::vector<std::uint8_t>(bytes));
  for (unsigned h = 0; h < g; ++h) gpus[h]->download(out[h].data(), buffers[h].p, bytes);
  set_check(t, check_allreduce(s, input, out));
  // A GPU's records name no place: the emulator's run of the same all-reduce names the focus blocks' accesses,
  // where its buffers are small (the names are a help, not a figure).
  constexpr double kMostNamingBytes = double(std::size_t(64) << 20);
  if (!on_host && options.trace && !t.focus.empty() && double(bytes) * g <= kMostNamingBytes) {
    try {
      const std::unique_ptr<Device> cpu = make_cpu_device();
      RunOptions quiet = options;
      quiet.control = nullptr;
      const Trace named = run_allreduce(*cpu, p, quiet);
      for (std::size_t b = 0; b < t.focus.size() && b < named.focus.size(); ++b)
        copy_access_places(named.focus[b], named.access_files, t.focus[b], t.access_files);
    } catch (const std::exception&) {
      // no names
    }
  }
  stamp_trace(
      t, dev.backend(),
      on_host ? dev.name() + ", " + std::to_string(g) + " virtual GPUs" : std::to_string(g) + " x " + gpus[0]->name());
  return t;
}

}  // namespace redlab
