// Hopper's thread block clusters on the emulator: the part of CUDA's cooperative groups a cluster kernel uses,
// cooperative_groups::this_cluster() and its cluster_group, with the meaning simt.h gives a cluster launch. Under
// nvcc a kernel includes <cooperative_groups.h> instead (kernels/cluster.cuh chooses).
//
// A launch without a cluster shape is a cluster of one block, as on the GPU: rank 0 of 1, and cluster.sync() a
// barrier over the block's threads.
#pragma once

#include <source_location>

#include "emu/simt.h"

namespace cooperative_groups {

class cluster_group {
 public:
  // A barrier over every thread of the cluster; also what makes the other blocks' shared memory safe to touch.
  static void sync(std::source_location loc = std::source_location::current()) {
    ::redlab::emu::detail::cluster_sync(loc);
  }
  // The address `addr` (a __shared__ variable of this block, or a place in one) has in block `rank`'s shared memory.
  template <class T>
  static T* map_shared_rank(T* addr, int rank, std::source_location loc = std::source_location::current()) {
    return static_cast<T*>(::redlab::emu::detail::cluster_map_shared(addr, rank, loc));
  }
  static unsigned block_rank() { return ::redlab::emu::current_block().cluster_rank; }
  static unsigned num_blocks() { return ::redlab::emu::current_block().cluster_blocks; }
  static dim3 dim_blocks() { return ::redlab::emu::current_block().cluster_dim; }
  // The block's position in its cluster.
  static dim3 block_index() {
    const auto& b = ::redlab::emu::current_block();
    return dim3(b.block_idx.x % b.cluster_dim.x, b.block_idx.y % b.cluster_dim.y, b.block_idx.z % b.cluster_dim.z);
  }
  static unsigned num_threads() {
    const auto& b = ::redlab::emu::current_block();
    return b.cluster_blocks * b.block_dim.x * b.block_dim.y * b.block_dim.z;
  }
  static unsigned size() { return num_threads(); }
  static unsigned thread_rank() {
    const auto& b = ::redlab::emu::current_block();
    return b.cluster_rank * b.block_dim.x * b.block_dim.y * b.block_dim.z + ::redlab::emu::current().linear;
  }
};

inline cluster_group this_cluster() { return {}; }

}  // namespace cooperative_groups
