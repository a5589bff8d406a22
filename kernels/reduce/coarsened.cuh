// Thread coarsening (PMPP section 10.7): each thread first combines 2C elements, j = 2CB*block + tid + k*B
// for k = 0 .. 2C-1 (coalesced: at each k a warp reads 32 consecutive elements), then the block runs the
// interleaved tree once and thread 0 finishes with an atomic. C times fewer blocks pay for a tree.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void coarsened(const T* in, T* out, unsigned n, unsigned coarse, Probe probe) {
  __shared__ T s_mem[BLOCK];
  auto s = probe.shared(s_mem);
  auto input = probe.global(in, Buffer::input);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned segment = 2 * coarse * BLOCK * blockIdx.x;

  probe.step(Phase::load);
  probe.active();
  T sum = Op::identity();
  for (unsigned k = 0; k < 2 * coarse; ++k) {
    const unsigned j = segment + tid + k * BLOCK;
    if (j < n) sum = op(sum, input[j]);
  }
  s[tid] = sum;
  __syncthreads();

  for (unsigned stride = BLOCK / 2; stride > 0; stride /= 2) {
    probe.step(Phase::tree, Label::stride, stride);
    if (tid < stride) {
      probe.active();
      s[tid] = op(s[tid], s[tid + stride]);
    }
    __syncthreads();
  }

  probe.step(Phase::store);
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, true, T(s[0]));
  }
  probe.finish();
}

}  // namespace redlab::kernels
