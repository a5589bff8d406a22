// pmpp_simple: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "pmpp_simple.cuh"

namespace redlab::kernels {

struct pmpp_simple_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "pmpp_simple",
                   .title = "PMPP simple (divergent) kernel",
                   .group = "3 PMPP chapter 10",
                   .sources = "003 PMPP §10.3",
                   .teaches = "PMPP's divergent tree: SIMD efficiency 255/864 on 256 elements",
                   .slots = kGlobalTree};
    r.in_place_global = true;
    r.remark = "PMPP prints about 35% for 256 elements (block 128): it counts five iterations in which all "
              "four warps are active (255/736 = 34.6%), but strides 1, 2, 4, 8, 16 and 32 all leave an active "
              "thread in every warp: six such iterations, so 255/864 = 29.5%.";
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.block; }
  // tree levels up to stride B, store.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t) {
    return with_slots(r, tree_levels(s) + 1 + 1);
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = pmpp_simple<T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, const_cast<T*>(input_of<T>(a)), output_of<T>(a), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(pmpp_simple_record)
