// transpose_tiled: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <string>

#include "../register.cuh"
#include "transpose_tiled.cuh"

namespace redlab::kernels {

struct transpose_tiled_record : transpose_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "transpose_tiled",
                   .title = "Tiled transpose, tile[32][32]",
                   .group = "8 transposes",
                   .sources = "002 transpose1 (使用共享内存实现矩阵转置)",
                   .teaches = "coalesced both ways through a shared tile, but reading a tile column is a 32-way bank "
                               "conflict",
                   .slots = kTileShared};
    return r;
  }

  // Blocks of 32 x BR threads over ceil(cols / 32) x ceil(rows / 32) tiles; each thread moves 32 / BR rows.
  template <unsigned BR, class T, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = transpose_tiled<BR, T, Probe>;
    REDLAB_LAUNCH(fn, tile_grid(a), dim3(TILE_DIM, BR), 0, input_of<T>(a), output_of<T>(a), a.rows, a.cols, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(transpose_tiled_record)
