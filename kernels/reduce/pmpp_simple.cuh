// PMPP section 10.3, the simple (divergent) kernel, working in place on a scratch copy x in global memory.
// Block b owns 2B elements; thread tid owns x[2*tid]. At stride s, threads whose tid is a multiple of s add
// x[2*tid + s] into x[2*tid]. The book's loop stops at stride < B, which leaves x[B] out of the sum: the loop
// here runs to stride <= B. Active threads thin out inside every warp: control divergence at every level.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <class T, class Op, class Probe>
__global__ void pmpp_simple(T* x_buf, T* out, bool atomic_finish, Probe probe) {
  auto x = probe.global(x_buf, Buffer::scratch);
  const Op op;
  const unsigned segment = 2 * blockDim.x * blockIdx.x;
  const unsigned i = segment + 2 * threadIdx.x;

  for (unsigned stride = 1; stride <= blockDim.x; stride *= 2) {
    probe.step(Phase::tree, Label::stride, stride);
    if (threadIdx.x % stride == 0) {
      probe.active();
      x[i] = op(x[i], x[i + stride]);
    }
    __syncthreads();
  }

  probe.step(Phase::store);
  if (threadIdx.x == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, T(x[segment]));
  }
  probe.finish();
}

}  // namespace redlab::kernels
