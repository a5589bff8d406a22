// Thread block clusters (Hopper, sm_90): cooperative_groups::this_cluster() and its cluster_group, from CUDA's
// cooperative groups under nvcc and from the emulator's (app/emu/cluster.h) under a host compiler.
#pragma once
#include "cuda_compat.cuh"

#if REDLAB_ON_GPU
#include <cooperative_groups.h>
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
// Cards before Hopper have no clusters, and CUDA's header has no cluster_group for them. The catalog is compiled for
// them too (one binary for every card a course meets), so the cluster kernels need the names there; redlab never
// launches a cluster kernel on such a card (exec/cuda_launch.cu refuses, in a sentence, first).
namespace cooperative_groups {
struct cluster_group {
  __device__ static void sync() { __trap(); }
  template <class T>
  __device__ static T* map_shared_rank(T* addr, int) {
    __trap();
    return addr;
  }
  __device__ static unsigned block_rank() { return 0; }
  __device__ static unsigned num_blocks() { return 1; }
};
__device__ inline cluster_group this_cluster() { return {}; }
}  // namespace cooperative_groups
#endif
#else
#include "emu/cluster.h"
#endif
