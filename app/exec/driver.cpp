#include <algorithm>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>

#include "../core/bits.h"
#include "../core/catalog.h"
#include "../core/reference.h"
#include "../core/trace_builder.h"
#include "device.h"
#include "reduction_plan.h"
#include "traced_run.h"
#include "executor.h"

namespace redlab {
namespace {



std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  return buf;
}

// The sequential host loop (cpu_sequential, PMPP 10.1), in the element type: what every kernel replaces.
std::uint64_t host_fold(const Scenario& s, const std::uint8_t* input) {
  const std::size_t es = elem_size(s.type);
  std::uint64_t acc = identity_bits(s.type, s.op);
  for (std::uint64_t i = 0; i < s.n; ++i) {
    std::uint64_t v = 0;
    std::memcpy(&v, input + i * es, es);
    acc = combine_bits(s.type, s.op, acc, v);
  }
  return acc;
}

}  // namespace

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

void stamp_trace(Trace& t, const char* backend, const std::string& device) {
  t.backend = backend;
  t.device = device;
  t.host = host_name();
  t.recorded_at = now_iso();
  t.redlab_version = REDLAB_VERSION;
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

Trace run_on_device(Device& dev, const char* backend, const Scenario& s, const RunOptions& options) {
  if (std::string err = validate(s); !err.empty()) throw ScenarioError(err);
  const KernelInfo& k = *find_kernel(s.kernel);
  const std::size_t es = elem_size(s.type);
  if (k.host_only) {
    std::vector<std::uint8_t> input(s.n * es);
    fill_input(s, input.data());
    Trace t;
    t.scenario = s;
    set_check(t, check_result(s, input.data(), host_fold(s, input.data()), s.n));
    t.passes.push_back({"host", s.n, 0, 0, false});
    stamp_trace(t, backend, "host CPU (the loop runs on the host whatever the backend)");
    return t;
  }
  const std::uint64_t per_block = elems_per_block(k, s);
  const std::uint32_t grid = first_grid(k, s);

  // Memory: input, the padded scratch copy for in-place kernels, partials (twice for relaunch), trace.
  const double need = double(s.n * es) + (k.in_place_global ? 2.0 * double(grid) * per_block * es : 0.0) +
                      2.0 * double(grid) * es + (options.trace ? double(options.trace_budget) : 0.0);
  if (need > double(dev.free_memory()))
    throw ScenarioError("--n: " + std::to_string(s.n) + " elements need " + gib(need) + " on " + dev.name() +
                        ", which has " + gib(double(dev.free_memory())) + " free; use a smaller --n");

  std::vector<std::uint8_t> input(s.n * es);
  fill_input(s, input.data());
  ReductionPlan plan(dev, k, s, input.data());

  TraceBuilder builder(s, k, grid, dev.measures_clocks());
  const bool trace = options.trace && k.traceable;
  if (trace) {
    trace_in_chunks(dev, builder, options.trace_budget, [&](const rec::Layout& layout, const rec::Buffers& buffers) {
      plan.prepare();
      plan.run_first(&layout, &buffers);
    });
  } else {
    plan.prepare();
    plan.run_first();
  }
  Trace t = trace ? builder.finish() : std::move(builder.trace());
  if (!trace) t.steps.clear();  // nothing recorded: no per-step figures
  plan.finish();
  t.passes = plan.passes();

  set_check(t, check_result(s, input.data(), plan.result(), plan.sequential_adds()));
  stamp_trace(t, backend, dev.name());
  return t;
}

}  // namespace redlab
