#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/i18n.h"
#include "gui/shell/palette.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {
// Opaque dimming toward the canvas background (so outlines behind a cell do not show through it).
ImU32 dim(ImU32 c, float keep) {
  auto ch = [&](int shift, int bg) {
    return ImU32(float((c >> shift) & 255) * keep + float(bg) * (1 - keep)) << shift;
  };
  return ch(0, 24) | ch(8, 26) | ch(16, 31) | (255u << 24);
}
// The label of a value too wide for its cell (opaque: tests/gui find it by its colour, 12243a).
constexpr ImU32 kValueLabel = IM_COL32(18, 36, 58, 255);
// The largest tree whose values Present shows by default (Values on).
constexpr std::uint32_t kPresentValuesCells = 256;
GpuInstance cell_inst(float x, float y, ImU32 col, float sw, float sh) {
  return GpuInstance{{x, y, x, y}, col, {sw, sh}};
}
}  // namespace

std::optional<ViewState::ValuesCanvas> draw_tree(TreeWidget& w, const Model& model, const Side& side, int step_in,
                                                 ImVec2 size, bool inline_toolbar) {
  if (!side.trace || !side.tree.valid || side.tree.cells == 0) {
    text_wrapped(side.trace ? tr("tree.none") : no_trace_text(side), &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    return std::nullopt;
  }
  stale_banner(side);
  const TreeModel& m = side.tree;
  const Trace& t = *side.trace;
  const int step = side_step(side, step_in);
  const float scale = ImGui::GetFontSize() / 16.0f;
  if (w.model_id != &m || w.model_cells != m.cells) {
    w.model_id = &m;
    w.model_cells = m.cells;
    w.vis = 0;
  }
  const float min_vis = float(std::min<std::uint32_t>(m.cells, 8));
  if (w.vis <= 0) {
    w.vis = float(m.cells);
    w.x0 = 0;
  }
  // Present reads a small tree's values (up to 256 cells: a lecture's ramp): Values on by default, each step zoomed so
  // that its values are whole and consecutive from the first, the rest a drag away; a larger tree keeps its shape.
  if (!w.zoom_chosen) {
    const bool values = model.view.layout == LayoutKind::present && m.cells <= kPresentValuesCells;
    if (values != w.fit_values) {
      w.fit_values = values;
      w.values_step = -1;
      if (!values) {
        w.vis = float(m.cells);
        w.x0 = 0;
      }
    }
  }

  const unsigned first_row = m.has_input_row ? 0 : 1;
  const unsigned nrows = m.rows() - first_row;
  // The row labels' column: as wide as the longest label, within 72 px x scale and 22 % of the view; a label
  // longer is drawn smaller (below), and one still too long ends in "..." (the canvas's hover says the row's whole
  // name). The cells get the rest: at 1280x720 x2 beside a lesson, 16 values and more.
  float widest = 0;
  for (unsigned r = first_row; r < m.rows(); ++r)
    widest = std::max(widest, ImGui::CalcTextSize(r == 0 ? tr("tree.row.input") : step_name(t, r - 1).c_str()).x);
  const float gutter = std::clamp(widest + 12.0f, 72.0f * scale, std::max(72.0f * scale, 0.22f * size.x));
  // The toolbar is the window's own part: at the bars' scale (a larger scale goes to the tree's rows and values).
  std::optional<ChromeStyle> toolbar_style;
  toolbar_style.emplace();
  // A view exported as a slide has no toolbar (its caption says what is shown).
  const bool toolbar = !model.view.slide_view;
  // Inline, the buttons go after the caller's line where they fit there, else on a line of their own (a narrow compare
  // pane).
  bool toolbar_wraps = false;
  if (inline_toolbar && toolbar) {
    const float buttons = buttons_width({L("tree.fit"), "+", "-", L("tree.values")}) + ImGui::CalcTextSize("(?)").x;
    const float after = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x - ImGui::GetItemRectMax().x -
                        ImGui::GetStyle().ItemSpacing.x;
    toolbar_wraps = after < buttons;
  }
  // (Without one, the line's spacing and the 4 pixels under the canvas stay: the view does not scroll.)
  const float bar_h =
      inline_toolbar ? (toolbar_wraps ? ImGui::GetFrameHeightWithSpacing() : 0.0f) + ImGui::GetStyle().ItemSpacing.y + 4
      : !toolbar     ? ImGui::GetStyle().ItemSpacing.y + 4
                     : ImGui::GetFrameHeightWithSpacing();
  ImVec2 avail(std::max(size.x, 100.0f), std::max(size.y - bar_h, 60.0f));
  const float canvas_w = std::max(avail.x - gutter, 50.0f);
  // Rows shown: every row (thin rows still show the shape), unless Values is on and a row would be lower than a value
  // in 0.7 of the UI's type (a compare pane at 1280x720 x2: ten rows in 80 px); then the rows that fit at that height,
  // ending one row after the current step, the rows above out of view (Fit shows every row).
  const float fs = ImGui::GetFontSize();
  const float value_row_h = 0.7f * fs * 1.05f;
  const int cur_row = step + 1;
  unsigned shown = nrows;
  if (w.fit_values && avail.y / float(nrows) < value_row_h)
    shown = std::clamp(unsigned(avail.y / value_row_h), std::min(2u, nrows), nrows);
  const unsigned last_row = std::clamp(unsigned(std::max(cur_row + 1, 0)), first_row, m.rows() - 1);
  if (w.rows_up_step != step || shown == nrows) {
    w.rows_up_step = step;
    w.rows_up = 0;
    w.drag_rows = 0;
  }
  const int step_top = std::max(int(first_row), int(last_row) + 1 - int(shown));
  const int lowest_top = int(m.rows()) - int(shown);  // (the rows below the step are there to drag to as well)
  w.rows_up = std::clamp(w.rows_up, step_top - lowest_top, step_top - int(first_row));
  const unsigned top = unsigned(step_top - w.rows_up);
  const unsigned end_row = top + shown;  // rows [top, end_row) are drawn
  const float row_h = std::clamp(avail.y / float(shown), 4.0f * scale, 64.0f * scale);
  const float canvas_h = row_h * float(shown);

  // Toolbar: zoom buttons, what is shown (inline: after the caller's line, what is shown in the (?) tooltip).
  std::string showing = trf("tree.showing", {fmt_u(std::uint64_t(std::lround(w.vis))), fmt_u(m.cells),
                                             m.registers ? tr("tree.space.registers")
                                             : m.global  ? tr("tree.space.global")
                                                         : tr("tree.space.shared"),
                                             std::to_string(m.blocks.size())});
  if (shown < nrows)
    showing += trf("tree.showing.rows",
                   {std::to_string(top - first_row + 1), std::to_string(end_row - first_row), std::to_string(nrows)});
  if (toolbar) {
    if (inline_toolbar && !toolbar_wraps) ImGui::SameLine();
    if (ImGui::SmallButton(L("tree.fit").c_str())) {
      w.vis = float(m.cells);
      w.x0 = 0;
      w.fit_values = false;
      w.zoom_chosen = true;
    }
    tooltip_key("tree.fit.tip");
    ImGui::SameLine();
    if (ImGui::SmallButton("+")) {
      w.vis = std::max(min_vis, w.vis * 0.5f);
      w.fit_values = false;
      w.zoom_chosen = true;
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("-")) {
      w.vis = std::min(float(m.cells), w.vis * 2.0f);
      w.fit_values = false;
      w.zoom_chosen = true;
    }
    ImGui::SameLine();
    // Values: the zoom at which every value of the current row has room, following the steps.
    if (w.fit_values) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyle().Colors[ImGuiCol_ButtonActive]);
    const bool values_pressed = ImGui::SmallButton(L("tree.values").c_str());
    if (w.fit_values) ImGui::PopStyleColor();
    if (values_pressed) {
      w.zoom_chosen = true;
      w.fit_values = !w.fit_values;
      w.values_step = -1;
      if (!w.fit_values) {
        w.vis = float(m.cells);
        w.x0 = 0;
      }
    }
    tooltip_key("tree.values.tip");
    ImGui::SameLine();
    if (!inline_toolbar) {  // (cut with "..." where the pane is narrow, the (?) beside it)
      const float mark = ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x;
      text_fitted(showing, ImGui::GetContentRegionAvail().x - mark, nullptr);
      ImGui::SameLine();
      ImGui::TextDisabled("(?)");  // (the tree is drawn from a const model: its legend's mark opens nothing)
      tooltip_key("tree.legend");
    } else {
      ImGui::TextDisabled("(?)");
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
        text_wrapped(showing, nullptr, ImGui::GetFontSize() * 30);
        ImGui::Separator();
        text_wrapped(tr("tree.legend"), nullptr, ImGui::GetFontSize() * 30);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
  }

  toolbar_style.reset();
  ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 canvas_pos(origin.x + gutter, origin.y);
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // Row labels in the gutter. Rows lower than a line of text label every k-th row and the current one (never
  // two labels over each other); the current row's is always there.
  // Row labels and values a little smaller than the UI's type where rows are a little shorter than a line (a large
  // scale on a short screen), down to 0.6 of it; below that, every k-th row's label.
  const float row_fs = std::clamp(row_h / 1.05f, 0.6f * fs, fs);
  ImFont* font = ImGui::GetFont();
  const int every = std::max(1, int(std::ceil(row_fs * 1.05f / row_h)));
  for (unsigned r = top; r < end_row; ++r) {
    const float y = origin.y + float(r - top) * row_h;
    const bool cur = int(r) == cur_row;
    if (cur)
      dl->AddRectFilled(ImVec2(origin.x, y), ImVec2(origin.x + gutter - 4, y + row_h), IM_COL32(60, 90, 140, 160));
    // A trace that ends at a fault: its step's row (red) and the rows of the accesses it names (amber), at the gutter's
    // left edge so that the current row's colour still shows.
    if (const FaultRole role = r == 0 ? FaultRole::none : fault_role(t, r - 1); role != FaultRole::none)
      dl->AddRectFilled(ImVec2(origin.x, y), ImVec2(origin.x + 6.0f * scale, y + row_h),
                        role == FaultRole::fault ? IM_COL32(230, 70, 55, 255) : IM_COL32(240, 170, 50, 255));
    if (!cur && (int(r - top) % every != 0 || std::abs(int(r) - cur_row) < every)) continue;
    std::string lab = r == 0 ? std::string(tr("tree.row.input")) : step_name(t, r - 1);
    // A label wider than the column: in a smaller type, down to 0.6 of it, before it is cut.
    const float room = gutter - 10, natural = font->CalcTextSizeA(row_fs, FLT_MAX, 0, lab.c_str()).x;
    const float lab_fs = natural > room ? std::max(0.6f * row_fs, 0.97f * row_fs * room / natural) : row_fs;
    lab = fit_text(lab, room * fs / lab_fs);
    ImU32 col = cur ? IM_COL32(255, 255, 255, 255)
                    : (int(r) <= cur_row ? IM_COL32(200, 200, 200, 255) : IM_COL32(110, 110, 110, 255));
    const float ty = std::clamp(y + (row_h - lab_fs) * 0.5f, origin.y, origin.y + canvas_h - lab_fs);
    dl->PushClipRect(ImVec2(origin.x, ty), ImVec2(origin.x + gutter - 6, ty + lab_fs), true);
    dl->AddText(font, lab_fs, ImVec2(origin.x + 4, ty), col, lab.c_str());
    dl->PopClipRect();
  }

  // Values: on each new step, the zoom that gives each value the current row wrote room for its label.
  if (w.fit_values && (w.values_step != step || std::abs(w.values_width - canvas_w) > 1.0f)) {
    std::vector<std::uint32_t> written;
    float label = 0;
    const unsigned r = unsigned(step + 1);
    for (std::uint32_t c = 0; c < m.cells && r < m.rows(); ++c) {
      const std::size_t i = m.at(r, c);
      if (!m.known[i] || m.wstep[i] != step) continue;
      written.push_back(c);
      label = std::max(label, font->CalcTextSizeA(row_fs, FLT_MAX, 0, format_value(m.type, m.bits[i]).c_str()).x);
    }
    if (!written.empty()) {  // (none yet while the row's values are not known: zoomed when they are)
      w.values_step = step;
      w.values_width = canvas_w;
      const ValuesZoom z = values_zoom(written, m.cells, label + row_fs * 0.4f, canvas_w, 1.0f);
      w.vis = z.vis;
      w.x0 = z.x0;
    }
  }

  // Interaction: wheel zooms around the mouse, drag pans.
  ImGui::SetCursorScreenPos(canvas_pos);
  ImGui::InvisibleButton("tree_canvas", ImVec2(canvas_w, canvas_h),
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonMiddle);
  const bool hovered = ImGui::IsItemHovered();
  ImGuiIO& io = ImGui::GetIO();
  const float cell_px = canvas_w / w.vis;
  if (hovered && io.MouseWheel != 0.0f) {
    float mx = (io.MousePos.x - canvas_pos.x) / cell_px + w.x0;
    float nv = std::clamp(w.vis * std::pow(0.8f, io.MouseWheel), min_vis, float(m.cells));
    w.x0 = mx - (mx - w.x0) * nv / w.vis;
    w.vis = nv;
    w.fit_values = false;
    w.zoom_chosen = true;
  }
  if (ImGui::IsItemActive() &&
      (ImGui::IsMouseDragging(ImGuiMouseButton_Left) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle))) {
    w.x0 -= io.MouseDelta.x / cell_px;
    if (shown < nrows) {  // down shows the rows above (from the next frame)
      w.drag_rows += io.MouseDelta.y / row_h;
      const int k = int(w.drag_rows);
      w.rows_up += k;
      w.drag_rows -= float(k);
    }
  }
  w.x0 = std::clamp(w.x0, 0.0f, std::max(0.0f, float(m.cells) - w.vis));

  // Instances, rebuilt when what is visible changed.
  const int cw = int(canvas_w), ch = int(canvas_h);
  // Only the step changed: the rows between the old and the new step change (and the lines into them, from
  // the rows their values came from); the renderer redraws that band alone.
  const TreeWidget::BuiltFor now{side.generation, w.x0, w.vis, cw, ch, palette_colorblind(), w.fit_values};
  const bool only_step = w.cells_for == now && w.cells_step != step && w.cells_step >= -1;
  const int old_step = w.cells_step;
  if (w.cells_for != now || w.cells_step != step) {
    w.cells_for = now;
    w.cells_step = step;
    w.cells.clear();
    w.lines.clear();
    const std::uint32_t c0 = std::uint32_t(std::max(0.0f, std::floor(w.x0)));
    const std::uint32_t c1 = std::min<std::uint32_t>(m.cells, std::uint32_t(std::ceil(w.x0 + w.vis)) + 1);
    const float px = canvas_w / w.vis;
    // With Values on, a cell as high as the value written in it (0.62 of a row left the top of the digits on the
    // dark ground); else room between the rows for the lines from one row to the next.
    const float sw = px >= 4.0f ? 0.86f : 1.0f, sh = w.fit_values ? 0.8f : 0.62f;
    const float ow = sw + std::min(0.14f, 3.0f / px), oh = sh + 0.18f;  // divergent outline
    auto row_y = [&](unsigned r) { return float(r - first_row) + 0.5f; };
    auto src_row = [&](unsigned r, std::uint32_t c) -> unsigned {  // row where c's value (before row r) was made
      if (r == 0) return first_row;
      int ws = m.wstep[m.at(r - 1, c)];
      return ws >= 0 ? unsigned(ws + 1) : first_row;
    };
    // Level of detail: with more cells than pixels, one quad stands for a group of g cells (the first one
    // written at that step, or a divergent one), and one line per group; the GPU then draws what can be seen.
    const std::uint32_t g = px < 1.0f ? std::uint32_t(std::ceil(1.0f / px)) : 1u;
    const std::uint32_t gc0 = c0 - c0 % g;
    const std::uint32_t ngroups = m.cells / g + 2;
    std::vector<std::uint8_t> seen_diag, seen_vert;
    auto first_in_group = [&](std::vector<std::uint8_t>& seen, std::uint32_t c) {
      if (g == 1) return true;
      std::uint32_t k = c / g;
      if (k >= ngroups || seen[k]) return false;
      seen[k] = 1;
      return true;
    };
    // History rows look the same at every later step: their instances are kept per row until the view changes.
    if (w.history_for != now || w.hist_ok.size() != m.rows()) {
      w.history_for = now;
      w.hist_ok.assign(m.rows(), 0);
      w.hist_cells.assign(m.rows(), {});
      w.hist_lines.assign(m.rows(), {});
    }
    std::vector<GpuInstance> row_lines, row_cells;
    for (unsigned r = first_row; r <= unsigned(step + 1); ++r) {
      const bool cur = r == unsigned(step + 1);
      const int s = int(r) - 1;
      if (!cur && w.hist_ok[r]) {
        w.lines.insert(w.lines.end(), w.hist_lines[r].begin(), w.hist_lines[r].end());
        w.cells.insert(w.cells.end(), w.hist_cells[r].begin(), w.hist_cells[r].end());
        continue;
      }
      row_lines.clear();
      row_cells.clear();
      // Lines into this row.
      if (s >= 0 && r > first_row) {
        if (g > 1) {
          seen_diag.assign(ngroups, 0);
          seen_vert.assign(ngroups, 0);
        }
        for (const TreeEdge& e : m.edges[s]) {
          if ((e.dst < c0 || e.dst >= c1) && (e.src < c0 || e.src >= c1)) continue;
          ImU32 col = warp_color(e.thread / 32, cur ? 0.9f : 0.45f);
          unsigned rs = src_row(r, e.src), rd = src_row(r, e.dst);
          float yb = row_y(r) - sh * 0.5f;
          if (first_in_group(seen_diag, e.src))
            row_lines.push_back({{e.src + 0.5f, row_y(rs) + sh * 0.5f, e.dst + 0.5f, yb}, col, {0, 0}});
          if (first_in_group(seen_vert, e.dst))
            row_lines.push_back({{e.dst + 0.5f, row_y(rd) + sh * 0.5f, e.dst + 0.5f, yb}, col, {0, 0}});
        }
      }
      for (std::uint32_t c = gc0; c < c1; c += g) {
        const std::uint32_t ce = std::min(c + g, m.cells);
        std::uint32_t rep = c;
        bool written = false, div = false;
        for (std::uint32_t k = c; k < ce; ++k) {
          const std::size_t i = m.at(r, k);
          if (s >= 0 && m.wstep[i] == s) {
            if (!written) rep = k;
            written = true;
            if (m.divergent(unsigned(s), m.focus_of(k), unsigned(m.writer[i]) / 32)) {
              div = true;
              rep = k;
              break;
            }
            if (g == 1) break;
          }
        }
        if (!cur && !written && r != first_row) continue;
        const std::size_t i = m.at(r, rep);
        ImU32 col;
        if (!m.known[i])
          col = color_unknown();
        else if (written)
          col = cur ? warp_color(unsigned(m.writer[i]) / 32) : dim(warp_color(unsigned(m.writer[i]) / 32), 0.6f);
        else
          col = cur ? color_idle() : dim(color_idle(), 0.8f);
        const float x = float(c) + float(ce - c) * 0.5f, y = row_y(r);
        const float qw = g == 1 ? sw : float(ce - c);
        if (div)
          row_cells.push_back(
              cell_inst(x, y, cur ? color_divergent() : dim(color_divergent(), 0.7f), g == 1 ? ow : qw, oh));
        row_cells.push_back(cell_inst(x, y, col, qw, sh));
      }
      w.lines.insert(w.lines.end(), row_lines.begin(), row_lines.end());
      w.cells.insert(w.cells.end(), row_cells.begin(), row_cells.end());
      if (!cur) {
        w.hist_lines[r] = row_lines;
        w.hist_cells[r] = row_cells;
        w.hist_ok[r] = 1;
      }
    }
    w.n_static = w.cells.size();
    // Moving tokens: each value read this step travels into the element it combines into.
    if (step >= 0 && unsigned(step + 1) > first_row) {
      unsigned r = unsigned(step + 1);
      if (g > 1) seen_diag.assign(ngroups, 0);
      for (const TreeEdge& e : m.edges[step]) {
        if ((e.dst < c0 || e.dst >= c1) && (e.src < c0 || e.src >= c1)) continue;
        if (!first_in_group(seen_diag, e.src)) continue;
        unsigned rs = src_row(r, e.src);
        w.cells.push_back({{e.src + 0.5f, row_y(rs), e.dst + 0.5f, row_y(r)},
                           warp_color(e.thread / 32, 0.95f),
                           {std::max(sw * 0.6f, float(g)), sh * 0.6f}});
      }
    }
    w.dirty = true;
  }
  TreeView2D v{w.x0, float(top - first_row), w.vis, float(shown)};
  const float t_anim = model.view.anim;
  float band[2] = {0, 0};
  const float* changed_band = nullptr;
  if (only_step && w.dirty) {
    unsigned lo = unsigned(std::min(old_step, step) + 1), hi = unsigned(std::max(old_step, step) + 1);
    lo = std::max(lo, first_row);
    unsigned top = lo;
    for (unsigned r = std::max(lo, first_row + 1); r <= hi && r < m.rows(); ++r)
      for (const TreeEdge& e : m.edges[r - 1])
        for (std::uint32_t c : {e.src, e.dst}) {
          const int ws = m.wstep[m.at(r - 1, c)];
          top = std::min(top, ws >= 0 ? unsigned(ws + 1) : first_row);
        }
    band[0] = float(std::max(top, first_row) - first_row);
    band[1] = float(hi - first_row + 1);
    changed_band = band;
  }
  w.renderer.render(cw, ch, v, t_anim, IM_COL32(24, 26, 31, 255), w.lines, w.cells, w.dirty, w.n_static, changed_band);
  w.dirty = false;
  if (w.renderer.changed()) note_texture_changed(w.renderer.texture());
  if (!w.renderer.error().empty())
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", w.renderer.error().c_str());
  else
    dl->AddImage((ImTextureID)(intptr_t)w.renderer.texture(), canvas_pos,
                 ImVec2(canvas_pos.x + float(cw), canvas_pos.y + float(ch)), ImVec2(0, 1), ImVec2(1, 0));

  // Values as text where cells are wide enough; the current row always, history rows when roomy.
  const float px = canvas_w / w.vis;
  // A race: the element the two threads shared, outlined red in the rows of their accesses (shown so far), where the
  // view shows the block whose shared memory holds it.
  if (t.fault && t.fault->byte >= 0 && !m.global && !m.registers && !m.blocks.empty() &&
      m.blocks[0] == t.fault->element_block) {
    const std::uint64_t c = std::uint64_t(t.fault->byte) / elem_size(m.type);
    for (const FaultAccess& a : t.fault->accesses) {
      const int r = a.step + 1;
      if (c >= m.per_block || c >= m.cells || a.step < 0 || r > step + 1 || r < int(top) || r >= int(end_row)) continue;
      const float x = canvas_pos.x + (float(c) - w.x0) * px, y = canvas_pos.y + float(r - int(top)) * row_h;
      if (x + px < canvas_pos.x || x > canvas_pos.x + canvas_w) continue;
      dl->AddRect(ImVec2(x - 1, y), ImVec2(x + std::max(px, 3.0f) + 1, y + row_h), IM_COL32(255, 70, 55, 255), 0, 0,
                  2.0f * scale);
    }
  }
  // Values as text: inside a cell wide enough for it; else a value written in that row gets a label of its own over
  // the cells beside it, where no other label of the row is (a tree's later rows write few cells: their values, the
  // result among them, show at any zoom; the first rows' many values wait for a zoom). The current row always;
  // history rows when a row is a line tall. Labels only where at most 8192 cells are in view (a frame stays cheap).
  const std::uint32_t v0 = std::uint32_t(std::max(0.0f, std::floor(w.x0)));
  const std::uint32_t v1 = std::min<std::uint32_t>(m.cells, std::uint32_t(std::ceil(w.x0 + w.vis)) + 1);
  // During a move into the current step its row's values wait for the moving tokens; the rows before keep theirs
  // (a GIF's motion frames show numbers too).
  if (px >= 8.0f * scale || v1 - v0 <= 8192) {
    const float pad = row_fs * 0.25f;
    const bool in_cell = px >= 8.0f * scale;  // cells wide enough to hold a short value
    auto text_size = [&](const std::string& txt) { return font->CalcTextSizeA(row_fs, FLT_MAX, 0, txt.c_str()); };
    dl->PushClipRect(canvas_pos, ImVec2(canvas_pos.x + cw, canvas_pos.y + ch), true);
    for (unsigned r = top; r <= unsigned(step + 1) && r < end_row; ++r) {
      const int s = int(r) - 1;
      const bool cur = r == unsigned(step + 1);
      if (cur && t_anim < 1.0f) continue;
      if (!cur && row_h < row_fs * 1.04f) continue;
      float free_from = -FLT_MAX;  // where the row's last label ends
      for (std::uint32_t c = v0; c < v1; ++c) {
        const std::size_t i = m.at(r, c);
        if (!m.known[i]) continue;
        const bool written = s >= 0 && m.wstep[i] == s;
        if (!cur && !written && r != first_row) continue;
        if (!in_cell && !written) continue;
        std::string txt = format_value(m.type, m.bits[i]);
        const ImVec2 ts = text_size(txt);
        const float cx = canvas_pos.x + (float(c) + 0.5f - w.x0) * px;
        const float y = canvas_pos.y + (float(r - top) + 0.5f) * row_h - ts.y * 0.5f;
        if (in_cell && ts.x <= px * 0.95f) {
          dl->AddText(font, row_fs, ImVec2(cx - ts.x * 0.5f, y),
                      cur && written ? IM_COL32(0, 0, 0, 255) : IM_COL32(235, 235, 235, 255), txt.c_str());
          free_from = cx + ts.x * 0.5f + pad;  // no label over it
          continue;
        }
        if (!written) continue;
        // Centred on its cell, moved inside the canvas at either edge (cell 0's label starts at the left edge).
        const float w_label = ts.x + 2 * pad;
        const float x0 =
            std::clamp(cx - w_label * 0.5f, canvas_pos.x, std::max(canvas_pos.x, canvas_pos.x + canvas_w - w_label));
        if (x0 < free_from) continue;
        free_from = x0 + w_label + pad;
        dl->AddRectFilled(ImVec2(x0, y - 1), ImVec2(x0 + w_label, y + ts.y + 1), kValueLabel, row_fs * 0.2f);
        dl->AddRect(ImVec2(x0, y - 1), ImVec2(x0 + w_label, y + ts.y + 1),
                    warp_color(unsigned(m.writer[i]) / 32, cur ? 1.0f : 0.6f), row_fs * 0.2f);
        dl->AddText(font, row_fs, ImVec2(x0 + pad, y), IM_COL32(255, 255, 255, 255), txt.c_str());
      }
    }
    dl->PopClipRect();
  }

  // Hover: the cell's value and who made it.
  if (hovered) {
    float fx = (io.MousePos.x - canvas_pos.x) / px + w.x0;
    int r = int((io.MousePos.y - canvas_pos.y) / row_h) + int(top);
    if (fx >= 0 && fx < float(m.cells) && r >= int(top) && r < int(end_row)) {
      std::uint32_t c = std::uint32_t(fx);
      float x = canvas_pos.x + (float(c) - w.x0) * px, y = canvas_pos.y + float(r - int(top)) * row_h;
      dl->AddRect(ImVec2(x, y), ImVec2(x + std::max(px, 2.0f), y + row_h), color_highlight());
      const std::size_t i = m.at(unsigned(r), c);
      unsigned f = m.focus_of(c);
      std::uint64_t elem = m.global ? m.base_elem + c : c - std::uint64_t(f) * m.per_block;
      ImGui::BeginTooltip();
      ImGui::Text("%s", trf(m.registers ? "tree.hover.reg"
                            : m.global  ? "tree.hover.global"
                                        : "tree.hover.shared",
                            {std::to_string(elem), std::to_string(f < m.blocks.size() ? m.blocks[f] : 0)})
                            .c_str());
      ImGui::Text("%s", trf("tree.hover.row", {r == 0 ? tr("tree.row.input") : step_name(t, unsigned(r - 1))}).c_str());
      if (r > step + 1)
        ImGui::TextDisabled("%s", tr("tree.hover.future"));
      else if (!m.known[i])
        ImGui::Text("%s", tr("tree.hover.unknown"));
      else {
        ImGui::Text("%s", trf("tree.hover.value", {format_value(m.type, m.bits[i])}).c_str());
        if (m.writer[i] >= 0) {
          ImGui::Text("%s", trf("tree.hover.writer", {std::to_string(m.writer[i]), std::to_string(m.writer[i] / 32),
                                                      std::to_string(m.wstep[i]), step_name(t, unsigned(m.wstep[i]))})
                                .c_str());
          if (m.divergent(unsigned(m.wstep[i]), f, unsigned(m.writer[i]) / 32))
            ImGui::TextColored(ImColor(color_divergent()), "%s", tr("tree.hover.divergent"));
        } else {
          ImGui::Text("%s", tr("tree.hover.input"));
        }
      }
      ImGui::EndTooltip();
    }
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + canvas_h + 4));
  ImGui::Dummy(ImVec2(1, 1));
  if (!w.fit_values) return std::nullopt;
  return ViewState::ValuesCanvas{canvas_pos.x, canvas_pos.y, canvas_pos.x + canvas_w, canvas_pos.y + canvas_h};
}

namespace {
class TreeView final : public View {
 public:
  TreeView() : View(ViewId::tree, "win.tree") {}
  bool applies(const Model& model) const override { return !shows_tiles(model) && !shows_ring(model); }
  void draw(Model& model) override {
    if (!widget_) {
      widget_ = std::make_unique<TreeWidget>();
      widget_->fit_values = model.work.opts.debug.tree_values;
      widget_->zoom_chosen = widget_->fit_values;
    }
    if (const auto c = draw_tree(*widget_, model, model.work.a, model.view.step, ImGui::GetContentRegionAvail()))
      model.view.values_canvases.push_back(*c);
  }
  void release_gl() override { widget_.reset(); }

 private:
  std::unique_ptr<TreeWidget> widget_;  // GL objects: made in the first frame, deleted before the context
};
}  // namespace

const RegisterView<TreeView> tree_view(40);

}  // namespace redlab::gui
