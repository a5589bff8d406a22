// Votes, __activemask, __syncwarp, warp reductions and matches, bit intrinsics, clock64.
#include <climits>
#include <functional>
#include <string>
#include <vector>

#include "emu_test_util.h"

using namespace emu_test;

TEST(Vote, BallotFullWarp) {
  std::vector<unsigned> got(64);
  launch(1, 64, 0, [&] {
    const unsigned t = threadIdx.x;
    got[t] = __ballot_sync(0xffffffffu, t % 3 == 0);
  });
  unsigned expect0 = 0, expect1 = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if (l % 3 == 0) expect0 |= 1u << l;
    if ((l + 32) % 3 == 0) expect1 |= 1u << l;
  }
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(got[t], t < 32 ? expect0 : expect1);
}

TEST(Vote, BallotAnyAllWithPartialMasks) {
  std::vector<unsigned> ballot(32);
  std::vector<int> any(32), all(32);
  launch(1, 32, 0, [&] {
    const unsigned l = threadIdx.x;
    if (l < 12) {  // mask: lanes 0-11; predicate true on even lanes
      ballot[l] = __ballot_sync(0x00000fffu, l % 2 == 0);
      any[l] = __any_sync(0x00000fffu, l == 11);
      all[l] = __all_sync(0x00000fffu, l < 12);
    } else {  // mask: lanes 12-31
      ballot[l] = __ballot_sync(0xfffff000u, l >= 30);
      any[l] = __any_sync(0xfffff000u, 0);
      all[l] = __all_sync(0xfffff000u, l != 20);
    }
  });
  for (unsigned l = 0; l < 12; ++l) {
    EXPECT_EQ(ballot[l], 0x555u);
    EXPECT_EQ(any[l], 1);
    EXPECT_EQ(all[l], 1);
  }
  for (unsigned l = 12; l < 32; ++l) {
    EXPECT_EQ(ballot[l], 0xc0000000u);
    EXPECT_EQ(any[l], 0);
    EXPECT_EQ(all[l], 0);
  }
}

TEST(Vote, BallotOnlyCountsLanesInMask) {
  std::vector<unsigned> got(32);
  launch(1, 32, 0, [&] {
    const unsigned l = threadIdx.x;
    if (l % 2 == 0) got[l] = __ballot_sync(0x55555555u, 1);
  });
  for (unsigned l = 0; l < 32; l += 2) EXPECT_EQ(got[l], 0x55555555u);
}

TEST(Vote, ActiveMaskFullAndAfterExits) {
  std::vector<unsigned> full(64), partial(32, 0);
  launch(1, 64, 0, [&] { full[threadIdx.x] = __activemask(); });
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(full[t], 0xffffffffu);
  launch(1, 32, 0, [&] {
    const unsigned l = threadIdx.x;
    if (l >= 20) return;  // lanes 20-31 exit
    partial[l] = __activemask();
  });
  for (unsigned l = 0; l < 20; ++l) EXPECT_EQ(partial[l], 0x000fffffu) << l;
  // Lanes that exit later than the caller reaches __activemask still count as exited (the warp runs on
  // to its next synchronisation point first), and a partial last warp reports only its lanes.
  std::vector<unsigned> late(48, 0);
  launch(1, 48, 0, [&] {
    const unsigned t = threadIdx.x;
    if (t % 2 == 1) {
      int x = 0;
      for (int i = 0; i < 100; ++i) x += i;
      if (x > 0) return;
    }
    late[t] = __activemask();
  });
  for (unsigned t = 0; t < 48; t += 2) EXPECT_EQ(late[t], t < 32 ? 0x55555555u : 0x5555u) << t;
}

TEST(Vote, SyncwarpFullAndPartial) {
  std::vector<int> got(64);
  launch(1, 64, 0, [&] {
    __shared__ int s[64];
    const unsigned t = threadIdx.x;
    s[t] = int(t);
    __syncwarp();
    int a = s[(t / 32) * 32 + (t + 1) % 32];
    if (t % 32 < 16) {
      __syncwarp(0x0000ffffu);
    } else {
      __syncwarp(0xffff0000u);
    }
    got[t] = a;
  });
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(got[t], int((t / 32) * 32 + (t + 1) % 32));
}

TEST(Vote, LaneNotInOwnMaskIsAnError) {
  try {
    launch(1, 32, 0, [&] { (void)__ballot_sync(0x0000000fu, 1); });
    FAIL() << "expected LaunchError";
  } catch (const LaunchError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("__ballot_sync"), std::string::npos) << m;
    EXPECT_NE(m.find("does not name its own lane"), std::string::npos) << m;
  }
  EXPECT_THROW(launch(1, 32, 0, [&] { __syncwarp(1u << ((threadIdx.x + 1) % 32)); }), LaunchError);
  EXPECT_THROW(launch(1, 32, 0, [&] { (void)__shfl_sync(0u, 1, 0); }), LaunchError);
  expect_healthy();
}

TEST(Vote, WarpReductions) {
  std::vector<unsigned> add(32), umin(32), umax(32), band(32), bor(32), bxor(32);
  std::vector<int> smin(32), smax(32), sadd(32);
  launch(1, 32, 0, [&] {
    const unsigned l = threadIdx.x;
    add[l] = __reduce_add_sync(0xffffffffu, l + 1);
    sadd[l] = __reduce_add_sync(0xffffffffu, int(l) - 20);
    umin[l] = __reduce_min_sync(0xffffffffu, 100u + (l * 7) % 32);
    umax[l] = __reduce_max_sync(0xffffffffu, 100u + (l * 7) % 32);
    smin[l] = __reduce_min_sync(0xffffffffu, int(l) - 16);
    smax[l] = __reduce_max_sync(0xffffffffu, int(l) - 16);
    band[l] = __reduce_and_sync(0xffffffffu, ~(1u << l));
    bor[l] = __reduce_or_sync(0xffffffffu, 1u << l);
    bxor[l] = __reduce_xor_sync(0xffffffffu, l);
  });
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(add[l], 528u);
    EXPECT_EQ(sadd[l], 496 - 640);
    EXPECT_EQ(umin[l], 100u);
    EXPECT_EQ(umax[l], 131u);
    EXPECT_EQ(smin[l], -16);
    EXPECT_EQ(smax[l], 15);
    EXPECT_EQ(band[l], 0u);
    EXPECT_EQ(bor[l], 0xffffffffu);
    EXPECT_EQ(bxor[l], 0u);
  }
}

TEST(Vote, MatchAnyAndAll) {
  std::vector<unsigned> any(32), all(32), all2(32);
  std::vector<int> pred(32), pred2(32);
  launch(1, 32, 0, [&] {
    const unsigned l = threadIdx.x;
    any[l] = __match_any_sync(0xffffffffu, l % 4);
    all[l] = __match_all_sync(0xffffffffu, 7.5, &pred[l]);
    all2[l] = __match_all_sync(0xffffffffu, (long long)(l == 3), &pred2[l]);
  });
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(any[l], 0x11111111u << (l % 4));
    EXPECT_EQ(all[l], 0xffffffffu);
    EXPECT_EQ(pred[l], 1);
    EXPECT_EQ(all2[l], 0u);
    EXPECT_EQ(pred2[l], 0);
  }
}

TEST(Intrinsics, BitsAndReinterpretation) {
  EXPECT_EQ(__popc(0xf0f0u), 8);
  EXPECT_EQ(__popcll(0xffffffffffull), 40);
  EXPECT_EQ(__ffs(0), 0);
  EXPECT_EQ(__ffs(8), 4);
  EXPECT_EQ(__ffs(INT_MIN), 32);
  EXPECT_EQ(__ffsll(1LL << 40), 41);
  EXPECT_EQ(__clz(0), 32);
  EXPECT_EQ(__clz(1), 31);
  EXPECT_EQ(__clz(-1), 0);
  EXPECT_EQ(__clzll(1), 63);
  EXPECT_EQ(__brev(1u), 0x80000000u);
  EXPECT_EQ(__brevll(1ull), 0x8000000000000000ull);
  EXPECT_EQ(__float_as_uint(1.0f), 0x3f800000u);
  EXPECT_EQ(__uint_as_float(0x40490fdbu), 3.14159274101257324f);
  EXPECT_EQ(__float_as_int(-2.0f), int(0xc0000000u));
  EXPECT_EQ(__int_as_float(0), 0.0f);
  EXPECT_EQ(__double_as_longlong(1.0), 0x3ff0000000000000LL);
  EXPECT_EQ(__longlong_as_double(0x4000000000000000LL), 2.0);
  int x = 5;
  EXPECT_EQ(__ldg(&x), 5);
}

TEST(Intrinsics, Clock64IsMonotonicPerThread) {
  std::vector<long long> a(64), b(64);
  launch(1, 64, 0, [&] {
    long long c0 = clock64();
    __syncthreads();
    long long c1 = clock64();
    a[threadIdx.x] = c0;
    b[threadIdx.x] = c1;
  });
  for (int t = 0; t < 64; ++t) EXPECT_LT(a[t], b[t]);
}

TEST(Intrinsics, BuiltinsOutsideAKernelAreAnError) {
  EXPECT_THROW((void)threadIdx.x, LaunchError);
  EXPECT_THROW(__syncthreads(), LaunchError);
  EXPECT_THROW((void)__shfl_sync(0xffffffffu, 1, 0), LaunchError);
  EXPECT_EQ(warpSize, 32);
}
