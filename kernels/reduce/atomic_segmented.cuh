// Segmented reduction with an atomic finish (PMPP section 10.6): the load_add kernel, but thread 0 of each
// block combines its block's result into out[0] with one atomic. One launch reduces any n; the atomics are
// serialised on one address, which costs little when there is one per 2B elements. Float sums then depend
// on the order the blocks finish in (not bit-reproducible run to run).
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void atomic_segmented(const T* in, T* out, unsigned n, Probe probe) {
  __shared__ T s_mem[BLOCK];
  auto s = probe.shared(s_mem);
  auto input = probe.global(in, Buffer::input);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned segment = 2 * BLOCK * blockIdx.x;
  const unsigned i = segment + tid;

  probe.step(Phase::load);
  probe.active();
  const T a = i < n ? input[i] : Op::identity();
  const T b = i + BLOCK < n ? input[i + BLOCK] : Op::identity();
  s[tid] = op(a, b);
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
