// Hardware counts that are exactly the model's figures of a trace, as a collection on a GPU would record them
// where the hardware agrees: the unit tests compare and print them, the fuzz seeds (tests/fuzz) start from them.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/catalog.h"
#include "core/hw_counts.h"
#include "core/trace.h"

namespace redlab::testdata {

inline std::uint64_t& value(HwInstruction& i, HwMetric m) {
  if (!i.values[std::size_t(m)]) i.values[std::size_t(m)] = 0;
  return *i.values[std::size_t(m)];
}

// A collection that is exactly the model: one instruction per step line and kind of access, in line order.
inline HwCounts mirror_of(const Trace& t) {
  HwCounts hw;
  hw.collected = true;
  hw.device = "test GPU";
  hw.chip = "GH100";
  hw.source_file = find_kernel(t.scenario.kernel)->source_file;
  std::map<std::uint32_t, StepStats> by_line;
  for (const Step& s : t.steps) {
    StepStats& a = by_line[s.line];
    a.smem_load_requests += s.stats.smem_load_requests;
    a.smem_load_wavefronts += s.stats.smem_load_wavefronts;
    a.smem_store_requests += s.stats.smem_store_requests;
    a.smem_store_wavefronts += s.stats.smem_store_wavefronts;
    a.gmem_load_requests += s.stats.gmem_load_requests;
    a.gmem_load_sectors += s.stats.gmem_load_sectors;
    a.gmem_store_requests += s.stats.gmem_store_requests;
    a.gmem_store_sectors += s.stats.gmem_store_sectors;
  }
  std::uint32_t pc = 0;
  for (const auto& entry : by_line) {
    const auto line = entry.first;  // not a structured binding: clang before 16 cannot capture one
    const auto& a = entry.second;
    auto add = [&](HwMetric op, std::uint64_t n, HwMetric data, std::uint64_t d) {
      if (!n) return;
      HwInstruction i;
      i.function = "_ZN6redlab7kernels11interleavedE";
      i.pc = pc += 16;
      i.file = hw.source_file;
      i.line = line + 2;  // the statement after the probe.step line
      value(i, HwMetric::inst_executed) = n;
      value(i, HwMetric::thread_inst_executed) = n * 32;
      value(i, op) = n;
      value(i, data) = d;
      hw.instructions.push_back(i);
    };
    add(HwMetric::global_ld, a.gmem_load_requests, HwMetric::global_sectors, a.gmem_load_sectors);
    add(HwMetric::shared_ld, a.smem_load_requests, HwMetric::shared_wavefronts, a.smem_load_wavefronts);
    add(HwMetric::shared_st, a.smem_store_requests, HwMetric::shared_wavefronts, a.smem_store_wavefronts);
    add(HwMetric::global_st, a.gmem_store_requests, HwMetric::global_sectors, a.gmem_store_sectors);
  }
  return hw;
}

}  // namespace redlab::testdata
