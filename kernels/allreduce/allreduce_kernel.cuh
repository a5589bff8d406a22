// What the all-reduce records share (kernels/allreduce/*.record.cuh): the family, the launch of one transfer,
// and the room its trace needs. The records differ only in the schedule their algorithm names.
#pragma once
#include <cstdint>

#include "../register.cuh"
#include "peer_range.cuh"

namespace redlab::kernels {

// All-reduce: one transfer (kernels/allreduce/peer_range.cuh) per launch, grid-stride over its range.
struct allreduce_kernel {
  static constexpr Family family = Family::allreduce;
  static constexpr bool traceable = true, gpu_only = false, host_only = false;
  static std::uint64_t elems_per_block(const KernelShape& s) { return s.block; }
  // One step; per warp, a request of each kind per grid stride (n: the transfer's range).
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t grid) {
    const unsigned strides = unsigned((s.n + std::uint64_t(s.block) * grid - 1) / (std::uint64_t(s.block) * grid));
    return with_slots(r, 1, strides ? strides : 1);
  }
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    if (a.combine) {
      auto fn = combine_from_peer<T, Op, Probe>;
      REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, static_cast<T*>(a.out), static_cast<const T*>(a.in),
                    unsigned(a.n), a.phase, probe);
    } else {
      auto fn = copy_from_peer<T, Probe>;
      REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, static_cast<T*>(a.out), static_cast<const T*>(a.in),
                    unsigned(a.n), a.phase, probe);
    }
  }
};

}  // namespace redlab::kernels
