// Neighbored pairs with a strided index (Harris kernel 2, samples reduce1). Thread tid works on element
// 2*stride*tid, so the active threads are the first ones of the block and whole warps retire together: no
// divergence until fewer than 32 threads work. The price is shared-memory bank conflicts: lanes of one warp
// touch words 2*stride apart, which fall into the same banks once 2*stride reaches 2, 4, ... 32.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void neighbored_strided(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
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
    const unsigned a = 2 * stride * tid;
    if (a < BLOCK) {
      probe.active();
      s[a] = op(s[a], s[a + stride]);
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
