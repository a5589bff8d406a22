// Warp shuffles (seed 000, 线程束内函数): each warp reduces its 32 values in registers with
// __shfl_down_sync (offsets 16, 8, 4, 2, 1), lane 0 of each warp writes its warp's result to shared memory,
// and the first warp reduces those. No shared-memory tree, no __syncthreads between levels.
//
// The seed's second stage runs `if (tid < BLOCK/32) { ... __shfl_down_sync(0xffffffff, ...) }`: the mask
// names all 32 lanes but only BLOCK/32 of them execute the shuffle. Lanes named in the mask must all execute
// it, so that is undefined behaviour (on Volta and later it can hang or read garbage). Here the whole first
// warp takes part and lanes past the number of warps contribute the identity.
#pragma once
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void warp_shuffle(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  constexpr unsigned WARPS = BLOCK / kWarpSize;
  __shared__ T warp_sums_mem[WARPS];
  auto warp_sums = probe.shared(warp_sums_mem);
  auto input = probe.global(in, Buffer::input);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned lane = tid % kWarpSize;
  const unsigned warp = tid / kWarpSize;
  const unsigned i = blockIdx.x * BLOCK + tid;

  probe.step(Phase::load);
  probe.active();
  T v = i < n ? input[i] : Op::identity();

  for (unsigned offset = kWarpSize / 2; offset > 0; offset /= 2) {
    probe.step(Phase::warp, Label::offset, offset);
    probe.active();
    v = op(v, __shfl_down_sync(kFullMask, v, offset));
    probe.shuffled(v, offset);
  }

  probe.step(Phase::warp, Label::warp_sums_store);
  if (lane == 0) {
    probe.active();
    warp_sums[warp] = v;
  }
  __syncthreads();

  probe.step(Phase::warp, Label::warp_sums_load);
  if (warp == 0) {
    probe.active();
    v = lane < WARPS ? warp_sums[lane] : Op::identity();
  }
  for (unsigned offset = WARPS / 2; offset > 0; offset /= 2) {
    probe.step(Phase::warp, Label::offset, offset);
    if (warp == 0) {
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
