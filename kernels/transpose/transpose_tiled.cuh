// The tiled transpose (seed 002's transpose1): the block reads its tile row by row into shared memory
// (coalesced), waits at a barrier, then writes the tile's columns as rows of the output (coalesced too).
// The price moves into shared memory: tile[tx][ty+j] has the 32 lanes of a warp 32 words apart, all in one
// bank, so each column read is a 32-way bank conflict (32 wavefronts for float32; 16 per half-warp for
// float64). The padded and swizzled tiles fix that.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK_ROWS, class T, class Probe>
__global__ void transpose_tiled(const T* in, T* out, unsigned rows, unsigned cols, Probe probe) {
  __shared__ T tile_mem[TILE_DIM][TILE_DIM];
  auto tile = probe.shared(tile_mem);
  auto input = probe.global(in, Buffer::input);
  auto output = probe.global(out, Buffer::output);
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned bx = blockIdx.x * TILE_DIM, by = blockIdx.y * TILE_DIM;  // the tile's first column, row

  probe.step(Phase::tile_load);
  for (unsigned j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (by + ty + j < rows && bx + tx < cols) {
      probe.active();
      tile[ty + j][tx] = input[(by + ty + j) * cols + bx + tx];
    }
  }
  __syncthreads();

  probe.step(Phase::tile_store);
  for (unsigned j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (bx + ty + j < cols && by + tx < rows) {
      probe.active();
      output[(bx + ty + j) * rows + by + tx] = tile[tx][ty + j];
    }
  }
  probe.finish();
}

}  // namespace redlab::kernels
