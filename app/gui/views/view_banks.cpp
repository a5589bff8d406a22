#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <cfloat>
#include <string>
#include <vector>

#include "core/bank_model.h"
#include "core/catalog.h"
#include "model/bank_grid.h"
#include "model/i18n.h"
#include "gui/shell/palette.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {
// A phase's conflicting banks in words: "0, 2, 4, ..., 30" where they step evenly, else each one.
std::string bank_list(const std::vector<unsigned>& banks) {
  std::string out;
  const bool even = banks.size() >= 5 && std::adjacent_find(banks.begin(), banks.end(), [&](unsigned x, unsigned y) {
                                           return y - x != banks[1] - banks[0];
                                         }) == banks.end();
  if (even) {
    for (std::size_t i = 0; i < 3; ++i) out += std::to_string(banks[i]) + ", ";
    return out + "..., " + std::to_string(banks.back());
  }
  for (unsigned b : banks) out += (out.empty() ? "" : ", ") + std::to_string(b);
  return out;
}

// The grid's room: the width there is, and `height` (0: unbounded) for every phase.
BankGridRoom grid_room(const BankReport& rep, float height) {
  BankGridRoom room;
  room.width = ImGui::GetContentRegionAvail().x - 1;
  room.height = height;
  room.font = ImGui::GetFontSize();
  room.digit_width = ImGui::CalcTextSize("0").x;
  room.label_width = ImGui::CalcTextSize(tr("banks.cols")).x;
  room.phase_line = ImGui::GetTextLineHeightWithSpacing();
  for (const BankPhase& ph : rep.phases) {
    std::size_t rows = 1;
    for (const auto& w : ph.words) rows = std::max(rows, w.size());
    room.rows.push_back(unsigned(rows));
    room.label_width =
        std::max(room.label_width, ImGui::CalcTextSize(trf("banks.row", {std::to_string(rows)}).c_str()).x);
  }
  return room;
}
}  // namespace

float bank_grid_height(const BankReport& rep) {
  const BankGridRoom room = grid_room(rep, 0);
  return bank_grid_height(room, bank_grid_geometry(room)) + ImGui::GetStyle().WindowPadding.y * 2;
}

// The 32-bank grid of one request: per phase, a column per bank, a row per distinct word, lanes in the cells. The
// columns share the width there is; with `height`, the rows share it too (model/bank_grid.h).
int draw_bank_grid(const BankReport& rep, const WarpAddresses& a, int marked, float height, bool degrees) {
  int clicked = -1;
  const BankGridRoom room = grid_room(rep, height);
  const BankGridGeometry g = bank_grid_geometry(room);
  ImFont* font = ImGui::GetFont();
  const float fs = ImGui::GetFontSize(), lf = g.label_font, colw = g.column, rowh = g.row;
  const float gutter = g.gutter;
  const std::string cols_head = tr("banks.cols");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (size_t p = 0; p < rep.phases.size(); ++p) {
    const BankPhase& ph = rep.phases[p];
    // The phase and, where it has a conflict, which banks (the xN marks under the grid say it per column too):
    // on one line, cut with "..." where narrow, the whole sentence on hover.
    // (One phase: the summary above has its wavefronts, the line says only the conflict.)
    const std::string wavefronts = degrees ? std::to_string(ph.wavefronts) : "?";
    std::string line = rep.phases.size() > 1 ? trf("banks.phase", {std::to_string(p), wavefronts}) : "";
    if (ph.wavefronts > 1) {
      std::vector<unsigned> banks;
      for (unsigned b = 0; b < kBanks; ++b)
        if (ph.words[b].size() == ph.wavefronts) banks.push_back(b);
      line += (line.empty() ? "" : "  ") + trf("banks.phase.conflict", {wavefronts, bank_list(banks)});
    }
    if (line.empty()) line = tr("banks.phase.none");
    const ImVec4 colour =
        ph.wavefronts > 1 ? ImVec4(ImColor(color_conflict())) : ImGui::GetStyle().Colors[ImGuiCol_Text];
    text_fitted(line, ImGui::GetContentRegionAvail().x, &colour);
    if (line == fit_text(line, ImGui::GetContentRegionAvail().x)) tooltip_key("banks.phase.tip");
    const size_t maxw = room.rows[p];
    ImVec2 o = ImGui::GetCursorScreenPos();
    o.x += gutter;
    // Header: bank numbers (every k-th where columns are narrow).
    for (unsigned b = 0; b < kBanks; b += g.header_every) {
      char lab[8];
      std::snprintf(lab, sizeof lab, "%u", b);
      dl->AddText(font, lf, ImVec2(o.x + b * colw + 1, o.y + (rowh - lf) * 0.5f), IM_COL32(170, 170, 170, 255), lab);
    }
    // A bank's number selects its column (again: none), to follow one bank through the phases and steps.
    for (unsigned b = 0; b < kBanks; ++b)
      if (ImGui::IsMouseHoveringRect(ImVec2(o.x + b * colw, o.y), ImVec2(o.x + (b + 1) * colw, o.y + rowh)) &&
          ImGui::IsMouseClicked(0))
        clicked = int(b);
    // Left of the header: "bank", what its numbers are. Rows are the distinct words a bank serves in this phase,
    // one after another: "word 1", "word 2", ... (not w0, w1, which students read as warps).
    dl->AddText(font, lf, ImVec2(o.x - gutter, o.y + (rowh - lf) * 0.5f), IM_COL32(150, 150, 150, 255),
                cols_head.c_str());
    if (ImGui::IsMouseHoveringRect(ImVec2(o.x - gutter, o.y), ImVec2(o.x, o.y + rowh * float(maxw + 1))))
      ImGui::SetTooltip("%s", wrapped(tr("banks.rows.tip"), fs * 30).c_str());
    o.y += rowh;
    // Rows thinner than a label: every k-th row has one, counted from the header's (word k, word 2k, ...), so that
    // none runs into the header's "bank" and the last labels say how many rows there are.
    const std::size_t label_every = std::size_t(std::max(1.0f, std::ceil(lf * 1.05f / rowh)));
    for (size_t r = label_every - 1; r < maxw; r += label_every) {
      const std::string lab = trf("banks.row", {std::to_string(r + 1)});
      dl->AddText(font, lf, ImVec2(o.x - gutter, o.y + r * rowh + (rowh - lf) * 0.5f), IM_COL32(150, 150, 150, 255),
                  lab.c_str());
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
        unsigned nl = 0, first_lane = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!(ph.lanes >> l & 1u) || !(a.mask >> l & 1u)) continue;
          std::uint32_t first = a.addr[l] / 4, last = (a.addr[l] + a.width - 1) / 4;
          if (words[r] >= first && words[r] <= last) {
            if (nl == 0) first_lane = l;
            if (nl < 2) {
              if (!lanes.empty()) lanes += ',';
              lanes += std::to_string(l);
            }
            ++nl;
          }
        }
        if (nl > 2) lanes += "+";
        ImU32 col = bad ? color_conflict() : warp_color(first_lane / 4, 0.9f);
        dl->AddRectFilled(c0, c1, col);
        if (g.lane_font > 0) {
          // The first lane's number at the size that fits (model/bank_grid.h); the others sharing the word where
          // they fit beside it.
          const float tsz = g.lane_font;
          if (font->CalcTextSizeA(tsz, FLT_MAX, 0, lanes.c_str()).x > colw - 3) lanes = std::to_string(first_lane);
          dl->PushClipRect(c0, c1, true);
          if (g.lane_stacked && lanes.size() == 2) {  // one digit over the other
            const float step = tsz * 0.78f, top = c0.y + (rowh - 2 - step - tsz) * 0.5f;
            for (int d = 0; d < 2; ++d) {
              const char digit[2] = {lanes[std::size_t(d)], 0};
              const float w = font->CalcTextSizeA(tsz, FLT_MAX, 0, digit).x;
              dl->AddText(font, tsz, ImVec2(c0.x + (colw - 2 - w) * 0.5f, top + d * step), IM_COL32(0, 0, 0, 255),
                          digit);
            }
          } else {
            const float w = font->CalcTextSizeA(tsz, FLT_MAX, 0, lanes.c_str()).x;
            dl->AddText(font, tsz, ImVec2(c0.x + std::max(1.0f, (colw - 2 - w) * 0.5f), c0.y + (rowh - 2 - tsz) * 0.5f),
                        IM_COL32(0, 0, 0, 255), lanes.c_str());
          }
          dl->PopClipRect();
        }
        if (ImGui::IsMouseHoveringRect(c0, c1))
          ImGui::SetTooltip(
              "%s", trf("banks.cell.tip", {std::to_string(b), std::to_string(words[r]), std::to_string(words[r] * 4),
                                           std::to_string(nl), std::to_string(words.size())})
                        .c_str());
      }
      if (int(b) == marked)  // the selected column, header to the last row
        dl->AddRect(ImVec2(o.x + b * colw - 1, o.y - rowh), ImVec2(o.x + (b + 1) * colw - 1, o.y + maxw * rowh),
                    color_highlight(), 0.0f, 0, std::max(2.0f, fs * 0.12f));
      if (bad) {  // under its column, in a smaller type where the column is narrow (no mark runs into the next)
        char deg[32];
        if (degrees)
          std::snprintf(deg, sizeof deg, "x%zu", words.size());
        else
          std::snprintf(deg, sizeof deg, "x?");
        const float w = font->CalcTextSizeA(lf, FLT_MAX, 0, deg).x;
        const float size = w > colw - 2 ? std::max(lf * 0.5f, lf * (colw - 2) / w) : lf;
        dl->AddText(font, size, ImVec2(o.x + b * colw + 1, o.y + maxw * rowh + 2), color_conflict(), deg);
      }
    }
    // Room for the header, the rows and the xN marks under them: what follows starts below the marks.
    ImGui::Dummy(ImVec2(gutter + 32 * colw, rowh * float(maxw + 1) + lf + 6 - ImGui::GetStyle().ItemSpacing.y));
  }
  return clicked;
}

namespace {
class BanksView final : public View {
 public:
  BanksView() : View(ViewId::banks, "win.banks") {}
  void draw(Model& model) override {
    // With compare on, B's grid beside A's (note 001: strided against interleaved at one glance): the grid's
    // 32 columns need about 27 em a side, else one grid above the other.
    view_top_ = ImGui::GetCursorPosY();
    view_room_ = ImGui::GetContentRegionAvail().y;
    draw_each_side(model, ImGui::GetFontSize() * 27,
                   [&](const Side& sl, bool is_a, bool stacked) { draw_side(model, sl, is_a, stacked); });
  }

 private:
  float view_top_ = 0, view_room_ = 0;  // where the view's content starts this frame, and its height
  // A's and B's whole height (title, controls, summary and grid, unbounded) as last drawn, for halves.
  float side_need_[2] = {0, 0};

  void draw_side(Model& model, const Side& sl, bool is_a, bool stacked) {
    const float side_top = ImGui::GetCursorPosY() - ImGui::GetTextLineHeightWithSpacing();  // (its title above)
    const Trace* traced = focus_trace(sl);
    if (!traced) return;
    const Trace& t = *traced;
    const int step = side_step(sl, model.view.step);
    const int focus = clamped_selection(model.view.sel_focus, int(t.focus.size()), is_a);
    // The controls are the window's own parts: at the bars' scale (a larger scale goes to the grid).
    std::optional<ChromeStyle> controls_style;
    controls_style.emplace();
    // A view exported as a slide has no controls (its caption says what is shown).
    const bool controls = !model.view.slide_view;
    // Present fits the grids to the view (a slide export too); stacked, A's above B's, each in its part of the view
    // (`halves`, below), with no block row (the block is chosen in another layout: a projector at x2 has the room for
    // the two grids and little more).
    const bool fitted = model.view.layout == LayoutKind::present || model.view.slide_view.has_value();
    const bool halves = fitted && stacked;
    if (controls && is_a && !halves) {
      focus_block_combo(model, t);
      ImGui::SameLine();
      if (ImGui::SmallButton(L("lab.open").c_str())) model.view.views_to_open.push_back(ViewId::bank_lab);
      tooltip_key("lab.open.tip");
    } else if (controls && !halves) {
      ImGui::TextDisabled("%s", trf("focus.block", {std::to_string(t.focus[size_t(focus)].block)}).c_str());
    }
    const FocusBlock& fb = t.focus[size_t(focus)];
    if (size_t(step) >= fb.steps.size() || fb.steps[size_t(step)].empty()) return;
    const auto& warps = fb.steps[size_t(step)];
    int warp = clamped_selection(model.view.sel_warp, int(warps.size()), is_a);
    // (In halves B follows A's warp and access: its grid gets the row.)
    // (In a lesson's halves A's row goes too: the beat chose the warp, and a 32-way conflict's rows need the room.)
    const bool side_controls = controls && !(halves && (!is_a || model.lesson.open()));
    if (side_controls) {
      ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 8, ImGui::GetContentRegionAvail().x * 0.3f));
      if (ImGui::SliderInt(L("banks.warp").c_str(), &warp, 0, int(warps.size()) - 1)) model.select_warp(warp);
      tooltip_key("banks.warp.tip");
      ImGui::SameLine();
    }
    const WarpStep& ws = warps[size_t(warp)];
    if (ws.accesses.empty()) {
      ImGui::TextDisabled("%s", tr("banks.no_access"));
      return;
    }
    const int access = clamped_selection(model.view.sel_access, int(ws.accesses.size()), is_a);
    // Each access named by the expression that made it (its line in the kernel's sources).
    const KernelRecord* kernel = find_kernel(t.scenario.kernel);
    const KernelSources& sources = model.work.kernel_sources(kernel ? kernel->source_file : std::string());
    // The combo takes the room its label leaves (the label is not cut at the window's edge).
    const std::string access_title = L("banks.access");
    const float label_w =
        ImGui::CalcTextSize(access_title.c_str(), nullptr, true).x + ImGui::GetStyle().ItemInnerSpacing.x;
    if (side_controls)
      ImGui::SetNextItemWidth(
          std::clamp(ImGui::GetContentRegionAvail().x - label_w, ImGui::GetFontSize() * 3, ImGui::GetFontSize() * 18));
    if (!controls) {  // the slide names the warp and the access in words
      ImGui::TextUnformatted((trf("focus.block", {std::to_string(t.focus[size_t(focus)].block)}) + "  ·  " +
                              std::string(tr("banks.warp")) + " " + std::to_string(warp) + "  ·  " +
                              access_label(t, ws.accesses[size_t(access)], size_t(access), sources))
                                 .c_str());
    } else if (side_controls && begin_combo_fitted(access_title.c_str(), access_label(t, ws.accesses[size_t(access)],
                                                                                      size_t(access), sources))) {
      for (size_t i = 0; i < ws.accesses.size(); ++i)
        if (ImGui::Selectable(access_label(t, ws.accesses[i], i, sources).c_str(), int(i) == access))
          model.view.sel_access = int(i);
      ImGui::EndCombo();
    }
    if (side_controls) tooltip_key("banks.access.tip");
    controls_style.reset();
    const WarpAccess& a = ws.accesses[size_t(access)];
    if (a.space == Space::global) {
      ImGui::Text("%s", trf("banks.global", {std::to_string(a.sectors), std::to_string(a.buffer)}).c_str());
      tooltip_key("def.sectors");
    }
    if (a.space == Space::reg) text_wrapped(tr("banks.reg"));
    if (a.space == Space::remote_shared) text_wrapped(tr("banks.remote"));
    if (a.space != Space::shared) {
      // Lanes and their addresses, or for a shuffle the lane each took its value from and what it holds after
      // (probe.shuffled records the lane's value once combined, not the source lane's); in another block's shared
      // memory, whose block and where.
      ImGui::BeginChild("lanes_list");
      for (unsigned l = 0; l < 32; ++l) {
        if (!(a.mask >> l & 1u)) continue;
        const std::string value = format_value(t.scenario.type, a.bits[l]);
        ImGui::TextUnformatted(
            (a.space == Space::remote_shared
                 ? trf("banks.lane.remote", {std::to_string(l), std::to_string(rec::remote_rank(a.addr[l])),
                                             std::to_string(rec::remote_offset(a.addr[l])), value})
                 : trf(a.space == Space::reg ? "banks.lane.reg" : "banks.lane.global",
                       {std::to_string(l), std::to_string(a.addr[l]), value}))
                .c_str());
      }
      ImGui::EndChild();
      return;
    }
    const WarpAddresses wa = addresses_of(a);
    BankReport rep = bank_report(wa);
    const bool conflict = rep.wavefronts > rep.ideal;
    // The legend once: under the grid, or under B's in compare; where it would take the rows' room (a short view:
    // Present), behind a (?) before the summary instead.
    const bool legend = !model.work.compare || !is_a;
    const float legend_height =
        legend ? ImGui::CalcTextSize(tr("banks.legend"), nullptr, false, ImGui::GetContentRegionAvail().x).y +
                     ImGui::GetStyle().ItemSpacing.y
               : 0.0f;
    const float summary_height = ImGui::GetTextLineHeightWithSpacing() * 2;  // at most two lines
    const bool legend_below =
        legend && ((stacked && !halves) || !fitted ||
                   ImGui::GetContentRegionAvail().y - summary_height - legend_height >= bank_grid_height(rep));
    if (legend && !legend_below) {
      help_marker(model, "banks.legend");
      ImGui::SameLine();
    }
    const ImVec4 summary_colour = ImColor(conflict ? color_conflict() : color_ok());
    // While a lesson keeps shared-memory figures back, the request's wavefronts and its conflict's degree are "?":
    // the grid's rows are what the student predicts from.
    const bool degrees = !kept_back(model, sl, FigureKind::shared);
    text_wrapped(trf("banks.summary", {degrees ? std::to_string(rep.wavefronts) : "?", std::to_string(rep.ideal),
                                       std::to_string(rep.phases.size()), std::to_string(rep.lanes_per_phase)}),
                 &summary_colour);
    tooltip_key("def.wavefronts");
    if (rep.paired) {
      ImGui::SameLine();
      ImGui::TextDisabled("%s", tr("banks.paired"));
      tooltip_key("banks.paired.tip");
    }

    // Stacked, each grid takes its own height (the view scrolls), not the rest of it (in Present, its part); else
    // the grid's rows share the height the view has (every conflict row shows), down to half a line each.
    // (Present only: in the other layouts the rows keep a line's height and the view scrolls.)
    const bool fit = (!stacked || halves) && fitted;
    float grid_h = stacked ? bank_grid_height(rep) + legend_height : 0.0f;
    // In halves A's grid ends where its part of the view does, B's takes the rest: both whole where they fit; else the
    // smaller one (one row against a 32-way conflict's 32) whole, the other the rest; else half each.
    side_need_[is_a ? 0 : 1] = ImGui::GetCursorPosY() - side_top + bank_grid_height(rep);
    if (halves && is_a) {
      const float a = side_need_[0], b = side_need_[1] + ImGui::GetStyle().ItemSpacing.y * 3, room = view_room_;
      const float a_part = a + b <= room ? a : b <= room * 0.5f ? room - b : a <= room * 0.5f ? a : room * 0.5f;
      grid_h = std::max(view_top_ + a_part - ImGui::GetCursorPosY(), ImGui::GetFrameHeight() * 2);
    } else if (halves) {
      grid_h = 0.0f;
    }
    ImGui::BeginChild("grid", ImVec2(0, grid_h));
    const float rows_h = fit ? ImGui::GetContentRegionAvail().y - (legend_below ? legend_height : 0.0f) : 0.0f;
    if (const int bank = draw_bank_grid(rep, wa, model.view.sel_bank, std::max(rows_h, 0.0f), degrees); bank >= 0)
      model.select_bank_column(bank == model.view.sel_bank ? -1 : bank);
    if (legend_below)  // wrapped at the visible width
      text_wrapped(tr("banks.legend"), nullptr, ImGui::GetWindowContentRegionMax().x - ImGui::GetCursorPosX());
    ImGui::EndChild();
  }
};
}  // namespace

const RegisterView<BanksView> banks_view(100);

}  // namespace redlab::gui
