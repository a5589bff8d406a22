// transpose_swizzled: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <string>

#include "../register.cuh"
#include "transpose_swizzled.cuh"

namespace redlab::kernels {

struct transpose_swizzled_record : transpose_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "transpose_swizzled",
                   .title = "XOR-swizzled tile",
                   .group = "8 transposes",
                   .sources = "002 (bank conflicts; swizzle is ours)",
                   .teaches = "column c of row r stored at c ^ r: conflict-free for float32 and float64 without "
                               "padding",
                   .slots = kTileShared};
    r.tile.swizzled = true;
    r.tile.decl = "tile[32][32], column c ^ r";
    return r;
  }

  // Blocks of 32 x BR threads over ceil(cols / 32) x ceil(rows / 32) tiles; each thread moves 32 / BR rows.
  template <unsigned BR, class T, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = transpose_swizzled<BR, T, Probe>;
    REDLAB_LAUNCH(fn, tile_grid(a), dim3(TILE_DIM, BR), 0, input_of<T>(a), output_of<T>(a), a.rows, a.cols, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(transpose_swizzled_record)
