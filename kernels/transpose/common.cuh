// What the transpose kernels share. A matrix of `rows` x `cols` elements (row-major) is cut into 32 x 32
// tiles; block (bx, by) of the grid owns the tile whose first column is bx*32 and first row by*32. The block
// has 32 x K threads (K = BLOCK_ROWS, --block-rows), so each thread moves 32/K elements of its column of the
// tile, rows ty, ty+K, ty+2K, ... Threads outside the matrix (edge tiles) do nothing: every access is guarded.
#pragma once
#include "../probe.cuh"

namespace redlab::kernels {

constexpr unsigned TILE_DIM = 32;

// Two neighbouring elements of a row, moved by one access: 8 bytes for float32, 16 for float64. Its alignment
// makes the compiler emit one vector instruction (LDG.64, STS.64, ...) where the address allows it.
template <class T>
struct alignas(2 * sizeof(T)) Pair {
  T x, y;
};

}  // namespace redlab::kernels
