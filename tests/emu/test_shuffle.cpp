// Warp shuffles: every variant, every segment width, out-of-range sources, partial masks, every type.
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "emu_test_util.h"

using namespace emu_test;

namespace {

// Reference source lanes, written from the CUDA Programming Guide's descriptions (not from the PTX formula the
// emulator uses), so the two cross-check.
unsigned ref_idx(unsigned lane, int src, int width) { return (lane / width) * width + unsigned(src) % unsigned(width); }
unsigned ref_up(unsigned lane, unsigned delta, int width) {
  return lane % unsigned(width) >= delta ? lane - delta : lane;  // below the segment start: own value
}
unsigned ref_down(unsigned lane, unsigned delta, int width) {
  return lane % unsigned(width) + delta < unsigned(width) ? lane + delta : lane;  // past the segment: own value
}
unsigned ref_xor(unsigned lane, int mask, int width) {
  unsigned src = lane ^ unsigned(mask);
  return src / unsigned(width) > lane / unsigned(width) ? lane : src;  // a later group: own value
}

enum class Op { idx, up, down, bfly };

// Runs one shuffle over a block of `threads` (full mask) and checks every lane against the reference.
void check_shuffle(Op op, int arg, int width, unsigned threads = 64) {
  std::vector<int> got(threads, -1);
  launch(1, threads, 0, [&] {
    const unsigned t = threadIdx.x;
    int v = int(1000 + t * 7);
    int r = 0;
    switch (op) {
      case Op::idx: r = __shfl_sync(0xffffffffu, v, arg, width); break;
      case Op::up: r = __shfl_up_sync(0xffffffffu, v, unsigned(arg), width); break;
      case Op::down: r = __shfl_down_sync(0xffffffffu, v, unsigned(arg), width); break;
      case Op::bfly: r = __shfl_xor_sync(0xffffffffu, v, arg, width); break;
    }
    got[t] = r;
  });
  for (unsigned t = 0; t < threads; ++t) {
    unsigned lane = t % 32, warp = t / 32, src = 0;
    switch (op) {
      case Op::idx: src = ref_idx(lane, arg, width); break;
      case Op::up: src = ref_up(lane, unsigned(arg), width); break;
      case Op::down: src = ref_down(lane, unsigned(arg), width); break;
      case Op::bfly: src = ref_xor(lane, arg, width); break;
    }
    ASSERT_EQ(got[t], int(1000 + (warp * 32 + src) * 7))
        << "op " << int(op) << " arg " << arg << " width " << width << " thread " << t;
  }
}

}  // namespace

TEST(Shuffle, IdxEveryWidthAndSource) {
  for (int width : {1, 2, 4, 8, 16, 32})
    for (int src : {0, 1, 3, 5, 7, 15, 16, 31, 37})  // 37: taken modulo the width
      check_shuffle(Op::idx, src, width);
}

TEST(Shuffle, UpEveryWidthAndDelta) {
  for (int width : {1, 2, 4, 8, 16, 32})
    for (int d : {0, 1, 2, 3, 4, 7, 8, 15, 16, 31}) check_shuffle(Op::up, d, width);
}

TEST(Shuffle, DownEveryWidthAndDelta) {
  for (int width : {1, 2, 4, 8, 16, 32})
    for (int d : {0, 1, 2, 3, 4, 7, 8, 15, 16, 31}) check_shuffle(Op::down, d, width);
}

TEST(Shuffle, XorEveryWidthAndLaneMask) {
  for (int width : {1, 2, 4, 8, 16, 32})
    for (int m : {0, 1, 2, 3, 4, 5, 8, 12, 16, 24, 31}) check_shuffle(Op::bfly, m, width);
}

TEST(Shuffle, DownOutOfRangeReturnsOwnValue) {
  std::vector<int> got(32);
  launch(1, 32, 0, [&] {
    int v = int(threadIdx.x);
    got[threadIdx.x] = __shfl_down_sync(0xffffffffu, v, 16);
  });
  for (int l = 0; l < 32; ++l) EXPECT_EQ(got[l], l < 16 ? l + 16 : l);
}

TEST(Shuffle, Width8Segments) {
  // width 8: lanes 8k..8k+7 form a segment; down by 2 stays inside it.
  std::vector<int> got(32);
  launch(1, 32, 0, [&] {
    int v = int(threadIdx.x) * 3;
    got[threadIdx.x] = __shfl_down_sync(0xffffffffu, v, 2, 8);
  });
  for (int l = 0; l < 32; ++l) EXPECT_EQ(got[l], (l % 8 < 6 ? l + 2 : l) * 3) << l;
}

TEST(Shuffle, Width16XorReadsEarlierGroupOnly) {
  // xor 16 at width 16: the upper half reads the lower half, the lower half keeps its own value.
  std::vector<int> got(32);
  launch(1, 32, 0, [&] { got[threadIdx.x] = __shfl_xor_sync(0xffffffffu, int(threadIdx.x), 16, 16); });
  for (int l = 0; l < 32; ++l) EXPECT_EQ(got[l], l < 16 ? l : l - 16) << l;
}

TEST(Shuffle, BadWidthIsAnError) {
  EXPECT_THROW(launch(1, 32, 0, [&] { (void)__shfl_sync(0xffffffffu, 1, 0, 12); }), LaunchError);
  EXPECT_THROW(launch(1, 32, 0, [&] { (void)__shfl_down_sync(0xffffffffu, 1, 1, 64); }), LaunchError);
  expect_healthy();
}

TEST(Shuffle, PartialMasksInDivergentBranches) {
  // The two halves of the warp shuffle separately with their own masks, at different call sites.
  std::vector<int> got(32);
  launch(1, 32, 0, [&] {
    const unsigned l = threadIdx.x;
    int v = int(l * 10);
    if (l < 16)
      got[l] = __shfl_down_sync(0x0000ffffu, v, 1);
    else
      got[l] = __shfl_up_sync(0xffff0000u, v, 1);
  });
  for (int l = 0; l < 16; ++l) EXPECT_EQ(got[l], l == 15 ? 150 : (l + 1) * 10) << l;  // lane 16 is not in the mask
  for (int l = 16; l < 32; ++l) EXPECT_EQ(got[l], l == 16 ? 160 : (l - 1) * 10) << l;  // lane 15 is not in the mask
}

TEST(Shuffle, SourceOutsideMaskReturnsOwnValue) {
  std::vector<int> got(32, -1);
  launch(1, 32, 0, [&] {
    const unsigned l = threadIdx.x;
    if (l < 8) got[l] = __shfl_sync(0x000000ffu, int(l + 100), 20);  // lane 20 does not take part
  });
  for (int l = 0; l < 8; ++l) EXPECT_EQ(got[l], l + 100);
  // ... while a source inside a sub-mask is read normally.
  launch(1, 32, 0, [&] {
    const unsigned l = threadIdx.x;
    if (l < 8) got[l] = __shfl_sync(0x000000ffu, int(l + 100), 5);
  });
  for (int l = 0; l < 8; ++l) EXPECT_EQ(got[l], 105);
}

TEST(Shuffle, WarpsAreIndependent) {
  // 96 threads: three warps, each shuffles within itself.
  std::vector<int> got(96);
  launch(2, 96, 0, [&] {
    int v = int(gid());
    got[threadIdx.x] = __shfl_sync(0xffffffffu, v, 31) - int(blockIdx.x * 96);
  });
  for (int t = 0; t < 96; ++t) EXPECT_EQ(got[t], (t / 32) * 32 + 31);
}

TEST(Shuffle, PartialLastWarp) {
  // A 48-thread block: warp 1 has lanes 0-15 only. A full mask may name the missing lanes; a source past the
  // end of the block returns the caller's own value.
  std::vector<int> got(48);
  launch(1, 48, 0, [&] {
    int v = int(threadIdx.x);
    got[threadIdx.x] = __shfl_down_sync(0xffffffffu, v, 8);
  });
  for (int t = 0; t < 32; ++t) EXPECT_EQ(got[t], t < 24 ? t + 8 : t);
  for (int t = 32; t < 48; ++t) EXPECT_EQ(got[t], t < 40 ? t + 8 : t);
}

TEST(Shuffle, TreeReductionInRegisters) {
  std::vector<long long> got(64);
  launch(1, 64, 0, [&] {
    long long v = (1LL << 40) + threadIdx.x;
    for (unsigned o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    got[threadIdx.x] = v;
  });
  EXPECT_EQ(got[0], 32 * (1LL << 40) + 31 * 32 / 2);
  EXPECT_EQ(got[32], 32 * (1LL << 40) + (32 + 63) * 32 / 2);
}

template <class T>
class ShuffleTyped : public ::testing::Test {};
using ShuffleTypes = ::testing::Types<int, unsigned, long, unsigned long, long long, unsigned long long, float, double>;
TYPED_TEST_SUITE(ShuffleTyped, ShuffleTypes);

template <class T>
T typed_value(unsigned lane) {
  if constexpr (std::is_floating_point_v<T>)
    return T(lane) * T(1.5) + T(sizeof(T) == 8 ? 1e10 : 0.25);
  else if constexpr (sizeof(T) == 8)
    return T((1ull << 40) | (0x9ull << 60) | lane);  // high bits must survive the exchange
  else
    return T(0x7000000u | lane);
}

TYPED_TEST(ShuffleTyped, AllVariantsCarryTheWholeValue) {
  using T = TypeParam;
  std::vector<T> idx(32), up(32), down(32), bfly(32);
  launch(1, 32, 0, [&] {
    const unsigned l = threadIdx.x;
    T v = typed_value<T>(l);
    idx[l] = __shfl_sync(0xffffffffu, v, 3);
    up[l] = __shfl_up_sync(0xffffffffu, v, 2, 16);
    down[l] = __shfl_down_sync(0xffffffffu, v, 4, 8);
    bfly[l] = __shfl_xor_sync(0xffffffffu, v, 5);
  });
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(idx[l], typed_value<T>(3));
    EXPECT_EQ(up[l], typed_value<T>(l % 16 >= 2 ? l - 2 : l));
    EXPECT_EQ(down[l], typed_value<T>(l % 8 + 4 < 8 ? l + 4 : l));
    EXPECT_EQ(bfly[l], typed_value<T>(l ^ 5));
  }
}
