// Values of the element types as 64-bit patterns (zero-extended), the form traces and results travel in.
#pragma once
#include <cstdint>
#include <cstring>

namespace redlab {

template <class T>
std::uint64_t to_bits(T v) {
  static_assert(sizeof(T) <= 8);
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

template <class T>
T from_bits(std::uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

}  // namespace redlab
