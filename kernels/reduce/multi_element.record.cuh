// multi_element: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "multi_element.cuh"

namespace redlab::kernels {

struct multi_element_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "multi_element",
                   .title = "Many elements per thread",
                   .group = "6 bandwidth",
                   .sources = "Harris 7, samples reduce6",
                   .teaches = "a bounded grid; each thread sums many elements first (grid-stride)",
                   .slots = {.shared_load = 2, .shared_store = 1, .global_load = 2, .global_store = 1, .reg = 1,
                             .global_atomic = 1}};
    r.bounded_grid = kBoundedGrid;
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.block; }
  // grid strides, to shared, tree levels above 32, the last warp's first add, 5 shuffles, store.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t grid) {
    const unsigned above_warp = tree_levels(s) > 6 ? tree_levels(s) - 6 : 0;
    return with_slots(r, grid_strides(s.n, elems_per_block(s), grid) + 1 + above_warp + 1 + 5 + 1);
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = multi_element<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(multi_element_record)
