// Thread block clusters (Hopper, sm_90): cooperative_groups::this_cluster() and its cluster_group, from CUDA's
// cooperative groups under nvcc, from the same device intrinsics CUDA's header calls under NVRTC (a kernel file's
// GPU compile: NVRTC has no <cooperative_groups.h> of its own, and the toolkit's include folder is not on its path)
// and from the emulator's (app/emu/cluster.h) under a host compiler.
#pragma once
#include "cuda_compat.cuh"

#if REDLAB_ON_GPU
#if !defined(__CUDACC_RTC__) && !(defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900)
#include <cooperative_groups.h>
#else
namespace cooperative_groups {
#if __CUDA_ARCH__ >= 900
// What CUDA's cluster_group does (cooperative_groups/details/helpers.h), member for member.
struct cluster_group {
  __device__ static void sync() {
    __cluster_barrier_arrive();
    __cluster_barrier_wait();
  }
  template <class T>
  __device__ static T* map_shared_rank(T* addr, int rank) {
    return static_cast<T*>(__cluster_map_shared_rank(addr, unsigned(rank)));
  }
  __device__ static unsigned block_rank() { return __clusterRelativeBlockRank(); }
  __device__ static unsigned num_blocks() { return __clusterSizeInBlocks(); }
  __device__ static dim3 dim_blocks() { return __clusterDim(); }
  __device__ static dim3 block_index() { return __clusterRelativeBlockIdx(); }
  __device__ static unsigned num_threads() { return num_blocks() * blockDim.x * blockDim.y * blockDim.z; }
  __device__ static unsigned size() { return num_threads(); }
  __device__ static unsigned thread_rank() {
    return block_rank() * blockDim.x * blockDim.y * blockDim.z +
           (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
};
#else
// Cards before Hopper have no clusters, and CUDA's header has no cluster_group for them. The catalog is compiled for
// them too (one binary for every card a course meets), so the cluster kernels need the names there; redlab never
// launches a cluster kernel on such a card (exec/cuda_launch.cu refuses, in a sentence, first).
struct cluster_group {
  __device__ static void sync() { __trap(); }
  template <class T>
  __device__ static T* map_shared_rank(T* addr, int) {
    __trap();
    return addr;
  }
  __device__ static unsigned block_rank() { return 0; }
  __device__ static unsigned num_blocks() { return 1; }
  __device__ static dim3 dim_blocks() { return dim3(1, 1, 1); }
  __device__ static dim3 block_index() { return dim3(0, 0, 0); }
  __device__ static unsigned num_threads() { return blockDim.x * blockDim.y * blockDim.z; }
  __device__ static unsigned size() { return num_threads(); }
  __device__ static unsigned thread_rank() { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
};
#endif
__device__ inline cluster_group this_cluster() { return {}; }
}  // namespace cooperative_groups
#endif
#else
#include "emu/cluster.h"
#endif
