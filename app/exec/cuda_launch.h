#pragma once
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "exec/device.h"

// The CUDA side of a kernel record's launch (kernels/register.cuh): launch, check, and wait unless a timing
// loop is enqueueing.
#define REDLAB_LAUNCH(fn, grid, block, smem, ...)                                                 \
  do {                                                                                            \
    if (::redlab::cuda_load_only) {                                                               \
      ::redlab::cuda_load(reinterpret_cast<const void*>(fn));                                     \
      break;                                                                                      \
    }                                                                                             \
    fn<<<grid, block, smem>>>(__VA_ARGS__);                                                       \
    ::redlab::cuda_check(cudaGetLastError(), "launch");                                           \
    if (::redlab::cuda_wait_for_kernels) ::redlab::cuda_check(cudaDeviceSynchronize(), "kernel"); \
  } while (0)

namespace redlab {
// False while a timing loop enqueues launches between CUDA events (no device-wide sync inside them).
inline thread_local bool cuda_wait_for_kernels = true;
// True while Device::load walks a launcher: REDLAB_LAUNCH loads the kernel it names into the context and
// launches nothing.
inline thread_local bool cuda_load_only = false;

// Loads the kernel `fn` (a __global__ function) into the current context, as its first launch would.
void cuda_load(const void* fn);

// Throws std::runtime_error("CUDA error in <what>: <message>") unless `e` is cudaSuccess.
void cuda_check(cudaError_t e, const char* what);

// Checks a launch that did not go through REDLAB_LAUNCH (library calls) and waits like it.
void cuda_finish_launch(const char* what);

// The trace analysis of one chunk on the GPU (cuda_trace_analysis.cu); waits for it.
void cuda_analyse_trace(const rec::Layout&, const rec::Buffers& raw, const rec::Analysis& out);

// The read-ceiling pass over `bytes` (a multiple of 16) with `grid` blocks of 256 threads.
void cuda_read_only(const void* p, std::size_t bytes, unsigned* sink, unsigned grid);
// The bank lab's micro-benchmark: cycles per access of one warp's shared access (bank_access.cuh).
double cuda_shared_access_cycles(const std::uint32_t* addr32, std::uint32_t mask, unsigned width, bool store);
}  // namespace redlab
