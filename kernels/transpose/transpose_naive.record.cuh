// transpose_naive: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <string>

#include "../register.cuh"
#include "transpose_naive.cuh"

namespace redlab::kernels {

struct transpose_naive_record : transpose_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "transpose_naive",
                   .title = "Naive transpose",
                   .group = "8 transposes",
                   .sources = "002 (out[x][y] = in[y][x])",
                   .teaches = "coalesced reads, scattered writes: each store request touches 32 sectors",
                   .slots = kTileGlobal};
    r.tile.shared = false;
    return r;
  }

  // Blocks of 32 x BR threads over ceil(cols / 32) x ceil(rows / 32) tiles; each thread moves 32 / BR rows.
  template <unsigned BR, class T, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = transpose_naive<BR, T, Probe>;
    REDLAB_LAUNCH(fn, tile_grid(a), dim3(TILE_DIM, BR), 0, input_of<T>(a), output_of<T>(a), a.rows, a.cols, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(transpose_naive_record)
