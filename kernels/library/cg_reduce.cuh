// Cooperative groups (CUDA samples cg_reduce): cg::reduce over a 32-thread tile does the warp tree (it
// picks redux.sync or shuffles itself); tiles' results meet in shared memory and the first tile reduces
// them. Grid-stride loads over a bounded grid. GPU only.
#pragma once
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "../ops.cuh"

namespace redlab::kernels {

// cg::reduce takes its own operator objects (it picks redux.sync for int plus/less/greater).
template <class Op> struct CgOp;
template <class T> struct CgOp<Sum<T>> { using type = cooperative_groups::plus<T>; };
template <class T> struct CgOp<Min<T>> { using type = cooperative_groups::less<T>; };
template <class T> struct CgOp<Max<T>> { using type = cooperative_groups::greater<T>; };

template <unsigned BLOCK, class T, class Op>
__global__ void cg_reduce(const T* in, T* out, unsigned n) {
  namespace cg = cooperative_groups;
  constexpr unsigned WARPS = BLOCK / 32;
  __shared__ T tile_values[WARPS];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const Op op;
  const unsigned grid_size = 2 * BLOCK * gridDim.x;
  T sum = Op::identity();
  for (unsigned i = 2 * BLOCK * blockIdx.x + threadIdx.x; i < n; i += grid_size) {
    sum = op(sum, in[i]);
    if (i + BLOCK < n) sum = op(sum, in[i + BLOCK]);
  }
  sum = cg::reduce(tile, sum, typename CgOp<Op>::type{});
  if (tile.thread_rank() == 0) tile_values[tile.meta_group_rank()] = sum;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    sum = tile.thread_rank() < WARPS ? tile_values[tile.thread_rank()] : Op::identity();
    sum = cg::reduce(tile, sum, typename CgOp<Op>::type{});
    if (tile.thread_rank() == 0) out[blockIdx.x] = sum;
  }
}

}  // namespace redlab::kernels
