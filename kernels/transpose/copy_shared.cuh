// Copy through a shared-memory tile, without transposing: each thread writes tile[ty+j][tx] and reads the
// same element back after a barrier. Both shared accesses walk along a row (consecutive banks, no
// conflict) and both global accesses are coalesced, so the gap to `copy` is the price of the staging and
// the __syncthreads() alone. The transposes below pay this price too.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK_ROWS, class T, class Probe>
__global__ void copy_shared(const T* in, T* out, unsigned rows, unsigned cols, Probe probe) {
  __shared__ T tile_mem[TILE_DIM][TILE_DIM];
  auto tile = probe.shared(tile_mem);
  auto input = probe.global(in, Buffer::input);
  auto output = probe.global(out, Buffer::output);
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned x = blockIdx.x * TILE_DIM + tx;
  const unsigned y0 = blockIdx.y * TILE_DIM;

  probe.step(Phase::tile_load);
  for (unsigned j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (y0 + ty + j < rows && x < cols) {
      probe.active();
      tile[ty + j][tx] = input[(y0 + ty + j) * cols + x];
    }
  }
  __syncthreads();

  probe.step(Phase::tile_store);
  for (unsigned j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (y0 + ty + j < rows && x < cols) {
      probe.active();
      output[(y0 + ty + j) * cols + x] = tile[ty + j][tx];
    }
  }
  probe.finish();
}

}  // namespace redlab::kernels
