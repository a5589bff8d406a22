// Timings (CUDA device only): medians of CUDA-event timings after warm-up, over rotating input copies for
// sizes under 4x the L2, beside the device's ceilings measured in the same run (device-to-device copy and a
// read-only pass), speedups over the first kernel (the Harris table) and the ratio to cub_device, timed in
// alternating rounds.
#pragma once
#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/scenario.h"

namespace redlab {

struct BenchRequest {
  std::vector<std::string> kernels;  // in table order; the first is the speedup baseline
  std::vector<std::uint64_t> sizes;  // elements
  ElemType type = ElemType::int32;
  OpKind op = OpKind::sum;
  unsigned block = 256;
  // A block-size sweep: every kernel timed at each of these block sizes (threads per block), in this order;
  // empty: at `block` only. A kernel whose library chooses its own block (cub_device) is timed once per size.
  std::vector<unsigned> blocks;
  Finish finish = Finish::relaunch;
  int warmup = 3, reps = 30;
  // Transposes (every kernel a transpose): the matrix instead of sizes; GB/s counts read + write and the
  // speedup column is relative to the first kernel (put `copy` first for "% of copy").
  unsigned rows = 0, cols = 0, block_rows = 8;
};

struct BenchCeiling {
  std::uint64_t n = 0;
  double copy_gbps = 0;  // cudaMemcpy device to device, bytes read + written
  double read_gbps = 0;  // read-only kernel, 16-byte loads
  bool fits_l2 = false;  // the input fits in L2 (inputs under 4x the L2 are timed over rotating copies)
};

struct BenchRow {
  std::string kernel;
  std::uint64_t n = 0;
  unsigned block = 0;  // threads per block it ran with; 0: its library chose (cub_device)
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int reps = 0;
  double gbps = 0;  // input bytes / median time (decimal GB/s)
  double pct_copy = 0;  // gbps / copy ceiling (copy counts read + write)
  double pct_read = 0;  // gbps / read-only ceiling
  double speedup = 0;  // vs the first kernel at this n (and block, in a sweep; cumulative)
  double step_speedup = 0;  // vs the previous kernel in the list at this n (and block)
  // The cub_device kernel's time / this time (>= 1: at least as fast as CUB), both medians of rounds that alternate the
  // two kernels; 0 if not run.
  double ratio_cub = 0;
  bool correct = false;
};

struct BenchReport {
  std::string device, driver, date, host;
  BenchRequest request;
  std::vector<BenchCeiling> ceilings;
  std::vector<BenchRow> rows;
  bool sweep() const { return !request.blocks.empty(); }
};

// Throws ScenarioError when no CUDA device is available or a kernel cannot be timed.
BenchReport run_bench(const BenchRequest&);

nlohmann::json bench_json(const BenchReport&);
BenchReport bench_from_json(const nlohmann::json&);  // throws std::runtime_error naming what is missing
std::string bench_text(const BenchReport&);

}  // namespace redlab
