// unroll_last_warp: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "unroll_last_warp.cuh"

namespace redlab::kernels {

struct unroll_last_warp_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "unroll_last_warp",
                   .title = "Unrolled last warp",
                   .group = "5 warp level",
                   .sources = "Harris 5, samples reduce4",
                   .teaches = "once 32 threads remain, one warp finishes without barriers",
                   .slots = {.shared_load = 2, .shared_store = 1, .global_load = 2, .global_store = 1, .reg = 1,
                             .global_atomic = 1}};
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
    auto fn = unroll_last_warp<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(unroll_last_warp_record)
