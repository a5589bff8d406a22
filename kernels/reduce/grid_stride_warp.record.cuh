// grid_stride_warp: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "grid_stride_warp.cuh"

namespace redlab::kernels {

struct grid_stride_warp_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "grid_stride_warp",
                   .title = "Grid-stride + warp reduce",
                   .group = "6 bandwidth",
                   .sources = "samples reduce7",
                   .teaches = "grid-stride loads, warp reduce, one shared value per warp",
                   .slots = {.shared_load = 1, .shared_store = 1, .global_load = 2, .global_store = 1,
                             .global_atomic = 1}};
    r.bounded_grid = kBoundedGrid;
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.block; }
  // grid strides, warp reduce, warp sums to shared, first warp loads them, its warp reduce, store.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t grid) {
    return with_slots(r, grid_strides(s.n, elems_per_block(s), grid) + 4 + 1);
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = grid_stride_warp<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(grid_stride_warp_record)
