// cluster_reduce: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "cluster_reduce.cuh"

namespace redlab::kernels {

struct cluster_reduce_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "cluster_reduce",
                   .title = "Thread block cluster: rank 0 gathers",
                   .group = "10 clusters (Hopper)",
                   .sources = "CUDA Programming Guide, distributed shared memory",
                   .teaches = "one value per cluster: block rank 0 reads every block's partial from its shared memory",
                   .slots = {.shared_load = 2, .shared_store = 1, .global_load = 2, .global_store = 1, .reg = 1,
                             .global_atomic = 1, .remote_shared_load = 1}};
    r.clustered = true;
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.block; }
  // load, the block's tree, the gather, the shuffles over the cluster's partials, store.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t) {
    return with_slots(r, 1 + tree_levels(s) + 1 + cluster_levels(s) + 1);
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = cluster_reduce<B, T, Op, Probe>;
    REDLAB_LAUNCH_CLUSTER(fn, dim3(a.grid), dim3(a.block), 0, a.cluster, input_of<T>(a), output_of<T>(a),
                          unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(cluster_reduce_record)
