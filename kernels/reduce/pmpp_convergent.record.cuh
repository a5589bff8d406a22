// pmpp_convergent: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <string>

#include "../register.cuh"
#include "pmpp_convergent.cuh"
#include "pmpp_simple.record.cuh"

namespace redlab::kernels {

// The same shape as pmpp_simple (its formulas); the active threads are contiguous instead of strided.
struct pmpp_convergent_record : pmpp_simple_record {
  static KernelRecord record() {
    KernelRecord r{.id = "pmpp_convergent",
                   .title = "PMPP convergent kernel",
                   .group = "3 PMPP chapter 10",
                   .sources = "003 PMPP §10.4",
                   .teaches = "PMPP's convergent tree: whole warps retire, efficiency 255/384",
                   .slots = kGlobalTree};
    r.in_place_global = true;
    r.remark = "PMPP's ~66% for 256 elements is exact: 255/384 (the last five levels each keep one warp "
              "busy with 16, 8, 4, 2, 1 threads).";
    return r;
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = pmpp_convergent<T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, const_cast<T*>(input_of<T>(a)), output_of<T>(a), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(pmpp_convergent_record)
