// unroll_complete: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include "../register.cuh"
#include "unroll_complete.cuh"

namespace redlab::kernels {

struct unroll_complete_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r = entry(120, "reduce", "unroll_complete", "Completely unrolled",
                           "5 warp level", "Harris 6, samples reduce5",
                           "block size as a template parameter: the compiler unrolls the whole tree",
                           {2, 1, 2, 1, 1});
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.block; }
  // load, tree levels while the offset is above 32, the last warp's first add, 5 shuffles, store.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t) {
    const unsigned above_warp = tree_levels(s) > 6 ? tree_levels(s) - 6 : 0;
    return with_slots(r, 1 + above_warp + 1 + 5 + 1);
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = unroll_complete<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(unroll_complete_record)
