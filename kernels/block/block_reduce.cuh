// The block layer (as CUB's cub/block): a block's reduction built on the warp layer, for the kernels that
// end a grid-stride loop with one (grid_stride_warp, vectorized).
#pragma once
#include "../probe.cuh"
#include "../warp/warp_reduce.cuh"

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
