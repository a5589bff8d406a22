// cub::BlockReduce (seed 001): CUB's block layer does the block's tree. Three algorithms: warp_reductions
// (each warp reduces with shuffles, then the warp results), raking (a shared-memory raking grid, any
// operator order-preserving), raking_commutative_only (raking that may reorder: fewer steps). GPU only: the
// library is compiled for the device, not for the emulator.
#pragma once
#include <cub/block/block_reduce.cuh>

#include "../ops.cuh"

namespace redlab::kernels {

template <class Op>
struct CubOp {
  template <class T>
  __device__ __forceinline__ T operator()(const T& a, const T& b) const { return Op{}(a, b); }
};

template <unsigned BLOCK, cub::BlockReduceAlgorithm ALGO, class T, class Op>
__global__ void cub_block(const T* in, T* out, unsigned n) {
  using BlockReduce = cub::BlockReduce<T, BLOCK, ALGO>;
  __shared__ typename BlockReduce::TempStorage temp;
  const unsigned j = 2 * BLOCK * blockIdx.x + threadIdx.x;
  const Op op;
  T items[2] = {j < n ? in[j] : Op::identity(), j + BLOCK < n ? in[j + BLOCK] : Op::identity()};
  const T block_value = BlockReduce(temp).Reduce(items, CubOp<Op>{});
  if (threadIdx.x == 0) out[blockIdx.x] = block_value;
  (void)op;
}

}  // namespace redlab::kernels
