// coarsened: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "coarsened.cuh"

namespace redlab::kernels {

struct coarsened_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "coarsened",
                   .title = "Thread coarsening",
                   .group = "4 more work per thread",
                   .sources = "003 PMPP §10.7",
                   .teaches = "each thread first combines 2C elements: fewer blocks, less tree overhead",
                   .slots = {.shared_load = 2, .shared_store = 1, .global_load = 8, .global_store = 1,
                             .global_atomic = 1}};
    r.always_atomic = true;
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.coarse * s.block; }
  // Each thread loads 2C elements in its load step.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t g) {
    TraceShape t = reduction_kernel::trace_shape(r, s, g);
    t.slots[int(rec::Class::global_load)] = 2 * s.coarse;
    return t;
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = coarsened<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.coarse, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(coarsened_record)
