// atomic_segmented: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "atomic_segmented.cuh"

namespace redlab::kernels {

struct atomic_segmented_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "atomic_segmented",
                   .title = "Segmented, atomic finish",
                   .group = "4 more work per thread",
                   .sources = "003 PMPP §10.6",
                   .teaches = "one launch for any n: blocks combine their results with one atomic each",
                   .slots = {.shared_load = 2, .shared_store = 1, .global_load = 2, .global_store = 1,
                             .global_atomic = 1}};
    r.always_atomic = true;
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.block; }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = atomic_segmented<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(atomic_segmented_record)
