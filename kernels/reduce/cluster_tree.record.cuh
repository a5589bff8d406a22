// cluster_tree: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "cluster_tree.cuh"

namespace redlab::kernels {

struct cluster_tree_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "cluster_tree",
                   .title = "Thread block cluster: a tree over blocks",
                   .group = "10 clusters (Hopper)",
                   .sources = "CUDA Programming Guide, distributed shared memory",
                   .teaches = "the blocks of a cluster combine pairwise through each other's shared memory",
                   .slots = {.shared_load = 2, .shared_store = 1, .global_load = 2, .global_store = 1,
                             .global_atomic = 1, .remote_shared_load = 1}};
    r.clustered = true;
    r.compare_with = "cluster_reduce";
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.block; }
  // load, the block's tree, one level per halving of the cluster, store.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t) {
    return with_slots(r, 1 + tree_levels(s) + cluster_levels(s) + 1);
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = cluster_tree<B, T, Op, Probe>;
    REDLAB_LAUNCH_CLUSTER(fn, dim3(a.grid), dim3(a.block), 0, a.cluster, input_of<T>(a), output_of<T>(a),
                          unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(cluster_tree_record)
