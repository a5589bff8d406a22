// The naive transpose, out[x][y] = in[y][x], straight from global memory. A warp reads 32 neighbours of one
// input row (coalesced), but those elements land in 32 different output rows, `rows` elements apart: every
// store request touches 32 sectors where a coalesced one needs 4 (float32). Scattered writes are what the
// shared-memory tile of the next kernels removes.
// Steps: tile_load (global -> registers), tile_store (registers -> global, transposed).
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK_ROWS, class T, class Probe>
__global__ void transpose_naive(const T* in, T* out, unsigned rows, unsigned cols, Probe probe) {
  auto input = probe.global(in, Buffer::input);
  auto output = probe.global(out, Buffer::output);
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned x = blockIdx.x * TILE_DIM + tx;  // input column = output row
  const unsigned y0 = blockIdx.y * TILE_DIM;
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
      output[x * rows + y0 + ty + j] = v[j / BLOCK_ROWS];
    }
  }
  probe.finish();
}

}  // namespace redlab::kernels
