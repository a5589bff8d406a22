// The padded tile, tile[32][33]: one unused element at the end of each row shifts row r by r banks, so the
// column read tile[tx][ty+j] finds its 32 lanes in 32 different banks: 1 wavefront instead of 32 (float32).
// For float64 rows are 66 words apart and a half-warp's 16 lanes hit 16 different bank pairs: also
// conflict-free. The cost: 32 elements of shared memory per tile that hold nothing.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK_ROWS, class T, class Probe>
__global__ void transpose_padded(const T* in, T* out, unsigned rows, unsigned cols, Probe probe) {
  __shared__ T tile_mem[TILE_DIM][TILE_DIM + 1];
  auto tile = probe.shared(tile_mem);
  auto input = probe.global(in, Buffer::input);
  auto output = probe.global(out, Buffer::output);
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned bx = blockIdx.x * TILE_DIM, by = blockIdx.y * TILE_DIM;

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
