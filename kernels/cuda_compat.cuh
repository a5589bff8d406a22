// One kernel source, two compilers. Under nvcc the kernels see real CUDA; under a host C++ compiler they
// see redlab's CPU SIMT emulator (app/emu/simt.h), which gives the same names (threadIdx, __syncthreads,
// __shfl_down_sync, atomicAdd, __shared__ ...) a per-thread, fiber-based meaning.
#pragma once

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define REDLAB_HD __host__ __device__
#define REDLAB_DEVICE __device__ __forceinline__
#define REDLAB_ON_GPU 1
#else
#include "emu/simt.h"
#define REDLAB_HD
#define REDLAB_DEVICE inline
#define REDLAB_ON_GPU 0
#endif

#include <cstdint>

namespace redlab::kernels {
constexpr unsigned kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;
}  // namespace redlab::kernels
