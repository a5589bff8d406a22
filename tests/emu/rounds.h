// Two small kernels the emulator's tests check and its benchmark times (test_kernels.cpp, emu_rates.cpp).
#pragma once
#include <functional>
#include <vector>

#include "emu/simt.h"

namespace emu_rounds {

// `rounds` times: each thread writes its value, a barrier, it adds its neighbour's low bit, a barrier (so that
// no thread overwrites a value its neighbour has yet to read). Blocks of 256; out[global thread] = its value.
inline void barrier_rounds(unsigned blocks, unsigned rounds, std::vector<int>& out) {
  redlab::emu::launch(blocks, 256, 0, [&] {
    __shared__ int s[256];
    int v = int(threadIdx.x);
    for (unsigned k = 0; k < rounds; ++k) {
      s[threadIdx.x] = v;
      __syncthreads();
      v += s[(threadIdx.x + 1) % 256] & 1;
      __syncthreads();
    }
    out[blockIdx.x * 256 + threadIdx.x] = v;
  });
}

// `rounds` butterfly shuffles: v += v of the lane 1 << (k % 5) away.
inline void shuffle_rounds(unsigned blocks, unsigned rounds, std::vector<int>& out) {
  redlab::emu::launch(blocks, 256, 0, [&] {
    int v = int(threadIdx.x);
    for (unsigned k = 0; k < rounds; ++k) v += __shfl_xor_sync(0xffffffffu, v, 1u << (k % 5));
    out[blockIdx.x * 256 + threadIdx.x] = v;
  });
}

}  // namespace emu_rounds
