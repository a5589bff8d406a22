// global_inplace: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "global_inplace.cuh"

namespace redlab::kernels {

struct global_inplace_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "global_inplace",
                   .title = "Tree in global memory",
                   .group = "1 naive",
                   .sources = "002 reduce_global, 000 native",
                   .teaches = "every level reads and writes global memory: the cost shared memory removes",
                   .slots = kGlobalTree};
    r.in_place_global = true;
    return r;
  }
  // tree levels, store (no load step: the tree works on x where it lies).
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t) {
    return with_slots(r, tree_levels(s) + 1);
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    // Not templated on the block size: x is a block's segment of the scratch copy, blockDim.x elements.
    auto fn = global_inplace<T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, const_cast<T*>(input_of<T>(a)), output_of<T>(a), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(global_inplace_record)
