// End to end: CUDA-style kernels compiled through kernels/cuda_compat.cuh (the rates: emu_rates.cpp).
#include <chrono>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "emu_test_util.h"
#include "rounds.h"
#include "kernels/cuda_compat.cuh"

using namespace emu_test;

namespace redlab::kernels {

// Shared-memory tree down to one warp, then shuffles; thread 0 adds the block's sum atomically.
template <unsigned BLOCK, class T>
__global__ void tiny_reduce(const T* in, T* out, unsigned n) {
  __shared__ T s[BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * BLOCK * 2 + tid;
  T v = i < n ? in[i] : T(0);
  if (i + BLOCK < n) v += in[i + BLOCK];
  s[tid] = v;
  __syncthreads();
  for (unsigned o = BLOCK / 2; o >= kWarpSize; o /= 2) {
    if (tid < o) s[tid] = s[tid] + s[tid + o];
    __syncthreads();
  }
  if (tid < kWarpSize) {
    T w = s[tid];
    for (unsigned o = kWarpSize / 2; o > 0; o /= 2) w += __shfl_down_sync(kFullMask, w, o);
    if (tid == 0) atomicAdd(out, w);
  }
}

// The same with the shared array sized at launch.
template <class T>
__global__ void tiny_reduce_dynamic(const T* in, T* partials, unsigned n) {
  extern __shared__ unsigned char dynamic_smem[];
  T* s = reinterpret_cast<T*>(dynamic_smem);
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned o = blockDim.x / 2; o > 0; o /= 2) {
    if (tid < o) s[tid] += s[tid + o];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = s[0];
}

}  // namespace redlab::kernels

TEST(Kernels, TinyReductionInt) {
  for (unsigned n : {1u, 31u, 32u, 33u, 255u, 256u, 257u, 1000u, 4097u, (1u << 20) + 3u}) {
    std::vector<int> in(n);
    for (unsigned i = 0; i < n; ++i) in[i] = int(i % 251) - 125;
    int out = 0;
    const unsigned blocks = (n + 511) / 512;
    redlab::emu::launch_kernel(blocks, 256, 0, redlab::kernels::tiny_reduce<256, int>, in.data(), &out, n);
    EXPECT_EQ(out, std::accumulate(in.begin(), in.end(), 0)) << "n = " << n;
  }
}

TEST(Kernels, TinyReductionDoubleAndBlockSizes) {
  const unsigned n = 100000;
  std::vector<double> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = 0.5 * (i % 17);
  const double ref = std::accumulate(in.begin(), in.end(), 0.0);
  double out = 0;
  redlab::emu::launch_kernel((n + 2047) / 2048, 1024, 0, redlab::kernels::tiny_reduce<1024, double>, in.data(), &out,
                             n);
  EXPECT_EQ(out, ref);
  out = 0;
  redlab::emu::launch_kernel((n + 63) / 64, 32, 0, redlab::kernels::tiny_reduce<32, double>, in.data(), &out, n);
  EXPECT_EQ(out, ref);
}

TEST(Kernels, DynamicSharedReduction) {
  const unsigned n = 5000;
  std::vector<float> in(n, 1.0f);
  for (unsigned b : {32u, 128u, 512u}) {
    const unsigned blocks = (n + b - 1) / b;
    std::vector<float> partials(blocks, -1.0f);
    redlab::emu::launch_kernel(blocks, b, b * sizeof(float), redlab::kernels::tiny_reduce_dynamic<float>, in.data(),
                               partials.data(), n);
    float total = 0;
    for (float p : partials) total += p;
    EXPECT_EQ(total, float(n)) << "block " << b;
    EXPECT_EQ(partials[0], float(b));
  }
}

// ---- the kernels emu_rates.cpp times, checked for what they compute -------------------------------------

// Ten rounds of: each thread writes its value, a barrier, it adds its neighbour's low bit, a barrier (so that
// no thread overwrites a value its neighbour has yet to read). And ten rounds of butterfly shuffles.
TEST(Kernels, BarrierAndShuffleRoundsGiveTheirValuesOnOneAndTwoWorkers) {
  const unsigned threads = 1u << 12, block = 256, rounds = 10;
  std::vector<int> want_barrier(threads), want_shuffle(threads);
  for (unsigned b = 0; b < threads / block; ++b) {
    std::vector<int> v(block), next(block);
    for (unsigned t = 0; t < block; ++t) v[t] = int(t);
    for (unsigned k = 0; k < rounds; ++k) {
      for (unsigned t = 0; t < block; ++t) next[t] = v[t] + (v[(t + 1) % block] & 1);
      v = next;
    }
    for (unsigned t = 0; t < block; ++t) want_barrier[b * block + t] = v[t];
    for (unsigned w = 0; w < block / 32; ++w) {
      std::vector<int> u(32), un(32);
      for (unsigned l = 0; l < 32; ++l) u[l] = int(w * 32 + l);
      for (unsigned k = 0; k < rounds; ++k) {
        for (unsigned l = 0; l < 32; ++l) un[l] = u[l] + u[l ^ (1u << (k % 5))];
        u = un;
      }
      for (unsigned l = 0; l < 32; ++l) want_shuffle[b * block + w * 32 + l] = u[l];
    }
  }
  for (unsigned workers : {1u, 2u}) {
    redlab::emu::set_workers(workers);
    std::vector<int> got(threads);
    emu_rounds::barrier_rounds(threads / block, rounds, got);
    EXPECT_EQ(got, want_barrier) << workers << " worker(s)";
    emu_rounds::shuffle_rounds(threads / block, rounds, got);
    EXPECT_EQ(got, want_shuffle) << workers << " worker(s)";
  }
  redlab::emu::set_workers(0);
}
