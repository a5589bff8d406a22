// Transposes (SPEC section 4, kernels/transpose/): running a transpose scenario on a device, checking it,
// and timing it. The launch table (transpose_table.inc) is compiled for both backends like launch_table.inc.
#pragma once
#include <vector>

#include "device.h"

namespace redlab {

struct RunOptions;
struct Trace;

// Uploads the scenario's rows x cols input, runs the kernel (traced in chunks of blocks, or timed), checks
// the output against a CPU transpose (copies: against the input) bit for bit. Result text:
// "transposed 1024x1024, 0 mismatches". Called by the executors for catalog entries with `transpose`.
Trace run_transpose(Device&, const char* backend, const Scenario&, const RunOptions&);

// The bench hook: `reps` milliseconds, each one launch of the uninstrumented kernel timed with CUDA events,
// after `warmup` untimed launches. Matrices whose input and output together are under 4x the L2 rotate over
// copies, so no launch finds its matrix in L2 from the launch before. CUDA devices only: others throw ScenarioError("timings need a CUDA device").
std::vector<float> time_transpose_ms(Device&, const Scenario&, int warmup, int reps);

// Bytes a transpose (or copy) moves, for GB/s: read + write = 2 * rows * cols * sizeof(T).
double transpose_bytes(const Scenario&);

// The backends' entry points. cpu: runs the launch to completion on the emulator. cuda: enqueues it (the
// caller synchronises); cuda_time_transpose times launches with events.
void cpu_transpose_start(const TransposeArgs&, const rec::Layout*, const rec::Buffers*);
void cuda_transpose_start(const TransposeArgs&, const rec::Layout*, const rec::Buffers*);
std::vector<float> cuda_time_transpose(const TransposeArgs&, const std::vector<TransposeBuffers>& copies,
                                       int warmup, int reps);

}  // namespace redlab
