// What the hardware-count files (hw_counts.cpp, hw_compare.cpp, hw_text.cpp, hw_json.cpp) share, and nothing
// outside them uses: the metric and kind tables, and a count written with thousands separators.
#pragma once
#include <cstdint>
#include <string>

#include "core/hw_counts.h"

namespace redlab::hw_detail {

struct MetricName {
  const char* key;
  const char* cupti;
};
extern const MetricName kNames[kHwMetrics];
extern const char* const kKindKeys[kHwKinds];

std::string num(std::uint64_t v);

}  // namespace redlab::hw_detail
