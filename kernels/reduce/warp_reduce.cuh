// Warp-level reduction in registers, shared by the warp-level kernels (the CUB "warp layer").
#pragma once
#include <type_traits>

#include "common.cuh"

namespace redlab::kernels {

// The whole warp (all 32 lanes) reduces v; lane 0 ends with the result. int32 uses the sm_80+ redux
// instruction (__reduce_{add,min,max}_sync, one instruction for the whole tree); other types and older
// GPUs shuffle down 16, 8, 4, 2, 1.
template <class Op, class T>
REDLAB_DEVICE T warp_reduce(T v) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  constexpr bool redux = std::is_same_v<Op, Sum<int>> || std::is_same_v<Op, Min<int>> || std::is_same_v<Op, Max<int>>;
#else
  constexpr bool redux = false;
#endif
  if constexpr (redux) {
    if constexpr (std::is_same_v<Op, Sum<int>>) return __reduce_add_sync(kFullMask, v);
    else if constexpr (std::is_same_v<Op, Min<int>>) return __reduce_min_sync(kFullMask, v);
    else return __reduce_max_sync(kFullMask, v);
  } else {
    const Op op;
    for (unsigned offset = kWarpSize / 2; offset > 0; offset /= 2) v = op(v, __shfl_down_sync(kFullMask, v, offset));
    return v;
  }
}

}  // namespace redlab::kernels

namespace redlab::kernels {

// Block reduction through one shared value per warp: each warp reduces in registers, lane 0 writes the
// warp's value, the first warp reduces those. `take_part` is block-uniform (false: the block only keeps
// its steps in step with the others). The result is valid in thread 0.
template <unsigned BLOCK, class Op, class Probe, class WarpSums, class T>
REDLAB_DEVICE T block_reduce(Probe& probe, WarpSums warp_sums, T v, bool take_part) {
  constexpr unsigned WARPS = BLOCK / kWarpSize;
  const unsigned lane = threadIdx.x % kWarpSize;
  const unsigned warp = threadIdx.x / kWarpSize;

  probe.step(Phase::warp, Label::warp_reduce);
  if (take_part) {
    probe.active();
    v = warp_reduce<Op>(v);
  }
  probe.step(Phase::warp, Label::warp_sums_store);
  if (take_part && lane == 0) {
    probe.active();
    warp_sums[warp] = v;
  }
  __syncthreads();
  probe.step(Phase::warp, Label::warp_sums_load);
  if (take_part && warp == 0) {
    probe.active();
    v = lane < WARPS ? warp_sums[lane] : Op::identity();
  }
  probe.step(Phase::warp, Label::warp_reduce);
  if (take_part && warp == 0) {
    probe.active();
    v = warp_reduce<Op>(v);
  }
  return v;
}

}  // namespace redlab::kernels
