// The test of std_includes.py: a header that uses std::pair, std::max and std::size_t with none of <utility>,
// <algorithm> and <cstddef> included, leaning on what libstdc++ 12's <functional> brings in. Headers are checked
// alone, as their own translation unit, so the check must ask for all three here.
#pragma once
#include <functional>
#include <string>

inline std::pair<std::string, std::size_t> longer(const std::string& a, const std::string& b) {
  return std::max(std::pair{a, a.size()}, std::pair{b, b.size()});
}
