// The "Hardware counts" toggle the source and per-step views share: the GPU's own counts of
// the timed kernel (CUPTI SASS metrics, collected by a child redlab) beside the model's, or why there are none.
#include "gui/views/hw_panel.h"

#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include "model/i18n.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

const HwCounts* hw_toggle(Model& model) {
  ImGui::Checkbox(L("hw.toggle").c_str(), &model.view.show_hw);
  tooltip_key("def.hw");
  if (!model.view.show_hw) return nullptr;
  model.work.request_hw_counts();
  const HwState* hw = model.work.hw_counts();
  const ImVec4& grey = ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
  if (!hw) {
    text_wrapped(tr(model.work.hw_busy() ? "hw.collecting" : "hw.waiting"), &grey);
    return nullptr;
  }
  if (!hw->counts.collected) {
    const ImVec4 amber(1.0f, 0.8f, 0.35f, 1);
    text_wrapped(trf("hw.not_collected", {hw->counts.why}), &amber);
    return nullptr;
  }
  text_wrapped(trf("hw.source", {hw->counts.device, hw->counts.chip}), &grey);
  return &hw->counts;
}

const char* hw_kind_text_key(HwKind k) {
  constexpr const char* keys[kHwKinds] = {"hw.kind.shared_load", "hw.kind.shared_store", "hw.kind.shared_atomic",
                                          "hw.kind.global_load", "hw.kind.global_store", "hw.kind.global_atomic"};
  return keys[int(k)];
}

void hw_comparison_table(Model& model, const Trace& t, const HwCounts& hw) {
  const HwComparison c = compare_hw(t, hw, &model.work.kernel_sources(hw.source_file));
  if (!ImGui::BeginTable("hwcmp", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit))
    return;
  for (const char* key :
       {"hw.col.region", "hw.col.kind", "hw.col.model_req", "hw.col.hw_inst", "hw.col.data", "hw.col.cause"})
    ImGui::TableSetupColumn(tr(key));
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  int col = 0;
  for (const char* key :
       {"hw.col.region", "hw.col.kind", "hw.col.model_req", "hw.col.hw_inst", "hw.col.data", "hw.col.cause"}) {
    ImGui::TableSetColumnIndex(col++);
    ImGui::TableHeader(tr(key));
    tooltip_key((std::string("def.") + key).c_str());
  }
  auto rows = [&](const std::string& where, const std::array<HwKindFigures, kHwKinds>& kinds) {
    bool first = true;
    for (int k = 0; k < kHwKinds; ++k) {
      const HwKindFigures& f = kinds[std::size_t(k)];
      if (!f.model_requests && !f.hw_instructions && !f.model_data && !f.hw_data) continue;
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      if (first) ImGui::TextUnformatted(where.c_str());
      first = false;
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(tr(hw_kind_text_key(HwKind(k))));
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(fmt_u(f.model_requests).c_str());
      ImGui::TableSetColumnIndex(3);
      ImGui::TextUnformatted(fmt_u(f.hw_instructions).c_str());
      ImGui::TableSetColumnIndex(4);
      ImGui::TextUnformatted((fmt_u(f.model_data) + " / " + (f.hw_data_known ? fmt_u(f.hw_data) : "-")).c_str());
      ImGui::TableSetColumnIndex(5);
      if (f.cause == HwCause::agree) {
        ImGui::TextDisabled("%s", tr("hw.cause.agree"));
      } else {
        ImGui::TextColored(f.cause == HwCause::unexplained ? ImVec4(1, 0.45f, 0.4f, 1) : ImVec4(1.0f, 0.8f, 0.35f, 1),
                           "%s", tr((std::string("hw.cause.") + hw_cause_key(f.cause)).c_str()));
        if (ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
          const auto diff = f.hw_instructions > f.model_requests ? f.hw_instructions - f.model_requests
                                                                 : f.model_requests - f.hw_instructions;
          ImGui::TextUnformatted(trf((std::string("hw.why.") + hw_cause_key(f.cause)).c_str(),
                                     {fmt_u(f.model_requests), fmt_u(f.hw_instructions), fmt_u(f.model_data),
                                      fmt_u(f.hw_data), fmt_u(diff)})
                                     .c_str());
          ImGui::PopTextWrapPos();
          ImGui::EndTooltip();
        }
      }
    }
  };
  rows(tr("hw.whole_kernel"), c.total);
  for (const HwRegion& r : c.regions) {
    if (!r.first_line && !r.instructions) continue;
    std::string where =
        r.first_line ? trf("hw.region", {std::to_string(r.first_line), r.steps}) : std::string(tr("hw.region.before"));
    if (r.file != hw.source_file) where = r.file.substr(r.file.rfind('/') + 1) + " " + where;
    rows(where, r.kinds);
  }
  ImGui::EndTable();
}

}  // namespace redlab::gui
