// cub_block: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#if REDLAB_ON_GPU
#include "cub_block.cuh"
#endif

namespace redlab::kernels {

struct cub_block_record : library_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "cub_block",
                   .title = "cub::BlockReduce",
                   .group = "7 libraries",
                   .sources = "001 (CUB)",
                   .teaches = "CUB's block-level reduction (--algo warp_reductions, raking, raking_commutative)"};
    r.no_atomic = true;
    r.has_algo = true;
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.block; }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe&) {
#if REDLAB_ON_GPU
    auto go = [&](auto fn) {
      REDLAB_LAUNCH(fn, dim3(a.grid), dim3(B), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n));
    };
    switch (a.algo) {
      case 0: go(cub_block<B, cub::BLOCK_REDUCE_WARP_REDUCTIONS, T, Op>); break;
      case 1: go(cub_block<B, cub::BLOCK_REDUCE_RAKING, T, Op>); break;
      default: go(cub_block<B, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, T, Op>); break;
    }
#endif
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(cub_block_record)
