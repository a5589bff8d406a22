// The hardware counts' basics: the metric and kind tables (their JSON keys and CUPTI's names), the sums per
// source line, and what the comparison, the text and the JSON share (hw_counts_detail.h).
#include "core/hw_counts.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "core/hw_counts_detail.h"

namespace redlab {

namespace hw_detail {
// CUPTI's SASS metric names (cupti_sass_metrics.h lists them per chip: `redlab stats --hw-metrics`).
constexpr MetricName kNames[kHwMetrics] = {
    {"inst_executed", "smsp__sass_inst_executed"},
    {"thread_inst_executed", "smsp__sass_thread_inst_executed"},
    {"thread_inst_executed_pred_on", "smsp__sass_thread_inst_executed_pred_on"},
    {"shared_ld", "smsp__sass_inst_executed_op_shared_ld"},
    {"shared_st", "smsp__sass_inst_executed_op_shared_st"},
    {"shared_atom", "smsp__sass_inst_executed_op_shared_atom"},
    {"global_ld", "smsp__sass_inst_executed_op_global_ld"},
    {"global_st", "smsp__sass_inst_executed_op_global_st"},
    {"global_red", "smsp__sass_inst_executed_op_global_red"},
    {"global_atom", "smsp__sass_inst_executed_op_global_atom"},
    {"shared_wavefronts", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"},
    {"shared_wavefronts_ideal", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"},
    {"global_sectors", "smsp__sass_sectors_mem_global"},
    {"global_sectors_ideal", "smsp__sass_sectors_mem_global_ideal"},
    {"thread_shared_pred_on", "smsp__sass_thread_inst_executed_op_shared_pred_on"},
    {"thread_global_pred_on", "smsp__sass_thread_inst_executed_op_global_pred_on"},
};
constexpr const char* kKindKeys[kHwKinds] = {"shared_load", "shared_store", "shared_atomic",
                                             "global_load", "global_store", "global_atomic"};

std::string num(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(std::size_t(i), ",");
  return s;
}
}  // namespace hw_detail

using hw_detail::kKindKeys;
using hw_detail::kNames;

const char* hw_metric_key(HwMetric m) { return kNames[int(m)].key; }
const char* hw_metric_cupti(HwMetric m) { return kNames[int(m)].cupti; }
const char* hw_kind_key(HwKind k) { return kKindKeys[int(k)]; }
const char* hw_cause_key(HwCause c) {
  switch (c) {
    case HwCause::agree: return "agree";
    case HwCause::moved: return "moved";
    case HwCause::predicated: return "predicated";
    case HwCause::merged: return "merged";
    case HwCause::replays: return "replays";
    case HwCause::unexplained: return "unexplained";
  }
  return "unexplained";
}

std::vector<HwLine> hw_lines(const HwCounts& hw) {
  std::map<std::pair<std::string, std::uint32_t>, HwLine> by;
  for (const HwInstruction& i : hw.instructions) {
    HwLine& l = by[{i.file, i.line}];
    l.file = i.file;
    l.line = i.line;
    ++l.instructions;
    for (int m = 0; m < kHwMetrics; ++m) l.sums[std::size_t(m)] += i.values[std::size_t(m)].value_or(0);
  }
  std::vector<HwLine> out;
  for (auto& [key, l] : by)
    if (key.first == hw.source_file) out.push_back(l);
  for (auto& [key, l] : by)
    if (key.first != hw.source_file) out.push_back(l);
  return out;
}

}  // namespace redlab
