// transpose_padded: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <string>

#include "../register.cuh"
#include "transpose_padded.cuh"

namespace redlab::kernels {

struct transpose_padded_record : transpose_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "transpose_padded",
                   .title = "Padded tile, tile[32][33]",
                   .group = "8 transposes",
                   .sources = "002 (避免共享内存的 bank 冲突)",
                   .teaches = "one padding column shifts each row by a bank: the column read is conflict-free",
                   .slots = kTileShared};
    r.tile.pitch = 33;
    r.tile.decl = "tile[32][33]";
    r.compare_with = "transpose_tiled";
    return r;
  }

  // Blocks of 32 x BR threads over ceil(cols / 32) x ceil(rows / 32) tiles; each thread moves 32 / BR rows.
  template <unsigned BR, class T, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = transpose_padded<BR, T, Probe>;
    REDLAB_LAUNCH(fn, tile_grid(a), dim3(TILE_DIM, BR), 0, input_of<T>(a), output_of<T>(a), a.rows, a.cols, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(transpose_padded_record)
