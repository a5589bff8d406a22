// Neighbored pairs, the first kernel of every reduction lecture (Harris kernel 1, samples reduce0).
// At stride s, thread tid combines s[tid] and s[tid+s] when tid is a multiple of 2s. The active threads
// are spread across every warp, so almost every warp is divergent at every level, and `%` is slow.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void neighbored_modulo(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  __shared__ T s_mem[BLOCK];
  auto s = probe.shared(s_mem);
  auto input = probe.global(in, Buffer::input);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * BLOCK + tid;

  probe.step(Phase::load);
  probe.active();
  s[tid] = i < n ? input[i] : Op::identity();
  __syncthreads();

  for (unsigned stride = 1; stride < BLOCK; stride *= 2) {
    probe.step(Phase::tree, Label::stride, stride);
    if (tid % (2 * stride) == 0) {
      probe.active();
      s[tid] = op(s[tid], s[tid + stride]);
    }
    __syncthreads();
  }

  probe.step(Phase::store);
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, T(s[0]));
  }
  probe.finish();
}

}  // namespace redlab::kernels
