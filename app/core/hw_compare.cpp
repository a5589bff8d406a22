// The hardware's counts beside the model's, step region by step region (compare_hw), with the reason for each
// difference where the figures show it.
#include "core/hw_counts.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/hw_counts_detail.h"
#include "core/kernel_source.h"
#include "core/trace.h"

namespace redlab {

using hw_detail::num;

namespace {
// Which kind of access an instruction makes (by the operation CUPTI counted for it), and how often.
std::optional<HwKind> kind_of(const HwInstruction& i) {
  if (i.get(HwMetric::shared_ld)) return HwKind::shared_load;
  if (i.get(HwMetric::shared_st)) return HwKind::shared_store;
  if (i.get(HwMetric::shared_atom)) return HwKind::shared_atomic;
  if (i.get(HwMetric::global_ld)) return HwKind::global_load;
  if (i.get(HwMetric::global_st)) return HwKind::global_store;
  if (i.get(HwMetric::global_red) || i.get(HwMetric::global_atom)) return HwKind::global_atomic;
  return std::nullopt;
}
std::uint64_t executions_of(const HwInstruction& i, HwKind k) {
  switch (k) {
    case HwKind::shared_load: return i.get(HwMetric::shared_ld);
    case HwKind::shared_store: return i.get(HwMetric::shared_st);
    case HwKind::shared_atomic: return i.get(HwMetric::shared_atom);
    case HwKind::global_load: return i.get(HwMetric::global_ld);
    case HwKind::global_store: return i.get(HwMetric::global_st);
    default: return i.get(HwMetric::global_red) + i.get(HwMetric::global_atom);
  }
}
bool is_shared(HwKind k) { return k == HwKind::shared_load || k == HwKind::shared_store || k == HwKind::shared_atomic; }

void add_model(std::array<HwKindFigures, kHwKinds>& f, const StepStats& s) {
  auto add = [&](HwKind k, std::uint64_t req, std::uint64_t data) {
    f[std::size_t(k)].model_requests += req;
    f[std::size_t(k)].model_data += data;
  };
  add(HwKind::shared_load, s.smem_load_requests, s.smem_load_wavefronts);
  add(HwKind::shared_store, s.smem_store_requests, s.smem_store_wavefronts);
  add(HwKind::shared_atomic, s.smem_atomic_requests, s.smem_atomic_wavefronts);
  add(HwKind::global_load, s.gmem_load_requests, s.gmem_load_sectors);
  add(HwKind::global_store, s.gmem_store_requests, s.gmem_store_sectors);
  add(HwKind::global_atomic, s.gmem_atomic_requests, s.gmem_atomic_sectors);
}

// Two counts agree when they are within 2 % of the larger.
bool agree(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t hi = std::max(a, b), lo = std::min(a, b);
  return hi - lo <= hi / 50;
}

// The reason for a difference, from what the figures themselves show.
void explain(HwKindFigures& f, HwKind k, const HwKindFigures* kernel_total) {
  f.cause = HwCause::agree;
  f.why.clear();
  const bool req_ok = agree(f.model_requests, f.hw_instructions);
  const bool data_ok = !f.hw_data_known || agree(f.model_data, f.hw_data);
  if (req_ok && data_ok) return;
  const char* data = is_shared(k) ? "wavefronts" : "sectors";
  if (kernel_total && ((f.model_requests == 0) != (f.hw_instructions == 0)) &&
      agree(kernel_total->model_requests, kernel_total->hw_instructions)) {
    f.cause = HwCause::moved;
    f.why = f.hw_instructions
                ? "the compiler placed an access of another step's source here (the kernel's totals agree)"
                : "the compiler placed this access in another step's code (the kernel's totals agree)";
    return;
  }
  if (f.hw_instructions > f.model_requests && data_ok) {
    f.cause = HwCause::predicated;
    f.why = num(f.hw_instructions - f.model_requests) +
            " executions by warps with no active lane: the compiler predicates the access instead of branching "
            "around it, so such a warp still issues it, moving no data (the " +
            std::string(data) + " agree)";
    return;
  }
  if (f.hw_instructions < f.model_requests && f.hw_instructions > 0) {
    f.cause = HwCause::merged;
    f.why = "the compiler merged neighbouring accesses into wider instructions: " + num(f.model_requests) +
            " requests in the source, " + num(f.hw_instructions) + " instructions executed" +
            (data_ok ? "" : std::string(", whose ") + data + " follow the wider width");
    return;
  }
  if (req_ok) {
    f.cause = HwCause::replays;
    f.why = std::string("the same accesses; the hardware counted ") + num(f.hw_data) + " " + data +
            " where the model has " + num(f.model_data) + " (not explained by the addresses redlab recorded)";
    return;
  }
  f.cause = HwCause::unexplained;
  f.why = "redlab cannot tell why: " + num(f.model_requests) + " requests in the model, " + num(f.hw_instructions) +
          " instructions executed";
}
}  // namespace

HwComparison compare_hw(const Trace& t, const HwCounts& hw, const KernelSources* sources) {
  HwComparison c;
  const std::string own = hw.source_file;
  auto file_of = [&](const Step& s) { return sources ? sources->file_of_step(s.line, s.label_kind) : own; };
  // The regions: the code before the first step, then one per distinct probe.step (file, line), the kernel's
  // own file first, each file's in line order.
  std::vector<std::string> order_of_files = {own};
  if (sources)
    for (const std::string& f : sources->files)
      if (f != own) order_of_files.push_back(f);
  std::set<std::pair<std::size_t, std::uint32_t>> starts;
  for (const Step& s : t.steps) {
    const std::string f = file_of(s);
    const std::size_t fi =
        std::size_t(std::find(order_of_files.begin(), order_of_files.end(), f) - order_of_files.begin());
    if (fi == order_of_files.size()) order_of_files.push_back(f);
    starts.insert({fi, s.line});
  }
  c.regions.push_back({});
  c.regions.back().file = own;
  for (const auto& [fi, l] : starts) {
    HwRegion r;
    r.file = order_of_files[fi];
    r.first_line = l;
    c.regions.push_back(r);
  }
  for (std::size_t i = 0; i < c.regions.size(); ++i)
    for (std::size_t j = i + 1; j < c.regions.size(); ++j)
      if (c.regions[j].file == c.regions[i].file) {
        c.regions[i].last_line = c.regions[j].first_line - 1;
        break;
      }
  // The region of (file, line): the last one of that file starting at or before it; nullopt where the file
  // has none, or the line comes before its first step (outside the kernel's own file).
  auto region_of = [&](const std::string& file, std::uint32_t line) -> std::optional<std::size_t> {
    std::optional<std::size_t> found;
    for (std::size_t r = 0; r < c.regions.size(); ++r)
      if (c.regions[r].file == file && c.regions[r].first_line <= line && (r == 0 || c.regions[r].first_line))
        found = r;
    return found;
  };
  // The model: every step's figures into its region.
  for (std::size_t ri = 1; ri < c.regions.size(); ++ri) {
    HwRegion& r = c.regions[ri];
    std::vector<const Step*> mine;
    for (const Step& s : t.steps)
      if (s.line == r.first_line && file_of(s) == r.file) mine.push_back(&s);
    if (mine.empty()) continue;
    bool same = true;
    for (const Step* s : mine) same = same && s->label == mine.front()->label;
    r.steps = mine.size() == 1 ? mine.front()->label
              : same
                  ? mine.front()->label + " (" + std::to_string(mine.size()) + " steps)"
                  : mine.front()->label + " .. " + mine.back()->label + " (" + std::to_string(mine.size()) + " steps)";
    for (const Step* s : mine) add_model(r.kinds, s->stats);
  }
  // The hardware: each instruction into the region of its line, or (another file, no line) of the kernel-file
  // instruction before it. Per function, in pc order.
  std::vector<const HwInstruction*> order;
  for (const HwInstruction& i : hw.instructions) order.push_back(&i);
  std::stable_sort(order.begin(), order.end(), [](const HwInstruction* a, const HwInstruction* b) {
    return a->function != b->function ? a->function < b->function : a->pc < b->pc;
  });
  std::size_t current = 0;
  const std::string* function = nullptr;
  for (const HwInstruction* i : order) {
    if (!function || *function != i->function) {
      function = &i->function;
      current = 0;
    }
    if (i->line)
      if (const auto r = region_of(i->file, i->line)) current = *r;
    HwRegion& r = c.regions[current];
    ++r.instructions;
    r.inst_executed += i->get(HwMetric::inst_executed);
    r.thread_inst_executed += i->get(HwMetric::thread_inst_executed);
    if (const auto k = kind_of(*i)) {
      HwKindFigures& f = r.kinds[std::size_t(*k)];
      f.hw_instructions += executions_of(*i, *k);
      f.hw_data += i->get(is_shared(*k) ? HwMetric::shared_wavefronts : HwMetric::global_sectors);
    }
  }
  // Data the chip did not count (a metric it does not offer) is not compared.
  auto offered = [&](HwMetric m) {
    return std::find(hw.missing.begin(), hw.missing.end(), hw_metric_cupti(m)) == hw.missing.end();
  };
  for (int k = 0; k < kHwKinds; ++k) {
    const bool known = offered(is_shared(HwKind(k)) ? HwMetric::shared_wavefronts : HwMetric::global_sectors);
    c.total[std::size_t(k)].hw_data_known = known;
    for (HwRegion& r : c.regions) r.kinds[std::size_t(k)].hw_data_known = known;
  }
  for (const HwRegion& r : c.regions)
    for (int k = 0; k < kHwKinds; ++k) {
      HwKindFigures& tot = c.total[std::size_t(k)];
      tot.model_requests += r.kinds[std::size_t(k)].model_requests;
      tot.model_data += r.kinds[std::size_t(k)].model_data;
      tot.hw_instructions += r.kinds[std::size_t(k)].hw_instructions;
      tot.hw_data += r.kinds[std::size_t(k)].hw_data;
    }
  for (int k = 0; k < kHwKinds; ++k) explain(c.total[std::size_t(k)], HwKind(k), nullptr);
  for (HwRegion& r : c.regions)
    for (int k = 0; k < kHwKinds; ++k) explain(r.kinds[std::size_t(k)], HwKind(k), &c.total[std::size_t(k)]);
  return c;
}

}  // namespace redlab
