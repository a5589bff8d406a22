#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/catalog.h"
#include "model/export.h"
#include "gui/views/hw_panel.h"
#include "model/i18n.h"
#include "gui/shell/palette.h"
#include "model/tree_model.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

// The figures of the table and the chart: export.h (the CSV export writes the same list).
const StepMetric* const kMetrics = kStepMetrics;
const int kNumMetrics = kNumStepMetrics;

namespace {
void header(const char* key) {
  ImGui::TableHeader(tr((std::string("m.") + key).c_str()));
  tooltip_key((std::string("def.") + key).c_str());
}

// Bars per step for one figure, the current step highlighted; a second trace's bars beside when given.
void bar_chart(const char* id, const Trace& a, const Trace* b, int metric, int cur, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  const bool hov = ImGui::IsItemHovered();
  dl->AddRectFilled(p, ImVec2(p.x + size.x, p.y + size.y), IM_COL32(30, 32, 38, 255));
  size_t n = std::max(a.steps.size(), b ? b->steps.size() : 0);
  if (!n) return;
  double mx = 1;
  auto val = [&](const Trace& t, size_t s) -> double {
    if (s >= t.steps.size()) return 0;
    if (metric < 0) return t.steps[s].stats.cycles.value_or(0);
    return double(t.steps[s].stats.*kMetrics[metric].field);
  };
  for (size_t s = 0; s < n; ++s) mx = std::max({mx, val(a, s), b ? val(*b, s) : 0.0});
  const float bw = size.x / float(n);
  for (size_t s = 0; s < n; ++s) {
    float x = p.x + bw * float(s);
    auto bar = [&](double v, float x0, float w, ImU32 col) {
      float h = float(v / mx) * (size.y - 4);
      dl->AddRectFilled(ImVec2(x0, p.y + size.y - h), ImVec2(x0 + w, p.y + size.y), col);
    };
    bool here = int(s) == cur;
    if (b) {
      bar(val(a, s), x + 1, bw * 0.5f - 1, here ? warp_color(0) : warp_color(0, 0.5f));
      bar(val(*b, s), x + bw * 0.5f, bw * 0.5f - 1, here ? warp_color(2) : warp_color(2, 0.5f));
    } else {
      bar(val(a, s), x + 1, bw - 2, here ? warp_color(0) : warp_color(0, 0.45f));
    }
    if (here) dl->AddRect(ImVec2(x, p.y), ImVec2(x + bw, p.y + size.y), IM_COL32(255, 255, 255, 200));
    if (hov && ImGui::IsMouseHoveringRect(ImVec2(x, p.y), ImVec2(x + bw, p.y + size.y))) {
      char buf[160];
      if (b)
        std::snprintf(buf, sizeof buf, "%s\nA: %.0f   B: %.0f", step_name(a, unsigned(s)).c_str(), val(a, s),
                      val(*b, s));
      else
        std::snprintf(buf, sizeof buf, "%s: %.0f", step_name(a, unsigned(s)).c_str(), val(a, s));
      ImGui::SetTooltip("%s", buf);
    }
  }
  char top[32];
  std::snprintf(top, sizeof top, "%.0f", mx);
  dl->AddText(ImVec2(p.x + 2, p.y + 1), IM_COL32(160, 160, 160, 255), top);
}
}  // namespace

namespace {
// The figures a table shows: every one, but distributed shared memory's only where a trace has some (a cluster
// kernel's; every other kernel's would be columns of zeros).
std::vector<int> shown_metrics(const Trace& t, const Trace* b) {
  const bool with_remote = uses_distributed_shared_memory(t) || (b && uses_distributed_shared_memory(*b));
  std::vector<int> shown;
  for (int m = 0; m < kNumMetrics; ++m)
    if (with_remote || std::string(kMetrics[m].key).rfind("dsmem_", 0) != 0) shown.push_back(m);
  return shown;
}
}  // namespace

// Per-step figures of one or two traces.
void metrics_table(const Trace& t, const Trace* b, int cur) {
  const std::vector<int> shown = shown_metrics(t, b);
  const int cols = 2 + int(shown.size()) + 1;
  if (!ImGui::BeginTable("steps", cols,
                         ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollX |
                             ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit,
                         ImVec2(0, ImGui::GetFontSize() * 1.6f * float(std::min<size_t>(t.steps.size(), 12) + 2))))
    return;
  ImGui::TableSetupScrollFreeze(2, 1);
  ImGui::TableSetupColumn("#");
  ImGui::TableSetupColumn("step");
  for (int m : shown) ImGui::TableSetupColumn(kMetrics[m].key);
  ImGui::TableSetupColumn("cycles");
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  ImGui::TableSetColumnIndex(0);
  ImGui::TableHeader("#");
  ImGui::TableSetColumnIndex(1);
  header("step");
  for (std::size_t c = 0; c < shown.size(); ++c) {
    ImGui::TableSetColumnIndex(2 + int(c));
    header(kMetrics[shown[c]].key);
  }
  ImGui::TableSetColumnIndex(cols - 1);
  header("cycles");
  for (size_t s = 0; s < t.steps.size(); ++s) {
    ImGui::TableNextRow();
    if (int(s) == cur) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(60, 90, 140, 200));
    // A trace that ends at a fault: its step and the steps of the accesses it names, marked in the step's cell.
    const FaultRole role = fault_role(t, unsigned(s));
    if (role != FaultRole::none)
      ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg,
                             role == FaultRole::fault ? IM_COL32(170, 50, 40, 220) : IM_COL32(150, 100, 30, 200), 1);
    ImGui::TableSetColumnIndex(0);
    ImGui::Text("%zu", s + 1);  // (from 1, as the step counter, the faults and the exercises count them)
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(step_name(t, unsigned(s)).c_str());
    if (role != FaultRole::none) tooltip_key(role == FaultRole::fault ? "fault.step.tip" : "fault.access.tip");
    for (std::size_t c = 0; c < shown.size(); ++c) {
      const int m = shown[c];
      ImGui::TableSetColumnIndex(2 + int(c));
      std::uint64_t v = t.steps[s].stats.*kMetrics[m].field;
      if (b && s < b->steps.size()) {
        std::uint64_t w = b->steps[s].stats.*kMetrics[m].field;
        ImGui::Text("%s | %s", fmt_u(v).c_str(), fmt_u(w).c_str());
      } else {
        ImGui::TextUnformatted(fmt_u(v).c_str());
      }
    }
    ImGui::TableSetColumnIndex(cols - 1);
    if (t.steps[s].stats.cycles)
      ImGui::Text("%.0f", *t.steps[s].stats.cycles);
    else
      ImGui::TextDisabled("-");
    tooltip_key("def.cycles");
  }
  ImGui::EndTable();
}

void compare_metrics(Model&, const Trace& a, const Trace& b, int cur);

// The chart's figure by its key (kNumMetrics: cycles); `fallback` for a key no figure has.
int metric_index(const std::string& key, int fallback) {
  if (key == "cycles") return kNumMetrics;
  for (int m = 0; m < kNumMetrics; ++m)
    if (key == kMetrics[m].key) return m;
  return fallback;
}

void summary_block(const Side& sl) {
  const Summary& su = sl.summary;
  const Trace& t = *sl.trace;
  if (su.tree_simd_efficiency) {
    ImGui::Text("%s", trf("m.simd", {fmt_pct(*su.tree_simd_efficiency), fmt_u(su.tree_active_threads),
                                     fmt_u(32 * su.tree_active_warps)})
                          .c_str());
    tooltip_key("def.tree_simd_efficiency");
    // Where a book quotes this figure differently, the kernel's record says why (text: "remark.<id>").
    if (const KernelRecord* k = find_kernel(t.scenario.kernel); k && !k->remark.empty()) {
      const std::string key = "remark." + k->id;
      const ImVec4 amber(1.0f, 0.8f, 0.35f, 1);
      text_wrapped(tr(key.c_str()), &amber);
    }
  } else {
    ImGui::TextDisabled("%s", tr("m.simd.none"));
    tooltip_key("def.tree_simd_efficiency");
  }
  ImGui::Text("%s", trf("m.totals", {fmt_u(su.smem_requests), fmt_u(su.smem_wavefronts), fmt_u(su.smem_ideal),
                                     fmt_u(su.gmem_requests), fmt_u(su.gmem_sectors)})
                        .c_str());
  tooltip_key("def.totals");
  // Atomics apart (never loads or stores): a ticket, a block's result into out[0].
  if (su.smem_atomic_requests || su.gmem_atomic_requests) {
    const std::string atomics =
        trf("m.totals.atomics", {fmt_u(su.smem_atomic_requests), fmt_u(su.gmem_atomic_requests)});
    same_line_if_fits(atomics);
    ImGui::TextUnformatted(atomics.c_str());
    tooltip_key("def.gmem_atomic_requests");
  }
}

namespace {
class MetricsView final : public View {
 public:
  MetricsView() : View(ViewId::metrics, "win.metrics") {}
  void draw(Model& model) override {
    if (!model.work.a.trace) {
      text_wrapped(no_trace_text(model.work.a), &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
      return;
    }
    stale_banner(model.work.a);
    const Trace& t = *model.work.a.trace;
    const int cur = side_step(model.work.a, model.view.step);
    if (model.work.compare && model.work.b.trace) {  // A | B side by side
      compare_metrics(model, t, *model.work.b.trace, cur);
      return;
    }
    summary_block(model.work.a);
    // The hardware's counts of the same scenario, per step's code, beside the model's.
    if (const HwCounts* hw = hw_toggle(model)) hw_comparison_table(model, t, *hw);
    const int chart = metric_index(model.view.memory.metrics_chart, 0);  // kNumMetrics: cycles
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    std::string prev = chart < kNumMetrics ? tr((std::string("m.") + kMetrics[chart].key).c_str()) : tr("m.cycles");
    if (begin_combo_fitted(L("m.chart").c_str(), prev)) {
      for (int m = 0; m <= kNumMetrics; ++m) {
        std::string k = m < kNumMetrics ? std::string("m.") + kMetrics[m].key : "m.cycles";
        if (ImGui::Selectable(tr(k.c_str()), m == chart))
          model.view.memory.metrics_chart = m < kNumMetrics ? kMetrics[m].key : "cycles";
        tooltip_key((m < kNumMetrics ? std::string("def.") + kMetrics[m].key : std::string("def.cycles")).c_str());
      }
      ImGui::EndCombo();
    }
    tooltip_key(chart < kNumMetrics ? (std::string("def.") + kMetrics[chart].key).c_str() : "def.cycles");
    bar_chart("chart", t, nullptr, chart < kNumMetrics ? chart : -1, cur,
              ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 5));
    metrics_table(t, nullptr, cur);
  }
};
}  // namespace

const RegisterView<MetricsView> metrics_view(80);

void compare_metrics(Model& model, const Trace& a, const Trace& b, int cur) {
  int chart = metric_index(model.view.memory.compare_chart, 4);
  if (chart >= kNumMetrics) chart = 4;  // no cycles chart for two traces
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  if (begin_combo_fitted(L("m.chart").c_str(), tr((std::string("m.") + kMetrics[chart].key).c_str()))) {
    for (int m = 0; m < kNumMetrics; ++m)
      if (ImGui::Selectable(tr((std::string("m.") + kMetrics[m].key).c_str()), m == chart))
        model.view.memory.compare_chart = kMetrics[m].key;
    ImGui::EndCombo();
  }
  tooltip_key((std::string("def.") + kMetrics[chart].key).c_str());
  ImGui::SameLine();
  ImGui::TextColored(ImColor(warp_color(0)), "A");
  ImGui::SameLine();
  ImGui::TextColored(ImColor(warp_color(2)), "B");
  bar_chart("cmpchart", a, &b, chart, cur, ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4));
  metrics_table(a, &b, cur);
}

}  // namespace redlab::gui
