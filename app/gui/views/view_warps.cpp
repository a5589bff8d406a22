#include <algorithm>
#include <bit>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/i18n.h"
#include "gui/shell/palette.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

const Trace* focus_trace(const Side& sl) {
  if (!sl.trace || sl.trace->focus.empty()) {
    text_wrapped(no_trace_text(sl), &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    return nullptr;
  }
  return &*sl.trace;
}

void stale_banner(const Side& sl) {
  const std::string why = stale_reason(sl);
  static const ImVec4 kStale(1.0f, 0.7f, 0.3f, 1);
  if (!why.empty()) text_wrapped(why, &kStale);
}

int clamped_selection(int& selected, int count, bool is_a) {
  const int k = std::clamp(selected, 0, std::max(0, count - 1));
  if (is_a) selected = k;
  return k;
}

void draw_each_side(Model& model, float min_side_width,
                    const std::function<void(const Side&, bool is_a, bool stacked)>& draw) {
  if (!model.work.compare) {
    stale_banner(model.work.a);
    draw(model.work.a, true, false);
    return;
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const bool across = avail.x >= 2 * min_side_width + gap;
  for (const bool is_a : {true, false}) {
    const Side& sl = is_a ? model.work.a : model.work.b;
    if (across) {
      if (!is_a) ImGui::SameLine();
      ImGui::BeginChild(is_a ? "side_a" : "side_b", ImVec2((avail.x - gap) * 0.5f, avail.y));
    } else if (!is_a) {
      ImGui::Separator();
    }
    const std::string kernel = sl.trace ? sl.trace->scenario.kernel : sl.scenario.kernel;
    ImGui::TextUnformatted((std::string(is_a ? "A: " : "B: ") + kernel).c_str());
    stale_banner(sl);
    ImGui::PushID(is_a ? "a" : "b");
    draw(sl, is_a, !across);
    ImGui::PopID();
    if (across) ImGui::EndChild();
  }
}

void focus_block_combo(Model& model, const Trace& t) {
  if (t.focus.empty()) return;
  model.view.sel_focus = std::clamp(model.view.sel_focus, 0, int(t.focus.size()) - 1);
  const std::string cur = trf("focus.block", {std::to_string(t.focus[size_t(model.view.sel_focus)].block)});
  ImGui::SetNextItemWidth(ImGui::CalcTextSize(cur.c_str()).x + ImGui::GetFrameHeight() * 2);
  if (ImGui::BeginCombo("##focus", cur.c_str())) {
    for (size_t i = 0; i < t.focus.size(); ++i) {
      const std::string lab = trf("focus.block", {std::to_string(t.focus[i].block)});
      if (ImGui::Selectable(lab.c_str(), int(i) == model.view.sel_focus)) model.view.sel_focus = int(i);
    }
    ImGui::EndCombo();
  }
  tooltip_key("focus.tip");
}

namespace {
class WarpsView final : public View {
 public:
  WarpsView() : View(ViewId::warps, "win.warps") {}
  void draw(Model& model) override {
    // With compare on, B's warps beside A's where each side has 16 em for its lanes; else one above the other.
    view_top_ = ImGui::GetCursorPosY();
    view_room_ = ImGui::GetContentRegionAvail().y;
    draw_each_side(model, ImGui::GetFontSize() * 16,
                   [&](const Side& sl, bool is_a, bool stacked) { draw_side(model, sl, is_a, stacked); });
  }

 private:
  float view_top_ = 0, view_room_ = 0;  // where the view's content starts this frame, and its height

  void draw_side(Model& model, const Side& sl, bool is_a, bool stacked) {
    const Trace* traced = focus_trace(sl);
    if (!traced) return;
    const Trace& t = *traced;
    const int step = side_step(sl, model.view.step);
    const FocusBlock& fb = t.focus[size_t(clamped_selection(model.view.sel_focus, int(t.focus.size()), is_a))];
    if (size_t(step) >= fb.steps.size()) return;
    const auto& warps = fb.steps[size_t(step)];
    unsigned active = 0, divergent = 0, threads = 0;
    for (auto& w : warps) {
      if (w.active) ++active;
      if (w.active && w.active != 0xffffffffu) ++divergent;
      threads += unsigned(std::popcount(w.active));
    }
    const bool halves = stacked && model.view.layout == LayoutKind::present;  // (below)
    if (is_a || !halves) focus_block_combo(model, t);  // (in halves, B's block follows A's: its rows get the room)
    // Each figure on the line while it fits, else on the next (never cut at the window's edge).
    // (Kept back while a lesson asks for a count of the lanes: the student counts them in the rows below.)
    auto lanes = [&](unsigned v) { return figure_text(model, sl, FigureKind::lanes, std::to_string(v)); };
    const std::string active_text = trf("warps.active", {lanes(active), std::to_string(warps.size())});
    same_line_if_fits(active_text);
    ImGui::TextUnformatted(active_text.c_str());
    tooltip_key("def.active_warps");
    const std::string divergent_text = trf("warps.divergent", {lanes(divergent)});
    same_line_if_fits(divergent_text);
    ImGui::TextColored(ImColor(divergent && !kept_back(model, sl, FigureKind::lanes) ? color_divergent() : color_ok()),
                       "%s", divergent_text.c_str());
    tooltip_key("def.divergent_warps");
    const std::string threads_text = trf("warps.threads", {lanes(threads)});
    same_line_if_fits(threads_text);
    ImGui::TextUnformatted(threads_text.c_str());
    tooltip_key("def.active_threads");

    const float fs = ImGui::GetFontSize();
    // The lanes take the room the row's label (4.5 em) and its "32/32 divergent" leave (measured, not guessed:
    // the words differ by language).
    const float tail = ImGui::CalcTextSize((std::string("32/32") + tr("warps.div_mark")).c_str()).x + 6 +
                       ImGui::GetStyle().ScrollbarSize;
    const float lane = std::clamp((ImGui::GetContentRegionAvail().x - fs * 4.5f - tail) / 32.0f, 4.0f, fs * 1.4f);
    // Stacked under A, B's lanes take their own height (the view scrolls), not the rest of it; in Present, A's warps
    // the top half of the view and B's the rest, their rows as thin as that needs (a projector at x2 shows both).
    const float line = ImGui::GetTextLineHeightWithSpacing();
    float lanes_h = stacked ? float(warps.size()) * line + ImGui::GetStyle().WindowPadding.y * 2 : 0.0f;
    if (halves) lanes_h = is_a ? std::max(view_top_ + view_room_ * 0.5f - ImGui::GetCursorPosY(), line * 2) : 0.0f;
    ImGui::BeginChild("lanes", ImVec2(0, lanes_h));
    const float row_h =
        halves ? std::clamp(ImGui::GetContentRegionAvail().y / float(std::max<std::size_t>(warps.size(), 1)),
                            std::min(4.0f, line), line)
               : line;
    const float text = std::min(fs, row_h * 0.9f), bar = std::min(fs, row_h - 1);  // the labels shrink with the rows
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* font = ImGui::GetFont();
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    for (std::size_t i = 0; i < warps.size(); ++i) {
      const WarpStep& w = warps[i];
      const ImVec2 p(origin.x, origin.y + float(i) * row_h);
      const bool div = w.active && w.active != 0xffffffffu;
      dl->AddText(font, text, p, ink, trf("warps.row", {std::to_string(w.warp)}).c_str());
      float x0 = p.x + fs * 4.5f;
      for (unsigned l = 0; l < 32; ++l) {
        ImVec2 a(x0 + l * lane, p.y + 1), b(x0 + (l + 1) * lane - 1, p.y + bar);
        bool on = w.active >> l & 1u;
        dl->AddRectFilled(a, b, on ? warp_color(w.warp) : IM_COL32(55, 58, 64, 255));
      }
      if (div)
        dl->AddRect(ImVec2(x0 - 2, p.y - 1), ImVec2(x0 + 32 * lane + 1, p.y + bar + 2), color_divergent(), 0, 0, 2);
      char count[64];
      std::snprintf(count, sizeof count, "%2d/32%s", std::popcount(w.active), div ? tr("warps.div_mark") : "");
      dl->AddText(font, text, ImVec2(x0 + 32 * lane + 6, p.y), ink, count);
      ImGui::SetCursorScreenPos(p);
      ImGui::InvisibleButton(("w" + std::to_string(i)).c_str(),
                             ImVec2(x0 + 32 * lane - p.x, std::max(row_h - 1, 1.0f)));
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", trf("warps.tip", {std::to_string(w.warp), std::to_string(std::popcount(w.active)),
                                                  std::to_string(w.accesses.size()),
                                                  w.cycles >= 0 ? std::to_string(w.cycles) : std::string("-")})
                                    .c_str());
      }
      if (ImGui::IsItemClicked()) model.select_warp(int(w.warp));
    }
    ImGui::SetCursorScreenPos(origin);
    // (As wide as a row with its count: a pane narrower than that scrolls sideways.)
    ImGui::Dummy(
        ImVec2(fs * 4.5f + 32 * lane + 6 + ImGui::CalcTextSize((std::string("32/32") + tr("warps.div_mark")).c_str()).x,
               float(warps.size()) * row_h - ImGui::GetStyle().ItemSpacing.y));
    ImGui::EndChild();
  }
};
}  // namespace

const RegisterView<WarpsView> warps_view(30);

}  // namespace redlab::gui
