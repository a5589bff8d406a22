#pragma once
#include <cuda_runtime.h>

#include "device.h"

namespace redlab {
// Throws std::runtime_error("CUDA error in <what>: <message>") unless `e` is cudaSuccess.
void cuda_check(cudaError_t e, const char* what);

void cuda_launch_int32(const LaunchArgs&, const rec::Layout*, const rec::Buffers*);
void cuda_launch_float32(const LaunchArgs&, const rec::Layout*, const rec::Buffers*);
void cuda_launch_float64(const LaunchArgs&, const rec::Layout*, const rec::Buffers*);
}  // namespace redlab
