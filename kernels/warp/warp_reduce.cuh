// The warp layer (as CUB's cub/warp): a reduction of 32 lanes' values in registers, for the kernels that
// finish with one (and for block_reduce, the block layer above it). The teaching kernels that show the
// shuffle tree itself (warp_shuffle, unroll_last_warp) write theirs out.
#pragma once
#include <type_traits>

#include "../ops.cuh"

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
