#include <algorithm>
#include <bit>

#include "core/bank_model.h"
#include "model/i18n.h"
#include "gui/shell/palette.h"
#include "views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {
std::string access_name(const WarpAccess& a, size_t i) {
  // "0: shared load 4B, 8 lanes", "1: global atomic add 4B, 1 lanes", in the UI's language.
  const std::string what = std::string("bank.access.") + to_string(a.space) + "_" + to_string(a.kind);
  return std::to_string(i) + ": " + trf(what.c_str(), {std::to_string(a.width), std::to_string(std::popcount(a.mask)),
                                                       redlab::to_string(a.op)});
}
}  // namespace

// The height draw_bank_grid takes for `rep`, with a scrollbar under it.
float bank_grid_height(const BankReport& rep) {
  const float fs = ImGui::GetFontSize(), rowh = fs * 1.25f;
  float h = ImGui::GetStyle().ScrollbarSize + ImGui::GetStyle().WindowPadding.y * 2;
  for (const BankPhase& ph : rep.phases) {
    std::size_t maxw = 1;
    for (const auto& w : ph.words) maxw = std::max(maxw, w.size());
    h += ImGui::GetTextLineHeightWithSpacing() + rowh * float(maxw + 1) + fs + 6 + ImGui::GetStyle().ItemSpacing.y;
  }
  return h;
}

// The 32-bank grid of one request: per phase, a column per bank, a row per distinct word, lanes in the cells.
int draw_bank_grid(const BankReport& rep, const WarpAddresses& a, int marked) {
  int clicked = -1;
  const float fs = ImGui::GetFontSize();
  // Columns share the width there is (narrow windows get narrow columns; lane labels show where they fit).
  // The left column names the header's numbers ("bank") and each row ("word 1", "word 2", ...): as wide as its
  // longest label.
  const std::string cols_head = tr("banks.cols");
  float gutter = ImGui::CalcTextSize(cols_head.c_str()).x;
  for (const BankPhase& ph : rep.phases)
    for (const auto& w : ph.words)
      gutter = std::max(gutter, ImGui::CalcTextSize(trf("banks.row", {std::to_string(w.size())}).c_str()).x);
  gutter = std::max(fs * 2.5f, gutter + fs * 0.5f);
  const float colw = std::max(fs * 0.75f, (ImGui::GetContentRegionAvail().x - gutter - fs * 0.1f - ImGui::GetStyle().ScrollbarSize) / 32.0f);
  const float rowh = fs * 1.25f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (size_t p = 0; p < rep.phases.size(); ++p) {
    const BankPhase& ph = rep.phases[p];
    ImGui::Text("%s", trf("banks.phase", {std::to_string(p), std::to_string(ph.wavefronts)}).c_str());
    tooltip_key("banks.phase.tip");
    if (ph.wavefronts > 1) {  // which banks, in words (the xN marks under the grid may be scrolled away)
      std::string banks;
      for (unsigned b = 0; b < kBanks; ++b)
        if (ph.words[b].size() == ph.wavefronts) banks += (banks.empty() ? "" : ", ") + std::to_string(b);
      ImGui::SameLine();
      ImGui::TextColored(ImColor(color_conflict()), "%s",
                         trf("banks.phase.conflict", {std::to_string(ph.wavefronts), banks}).c_str());
    }
    size_t maxw = 1;
    for (auto& w : ph.words) maxw = std::max(maxw, w.size());
    ImVec2 o = ImGui::GetCursorScreenPos();
    o.x += gutter;
    // Header: bank numbers.
    const unsigned every = colw >= ImGui::CalcTextSize("00").x + 3 ? 1 : 4;
    for (unsigned b = 0; b < kBanks; b += every) {
      char lab[8];
      std::snprintf(lab, sizeof lab, "%u", b);
      dl->AddText(ImVec2(o.x + b * colw + 2, o.y), IM_COL32(170, 170, 170, 255), lab);
    }
    // A bank's number selects its column (again: none), to follow one bank through the phases and steps.
    for (unsigned b = 0; b < kBanks; ++b)
      if (ImGui::IsMouseHoveringRect(ImVec2(o.x + b * colw, o.y), ImVec2(o.x + (b + 1) * colw, o.y + rowh)) &&
          ImGui::IsMouseClicked(0))
        clicked = int(b);
    // Left of the header: "bank", what its numbers are. Rows are the distinct words a bank serves in this phase,
    // one after another: "word 1", "word 2", ... (not w0, w1, which students read as warps).
    dl->AddText(ImVec2(o.x - gutter, o.y), IM_COL32(150, 150, 150, 255), cols_head.c_str());
    if (ImGui::IsMouseHoveringRect(ImVec2(o.x - gutter, o.y), ImVec2(o.x, o.y + rowh * float(maxw + 1))))
      ImGui::SetTooltip("%s", wrapped(tr("banks.rows.tip"), fs * 30).c_str());
    o.y += rowh;
    for (size_t r = 0; r < maxw; ++r) {
      const std::string lab = trf("banks.row", {std::to_string(r + 1)});
      dl->AddText(ImVec2(o.x - gutter, o.y + r * rowh), IM_COL32(150, 150, 150, 255), lab.c_str());
    }
    for (unsigned b = 0; b < kBanks; ++b) {
      const auto& words = ph.words[b];
      const bool bad = words.size() > 1;
      for (size_t r = 0; r < maxw; ++r) {
        ImVec2 c0(o.x + b * colw, o.y + r * rowh), c1(c0.x + colw - 2, c0.y + rowh - 2);
        if (r >= words.size()) {
          dl->AddRectFilled(c0, c1, IM_COL32(40, 42, 48, 255));
          continue;
        }
        // Lanes that touch this word.
        std::string lanes;
        unsigned nl = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!(ph.lanes >> l & 1u) || !(a.mask >> l & 1u)) continue;
          std::uint32_t first = a.addr[l] / 4, last = (a.addr[l] + a.width - 1) / 4;
          if (words[r] >= first && words[r] <= last) {
            if (nl < 2) {
              if (!lanes.empty()) lanes += ',';
              lanes += std::to_string(l);
            }
            ++nl;
          }
        }
        if (nl > 2) lanes += "+";
        unsigned first_lane = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((ph.lanes >> l & 1u) && (a.mask >> l & 1u) && words[r] >= a.addr[l] / 4 &&
              words[r] <= (a.addr[l] + a.width - 1) / 4) { first_lane = l; break; }
        ImU32 col = bad ? color_conflict() : warp_color(first_lane / 4, 0.9f);
        dl->AddRectFilled(c0, c1, col);
        // Narrow columns: the first lane only, in a smaller type when needed.
        if (ImGui::CalcTextSize(lanes.c_str()).x > colw - 3) lanes = lanes.substr(0, lanes.find(','));
        const float tw = ImGui::CalcTextSize(lanes.c_str()).x;
        const float tsz = tw > colw - 3 ? std::max(fs * 0.55f, fs * (colw - 3) / tw) : fs;
        dl->PushClipRect(c0, c1, true);
        dl->AddText(ImGui::GetFont(), tsz, ImVec2(c0.x + 1, c0.y + (fs - tsz) * 0.6f), IM_COL32(0, 0, 0, 255), lanes.c_str());
        dl->PopClipRect();
        if (ImGui::IsMouseHoveringRect(c0, c1))
          ImGui::SetTooltip("%s", trf("banks.cell.tip", {std::to_string(b), std::to_string(words[r]),
                                                        std::to_string(words[r] * 4), std::to_string(nl),
                                                        std::to_string(words.size())}).c_str());
      }
      if (int(b) == marked)   // the selected column, header to the last row
        dl->AddRect(ImVec2(o.x + b * colw - 1, o.y - rowh), ImVec2(o.x + (b + 1) * colw - 1, o.y + maxw * rowh),
                    color_highlight(), 0.0f, 0, std::max(2.0f, fs * 0.12f));
      if (bad) {  // under its column, in a smaller type where the column is narrow (no mark runs into the next)
        char deg[32];
        std::snprintf(deg, sizeof deg, "x%zu", words.size());
        const float w = ImGui::CalcTextSize(deg).x;
        const float size = w > colw - 2 ? std::max(fs * 0.5f, fs * (colw - 2) / w) : fs;
        dl->AddText(ImGui::GetFont(), size, ImVec2(o.x + b * colw + 1, o.y + maxw * rowh + 2), color_conflict(), deg);
      }
    }
    // Room for the header, the rows and the xN marks under them: what follows starts below the marks.
    ImGui::Dummy(ImVec2(gutter + 32 * colw, rowh * float(maxw + 1) + fs + 6));
  }
  return clicked;
}

namespace {
class BanksView final : public View {
 public:
  BanksView() : View(ViewId::banks, "win.banks") {}
  void draw(Model& st) override {
    // With compare on, B's grid beside A's (seed 001: strided against interleaved at one glance): the grid's
    // 32 columns need about 27 em a side, else one grid above the other.
    draw_each_side(st, ImGui::GetFontSize() * 27,
                   [&](const Slot& sl, bool is_a, bool stacked) { draw_side(st, sl, is_a, stacked); });
  }

 private:
  void draw_side(Model& st, const Slot& sl, bool is_a, bool stacked) {
    const Trace* traced = focus_trace(sl);
    if (!traced) return;
    const Trace& t = *traced;
    const int step = slot_step(sl, st.view.step);
    const int focus = clamped_selection(st.view.sel_focus, int(t.focus.size()), is_a);
    if (is_a) {
      focus_block_combo(st, t);
      ImGui::SameLine();
      if (ImGui::SmallButton(L("lab.open").c_str())) st.view.views_to_open.push_back(ViewId::bank_lab);
      tooltip_key("lab.open.tip");
    } else {
      ImGui::TextDisabled("%s", trf("focus.block", {std::to_string(t.focus[size_t(focus)].block)}).c_str());
    }
    const FocusBlock& fb = t.focus[size_t(focus)];
    if (size_t(step) >= fb.steps.size() || fb.steps[size_t(step)].empty()) return;
    const auto& warps = fb.steps[size_t(step)];
    int warp = clamped_selection(st.view.sel_warp, int(warps.size()), is_a);
    ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 8, ImGui::GetContentRegionAvail().x * 0.3f));
    if (ImGui::SliderInt(L("banks.warp").c_str(), &warp, 0, int(warps.size()) - 1)) st.select_warp(warp);
    tooltip_key("banks.warp.tip");
    const WarpStep& ws = warps[size_t(warp)];
    ImGui::SameLine();
    if (ws.accesses.empty()) {
      ImGui::TextDisabled("%s", tr("banks.no_access"));
      return;
    }
    const int access = clamped_selection(st.view.sel_access, int(ws.accesses.size()), is_a);
    // The combo takes the room its label leaves (the label is not cut at the window's edge).
    const std::string access_label = L("banks.access");
    const float label_w = ImGui::CalcTextSize(access_label.c_str(), nullptr, true).x + ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::SetNextItemWidth(std::clamp(ImGui::GetContentRegionAvail().x - label_w, ImGui::GetFontSize() * 6, ImGui::GetFontSize() * 18));
    if (begin_combo_fitted(access_label.c_str(), access_name(ws.accesses[size_t(access)], size_t(access)))) {
      for (size_t i = 0; i < ws.accesses.size(); ++i)
        if (ImGui::Selectable(access_name(ws.accesses[i], i).c_str(), int(i) == access)) st.view.sel_access = int(i);
      ImGui::EndCombo();
    }
    tooltip_key("banks.access.tip");
    const WarpAccess& a = ws.accesses[size_t(access)];
    if (a.space == Space::global) {
      ImGui::Text("%s", trf("banks.global", {std::to_string(a.sectors), std::to_string(a.buffer)}).c_str());
      tooltip_key("def.sectors");
    }
    if (a.space == Space::reg) text_wrapped(tr("banks.reg"));
    if (a.space != Space::shared) {
      // Lanes and their addresses, or for a shuffle the lane each took its value from and what it holds after
      // (probe.shuffled records the lane's value once combined, not the source lane's).
      ImGui::BeginChild("lanes_list");
      for (unsigned l = 0; l < 32; ++l)
        if (a.mask >> l & 1u)
          ImGui::TextUnformatted(trf(a.space == Space::reg ? "banks.lane.reg" : "banks.lane.global",
                                     {std::to_string(l), std::to_string(a.addr[l]), format_value(t.scenario.type, a.bits[l])})
                                     .c_str());
      ImGui::EndChild();
      return;
    }
    const WarpAddresses wa = addresses_of(a);
    BankReport rep = bank_report(wa);
    const bool conflict = rep.wavefronts > rep.ideal;
    ImGui::TextColored(ImColor(conflict ? color_conflict() : color_ok()), "%s",
                       trf("banks.summary", {std::to_string(rep.wavefronts), std::to_string(rep.ideal),
                                             std::to_string(rep.phases.size()), std::to_string(rep.lanes_per_phase)})
                           .c_str());
    tooltip_key("def.wavefronts");
    if (rep.paired) { ImGui::SameLine(); ImGui::TextDisabled("%s", tr("banks.paired")); tooltip_key("banks.paired.tip"); }

    // The legend once: under the grid, or under B's in compare.
    const bool legend = !st.work.compare || !is_a;
    // Stacked, each grid takes its own height (the view scrolls), not the rest of it.
    const float legend_height =
        legend ? ImGui::CalcTextSize(tr("banks.legend"), nullptr, false, ImGui::GetContentRegionAvail().x).y : 0.0f;
    ImGui::BeginChild("grid", ImVec2(0, stacked ? bank_grid_height(rep) + legend_height : 0.0f), false,
                      ImGuiWindowFlags_HorizontalScrollbar);
    if (const int bank = draw_bank_grid(rep, wa, st.view.sel_bank); bank >= 0)
      st.select_bank_column(bank == st.view.sel_bank ? -1 : bank);
    if (legend)   // wrapped at the visible width
      text_wrapped(tr("banks.legend"), nullptr, ImGui::GetWindowContentRegionMax().x - ImGui::GetCursorPosX());
    ImGui::EndChild();
  }
};
}  // namespace

std::unique_ptr<View> make_banks_view() { return std::make_unique<BanksView>(); }

}  // namespace redlab::gui
