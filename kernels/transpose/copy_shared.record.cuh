// copy_shared: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <string>

#include "../register.cuh"
#include "copy_shared.cuh"

namespace redlab::kernels {

struct copy_shared_record : transpose_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "copy_shared",
                   .title = "Copy through a shared tile",
                   .group = "8 transposes",
                   .sources = "002 (staging without transposing)",
                   .teaches = "what the shared tile and its barrier cost before any transposing",
                   .slots = kTileShared};
    r.copies = true;
    return r;
  }

  // Blocks of 32 x BR threads over ceil(cols / 32) x ceil(rows / 32) tiles; each thread moves 32 / BR rows.
  template <unsigned BR, class T, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = copy_shared<BR, T, Probe>;
    REDLAB_LAUNCH(fn, tile_grid(a), dim3(TILE_DIM, BR), 0, input_of<T>(a), output_of<T>(a), a.rows, a.cols, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(copy_shared_record)
