// Launch geometry, barriers, static and dynamic shared memory, workers, launch validation.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "emu_test_util.h"

using namespace emu_test;

namespace redlab::kernels {
// Dynamic shared memory the way the repo's kernels declare it: block scope, namespace redlab::kernels.
inline void reverse_through_dynamic_smem(const int* in, int* out, std::uintptr_t* base) {
  extern __shared__ unsigned char dynamic_smem[];
  int* s = reinterpret_cast<int*>(dynamic_smem);
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + t;
  s[t] = in[i];
  __syncthreads();
  out[i] = s[blockDim.x - 1 - t];
  if (t == 0) base[blockIdx.x] = reinterpret_cast<std::uintptr_t>(dynamic_smem);
}
}  // namespace redlab::kernels

TEST(Runtime, EveryThreadRunsOnce) {
  const unsigned blocks = 37, threads = 200;
  std::vector<int> hits(blocks * threads, 0);
  launch(blocks, threads, 0, [&] { ++hits[gid()]; });
  for (int h : hits) ASSERT_EQ(h, 1);
}

TEST(Runtime, MultiDimensionalIndices) {
  const dim3 grid(3, 2, 2), block(8, 4, 2);
  const unsigned per_block = 64, total = 12 * per_block;
  struct Rec {
    uint3 t, b;
    dim3 bd, gd;
    int first_in_warp;
  };
  std::vector<Rec> recs(total);
  launch(grid, block, 0, [&] {
    const unsigned lin = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    const unsigned blin = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
    // Warps are formed from consecutive linear thread ids: lane 0 of each warp holds lin % 32 == 0.
    int first = __shfl_sync(0xffffffffu, int(lin), 0);
    recs[blin * per_block + lin] = {threadIdx, blockIdx, blockDim, gridDim, first};
  });
  for (unsigned b = 0; b < 12; ++b)
    for (unsigned l = 0; l < per_block; ++l) {
      const Rec& r = recs[b * per_block + l];
      ASSERT_EQ(r.t.x, l % 8);
      ASSERT_EQ(r.t.y, (l / 8) % 4);
      ASSERT_EQ(r.t.z, l / 32);
      ASSERT_EQ(r.b.x, b % 3);
      ASSERT_EQ(r.b.y, (b / 3) % 2);
      ASSERT_EQ(r.b.z, b / 6);
      ASSERT_EQ(r.bd.x, 8u);
      ASSERT_EQ(r.bd.y, 4u);
      ASSERT_EQ(r.bd.z, 2u);
      ASSERT_EQ(r.gd.x, 3u);
      ASSERT_EQ(r.gd.y, 2u);
      ASSERT_EQ(r.gd.z, 2u);
      ASSERT_EQ(r.first_in_warp, int(l / 32 * 32));
    }
}

TEST(Runtime, BarrierIsRealAcrossWarpsOf1024Threads) {
  // Each round every thread writes, syncs, reads a neighbour 33 places away (another warp), syncs again.
  const unsigned n = 1024, rounds = 8;
  std::vector<int> errors(2, 0);
  launch(2, n, 0, [&] {
    __shared__ int s[1024];
    const unsigned t = threadIdx.x;
    for (unsigned r = 0; r < rounds; ++r) {
      s[t] = int(r * 10000 + t + blockIdx.x);
      __syncthreads();
      const unsigned k = (t + 33 * (r + 1)) % n;
      if (s[k] != int(r * 10000 + k + blockIdx.x)) ++errors[blockIdx.x];
      __syncthreads();
    }
  });
  EXPECT_EQ(errors[0], 0);
  EXPECT_EQ(errors[1], 0);
}

TEST(Runtime, BarrierIgnoresExitedThreads) {
  // Hardware semantics: threads that returned early do not hold a barrier up.
  std::vector<int> got(64, -1);
  launch(1, 64, 0, [&] {
    __shared__ int s[64];
    const unsigned t = threadIdx.x;
    if (t >= 40) return;
    s[t] = int(t) * 2;
    __syncthreads();
    got[t] = s[39 - t];
  });
  for (int t = 0; t < 40; ++t) EXPECT_EQ(got[t], (39 - t) * 2);
}

TEST(Runtime, SyncthreadsCountAndOr) {
  std::vector<int> cnt(256), all(256), any(256), none(256);
  launch(1, 256, 0, [&] {
    const unsigned t = threadIdx.x;
    cnt[t] = __syncthreads_count(t % 5 == 0);
    all[t] = __syncthreads_and(t < 256);
    any[t] = __syncthreads_or(t == 77);
    none[t] = __syncthreads_or(0);
  });
  for (int t = 0; t < 256; ++t) {
    EXPECT_EQ(cnt[t], 52);
    EXPECT_EQ(all[t], 1);
    EXPECT_EQ(any[t], 1);
    EXPECT_EQ(none[t], 0);
  }
}

TEST(Runtime, StaticSharedMemoryIsPerBlock) {
  redlab::emu::set_workers(2);
  const unsigned blocks = 256;
  std::vector<int> bad(blocks, 0);
  std::mutex m;
  std::set<std::thread::id> workers;
  launch(blocks, 256, 0, [&] {
    __shared__ unsigned s[256];
    const unsigned t = threadIdx.x;
    if (t == 0) {
      std::lock_guard lk(m);
      workers.insert(std::this_thread::get_id());
    }
    s[t] = blockIdx.x;
    for (int k = 0; k < 8; ++k) __syncthreads();  // give the other worker's block time to run
    for (unsigned j = 0; j < 256; j += 17)
      if (s[(t + j) % 256] != blockIdx.x) ++bad[blockIdx.x];
    __syncthreads();
  });
  for (unsigned b = 0; b < blocks; ++b) EXPECT_EQ(bad[b], 0) << b;
  EXPECT_GE(workers.size(), 2u) << "two workers should have run blocks";
  redlab::emu::set_workers(0);
}

TEST(Runtime, DynamicSharedMemory) {
  const unsigned blocks = 8, threads = 512;
  std::vector<int> in(blocks * threads), out(blocks * threads, 0);
  for (unsigned i = 0; i < in.size(); ++i) in[i] = int(i * 3 + 1);
  std::vector<std::uintptr_t> base(blocks);
  redlab::emu::launch_kernel(blocks, threads, threads * sizeof(int), redlab::kernels::reverse_through_dynamic_smem,
                             in.data(), out.data(), base.data());
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < threads; ++t) ASSERT_EQ(out[b * threads + t], in[b * threads + threads - 1 - t]);
    EXPECT_EQ(base[b] % 128, 0u) << "the dynamic window starts on a 128-byte boundary";
  }
}

TEST(Runtime, DynamicSharedMemoryLimit) {
  using redlab::emu::kMaxDynamicSmem;
  EXPECT_EQ(kMaxDynamicSmem, 227u * 1024u);
  unsigned char last = 0;
  launch(1, 32, kMaxDynamicSmem, [&] {
    redlab::kernels::dynamic_smem[kMaxDynamicSmem - 1 - threadIdx.x] = 7;
    __syncthreads();
    if (threadIdx.x == 0) last = redlab::kernels::dynamic_smem[kMaxDynamicSmem - 1];
  });
  EXPECT_EQ(last, 7);
  EXPECT_THROW(launch(1, 32, kMaxDynamicSmem + 1, [] {}), LaunchError);
}

TEST(Runtime, LaunchValidation) {
  auto nop = [] {};
  EXPECT_THROW(launch(1, dim3(0, 1, 1), 0, nop), LaunchError);
  EXPECT_THROW(launch(1, 1025, 0, nop), LaunchError);
  EXPECT_THROW(launch(1, dim3(32, 32, 2), 0, nop), LaunchError);
  EXPECT_THROW(launch(1, dim3(1, 1, 65), 0, nop), LaunchError);
  EXPECT_THROW(launch(dim3(0, 1, 1), 32, 0, nop), LaunchError);
  EXPECT_THROW(launch(dim3(1, 0, 1), 32, 0, nop), LaunchError);
  EXPECT_THROW(launch(dim3(1, 1, 65536), 32, 0, nop), LaunchError);
  EXPECT_THROW(launch(1, 32, 0, std::function<void()>()), LaunchError);
  try {
    launch(1, 2048, 0, nop);
  } catch (const LaunchError& e) { EXPECT_NE(std::string(e.what()).find("1024"), std::string::npos) << e.what(); }
  launch(1, 1024, 0, nop);
  launch(1, dim3(32, 32, 1), 0, nop);
  launch(1, 1, 0, nop);
}

TEST(Runtime, WorkerCounts) {
  for (unsigned w : {1u, 3u, 2u}) {
    redlab::emu::set_workers(w);
    EXPECT_EQ(redlab::emu::workers(), w);
    std::vector<int> sums(50, 0);
    launch(50, 128, 0, [&] {
      __shared__ int s[128];
      s[threadIdx.x] = 1;
      __syncthreads();
      if (threadIdx.x == 0) {
        int a = 0;
        for (int i = 0; i < 128; ++i) a += s[i];
        sums[blockIdx.x] = a;
      }
    });
    for (int s : sums) EXPECT_EQ(s, 128);
  }
  redlab::emu::set_workers(0);
  EXPECT_GE(redlab::emu::workers(), 1u);
}

TEST(Runtime, LaunchesFromSeveralHostThreads) {
  std::vector<std::thread> hosts;
  std::vector<long> sums(4, 0);
  for (int h = 0; h < 4; ++h)
    hosts.emplace_back([&, h] {
      for (int rep = 0; rep < 5; ++rep) {
        std::vector<int> out(16 * 64);
        launch(16, 64, 0, [&] {
          int v = int(threadIdx.x) + h;
          v += __shfl_xor_sync(0xffffffffu, v, 16);
          out[gid()] = v;
        });
        for (int x : out) sums[h] += x;
      }
    });
  for (auto& t : hosts) t.join();
  for (int h = 0; h < 4; ++h) {
    long per_block = 0;
    for (int t = 0; t < 64; ++t) per_block += (t + h) + ((t ^ 16) + h);
    EXPECT_EQ(sums[h], per_block * 16 * 5);
  }
}

TEST(Runtime, YieldLetsSpinningThreadsProgress) {
  // A flag set by a later thread of the same block; __nanosleep hands the worker to the others.
  int flag = 0, seen = 0;
  launch(1, 64, 0, [&] {
    if (threadIdx.x == 0) {
      while (std::atomic_ref<int>(flag).load() == 0) __nanosleep(100);
      seen = 1;
    } else if (threadIdx.x == 63) {
      std::atomic_ref<int>(flag).store(1);
    }
  });
  EXPECT_EQ(seen, 1);
}

TEST(Runtime, LargeLaunch) {
  // 2^20 threads in blocks of 1024 with one barrier each.
  const unsigned blocks = 1024, threads = 1024;
  std::vector<unsigned> out(blocks);
  launch(blocks, threads, 0, [&] {
    __shared__ unsigned s[1024];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[1023] + blockIdx.x;
  });
  for (unsigned b = 0; b < blocks; ++b) ASSERT_EQ(out[b], 1023 + b);
}
