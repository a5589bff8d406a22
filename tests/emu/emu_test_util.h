// Helpers shared by the emulator tests.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "emu/simt.h"

namespace emu_test {

using redlab::emu::launch;
using redlab::emu::LaunchError;

// The linear index of the current thread in the whole grid (1-D grids and blocks).
inline unsigned gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
inline unsigned lane_id() { return threadIdx.x % 32; }

// A launch that must work: a barrier-heavy kernel checks the runtime after an error.
inline void expect_healthy() {
  const unsigned n = 4 * 256;
  std::vector<int> out(n, -1);
  launch(4, 256, 0, [&] {
    __shared__ int s[256];
    const unsigned t = threadIdx.x;
    s[t] = int(t);
    __syncthreads();
    int v = s[(t + 1) % 256];
    __syncthreads();
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    out[gid()] = v;
  });
  for (unsigned i = 0; i < n; ++i) {
    unsigned t = i % 256;
    unsigned partner = t ^ 1u;
    int expect = int((t + 1) % 256) + int((partner + 1) % 256);
    ASSERT_EQ(out[i], expect) << "thread " << i;
  }
}

}  // namespace emu_test
