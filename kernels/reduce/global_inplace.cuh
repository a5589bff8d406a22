// The tree in global memory (seed 002 reduce_global, seed 000's first version): block b reduces its B
// elements of a scratch copy x in place, offset B/2 down to 1. Every level reads and writes global memory;
// the shared-memory kernels that follow do the same tree in on-chip memory.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <class T, class Op, class Probe>
__global__ void global_inplace(T* x_buf, T* out, bool atomic_finish, Probe probe) {
  auto x = probe.global(x_buf, Buffer::scratch);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned segment = blockIdx.x * blockDim.x;

  for (unsigned offset = blockDim.x / 2; offset > 0; offset /= 2) {
    probe.step(Phase::tree, Label::offset, offset);
    if (tid < offset) {
      probe.active();
      x[segment + tid] = op(x[segment + tid], x[segment + tid + offset]);
    }
    __syncthreads();
  }

  probe.step(Phase::store);
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, T(x[segment]));
  }
  probe.finish();
}

}  // namespace redlab::kernels
