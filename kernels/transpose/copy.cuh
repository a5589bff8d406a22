// Matrix copy, the ceiling every transpose is measured against. A warp reads 32 neighbouring elements of
// one row and writes them to the same place in the output: both accesses are coalesced (4 sectors per
// request for float32, 8 for float64). Nothing a transpose does can move data faster than this.
// Steps: tile_load (global -> registers), tile_store (registers -> global).
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK_ROWS, class T, class Probe>
__global__ void copy(const T* in, T* out, unsigned rows, unsigned cols, Probe probe) {
  auto input = probe.global(in, Buffer::input);
  auto output = probe.global(out, Buffer::output);
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned x = blockIdx.x * TILE_DIM + tx;  // this thread's column
  const unsigned y0 = blockIdx.y * TILE_DIM;      // the tile's first row
  T v[TILE_DIM / BLOCK_ROWS] = {};  // the rows this thread moves, held in registers

  probe.step(Phase::tile_load);
  for (unsigned j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (y0 + ty + j < rows && x < cols) {
      probe.active();
      v[j / BLOCK_ROWS] = input[(y0 + ty + j) * cols + x];
    }
  }

  probe.step(Phase::tile_store);
  for (unsigned j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (y0 + ty + j < rows && x < cols) {
      probe.active();
      output[(y0 + ty + j) * cols + x] = v[j / BLOCK_ROWS];
    }
  }
  probe.finish();
}

}  // namespace redlab::kernels
