// Atomics from many blocks on several workers at once: exact totals, old values, CAS loops.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "emu_test_util.h"

using namespace emu_test;

namespace {
constexpr unsigned kBlocks = 64, kThreads = 256, kN = kBlocks * kThreads;

class Atomics : public ::testing::Test {
 protected:
  void SetUp() override { redlab::emu::set_workers(2); }
  void TearDown() override { redlab::emu::set_workers(0); }
  template <class F>
  void run(F&& f) {
    launch(kBlocks, kThreads, 0, [&] {
      f(gid());
      __syncthreads();  // interleave the block's threads a little
    });
  }
};

template <class T>
void expect_permutation(std::vector<T> v, T first) {
  std::sort(v.begin(), v.end());
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], T(first + T(i)));
}
}  // namespace

TEST_F(Atomics, AddReturnsDistinctOldValues) {
  int si = 0;
  unsigned su = 0;
  unsigned long long sl = 0;
  std::vector<int> olds(kN);
  run([&](unsigned i) {
    olds[i] = atomicAdd(&si, 1);
    atomicAdd(&su, 3u);
    atomicAdd(&sl, 1ull << 33);
  });
  EXPECT_EQ(si, int(kN));
  EXPECT_EQ(su, 3u * kN);
  EXPECT_EQ(sl, (1ull << 33) * kN);
  expect_permutation(olds, 0);
}

TEST_F(Atomics, AddFloatAndDouble) {
  float f = 0;
  double d = 0;
  run([&](unsigned) {
    atomicAdd(&f, 1.0f);  // exact up to 2^24
    atomicAdd(&d, 0.25);
  });
  EXPECT_EQ(f, float(kN));
  EXPECT_EQ(d, 0.25 * kN);
}

TEST_F(Atomics, Sub) {
  int si = 0;
  unsigned su = 5u * kN;
  std::vector<unsigned> olds(kN);
  run([&](unsigned i) {
    atomicSub(&si, 2);
    olds[i] = atomicSub(&su, 5u);
  });
  EXPECT_EQ(si, -2 * int(kN));
  EXPECT_EQ(su, 0u);
  std::sort(olds.begin(), olds.end());
  for (unsigned i = 0; i < kN; ++i) ASSERT_EQ(olds[i], 5u * (i + 1));
}

TEST_F(Atomics, MinMaxEveryType) {
  int imin = INT_MAX, imax = INT_MIN;
  unsigned umin = UINT_MAX, umax = 0;
  long long lmin = LLONG_MAX, lmax = LLONG_MIN;
  unsigned long long qmin = ULLONG_MAX, qmax = 0;
  run([&](unsigned i) {
    const int v = int((i * 7919u) % kN) - int(kN / 2);  // a permutation of [-N/2, N/2)
    atomicMin(&imin, v);
    atomicMax(&imax, v);
    atomicMin(&umin, unsigned(v + int(kN)));
    atomicMax(&umax, unsigned(v + int(kN)));
    atomicMin(&lmin, (long long)v * (1LL << 32));
    atomicMax(&lmax, (long long)v * (1LL << 32));
    atomicMin(&qmin, (unsigned long long)(v + int(kN)) << 30);
    atomicMax(&qmax, (unsigned long long)(v + int(kN)) << 30);
  });
  EXPECT_EQ(imin, -int(kN / 2));
  EXPECT_EQ(imax, int(kN / 2) - 1);
  EXPECT_EQ(umin, kN / 2);
  EXPECT_EQ(umax, kN + kN / 2 - 1);
  EXPECT_EQ(lmin, -(long long)(kN / 2) * (1LL << 32));
  EXPECT_EQ(lmax, (long long)(kN / 2 - 1) * (1LL << 32));
  EXPECT_EQ(qmin, (unsigned long long)(kN / 2) << 30);
  EXPECT_EQ(qmax, (unsigned long long)(kN + kN / 2 - 1) << 30);
}

TEST_F(Atomics, MinMaxReturnOld) {
  int x = 10;
  launch(1, 1, 0, [&] {
    EXPECT_EQ(atomicMin(&x, 4), 10);
    EXPECT_EQ(atomicMin(&x, 8), 4);
    EXPECT_EQ(atomicMax(&x, 20), 4);
    EXPECT_EQ(atomicMax(&x, 5), 20);
  });
  EXPECT_EQ(x, 20);
}

TEST_F(Atomics, OrAndXor) {
  unsigned o = 0, a = 0xffffffffu, x = 0;
  int io = 0, ia = -1;
  unsigned long long qo = 0, qx = 0;
  run([&](unsigned i) {
    atomicOr(&o, 1u << (i % 32));
    atomicAnd(&a, ~(1u << (i % 31)));
    atomicXor(&x, i);
    atomicOr(&io, int(1u << (i % 16)));
    atomicAnd(&ia, ~int(1u << (i % 8)));
    atomicOr(&qo, 1ull << (i % 64));
    atomicXor(&qx, (unsigned long long)i << 20);
  });
  unsigned ex = 0;
  for (unsigned i = 0; i < kN; ++i) ex ^= i;
  EXPECT_EQ(o, 0xffffffffu);
  EXPECT_EQ(a, 0x80000000u);
  EXPECT_EQ(x, ex);
  EXPECT_EQ(io, 0xffff);
  EXPECT_EQ(ia, ~0xff);
  EXPECT_EQ(qo, ~0ull);
  EXPECT_EQ(qx, (unsigned long long)ex << 20);
}

TEST_F(Atomics, ExchangeKeepsEveryValue) {
  unsigned slot = kN;  // sentinel
  float fslot = -1.0f;
  std::vector<unsigned> olds(kN);
  run([&](unsigned i) {
    olds[i] = atomicExch(&slot, i);
    atomicExch(&fslot, float(i));
  });
  olds.push_back(slot);  // the olds plus the final value are the sentinel plus every id
  expect_permutation(olds, 0u);
  EXPECT_GE(fslot, 0.0f);
  EXPECT_LT(fslot, float(kN));
}

TEST_F(Atomics, CasCountersEveryType) {
  unsigned cu = 0;
  int ci = 0;
  unsigned long long cq = 0;
  run([&](unsigned) {
    unsigned old = cu, assumed;
    do {
      assumed = old;
      old = atomicCAS(&cu, assumed, assumed + 1);
    } while (old != assumed);
    int oi = ci, ai;
    do {
      ai = oi;
      oi = atomicCAS(&ci, ai, ai - 1);
    } while (oi != ai);
    unsigned long long oq = cq, aq;
    do {
      aq = oq;
      oq = atomicCAS(&cq, aq, aq + (1ull << 35));
    } while (oq != aq);
  });
  EXPECT_EQ(cu, kN);
  EXPECT_EQ(ci, -int(kN));
  EXPECT_EQ(cq, (1ull << 35) * kN);
}

TEST_F(Atomics, CasReturnsOldOnFailure) {
  unsigned x = 5;
  launch(1, 1, 0, [&] {
    EXPECT_EQ(atomicCAS(&x, 4u, 9u), 5u);  // no swap
    EXPECT_EQ(atomicCAS(&x, 5u, 9u), 5u);  // swap
  });
  EXPECT_EQ(x, 9u);
}

TEST_F(Atomics, FloatCasLoops) {
  // The kernels' float/double min/max: a CAS loop on the bits.
  float fsum = 0, fmax = -1e30f;
  double dsum = 0, dmin = 1e300;
  run([&](unsigned i) {
    auto* w = reinterpret_cast<unsigned*>(&fsum);
    unsigned old = *w, assumed;
    do {
      assumed = old;
      old = atomicCAS(w, assumed, __float_as_uint(__uint_as_float(assumed) + 0.5f));
    } while (old != assumed);
    auto* wm = reinterpret_cast<unsigned*>(&fmax);
    old = *wm;
    do {
      assumed = old;
      float next = std::max(__uint_as_float(assumed), float(i % 1000) * 0.5f);
      if (__float_as_uint(next) == assumed) break;
      old = atomicCAS(wm, assumed, __float_as_uint(next));
    } while (old != assumed);
    auto* dw = reinterpret_cast<unsigned long long*>(&dsum);
    unsigned long long dold = *dw, dass;
    do {
      dass = dold;
      dold = atomicCAS(dw, dass, (unsigned long long)__double_as_longlong(__longlong_as_double((long long)dass) + 1.0));
    } while (dold != dass);
    auto* dm = reinterpret_cast<unsigned long long*>(&dmin);
    dold = *dm;
    do {
      dass = dold;
      double next = std::min(__longlong_as_double((long long)dass), double(i) - 100.0);
      dold = atomicCAS(dm, dass, (unsigned long long)__double_as_longlong(next));
    } while (dold != dass);
  });
  EXPECT_EQ(fsum, 0.5f * kN);
  EXPECT_EQ(fmax, 499.5f);
  EXPECT_EQ(dsum, double(kN));
  EXPECT_EQ(dmin, -100.0);
}

TEST_F(Atomics, IncDecWrap) {
  unsigned inc = 0, dec = 0;
  run([&](unsigned) {
    atomicInc(&inc, 99u);  // counts 0..99 then wraps to 0
    atomicDec(&dec, 99u);
  });
  EXPECT_EQ(inc, kN % 100);
  EXPECT_EQ(dec, (100 - kN % 100) % 100);
}
