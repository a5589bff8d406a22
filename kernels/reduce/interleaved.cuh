// Interleaved pairs, or sequential addressing (Harris kernel 3, samples reduce2, the seeds' reduce_shared).
// At offset o (B/2 down to 1) the first o threads combine s[tid] and s[tid+o]: the active threads are
// contiguous (no divergence while o >= 32) and a warp's lanes read consecutive words (no bank conflicts).
// Half the threads already idle at the first level: the next kernels fix that.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void interleaved(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
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

  for (unsigned offset = BLOCK / 2; offset > 0; offset /= 2) {
    probe.step(Phase::tree, Label::offset, offset);
    if (tid < offset) {
      probe.active();
      s[tid] = op(s[tid], s[tid + offset]);
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

// The same kernel with its shared array sized at launch (`extern __shared__`, seed 002): one instantiation
// serves every block size, at the cost of a loop bound the compiler cannot unroll.
template <class T, class Op, class Probe>
__global__ void interleaved_dynamic(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  extern __shared__ unsigned char dynamic_smem[];
  auto s = probe.shared(reinterpret_cast<T*>(dynamic_smem));
  auto input = probe.global(in, Buffer::input);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;

  probe.step(Phase::load);
  probe.active();
  s[tid] = i < n ? input[i] : Op::identity();
  __syncthreads();

  for (unsigned offset = blockDim.x / 2; offset > 0; offset /= 2) {
    probe.step(Phase::tree, Label::offset, offset);
    if (tid < offset) {
      probe.active();
      s[tid] = op(s[tid], s[tid + offset]);
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
