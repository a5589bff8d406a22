// The read ceiling: a grid-stride pass that only reads (16-byte loads, 4 in flight per thread) and writes
// one word per block, so the timing is the memory system's read bandwidth and nothing else.
#pragma once

namespace redlab::kernels {

__global__ void read_only_pass(const uint4* __restrict__ in, unsigned long long nvec, unsigned* sink) {
  const unsigned long long stride = 1ull * blockDim.x * gridDim.x;
  unsigned acc = 0;
  unsigned long long i = 1ull * blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < nvec; i += 4 * stride) {
    const uint4 a = in[i], b = in[i + stride], c = in[i + 2 * stride], d = in[i + 3 * stride];
    acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
  }
  for (; i < nvec; i += stride) {
    const uint4 a = in[i];
    acc ^= a.x ^ a.y ^ a.z ^ a.w;
  }
  // Keeps the loads alive; almost never taken.
  if (acc == 0x9e3779b9u) sink[blockIdx.x] = acc;
}

}  // namespace redlab::kernels
