// Transposes on a device: the input matrix from the scenario, the first (only) launch traced in chunks of
// blocks or timed, then a bit-for-bit check against a CPU transpose. Written once against Device, like
// driver.cpp for the reductions; also the timing hook the bench uses (time_transpose_ms).
#include "device_memory.h"
#include "traced_run.h"
#include "transpose.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <ctime>

#include "../core/catalog.h"
#include "../core/trace_builder.h"
#include "executor.h"

namespace redlab {
namespace {

// Device memory released on scope exit.
std::string gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  return buf;
}

// now_iso() and host_name() come from device.h (driver.cpp), shared with the reduction driver.

// The scenario with n and block derived, validated, and its catalog entry (a transpose).
const KernelInfo& checked(Scenario& s) {
  derive_transpose_shape(s);
  if (std::string err = validate(s); !err.empty()) throw ScenarioError(err);
  const KernelInfo* k = find_kernel(s.kernel);
  if (!k->transpose) throw ScenarioError("--kernel: '" + s.kernel + "' is not a transpose");
  return *k;
}

TransposeArgs args_for(const Scenario& s, const void* in, void* out) {
  TransposeArgs a;
  a.kernel = s.kernel;
  a.type = s.type;
  a.rows = s.rows;
  a.cols = s.cols;
  a.block_rows = s.block_rows;
  a.in = in;
  a.out = out;
  return a;
}

}  // namespace

double transpose_bytes(const Scenario& s) { return 2.0 * double(s.rows) * double(s.cols) * double(elem_size(s.type)); }

Trace run_transpose(Device& dev, const char* backend, const Scenario& given, const RunOptions& options) {
  Scenario s = given;
  const KernelInfo& k = checked(s);
  const std::size_t es = elem_size(s.type);
  const std::size_t bytes = std::size_t(s.n) * es;
  const std::uint32_t grid = first_grid(k, s);

  const double need = 2.0 * double(bytes) + (options.trace ? double(options.trace_budget) : 0.0);
  if (need > double(dev.free_memory()))
    throw ScenarioError("--rows/--cols: a " + std::to_string(s.rows) + " x " + std::to_string(s.cols) +
                        " matrix needs " + gb(need) + " on " + dev.name() + ", which has " +
                        gb(double(dev.free_memory())) + " free; use a smaller matrix");

  std::vector<std::uint8_t> input(bytes);
  fill_input(s, input.data());
  DeviceBuffer d_in(dev, bytes), d_out(dev, bytes);
  dev.upload(d_in.p, input.data(), bytes);
  // All ones: a NaN pattern no input holds, so an element the kernel never wrote is a mismatch.
  dev.fill(d_out.p, 0xff, bytes);
  const TransposeArgs a = args_for(s, d_in.p, d_out.p);

  TraceBuilder builder(s, k, grid, dev.measures_clocks());
  if (options.trace) {
    trace_in_chunks(dev, builder, options.trace_budget, [&](const rec::Layout& layout, const rec::Buffers& buffers) {
      dev.launch_transpose(a, &layout, &buffers);
    });
  } else {
    dev.launch_transpose(a, nullptr, nullptr);
  }
  Trace t = options.trace ? builder.finish() : std::move(builder.trace());
  t.passes.push_back({s.kernel, s.n, grid, s.block, false});

  // The check: out[c][r] == in[r][c] (copies: out == in), bit for bit.
  std::vector<std::uint8_t> output(bytes);
  dev.download(output.data(), d_out.p, bytes);
  const bool copies = s.kernel == "copy" || s.kernel == "copy_shared";
  std::uint64_t mismatches = 0;
  for (std::uint64_t r = 0; r < s.rows; ++r)
    for (std::uint64_t c = 0; c < s.cols; ++c) {
      const std::uint64_t from = r * s.cols + c, to = copies ? from : c * s.rows + r;
      mismatches += std::memcmp(input.data() + from * es, output.data() + to * es, es) != 0;
    }
  const std::string shape = std::to_string(s.rows) + "x" + std::to_string(s.cols);
  const std::string out_shape = copies ? shape : std::to_string(s.cols) + "x" + std::to_string(s.rows);
  t.result = std::string(copies ? "copied " : "transposed ") + shape + ", " + std::to_string(mismatches) +
             (mismatches == 1 ? " mismatch" : " mismatches");
  t.reference = (copies ? "the " + shape + " input" : "CPU transpose, " + out_shape) + ", compared bit for bit";
  t.abs_error = double(mismatches);
  t.error_bound = 0;
  t.correct = mismatches == 0;
  stamp_trace(t, backend, dev.name());
  return t;
}

std::vector<float> time_transpose_ms(Device& dev, const Scenario& given, int warmup, int reps) {
  Scenario s = given;
  checked(s);
  if (warmup < 0 || reps < 1)
    throw ScenarioError("timings: warm-up " + std::to_string(warmup) + ", reps " + std::to_string(reps) +
                        "; use warm-up >= 0 and reps >= 1");
  const std::size_t bytes = std::size_t(s.n) * elem_size(s.type);
  const std::size_t l2 = dev.l2_bytes();
  const std::size_t copies = rotating_copies(2 * bytes, l2);   // input and output
  const double need = 2.0 * double(bytes) * double(copies);
  if (need > double(dev.free_memory()))
    throw ScenarioError("--rows/--cols: a " + std::to_string(s.rows) + " x " + std::to_string(s.cols) +
                        " matrix needs " + gb(need) + " on " + dev.name() + " to time; use a smaller matrix");
  std::vector<std::uint8_t> input(bytes);
  fill_input(s, input.data());
  std::vector<DeviceBuffer> buffers;
  std::vector<TransposeBuffers> pairs;
  for (std::size_t c = 0; c < copies; ++c) {
    buffers.emplace_back(dev, bytes);
    dev.upload(buffers.back().p, input.data(), bytes);
    buffers.emplace_back(dev, bytes);
    pairs.push_back({buffers[2 * c].p, buffers[2 * c + 1].p});
  }
  return dev.time_transpose(args_for(s, nullptr, nullptr), pairs, warmup, reps);
}

}  // namespace redlab
