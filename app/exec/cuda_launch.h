#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>

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

// A launch of thread block clusters of `cluster` blocks along x (the cluster kernels): cudaLaunchKernelEx with the
// cluster dimension attribute, 16 asked for as the non-portable size it is.
#define REDLAB_LAUNCH_CLUSTER(fn, grid, block, smem, cluster, ...)              \
  do {                                                                          \
    if (::redlab::cuda_load_only) {                                             \
      ::redlab::cuda_load(reinterpret_cast<const void*>(fn));                   \
      break;                                                                    \
    }                                                                           \
    ::redlab::cuda_launch_cluster(fn, grid, block, smem, cluster, __VA_ARGS__); \
  } while (0)

namespace redlab {
// A launch of clusters of `cluster` blocks along x as cudaLaunchKernelEx takes it, and as
// cudaOccupancyMaxActiveClusters counts the clusters the card holds at once. Not copied: `config` points at
// `attribute`.
struct ClusterLaunch {
  cudaLaunchAttribute attribute[1] = {};
  cudaLaunchConfig_t config = {};
  ClusterLaunch(dim3 grid, dim3 block, std::size_t smem, unsigned cluster) {
    attribute[0].id = cudaLaunchAttributeClusterDimension;
    attribute[0].val.clusterDim.x = cluster;
    attribute[0].val.clusterDim.y = 1;
    attribute[0].val.clusterDim.z = 1;
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = smem;
    config.attrs = attribute;
    config.numAttrs = 1;
  }
  ClusterLaunch(const ClusterLaunch&) = delete;
  ClusterLaunch& operator=(const ClusterLaunch&) = delete;
};
// Asks for clusters of `cluster` blocks for `fn`: more than 8 is a non-portable size, which the card grants kernel by
// kernel. cudaSuccess for 8 or fewer, or when granted; else the runtime's error (cleared).
cudaError_t cuda_allow_cluster_size(const void* fn, unsigned cluster);
// Refuses, in a sentence, a card without thread block clusters (before compute capability 9.0), or one that does not
// grant `fn` clusters of more than 8 blocks.
void cuda_prepare_cluster_launch(const void* fn, unsigned cluster);
template <class... P, class... A>
void cuda_launch_cluster(void (*fn)(P...), dim3 grid, dim3 block, std::size_t smem, unsigned cluster, A&&... args);
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

template <class... P, class... A>
void cuda_launch_cluster(void (*fn)(P...), dim3 grid, dim3 block, std::size_t smem, unsigned cluster, A&&... args) {
  cuda_prepare_cluster_launch(reinterpret_cast<const void*>(fn), cluster);
  const ClusterLaunch launch(grid, block, smem, cluster);
  cuda_check(cudaLaunchKernelEx(&launch.config, fn, std::forward<A>(args)...), "cluster launch");
  if (cuda_wait_for_kernels) cuda_check(cudaDeviceSynchronize(), "kernel");
}
}  // namespace redlab
