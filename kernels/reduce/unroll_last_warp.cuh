// Unrolling the last warp (Harris kernel 5, CUDA samples reduce4): the load_add kernel's tree runs with
// barriers only while more than 32 threads work. Then a single warp remains: it needs no __syncthreads, so
// the first warp adds s[tid + 32] and finishes with register shuffles (16, 8, 4, 2, 1).
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void unroll_last_warp(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  __shared__ T s_mem[BLOCK];
  auto s = probe.shared(s_mem);
  auto input = probe.global(in, Buffer::input);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned j = 2 * BLOCK * blockIdx.x + tid;

  probe.step(Phase::load);
  probe.active();
  const T a = j < n ? input[j] : Op::identity();
  const T b = j + BLOCK < n ? input[j + BLOCK] : Op::identity();
  s[tid] = op(a, b);
  __syncthreads();

  for (unsigned offset = BLOCK / 2; offset > 32; offset /= 2) {
    probe.step(Phase::tree, Label::offset, offset);
    if (tid < offset) {
      probe.active();
      s[tid] = op(s[tid], s[tid + offset]);
    }
    __syncthreads();
  }

  // One warp left: registers and shuffles, no barriers.
  probe.step(Phase::warp, Label::last_warp);
  T v = Op::identity();
  if (tid < 32) {
    probe.active();
    v = BLOCK >= 64 ? op(s[tid], s[tid + 32]) : T(s[tid]);
  }
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    probe.step(Phase::warp, Label::offset, offset);
    if (tid < 32) {
      probe.active();
      v = op(v, __shfl_down_sync(kFullMask, v, offset));
      probe.shuffled(v, offset);
    }
  }

  probe.step(Phase::store);
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, v);
  }
  probe.finish();
}

}  // namespace redlab::kernels
