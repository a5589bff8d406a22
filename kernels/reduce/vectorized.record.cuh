// vectorized: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "vectorized.cuh"

namespace redlab::kernels {

struct vectorized_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "vectorized",
                   .title = "16-byte loads, one value per block",
                   .group = "6 bandwidth",
                   .sources = "ours",
                   .teaches = "16-byte loads, grid-stride, warp reduce, one launch: as fast as CUB",
                   // 2 stores: the result and the ticket's reset
                   .slots = {.shared_load = 1, .shared_store = 1, .global_load = 4, .global_store = 2,
                             .global_atomic = 1}};
    r.bounded_grid = kBoundedGrid;
    r.balanced_grid = true;
    r.single_pass = true;
    return r;
  }
  // Four 16-byte loads per thread and grid stride.
  static std::uint64_t elems_per_block(const KernelShape& s) { return 4ull * (16 / s.elem_size) * s.block; }
  // grid strides over whole vectors, the tail, warp reduce, store; with more than one block, the last block
  // to finish also loads every partial, reduces them and stores the result.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t grid) {
    const std::uint64_t whole = s.n / (16 / s.elem_size) * (16 / s.elem_size);
    const unsigned strides = grid_strides(whole, elems_per_block(s), grid);
    TraceShape t = with_slots(r, strides + 1 + 4 + 1 + (grid == 1 ? 0 : 1 + 4 + 1));
    const std::uint32_t partials = (grid + s.block - 1) / s.block;   // per thread, in the last block
    t.slots[int(rec::Class::global_load)] = partials > 4 ? partials : 4;
    return t;
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = vectorized<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n),
                  static_cast<T*>(a.partials), a.blocks_done, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(vectorized_record)
