#include "core/reference.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/bits.h"
#include "core/trace.h"

namespace redlab {
namespace {

struct Sums {
  double compensated = 0;  // Neumaier
  double abs = 0;
};

template <class T>
Sums float_sum(const T* x, std::uint64_t n) {
  double s = 0, c = 0, a = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const double v = double(x[i]);
    const double t = s + v;
    c += std::fabs(s) >= std::fabs(v) ? (s - t) + v : (v - t) + s;
    s = t;
    a += std::fabs(v);
  }
  return {s + c, a};
}

template <class T>
T min_max(const T* x, std::uint64_t n, OpKind op) {
  T r = x[0];
  for (std::uint64_t i = 1; i < n; ++i) r = op == OpKind::min ? (x[i] < r ? x[i] : r) : (r < x[i] ? x[i] : r);
  return r;
}

}  // namespace

std::uint64_t identity_bits(ElemType t, OpKind op) {
  switch (t) {
    case ElemType::int32: return to_bits(op == OpKind::sum ? 0 : op == OpKind::min ? INT32_MAX : INT32_MIN);
    case ElemType::float32:
      return to_bits(op == OpKind::sum ? 0.0f : op == OpKind::min ? 3.402823466e38f : -3.402823466e38f);
    case ElemType::float64:
      return to_bits(op == OpKind::sum ? 0.0 : op == OpKind::min ? 1.7976931348623157e308 : -1.7976931348623157e308);
  }
  return 0;
}

template <class T>
static T identity_bits_as(OpKind op) {
  if constexpr (std::is_same_v<T, std::int32_t>)
    return from_bits<std::int32_t>(identity_bits(ElemType::int32, op));
  else if constexpr (std::is_same_v<T, float>)
    return from_bits<float>(identity_bits(ElemType::float32, op));
  else
    return from_bits<double>(identity_bits(ElemType::float64, op));
}

template <class T>
static T combine(OpKind op, T a, T b) {
  if (op == OpKind::min) return b < a ? b : a;
  if (op == OpKind::max) return a < b ? b : a;
  if constexpr (std::is_integral_v<T>)
    return T(std::uint32_t(a) + std::uint32_t(b));
  else
    return a + b;
}

std::uint64_t combine_bits(ElemType t, OpKind op, std::uint64_t a, std::uint64_t b) {
  switch (t) {
    case ElemType::int32: return to_bits(combine(op, from_bits<std::int32_t>(a), from_bits<std::int32_t>(b)));
    case ElemType::float32: return to_bits(combine(op, from_bits<float>(a), from_bits<float>(b)));
    case ElemType::float64: return to_bits(combine(op, from_bits<double>(a), from_bits<double>(b)));
  }
  return 0;
}

template <class T>
static void combine_slices_typed(OpKind op, const T* in, std::uint64_t count, unsigned gpus, T* out) {
  for (std::uint64_t i = 0; i < count; ++i) out[i] = combine(op, T(identity_bits_as<T>(op)), in[i]);
  for (unsigned h = 1; h < gpus; ++h) {
    const T* slice = in + std::uint64_t(h) * count;
    for (std::uint64_t i = 0; i < count; ++i) out[i] = combine(op, out[i], slice[i]);
  }
}

void combine_slices(ElemType t, OpKind op, const void* in, std::uint64_t count, unsigned gpus, void* out) {
  switch (t) {
    case ElemType::int32:
      return combine_slices_typed(op, static_cast<const std::int32_t*>(in), count, gpus,
                                  static_cast<std::int32_t*>(out));
    case ElemType::float32:
      return combine_slices_typed(op, static_cast<const float*>(in), count, gpus, static_cast<float*>(out));
    case ElemType::float64:
      return combine_slices_typed(op, static_cast<const double*>(in), count, gpus, static_cast<double*>(out));
  }
}

std::uint64_t reference_bits(const Scenario& s, const void* input) {
  switch (s.type) {
    case ElemType::int32: {
      const auto* x = static_cast<const std::int32_t*>(input);
      if (s.op != OpKind::sum) return to_bits(min_max(x, s.n, s.op));
      std::uint32_t acc = 0;
      for (std::uint64_t i = 0; i < s.n; ++i) acc += std::uint32_t(x[i]);
      return to_bits(std::int32_t(acc));
    }
    case ElemType::float32: {
      const auto* x = static_cast<const float*>(input);
      if (s.op != OpKind::sum) return to_bits(min_max(x, s.n, s.op));
      return to_bits(float(float_sum(x, s.n).compensated));
    }
    case ElemType::float64: {
      const auto* x = static_cast<const double*>(input);
      if (s.op != OpKind::sum) return to_bits(min_max(x, s.n, s.op));
      return to_bits(float_sum(x, s.n).compensated);
    }
  }
  return 0;
}

Check check_result(const Scenario& s, const void* input, std::uint64_t result_bits, std::uint64_t sequential_adds) {
  Check c;
  c.reference_bits = reference_bits(s, input);
  c.result_text = format_value(s.type, result_bits);
  c.reference_text = format_value(s.type, c.reference_bits);
  if (s.type == ElemType::int32 || s.op != OpKind::sum) {
    c.correct = result_bits == c.reference_bits;
    c.abs_error = std::fabs(value_as_double(s.type, result_bits) - value_as_double(s.type, c.reference_bits));
    return c;
  }
  Sums sums = s.type == ElemType::float32 ? float_sum(static_cast<const float*>(input), s.n)
                                          : float_sum(static_cast<const double*>(input), s.n);
  const double eps =
      s.type == ElemType::float32 ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
  const double depth = std::ceil(std::log2(double(s.n))) + 2 + double(sequential_adds);
  c.bound = eps * sums.abs * depth;
  const double result = value_as_double(s.type, result_bits);
  c.abs_error = std::fabs(result - sums.compensated);
  c.correct = std::isfinite(result) && c.abs_error <= c.bound;
  return c;
}

}  // namespace redlab
