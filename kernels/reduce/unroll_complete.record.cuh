// unroll_complete: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <string>

#include "../register.cuh"
#include "unroll_complete.cuh"
#include "unroll_last_warp.record.cuh"

namespace redlab::kernels {

// The same steps as unroll_last_warp (its formulas); the tree above the last warp is unrolled at compile time.
struct unroll_complete_record : unroll_last_warp_record {
  static KernelRecord record() {
    KernelRecord r{.id = "unroll_complete",
                   .title = "Completely unrolled",
                   .group = "5 warp level",
                   .sources = "Harris 6, samples reduce5",
                   .teaches = "block size as a template parameter: the compiler unrolls the whole tree",
                   .slots = {.shared_load = 2, .shared_store = 1, .global_load = 2, .global_store = 1, .reg = 1,
                             .global_atomic = 1}};
    return r;
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = unroll_complete<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(unroll_complete_record)
