// Deadlock diagnosis, strict barriers, exception propagation, unwinding, recovery after every error.
#include <atomic>
#include <functional>
#include <stdexcept>
#include <string>

#include "emu_test_util.h"

using namespace emu_test;

namespace {

// Runs a launch that must fail with LaunchError and returns its message.
template <class F>
std::string launch_error(dim3 grid, dim3 block, F&& body) {
  try {
    launch(grid, block, 0, body);
  } catch (const LaunchError& e) { return e.what(); }
  ADD_FAILURE() << "expected LaunchError";
  return {};
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(Deadlock, ShuffleWithFullMaskInsideDivergentBranch) {
  // The seed's bug: the mask names all 32 lanes, but only lanes 0-7 execute the shuffle.
  int line = 0;
  const std::string m = launch_error(1, 32, [&] {
    const unsigned tid = threadIdx.x;
    int v = int(tid);
    if (tid < 8) {
      for (unsigned o = 4; o > 0; o /= 2) {
        line = __LINE__ + 1;
        v += __shfl_down_sync(0xffffffffu, v, o);
      }
    }
  });
  EXPECT_TRUE(has(m, "deadlock in block 0")) << m;
  EXPECT_TRUE(has(m, "__shfl_down_sync")) << m;
  EXPECT_TRUE(has(m, "kernel line " + std::to_string(line))) << m;
  EXPECT_TRUE(has(m, "lanes 8-31")) << m;
  EXPECT_TRUE(has(m, "exited without calling it")) << m;
  EXPECT_TRUE(has(m, "8 arrived")) << m;
  expect_healthy();
}

TEST(Deadlock, SameBugInALaterWarpOfABiggerBlock) {
  // 256 threads; warp 3 is the one whose branch leaves lanes out, and other warps wait at a barrier.
  const std::string m = launch_error(2, 256, [&] {
    const unsigned tid = threadIdx.x;
    int v = 1;
    if (tid < 96 + 4 && blockIdx.x == 1) v += __shfl_xor_sync(0xffffffffu, v, 1);
    __syncthreads();
  });
  EXPECT_TRUE(has(m, "block 1")) << m;
  EXPECT_TRUE(has(m, "__shfl_xor_sync")) << m;
  EXPECT_TRUE(has(m, "warp 3")) << m;
  EXPECT_TRUE(has(m, "lanes 4-31")) << m;
  expect_healthy();
}

TEST(Deadlock, DivergentBarrierAgainstWarpSync) {
  // Lanes 0-15 wait at __syncthreads; lanes 16-31 wait in a __syncwarp that names lanes 0-15.
  const std::string m = launch_error(1, 32, [&] {
    if (threadIdx.x < 16)
      __syncthreads();
    else
      __syncwarp();
  });
  EXPECT_TRUE(has(m, "__syncwarp")) << m;
  EXPECT_TRUE(has(m, "lanes 0-15")) << m;
  EXPECT_TRUE(has(m, "wait at __syncthreads")) << m;
  expect_healthy();
}

TEST(Deadlock, BarrierAtDifferentLines) {
  int first = 0, second = 0;
  const std::string m = launch_error(1, 64, [&] {
    if (threadIdx.x < 16) {
      first = __LINE__ + 1;
      __syncthreads();
    }
    second = __LINE__ + 1;
    __syncthreads();
  });
  EXPECT_TRUE(has(m, "different lines")) << m;
  EXPECT_TRUE(has(m, "16 threads wait at kernel line " + std::to_string(first))) << m;
  EXPECT_TRUE(has(m, "arrived at kernel line " + std::to_string(second))) << m;
  expect_healthy();
}

TEST(Deadlock, TwoBarriersOnOneLine) {
  // clang-format off
  const std::string m = launch_error(1, 32, [&] { if (threadIdx.x < 16) __syncthreads(); else __syncthreads(); });
  // clang-format on
  EXPECT_TRUE(has(m, "different call sites of one line")) << m;
  EXPECT_TRUE(has(m, "column")) << m;
  expect_healthy();
}

TEST(Deadlock, DifferentIntrinsicsWithOneMask) {
  const std::string m = launch_error(1, 32, [&] {
    if (threadIdx.x < 16)
      (void)__ballot_sync(0xffffffffu, 1);
    else
      (void)__shfl_sync(0xffffffffu, 1, 0);
  });
  EXPECT_TRUE(has(m, "different warp intrinsics")) << m;
  EXPECT_TRUE(has(m, "__ballot_sync")) << m;
  EXPECT_TRUE(has(m, "__shfl_sync")) << m;
  expect_healthy();
}

TEST(Deadlock, OverlappingMasks) {
  // Lanes 0-15 complete among themselves and leave; the full-mask group is left waiting for them.
  const std::string m = launch_error(1, 32, [&] {
    if (threadIdx.x < 16)
      (void)__shfl_sync(0x0000ffffu, 1, 0);
    else
      (void)__shfl_sync(0xffffffffu, 1, 0);
  });
  EXPECT_TRUE(has(m, "lanes 0-15")) << m;
  EXPECT_TRUE(has(m, "exited")) << m;
  expect_healthy();
}

TEST(Deadlock, MaskNamingLaneWaitingInAnotherMask) {
  const std::string m = launch_error(1, 32, [&] {
    const unsigned l = threadIdx.x;
    if (l == 0)
      (void)__shfl_sync(0x3u, 1, 0);  // waits for lane 1 with mask 0x3
    else if (l == 1)
      (void)__shfl_sync(0x7u, 1, 0);  // waits for lanes 0 and 2 with mask 0x7
    else if (l == 2)
      (void)__shfl_sync(0x7u, 1, 0);
  });
  EXPECT_TRUE(has(m, "deadlock")) << m;
  EXPECT_TRUE(has(m, "mask 0x00000003") || has(m, "mask 0x00000007")) << m;
  expect_healthy();
}

TEST(Deadlock, StrictBarrierModeFlagsDivergentBarrier) {
  auto divergent = [&] {
    if (threadIdx.x < 16) __syncthreads();  // the others exit without reaching it
  };
  // Hardware semantics (default): exited threads do not count, the barrier completes.
  launch(1, 32, 0, divergent);
  redlab::emu::set_barrier_mode(redlab::emu::BarrierMode::strict);
  const std::string m = launch_error(1, 32, divergent);
  const std::string m2 = launch_error(1, 64, [&] {
    if (threadIdx.x < 32) return;  // an early return before a barrier
    __syncthreads();
  });
  redlab::emu::set_barrier_mode(redlab::emu::BarrierMode::hardware);
  EXPECT_TRUE(has(m, "divergent barrier in block 0")) << m;
  EXPECT_TRUE(has(m, "reached by 16 of 32 threads")) << m;
  EXPECT_TRUE(has(m2, "already exited")) << m2;
  expect_healthy();
}

TEST(Errors, ExceptionPropagatesAndWaitingThreadsUnwind) {
  redlab::emu::set_workers(1);
  std::atomic<int> constructed{0}, destroyed{0};
  struct Guard {
    std::atomic<int>& d;
    ~Guard() { ++d; }
  };
  try {
    launch(1, 256, 0, [&] {
      ++constructed;
      Guard g{destroyed};
      if (threadIdx.x == 37) throw std::runtime_error("boom in thread 37");
      __syncthreads();
    });
    FAIL() << "expected the exception";
  } catch (const std::runtime_error& e) { EXPECT_STREQ(e.what(), "boom in thread 37"); }
  EXPECT_EQ(constructed.load(), destroyed.load()) << "every started thread's locals were destroyed";
  EXPECT_GE(constructed.load(), 38);
  redlab::emu::set_workers(0);
  expect_healthy();
}

TEST(Errors, FirstExceptionOfManyBlocks) {
  for (unsigned w : {1u, 2u}) {
    redlab::emu::set_workers(w);
    try {
      launch(100, 64, 0, [&] {
        __syncthreads();
        if (threadIdx.x == 5) throw std::logic_error("block " + std::to_string(blockIdx.x));
      });
      FAIL();
    } catch (const std::logic_error& e) { EXPECT_EQ(std::string(e.what()).rfind("block ", 0), 0u); }
    expect_healthy();
  }
  redlab::emu::set_workers(0);
}

TEST(Errors, NestedLaunchIsAnError) {
  EXPECT_THROW(launch(1, 1, 0, [&] { launch(1, 1, 0, [] {}); }), LaunchError);
  expect_healthy();
}

TEST(Errors, ManyErrorsInARow) {
  for (int i = 0; i < 50; ++i) {
    EXPECT_THROW(launch(4, 128, 0,
                        [&] {
                          if (threadIdx.x < 48)
                            __syncthreads();
                          else
                            (void)__ballot_sync(0xffffffffu, 1);
                        }),
                 LaunchError);
  }
  expect_healthy();
}
