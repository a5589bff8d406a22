// Grid-stride loads and a warp-level block reduction (CUDA samples reduce7): the bounded grid of
// multi_element, but the block reduces through registers: every warp reduces its 32 values (one
// __reduce_add_sync instruction for int32 sum on sm_80+, shuffles otherwise), one shared value per warp,
// and the first warp reduces those. Two barriers per block instead of one per tree level.
#pragma once
#include "common.cuh"
#include "../block/block_reduce.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void grid_stride_warp(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  __shared__ T warp_sums_mem[BLOCK / kWarpSize];
  auto warp_sums = probe.shared(warp_sums_mem);
  auto input = probe.global(in, Buffer::input);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned grid_size = 2 * BLOCK * gridDim.x;

  T sum = Op::identity();
  for (unsigned base = 0; base < n; base += grid_size) {
    probe.step(Phase::load, Label::grid_stride, base / grid_size);
    probe.active();
    const unsigned i = base + 2 * BLOCK * blockIdx.x + tid;
    if (i < n) sum = op(sum, input[i]);
    if (i + BLOCK < n) sum = op(sum, input[i + BLOCK]);
  }

  sum = block_reduce<BLOCK, Op>(probe, warp_sums, sum, true);

  probe.step(Phase::store);
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, sum);
  }
  probe.finish();
}

}  // namespace redlab::kernels
