// The swizzled tile: tile[32][32], no padding; element (r, c) of the tile is kept in column c ^ r of row r.
// Writing a row, the 32 lanes (c = 0..31) still fill one row, each column once: no conflict. Reading a
// column c, lane r finds its element in column c ^ r: 32 different columns, so 32 different banks for
// float32 (1 wavefront). For float64 a row is 64 words and an element's bank pair is its column mod 16;
// 8-byte accesses are served per half-warp, and within lanes r = 0..15 (or 16..31) c ^ r takes 16
// different values mod 16: 1 wavefront per half-warp, the minimum, for the row write and the column read.
// The same conflict-free result as padding, and no shared memory spent on padding.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK_ROWS, class T, class Probe>
__global__ void transpose_swizzled(const T* in, T* out, unsigned rows, unsigned cols, Probe probe) {
  __shared__ T tile_mem[TILE_DIM][TILE_DIM];
  auto tile = probe.shared(tile_mem);
  auto input = probe.global(in, Buffer::input);
  auto output = probe.global(out, Buffer::output);
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned bx = blockIdx.x * TILE_DIM, by = blockIdx.y * TILE_DIM;

  probe.step(Phase::tile_load);
  for (unsigned j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (by + ty + j < rows && bx + tx < cols) {
      probe.active();
      tile[ty + j][tx ^ (ty + j)] = input[(by + ty + j) * cols + bx + tx];
    }
  }
  __syncthreads();

  probe.step(Phase::tile_store);
  for (unsigned j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (bx + ty + j < cols && by + tx < rows) {
      probe.active();
      output[(bx + ty + j) * rows + by + tx] = tile[tx][(ty + j) ^ tx];
    }
  }
  probe.finish();
}

}  // namespace redlab::kernels
