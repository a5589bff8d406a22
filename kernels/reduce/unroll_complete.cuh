// Completely unrolled (Harris kernel 6, CUDA samples reduce5): with the block size a template parameter,
// each level of the tree is an `if (BLOCK >= ...)` the compiler keeps or drops, so the loop, its counter and
// its branch disappear; the last warp shuffles with a fully unrolled loop.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void unroll_complete(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
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

  if (BLOCK >= 1024) {
    probe.step(Phase::tree, Label::offset, 512);
    if (tid < 512) {
      probe.active();
      s[tid] = op(s[tid], s[tid + 512]);
    }
    __syncthreads();
  }
  if (BLOCK >= 512) {
    probe.step(Phase::tree, Label::offset, 256);
    if (tid < 256) {
      probe.active();
      s[tid] = op(s[tid], s[tid + 256]);
    }
    __syncthreads();
  }
  if (BLOCK >= 256) {
    probe.step(Phase::tree, Label::offset, 128);
    if (tid < 128) {
      probe.active();
      s[tid] = op(s[tid], s[tid + 128]);
    }
    __syncthreads();
  }
  if (BLOCK >= 128) {
    probe.step(Phase::tree, Label::offset, 64);
    if (tid < 64) {
      probe.active();
      s[tid] = op(s[tid], s[tid + 64]);
    }
    __syncthreads();
  }

  probe.step(Phase::warp, Label::last_warp);
  T v = Op::identity();
  if (tid < 32) {
    probe.active();
    v = BLOCK >= 64 ? op(s[tid], s[tid + 32]) : T(s[tid]);
  }
#pragma unroll
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
