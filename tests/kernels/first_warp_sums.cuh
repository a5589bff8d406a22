// A test-only kernel (tests/kernels/README.md): proves that a kernel is its .cuh and its .record.cuh. Each
// warp's lane 0 adds its warp's 32 values one after another from shared memory, then thread 0 adds the
// warp sums: serial where the catalog's kernels use trees, so its per-step figures are easy to work out.
#pragma once
#include "kernels/reduce/common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void first_warp_sums(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  constexpr unsigned WARPS = BLOCK / kWarpSize;
  __shared__ T s_mem[BLOCK];
  __shared__ T warp_sums_mem[WARPS];
  auto s = probe.shared(s_mem);
  auto warp_sums = probe.shared(warp_sums_mem);
  auto input = probe.global(in, Buffer::input);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * BLOCK + tid;

  probe.step(Phase::load);
  probe.active();
  s[tid] = i < n ? input[i] : Op::identity();
  __syncthreads();

  probe.step(Phase::tree, Label::warp_reduce);
  if (tid % kWarpSize == 0) {
    probe.active();
    T sum = s[tid];
    for (unsigned k = 1; k < kWarpSize; ++k) sum = op(sum, T(s[tid + k]));
    warp_sums[tid / kWarpSize] = sum;
  }
  __syncthreads();

  probe.step(Phase::tree, Label::warp_sums_load);
  if (tid == 0) {
    probe.active();
    T sum = warp_sums[0];
    for (unsigned w = 1; w < WARPS; ++w) sum = op(sum, T(warp_sums[w]));
    s[0] = sum;
  }
  __syncthreads();

  probe.step(Phase::store);
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, T(s[0]));
  }
  probe.finish();
}

}  // namespace redlab::kernels
