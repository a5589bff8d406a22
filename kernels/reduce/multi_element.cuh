// Many elements per thread (Harris kernel 7, CUDA samples reduce6): a bounded grid walks the input in
// strides of the whole grid, each thread adding two elements per stride into a register; only then does the
// block run its tree (unrolled, last warp in registers). Work per thread grows with n, tree overhead does not.
// The loop bound is the same for every block (`base`), so all blocks make the same number of strides; the
// guards drop the tail (the samples write `while (i < n)`, the same work).
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void multi_element(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  __shared__ T s_mem[BLOCK];
  auto s = probe.shared(s_mem);
  auto input = probe.global(in, Buffer::input);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned grid_size = 2 * BLOCK * gridDim.x;

  T sum = Op::identity();
  for (unsigned base = 0; base < n; base += grid_size) {
    probe.step(Phase::load, Label::grid_stride, base / grid_size);
    probe.active();
    const unsigned i = base + 2 * BLOCK * blockIdx.x + tid;
    if (i < n) sum = op(sum, input[i]);
    if (i + BLOCK < n) sum = op(sum, input[i + BLOCK]);
  }
  probe.step(Phase::load, Label::to_shared);
  probe.active();
  s[tid] = sum;
  __syncthreads();

  for (unsigned offset = BLOCK / 2; offset > 32; offset /= 2) {
    probe.step(Phase::tree, Label::offset, offset);
    if (tid < offset) {
      probe.active();
      s[tid] = op(s[tid], s[tid + offset]);
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
