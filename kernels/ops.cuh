// The combining operators: sum, min and max over int32, float32 and float64. Each has an identity (the value
// elements past n count as) and an atomic form for kernels that finish with one atomic per block.
#pragma once
#include <cfloat>
#include <climits>
#include <cstdint>
#include <type_traits>

#include "cuda_compat.cuh"

namespace redlab::kernels {

template <class T> struct Limits;
template <> struct Limits<std::int32_t> {
  static constexpr std::int32_t max() { return INT_MAX; }
  static constexpr std::int32_t lowest() { return INT_MIN; }
};
template <> struct Limits<float> {
  static constexpr float max() { return FLT_MAX; }
  static constexpr float lowest() { return -FLT_MAX; }
};
template <> struct Limits<double> {
  static constexpr double max() { return DBL_MAX; }
  static constexpr double lowest() { return -DBL_MAX; }
};

template <class T>
struct Sum {
  using value_type = T;
  static constexpr T identity() { return T(0); }
  REDLAB_HD T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>)
      // int32 sums wrap modulo 2^32 as the GPU's adder does; computed unsigned, so no signed overflow.
      return T(std::uint32_t(a) + std::uint32_t(b));
    else
      return a + b;
  }
};

template <class T>
struct Min {
  using value_type = T;
  static constexpr T identity() { return Limits<T>::max(); }
  REDLAB_HD T operator()(T a, T b) const { return b < a ? b : a; }
};

template <class T>
struct Max {
  using value_type = T;
  static constexpr T identity() { return Limits<T>::lowest(); }
  REDLAB_HD T operator()(T a, T b) const { return a < b ? b : a; }
};

// One atomic combine into *out. Float min/max have no hardware atomic: a compare-and-swap loop on the bits.
#if REDLAB_ON_GPU
#define REDLAB_ATOMIC_FN __device__ __forceinline__
#else
#define REDLAB_ATOMIC_FN inline
#endif
REDLAB_ATOMIC_FN void atomic_combine(Sum<std::int32_t>, std::int32_t* out, std::int32_t v) { atomicAdd(out, v); }
REDLAB_ATOMIC_FN void atomic_combine(Sum<float>, float* out, float v) { atomicAdd(out, v); }
REDLAB_ATOMIC_FN void atomic_combine(Sum<double>, double* out, double v) { atomicAdd(out, v); }
REDLAB_ATOMIC_FN void atomic_combine(Min<std::int32_t>, std::int32_t* out, std::int32_t v) { atomicMin(out, v); }
REDLAB_ATOMIC_FN void atomic_combine(Max<std::int32_t>, std::int32_t* out, std::int32_t v) { atomicMax(out, v); }

template <class Op>
REDLAB_ATOMIC_FN void atomic_combine_cas(float* out, float v) {
  auto* word = reinterpret_cast<unsigned*>(out);
  unsigned old = *word, assumed;
  do {
    assumed = old;
    float next = Op{}(__uint_as_float(assumed), v);
    if (__float_as_uint(next) == assumed) return;
    old = atomicCAS(word, assumed, __float_as_uint(next));
  } while (old != assumed);
}
template <class Op>
REDLAB_ATOMIC_FN void atomic_combine_cas(double* out, double v) {
  auto* word = reinterpret_cast<unsigned long long*>(out);
  unsigned long long old = *word, assumed;
  do {
    assumed = old;
    double next = Op{}(__longlong_as_double((long long)assumed), v);
    if ((unsigned long long)__double_as_longlong(next) == assumed) return;
    old = atomicCAS(word, assumed, (unsigned long long)__double_as_longlong(next));
  } while (old != assumed);
}
REDLAB_ATOMIC_FN void atomic_combine(Min<float>, float* out, float v) { atomic_combine_cas<Min<float>>(out, v); }
REDLAB_ATOMIC_FN void atomic_combine(Max<float>, float* out, float v) { atomic_combine_cas<Max<float>>(out, v); }
REDLAB_ATOMIC_FN void atomic_combine(Min<double>, double* out, double v) { atomic_combine_cas<Min<double>>(out, v); }
REDLAB_ATOMIC_FN void atomic_combine(Max<double>, double* out, double v) { atomic_combine_cas<Max<double>>(out, v); }

}  // namespace redlab::kernels
