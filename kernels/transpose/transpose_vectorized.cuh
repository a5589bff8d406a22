// Ours, the fastest: every access moves a pair of neighbouring elements (8 bytes for float32), and a block moves
// a 64 x 64 tile, four times the 32 x 32 one: twice the bytes per instruction and four times the bytes a block
// has in flight. A warp reads 64 neighbouring elements of an input row (256 bytes for float32) and writes 64 of
// an output row.
//
// A thread reads two pairs from the tile, rows 2tx and 2tx+1 at columns (2p, 2p+1): a 2 x 2 square of the matrix.
// Transposed in registers, it gives two output pairs, one for output row 2p (a.x, b.x) and one for 2p+1 (a.y, b.y).
//
// The tile is kept in pairs, tile[64][32], swizzled: pair u of row r is kept at u ^ (r / 2). Writing a row, the
// lanes fill 32 different pairs of one row. Reading, lane tx takes rows 2tx and 2tx+1 at pair p ^ tx: 16 lanes
// of a half-warp (an 8-byte access is served per half-warp) find 16 different pairs, so 32 different banks: the
// minimum of 2 wavefronts per request, for the row write and the column read. For float64 (16-byte pairs,
// served per quarter-warp) the 8 lanes of a quarter find 8 different 16-byte bank groups: 4, the minimum.
//
// A pair lies on an 8-byte (16-byte) boundary only if its first element's index is even: every input row starts
// on one if `cols` is even, every output row if `rows` is. Otherwise each pair is moved as two elements, the
// tile and its banks unchanged; the second elements then go in loops of their own, after the first: the last
// column of an odd side has none, and a warp's n-th request is each lane's n-th access of its kind, so a lane that
// makes fewer must make them last.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

constexpr unsigned PAIR_TILE_DIM = 64;

template <unsigned BLOCK_ROWS, class T, class Probe>
__global__ void transpose_vectorized(const T* in, T* out, unsigned rows, unsigned cols, Probe probe) {
  constexpr unsigned ROWS = PAIR_TILE_DIM / BLOCK_ROWS;       // tile rows a thread loads, a pair from each
  constexpr unsigned SQUARES = PAIR_TILE_DIM / 2 / BLOCK_ROWS;  // 2 x 2 squares a thread stores
  __shared__ Pair<T> tile_mem[PAIR_TILE_DIM][PAIR_TILE_DIM / 2];
  auto tile = probe.shared(tile_mem);
  auto input = probe.global(in, Buffer::input);
  auto output = probe.global(out, Buffer::output);
  auto input_pairs = probe.global(reinterpret_cast<const Pair<T>*>(in), Buffer::input);
  auto output_pairs = probe.global(reinterpret_cast<Pair<T>*>(out), Buffer::output);
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned bx = blockIdx.x * PAIR_TILE_DIM, by = blockIdx.y * PAIR_TILE_DIM;
  const bool aligned = rows % 2 == 0 && cols % 2 == 0;

  probe.step(Phase::tile_load);
  const unsigned col = bx + 2 * tx;  // this thread's pair in each input row it loads
  Pair<T> v[ROWS];
  for (unsigned i = 0; i < ROWS; ++i) {
    const unsigned row = by + ty + i * BLOCK_ROWS;
    if (row < rows && col < cols) {
      probe.active();
      v[i] = aligned ? Pair<T>(input_pairs[(row * cols + col) / 2]) : Pair<T>{input[row * cols + col], T(0)};
    }
  }
  for (unsigned i = 0; i < ROWS && !aligned; ++i) {
    const unsigned row = by + ty + i * BLOCK_ROWS;
    if (row < rows && col + 1 < cols) v[i].y = input[row * cols + col + 1];
  }
  for (unsigned i = 0; i < ROWS; ++i) {
    const unsigned r = ty + i * BLOCK_ROWS;
    if (by + r < rows && col < cols) tile[r][tx ^ (r / 2)] = v[i];
  }
  __syncthreads();

  probe.step(Phase::tile_store);
  const unsigned out_col = by + 2 * tx;  // this thread's pair in each output row it stores
  const bool on = out_col < rows, second_col = out_col + 1 < rows;
  Pair<T> a[SQUARES] = {}, b[SQUARES] = {};  // square i: tile rows 2tx (a) and 2tx + 1 (b), columns 2p and 2p + 1
  for (unsigned i = 0; i < SQUARES; ++i) {
    const unsigned p = ty + i * BLOCK_ROWS;
    if (bx + 2 * p < cols && on) {
      probe.active();
      a[i] = tile[2 * tx][p ^ tx];
    }
  }
  for (unsigned i = 0; i < SQUARES; ++i) {
    const unsigned p = ty + i * BLOCK_ROWS;
    if (bx + 2 * p < cols && second_col) b[i] = tile[2 * tx + 1][p ^ tx];
  }
  // Transposed in registers: output row 2p takes (a.x, b.x), row 2p + 1 takes (a.y, b.y).
  for (unsigned i = 0; i < SQUARES; ++i) {
    const unsigned row = bx + 2 * (ty + i * BLOCK_ROWS);
    if (row < cols && on) {
      if (aligned) {
        output_pairs[(row * rows + out_col) / 2] = Pair<T>{a[i].x, b[i].x};
        if (row + 1 < cols) output_pairs[((row + 1) * rows + out_col) / 2] = Pair<T>{a[i].y, b[i].y};
      } else {
        output[row * rows + out_col] = a[i].x;
        if (row + 1 < cols) output[(row + 1) * rows + out_col] = a[i].y;
      }
    }
  }
  for (unsigned i = 0; i < SQUARES && !aligned; ++i) {
    const unsigned row = bx + 2 * (ty + i * BLOCK_ROWS);
    if (row < cols && second_col) {
      output[row * rows + out_col + 1] = b[i].x;
      if (row + 1 < cols) output[(row + 1) * rows + out_col + 1] = b[i].y;
    }
  }
  probe.finish();
}

}  // namespace redlab::kernels
