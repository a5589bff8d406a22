// The bank lab on the student's own GPU: how many cycles one warp's shared access takes, beside the
// wavefronts the model predicts.
#pragma once
#include <string>

#include "core/bank_model.h"

namespace redlab {

struct AccessTiming {
  double cycles = 0;  // per request: 16 warps repeat the access, cycles / (reps x warps)
  double baseline_cycles = 0;  // per access for a conflict-free 4-byte load (lane i reads word i)
  std::string device;
};

// Measures on the CUDA device. Returns false with `why` set when there is no GPU or the access does not
// fit the 48 KB buffer (byte addresses below 49152 - width).
bool measure_shared_access(const WarpAddresses&, AccessTiming* out, std::string* why);

// Convenience: cycles per access, or NaN with `why` set.
double measure_shared_access(const WarpAddresses&, std::string* why);

}  // namespace redlab
