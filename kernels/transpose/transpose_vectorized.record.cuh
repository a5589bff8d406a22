// transpose_vectorized: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "transpose_vectorized.cuh"

namespace redlab::kernels {

struct transpose_vectorized_record : transpose_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "transpose_vectorized",
                   .title = "Pairs and a 64 x 64 tile",
                   .group = "8 transposes",
                   .sources = "ours: the fastest",
                   .teaches = "8-byte accesses and a 64 x 64 tile: each thread transposes 2 x 2 squares in registers; "
                              "the tile swizzled by pairs is conflict-free",
                   // Per row a thread moves: a pair each way, or two elements each way where pairs are not aligned.
                   .slots = {.shared_load = 1, .shared_store = 1, .global_load = 2, .global_store = 2}};
    r.tile.dim = PAIR_TILE_DIM;
    r.tile.pitch = PAIR_TILE_DIM;
    r.tile.vector = 2;
    r.tile.swizzled = true;
    r.tile.decl = "Pair tile[64][32], pair u ^ (r / 2)";
    r.compare_with = "transpose_padded";
    return r;
  }

  static std::uint64_t elems_per_block(const KernelShape&) { return PAIR_TILE_DIM * PAIR_TILE_DIM; }

  // Blocks of 32 x BR threads over ceil(cols / 64) x ceil(rows / 64) tiles; each thread moves 64 / BR rows.
  template <unsigned BR, class T, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = transpose_vectorized<BR, T, Probe>;
    REDLAB_LAUNCH(fn, tile_grid(a, PAIR_TILE_DIM), dim3(TILE_DIM, BR), 0, input_of<T>(a), output_of<T>(a), a.rows,
                  a.cols, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(transpose_vectorized_record)
