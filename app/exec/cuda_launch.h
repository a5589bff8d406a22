#pragma once
#include <cuda_runtime.h>

#include "device.h"

// The CUDA side of launch_table.inc: launch and wait, every call checked.
#define REDLAB_LAUNCH(fn, grid, block, smem, ...)          \
  do {                                                     \
    fn<<<grid, block, smem>>>(__VA_ARGS__);                \
    ::redlab::cuda_check(cudaGetLastError(), "launch");    \
    ::redlab::cuda_check(cudaDeviceSynchronize(), "kernel"); \
  } while (0)

namespace redlab {
// Throws std::runtime_error("CUDA error in <what>: <message>") unless `e` is cudaSuccess.
void cuda_check(cudaError_t e, const char* what);

void cuda_launch_int32(const LaunchArgs&, const rec::Layout*, const rec::Buffers*);
void cuda_launch_float32(const LaunchArgs&, const rec::Layout*, const rec::Buffers*);
void cuda_launch_float64(const LaunchArgs&, const rec::Layout*, const rec::Buffers*);
}  // namespace redlab
