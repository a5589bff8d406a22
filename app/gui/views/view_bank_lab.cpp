// The bank lab: a student defines one warp's shared-memory access (an expression of the lane, the lanes that
// take part, the width, load or store) and sees the banks, the phases, the wavefronts, the ideal and what
// they mean.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "model/bank_lab.h"
#include "model/bank_lab_expr.h"
#include "model/i18n.h"
#include "gui/shell/palette.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {
std::string access_key(const Model& model) {
  return model.view.lab_expr + "|" + std::to_string(model.view.lab_width) + "|" +
         (model.view.lab_store ? "model" : "ld") + "|" + std::to_string(model.view.lab_mask);
}

class BankLabView final : public View {
 public:
  BankLabView() : View(ViewId::bank_lab, "win.bank_lab", true) { open = false; }
  void draw(Model& model) override;

 private:
  // "Measure on the GPU": the button, the session's measurement of this access, or why there is none.
  void measure_row(Model& model, const WarpAddresses& wa, const BankReport& rep) {
    const AccessMeasure& m = model.work.access_measure();
    // REDLAB_GUI_BANK_LAB_MEASURE=1: measure at once (screenshots, tests).
    const bool forced = !auto_started_ && model.work.opts.debug.bank_lab_measure;
    ImGui::BeginDisabled(m.running());
    if ((ImGui::Button(L("lab.measure").c_str()) || forced) && !m.running()) {
      auto_started_ = true;
      model.work.request_access_measure(wa, access_key(model), rep.wavefronts);
      if (model.view.headless) model.poll(true);
    }
    ImGui::EndDisabled();
    tooltip_key("lab.measure.tip");
    ImGui::SameLine();
    if (m.running()) {
      const char spin[] = "|/-\\";
      ImGui::Text("%s %c", tr("lab.measuring"), spin[int(ImGui::GetTime() * 8) & 3]);
    } else if (m.have && m.key == access_key(model)) {
      ImGui::PushTextWrapPos(0);
      if (std::isnan(m.cycles)) {
        ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1), "%s", trf("lab.measure.none", {m.why}).c_str());
      } else {
        char cycles[32];
        std::snprintf(cycles, sizeof cycles, "%.1f", m.cycles);
        ImGui::TextColored(ImVec4(0.6f, 0.8f, 1.0f, 1), "%s",
                           trf("lab.measured", {cycles, std::to_string(m.model_wavefronts)}).c_str());
      }
      ImGui::PopTextWrapPos();
    } else {
      ImGui::TextDisabled("%s", tr("lab.measure.hint"));
    }
  }

  bool auto_started_ = false;  // REDLAB_GUI_BANK_LAB_MEASURE's measurement was started
};
}  // namespace

const RegisterView<BankLabView> bank_lab_view(120);

void BankLabView::draw(Model& model) {
  const float fs = ImGui::GetFontSize();
  text_wrapped(tr("lab.intro"), &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);

  // The expression, with presets.
  ImGui::SetNextItemWidth(fs * 16);
  ImGui::InputText(L("lab.expr").c_str(), &model.view.lab_expr);
  tooltip_key("lab.expr.tip");
  ImGui::SameLine();
  static const char* presets[] = {"lane", "lane*2", "lane*32", "lane*33", "(lane*7)%32", "lane/2", "lane^1", "0"};
  for (const char* p : presets) {
    ImGui::SameLine();
    if (ImGui::SmallButton(p)) model.view.lab_expr = p;
  }
  const ExprParse parsed = parse_lane_expr(model.view.lab_expr);
  if (!parsed.ok()) {
    // In place: the expression again with a caret under the column.
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.5f, 0.4f, 1));
    const std::string before = model.view.lab_expr.substr(0, std::min(parsed.column, model.view.lab_expr.size()));
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::TextUnformatted(model.view.lab_expr.empty() ? " " : model.view.lab_expr.c_str());
    const std::string at =
        parsed.column < model.view.lab_expr.size() ? model.view.lab_expr.substr(parsed.column, 1) : " ";
    const float x = p.x + ImGui::CalcTextSize(before.c_str()).x + ImGui::CalcTextSize(at.c_str()).x * 0.5f;
    ImGui::GetWindowDrawList()->AddTriangleFilled(ImVec2(x, p.y + fs * 1.05f), ImVec2(x - fs * 0.3f, p.y + fs * 1.45f),
                                                  ImVec2(x + fs * 0.3f, p.y + fs * 1.45f),
                                                  IM_COL32(255, 130, 100, 255));
    ImGui::Dummy(ImVec2(1, fs * 0.3f));
    ImGui::TextUnformatted(
        trf("lab.err.at", {std::to_string(parsed.column + 1), expr_error_text(parsed.error, parsed.token, -1)})
            .c_str());
    ImGui::PopStyleColor();
  }

  // Width and direction.
  ImGui::TextUnformatted(tr("lab.width"));
  for (int w : {4, 8, 16}) {
    ImGui::SameLine();
    char lab[16];
    std::snprintf(lab, sizeof lab, "%d B", w);
    if (ImGui::RadioButton(lab, model.view.lab_width == w)) model.view.lab_width = w;
  }
  tooltip_key("lab.width.tip");
  ImGui::SameLine(0, fs * 2);
  if (ImGui::RadioButton(L("lab.load").c_str(), !model.view.lab_store)) model.view.lab_store = false;
  ImGui::SameLine();
  if (ImGui::RadioButton(L("lab.store").c_str(), model.view.lab_store)) model.view.lab_store = true;
  ImGui::SameLine(0, fs * 2);
  if (ImGui::SmallButton(L("lab.all").c_str())) model.view.lab_mask = 0xffffffffu;
  ImGui::SameLine();
  if (ImGui::SmallButton(L("lab.even").c_str())) model.view.lab_mask = 0x55555555u;
  ImGui::SameLine();
  if (ImGui::SmallButton(L("lab.half").c_str())) model.view.lab_mask = 0x0000ffffu;

  LaneAddresses la;
  if (parsed.ok()) la = lane_addresses(parsed.expr, model.view.lab_mask, unsigned(model.view.lab_width));

  // Lanes: click to switch one on or off; each shows its element index and its first bank.
  ImGui::TextUnformatted(tr("lab.lanes"));
  tooltip_key("lab.lanes.tip");
  const float cell = std::max(fs * 2.2f, (ImGui::GetContentRegionAvail().x - 4) / 16.0f - 4);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int l = 0; l < 32; ++l) {
    if (l % 16) ImGui::SameLine(0, 4);
    const bool on = model.view.lab_mask >> l & 1u;
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::PushID(l);
    if (ImGui::InvisibleButton("lane", ImVec2(cell, fs * 2.6f))) model.view.lab_mask ^= 1u << l;
    const bool hov = ImGui::IsItemHovered();
    ImGui::PopID();
    const bool bad = parsed.ok() && la.bad_lane == l;
    ImU32 bg = bad ? color_conflict() : on ? warp_color(unsigned(l) / 4, 0.85f) : IM_COL32(50, 53, 60, 255);
    dl->AddRectFilled(p, ImVec2(p.x + cell, p.y + fs * 2.6f), bg, 3);
    if (hov) dl->AddRect(p, ImVec2(p.x + cell, p.y + fs * 2.6f), color_highlight(), 3, 0, 2);
    char top[16], bottom[24];
    std::snprintf(top, sizeof top, "%d", l);
    if (on && parsed.ok() && la.error == ExprError::none)
      std::snprintf(bottom, sizeof bottom, "b%u", (la.addr[l] / 4) % kBanks);
    else
      std::snprintf(bottom, sizeof bottom, "%s", on ? "" : "off");
    const ImU32 fg = on ? IM_COL32(0, 0, 0, 255) : IM_COL32(150, 150, 150, 255);
    dl->AddText(ImVec2(p.x + 3, p.y + 1), fg, top);
    dl->AddText(ImVec2(p.x + 3, p.y + fs * 1.3f), fg, bottom);
    if (hov) {
      if (on && parsed.ok() && la.error == ExprError::none)
        ImGui::SetTooltip(
            "%s", trf("lab.lane.tip", {std::to_string(l), std::to_string(la.index[l]), std::to_string(la.addr[l]),
                                       std::to_string((la.addr[l] / 4) % kBanks)})
                      .c_str());
      else
        ImGui::SetTooltip("%s", trf("lab.lane.off", {std::to_string(l)}).c_str());
    }
  }

  if (!parsed.ok()) return;
  if (la.error != ExprError::none) {
    ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.4f, 1), "%s", expr_error_text(la.error, "", la.bad_lane).c_str());
    return;
  }
  WarpAddresses wa;
  wa.mask = model.view.lab_mask;
  for (int l = 0; l < 32; ++l) wa.addr[size_t(l)] = la.addr[l];
  wa.width = unsigned(model.view.lab_width);
  wa.store = model.view.lab_store;
  const BankReport rep = bank_report(wa);
  ImGui::Separator();
  if (!wa.mask) {
    ImGui::TextDisabled("%s", tr("lab.ex.none"));
    return;
  }
  const bool conflict = rep.wavefronts > rep.ideal;
  ImGui::TextColored(ImColor(conflict ? color_conflict() : color_ok()), "%s",
                     trf("banks.summary", {std::to_string(rep.wavefronts), std::to_string(rep.ideal),
                                           std::to_string(rep.phases.size()), std::to_string(rep.lanes_per_phase)})
                         .c_str());
  tooltip_key("def.wavefronts");
  measure_row(model, wa, rep);
  text_wrapped(explain_bank_report(rep, wa));
  ImGui::BeginChild("labgrid", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  draw_bank_grid(rep, wa);
  text_wrapped(tr("banks.legend"), &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled],
               ImGui::GetWindowContentRegionMax().x - ImGui::GetCursorPosX());
  ImGui::EndChild();
}

}  // namespace redlab::gui
