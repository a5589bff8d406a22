// One kernel source, two compilers. Under nvcc the kernels see real CUDA; under a host C++ compiler they
// see redlab's CPU SIMT emulator (app/emu/simt.h), which gives the same names (threadIdx, __syncthreads,
// __shfl_down_sync, atomicAdd, __shared__ ...) a per-thread, fiber-based meaning.
#pragma once

#if defined(__CUDACC__)
#if !defined(__CUDACC_RTC__)
#include <cuda_runtime.h>
#endif
#define REDLAB_HD __host__ __device__
#define REDLAB_DEVICE __device__ __forceinline__
#define REDLAB_ON_GPU 1
#define REDLAB_BACKEND_NS gpu
#else
#include "emu/simt.h"
#define REDLAB_HD
#define REDLAB_DEVICE inline
#define REDLAB_ON_GPU 0
#define REDLAB_BACKEND_NS emu
#endif
// Both builds of a kernel template live in one executable. nvcc gives each __global__ instantiation a host
// stub with the kernel's mangled name, which the emulator build's instantiation would share: the linker
// keeps one and a CUDA launch may run the emulator's code (or the reverse). The probe types, which every
// kernel takes as a template argument, and the launch table therefore sit in an inline namespace named
// after the backend, so the two builds' symbols differ.

#include <cstdint>

namespace redlab::kernels {
// A load that bypasses L1 (cache-global): for data other blocks wrote during this launch.
template <class T>
REDLAB_DEVICE T ld_cg(const T* p) {
#if REDLAB_ON_GPU
  return __ldcg(p);
#else
  return *static_cast<const volatile T*>(p);
#endif
}

constexpr unsigned kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;
}  // namespace redlab::kernels
