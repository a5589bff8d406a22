// warp_shuffle: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "warp_shuffle.cuh"

namespace redlab::kernels {

struct warp_shuffle_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "warp_shuffle",
                   .title = "Warp shuffles",
                   .group = "5 warp level",
                   .sources = "000 线程束内函数",
                   .teaches = "registers and __shfl_down_sync instead of a shared-memory tree; the seed's mask bug",
                   .slots = {.shared_load = 1, .shared_store = 1, .global_load = 1, .global_store = 1, .reg = 1,
                             .global_atomic = 1}};
    return r;
  }
  // load, 5 shuffle levels, warp sums to shared, first warp loads them, its shuffle levels, store.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t) {
    return with_slots(r, 1 + 5 + 1 + 1 + (tree_levels(s) - 5) + 1);
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = warp_shuffle<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(warp_shuffle_record)
