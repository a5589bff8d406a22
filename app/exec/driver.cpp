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
#include "device_memory.h"
#include "executor.h"

namespace redlab {
namespace {

// A host buffer of `count` identity elements with `data` copied to its front.
std::vector<std::uint8_t> padded(ElemType t, OpKind op, const void* data, std::uint64_t n, std::uint64_t count) {
  const std::size_t es = elem_size(t);
  std::vector<std::uint8_t> v(count * es);
  const std::uint64_t id = identity_bits(t, op);
  for (std::uint64_t i = n; i < count; ++i) std::memcpy(v.data() + i * es, &id, es);
  if (n) std::memcpy(v.data(), data, n * es);
  return v;
}


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
    const Check c = check_result(s, input.data(), host_fold(s, input.data()), s.n);
    t.result = c.result_text;
    t.reference = c.reference_text;
    t.abs_error = c.abs_error;
    t.error_bound = c.bound;
    t.correct = c.correct;
    t.passes.push_back({"host", s.n, 0, 0, false});
    t.backend = backend;
    t.device = "host CPU (the loop runs on the host whatever the backend)";
    t.host = host_name();
    t.recorded_at = now_iso();
    t.redlab_version = "0.1.0";
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

  // In-place kernels work on a scratch copy padded with the identity to whole blocks.
  std::vector<std::uint8_t> first_in =
      k.in_place_global ? padded(s.type, s.op, input.data(), s.n, std::uint64_t(grid) * per_block) : input;
  DeviceBuffer d_in(dev, first_in.size());
  DeviceBuffer d_out(dev, std::size_t(grid) * es);
  // Single-pass kernels: per-block partials and the last-block ticket, which the kernel leaves at 0.
  DeviceBuffer d_partials, d_done;
  if (k.single_pass) {
    d_partials = DeviceBuffer(dev, std::size_t(grid) * es);
    d_done = DeviceBuffer(dev, 4);
    dev.fill(d_done.p, 0, 4);
  }
  const bool atomic = s.finish == Finish::atomic || k.always_atomic;
  const std::uint64_t id_bits = identity_bits(s.type, s.op);

  LaunchArgs first;
  first.kernel = s.kernel;
  first.type = s.type;
  first.op = s.op;
  first.grid = grid;
  first.block = s.block;
  first.in = d_in.p;
  first.out = d_out.p;
  first.n = s.n;
  first.atomic = atomic;
  first.dynamic_smem = s.dynamic_smem;
  first.coarse = s.coarse;
  first.algo = s.algo;
  first.partials = d_partials.p;
  first.blocks_done = static_cast<unsigned*>(d_done.p);

  auto reset = [&] {
    dev.upload(d_in.p, first_in.data(), first_in.size());
    if (atomic) dev.upload(d_out.p, &id_bits, es);
  };

  TraceBuilder builder(s, k, grid, dev.measures_clocks());
  const bool trace = options.trace && k.traceable;
  if (trace) {
    const std::uint32_t chunk = builder.blocks_per_chunk(options.trace_budget);
    RawDeviceTrace raw_dev(dev, builder.layout(0, chunk));
    RawTrace raw;
    for (std::uint32_t lo = 0; lo < grid; lo += chunk) {
      const rec::Layout layout = builder.layout(lo, std::min(grid, lo + chunk));
      reset();
      raw_dev.clear(dev, layout);
      dev.launch(first, &layout, &raw_dev.buffers);
      raw.resize(layout);
      raw_dev.download(dev, raw);
      builder.add(raw);
    }
  } else {
    reset();
    dev.launch(first, nullptr, nullptr);
  }
  Trace t = trace ? builder.finish() : std::move(builder.trace());
  if (!trace) t.steps.clear();  // nothing recorded: no per-step figures

  t.passes.push_back({s.kernel, s.n, grid, s.block, atomic});
  std::uint64_t result = 0;
  std::uint64_t sequential_adds = 0;
  if (atomic || grid == 1 || k.single_pass) {
    dev.download(&result, d_out.p, es);
    sequential_adds = atomic ? grid : k.single_pass ? (grid + s.block - 1) / s.block : 0;
  } else if (s.finish == Finish::host) {
    std::vector<std::uint8_t> partials(std::size_t(grid) * es);
    dev.download(partials.data(), d_out.p, partials.size());
    result = id_bits;
    for (std::uint32_t b = 0; b < grid; ++b) {
      std::uint64_t v = 0;
      std::memcpy(&v, partials.data() + std::size_t(b) * es, es);
      result = combine_bits(s.type, s.op, result, v);
    }
    sequential_adds = grid;
    t.passes.push_back({"host", grid, 0, 0, false});
  } else {
    // Relaunch the same kernel (uninstrumented) on the partials until one value is left.
    DeviceBuffer src = std::move(d_out), dst;
    std::uint64_t count = grid;
    while (count > 1) {
      Scenario over_partials = s;
      over_partials.n = count;
      const std::uint32_t g = first_grid(k, over_partials);
      DeviceBuffer in;
      LaunchArgs pass = first;
      pass.n = count;
      pass.grid = g;
      pass.atomic = false;
      if (k.in_place_global) {
        const auto pad = padded(s.type, s.op, nullptr, 0, std::uint64_t(g) * per_block);
        in = DeviceBuffer(dev, pad.size());
        dev.upload(in.p, pad.data(), pad.size());
        dev.copy(in.p, src.p, count * es);
        pass.in = in.p;
      } else {
        pass.in = src.p;
      }
      dst = DeviceBuffer(dev, std::size_t(g) * es);
      pass.out = dst.p;
      dev.launch(pass, nullptr, nullptr);
      t.passes.push_back({s.kernel, count, g, s.block, false});
      src = std::move(dst);
      count = g;
    }
    dev.download(&result, src.p, es);
  }

  const Check c = check_result(s, input.data(), result, sequential_adds);
  t.result = c.result_text;
  t.reference = c.reference_text;
  t.abs_error = c.abs_error;
  t.error_bound = c.bound;
  t.correct = c.correct;
  t.backend = backend;
  t.device = dev.name();
  t.host = host_name();
  t.recorded_at = now_iso();
  t.redlab_version = "0.1.0";
  return t;
}

}  // namespace redlab
