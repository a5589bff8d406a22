// PMPP section 10.4, the convergent kernel: thread tid owns x[tid] and, at stride s (B down to 1), adds
// x[tid + s] into it when tid < s. The active threads stay packed at the front of the block, so whole warps
// go idle instead of every warp thinning out, and each warp's loads are contiguous (fewer sectors).
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <class T, class Op, class Probe>
__global__ void pmpp_convergent(T* x_buf, T* out, bool atomic_finish, Probe probe) {
  auto x = probe.global(x_buf, Buffer::scratch);
  const Op op;
  const unsigned segment = 2 * blockDim.x * blockIdx.x;
  const unsigned i = segment + threadIdx.x;

  for (unsigned stride = blockDim.x; stride > 0; stride /= 2) {
    probe.step(Phase::tree, Label::stride, stride);
    if (threadIdx.x < stride) {
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
