// cg_reduce: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#if REDLAB_ON_GPU
#include "cg_reduce.cuh"
#endif

namespace redlab::kernels {

struct cg_reduce_record : library_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "cg_reduce",
                   .title = "Cooperative groups reduce",
                   .group = "6 bandwidth",
                   .sources = "samples cg_reduce",
                   .teaches = "cg::reduce does the warp tree for you"};
    r.no_atomic = true;
    r.bounded_grid = kBoundedGrid;
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.block; }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe&) {
#if REDLAB_ON_GPU
    auto fn = cg_reduce<B, T, Op>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(B), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n));
#endif
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(cg_reduce_record)
