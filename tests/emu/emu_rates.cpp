// The CPU SIMT emulator's speed: thread-barrier passes and shuffles per second, an empty launch, a launch of
// 2^20 threads. A benchmark, not a test (it asserts nothing): run build/tests/emu/redlab_emu_rates.
// Tests/emu/test_kernels.cpp checks that these kernels compute what they should.
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "emu/simt.h"
#include "rounds.h"

using redlab::emu::launch;

namespace {
unsigned gid() { return blockIdx.x * blockDim.x + threadIdx.x; }

double seconds_of(const std::function<void()>& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main() {
  const unsigned threads = 1u << 16, block = 256, rounds = 10;
  std::vector<int> sink(threads);
  for (unsigned w : {1u, 2u}) {
    redlab::emu::set_workers(w);
    emu_rounds::barrier_rounds(threads / block, rounds, sink);  // warm up: fibers and stacks
    const double t_empty = seconds_of([&] { launch(threads / block, block, 0, [&] { sink[gid()] = 1; }); });
    const double t_bar = seconds_of([&] { emu_rounds::barrier_rounds(threads / block, rounds, sink); });
    const double t_shfl = seconds_of([&] { emu_rounds::shuffle_rounds(threads / block, rounds, sink); });
    const double passes = double(threads) * rounds;
    std::printf(
        "workers=%u  2^16 threads x 20 __syncthreads: %.4f s (%.1f M thread-barrier passes/s); "
        "x 10 __shfl_xor_sync: %.4f s (%.1f M/s); empty launch: %.4f s\n",
        w, t_bar, 2 * passes / t_bar / 1e6, t_shfl, passes / t_shfl / 1e6, t_empty);
  }
  std::vector<unsigned> out(1024);
  const double t_big = seconds_of([&] {
    launch(1024, 1024, 0, [&] {
      __shared__ unsigned s[1024];
      s[threadIdx.x] = threadIdx.x;
      __syncthreads();
      if (threadIdx.x == 0) out[blockIdx.x] = s[1023];
    });
  });
  std::printf("workers=2  2^20 threads (1024 x 1024), one barrier: %.4f s\n", t_big);
  return 0;
}
