// copy: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <string>

#include "../register.cuh"
#include "copy.cuh"

namespace redlab::kernels {

struct copy_record : transpose_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "copy",
                   .title = "Matrix copy",
                   .group = "8 transposes",
                   .sources = "002 (the bandwidth ceiling)",
                   .teaches = "coalesced reads and writes: the bandwidth every transpose is measured against",
                   .slots = kTileGlobal};
    r.copies = true;
    r.reference = true;
    r.tile.shared = false;
    return r;
  }

  // Blocks of 32 x BR threads over ceil(cols / 32) x ceil(rows / 32) tiles; each thread moves 32 / BR rows.
  template <unsigned BR, class T, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = copy<BR, T, Probe>;
    REDLAB_LAUNCH(fn, tile_grid(a), dim3(TILE_DIM, BR), 0, input_of<T>(a), output_of<T>(a), a.rows, a.cols, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(copy_record)
