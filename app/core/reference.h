// The CPU reference a result is checked against, and the error bound for float sums.
#pragma once
#include <cstdint>
#include <string>

#include "core/scenario.h"

namespace redlab {

struct Check {
  std::uint64_t reference_bits = 0;
  std::string result_text, reference_text;
  double abs_error = 0, bound = 0;
  bool correct = false;
};

// int32: exact (sums wrap modulo 2^32 like the GPU's adder, accumulated unsigned); min/max exact in every
// type. float32/float64 sums: compared with a compensated (Neumaier) float64 sum; the bound is
// eps(type) * sum|x| * (ceil(log2 n) + 2 + sequential_adds), where sequential_adds counts the partials a
// finish combines one after another (host or atomic finish: one per block).
Check check_result(const Scenario&, const void* input, std::uint64_t result_bits, std::uint64_t sequential_adds);

// The operator's identity (what elements past n count as) and one combine, as bit patterns of the type.
std::uint64_t identity_bits(ElemType, OpKind);
std::uint64_t combine_bits(ElemType, OpKind, std::uint64_t a, std::uint64_t b);
// An all-reduce's result: out[i] = element i of slices 0, 1, .., gpus-1 combined in that order (slice h starts at
// in + h count elements), each element as combine_bits combines it; typed loops, for buffers of a GiB.
void combine_slices(ElemType, OpKind, const void* in, std::uint64_t count, unsigned gpus, void* out);

// The reference alone, as the element type's bit pattern.
std::uint64_t reference_bits(const Scenario&, const void* input);

}  // namespace redlab
