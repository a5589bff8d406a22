// The tile view (transposes): the shared tile as the kernel declares it (32 x 32, 33 columns when padded, the pad
// column marked; 64 x 64 for the tile kept in pairs), each element coloured by its bank, the selected warp's
// shared request of this step lit; beside it the request's bank grid with its wavefronts, the warp's global
// requests with their sectors, and the reference timing of the kernel (recorded on a GPU, never shown as live).
#include <algorithm>
#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/bank_model.h"
#include "core/catalog.h"
#include "model/i18n.h"
#include "gui/shell/palette.h"
#include "model/timings_model.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

// The shared requests of the selected warp at this step, and the one shown.
struct Selection {
  const WarpStep* ws = nullptr;
  std::vector<const WarpAccess*> shared, global;
  const WarpAccess* cur = nullptr;
  int cur_index = 0;
};

Selection select(Model& model, const Side& s, int step) {
  Selection sel;
  const Trace& t = *s.trace;
  if (t.focus.empty()) return sel;
  const FocusBlock& fb = t.focus[size_t(std::clamp(model.view.sel_focus, 0, int(t.focus.size()) - 1))];
  if (size_t(step) >= fb.steps.size() || fb.steps[size_t(step)].empty()) return sel;
  const auto& warps = fb.steps[size_t(step)];
  sel.ws = &warps[size_t(std::clamp(model.view.sel_warp, 0, int(warps.size()) - 1))];
  for (const WarpAccess& a : sel.ws->accesses) {
    if (a.space == Space::shared) sel.shared.push_back(&a);
    if (a.space == Space::global) sel.global.push_back(&a);
  }
  if (!sel.shared.empty()) {
    sel.cur_index = std::clamp(model.view.sel_tile_req, 0, int(sel.shared.size()) - 1);
    sel.cur = sel.shared[size_t(sel.cur_index)];
  }
  return sel;
}

// The tile itself, in a box of `size`.
void draw_tile(const Trace& t, const TileShape& shape, const Selection& sel, ImVec2 size) {
  // The row and column numbers at the bars' scale (views.h: chrome_ratio): a larger classroom scale on a short
  // screen goes to the tile's cells, not to its margins.
  const float fs = ImGui::GetFontSize() * chrome_ratio();
  ImFont* font = ImGui::GetFont();
  const unsigned width = unsigned(elem_size(t.scenario.type));
  const unsigned dim = shape.dim, cols = shape.pitch, vec = std::max(1u, shape.vector);
  const float margin = fs * 1.6f;
  const float cs =
      std::max(4.0f, std::floor(std::min((size.x - margin) / float(cols), (size.y - fs * 1.3f) / float(dim))));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec2 o = ImGui::GetCursorScreenPos();
  o.x += margin;
  o.y += fs * 1.2f;
  // Elements of the shown request (strong) and of the warp's other requests this step (outlined).
  std::vector<std::uint8_t> lit(size_t(dim) * cols, 0);
  for (const WarpAccess* a : sel.shared)
    for (unsigned l = 0; l < 32; ++l)
      if (a->mask >> l & 1u)  // every element the access moves (two for a pair)
        for (std::uint32_t e = a->addr[l] / width; e < (a->addr[l] + a->width) / width && e < lit.size(); ++e)
          lit[e] = std::max<std::uint8_t>(lit[e], a == sel.cur ? 2 : 1);
  const bool any = sel.cur != nullptr;
  // Column header (physical columns) and row numbers, every 1, 2, 4, 8 or 16th: as often as the widest number
  // ("28") fits in the columns between two, with a space, so that numbers never run together.
  const float number_w = font->CalcTextSizeA(fs, FLT_MAX, 0, "28").x + fs * 0.4f;
  unsigned col_step = 1;
  while (col_step < 16 && col_step * cs < number_w) col_step *= 2;
  unsigned row_step = 1;
  while (row_step < 16 && row_step * cs < fs) row_step *= 2;
  for (unsigned c = 0; c < dim; c += col_step) {
    char lab[16];
    std::snprintf(lab, sizeof lab, "%u", c);
    dl->AddText(font, fs, ImVec2(o.x + c * cs + 1, o.y - fs * 1.15f), IM_COL32(170, 170, 170, 255), lab);
  }
  if (cols > dim)
    dl->AddText(font, fs, ImVec2(o.x + dim * cs, o.y - fs * 1.15f), IM_COL32(230, 230, 230, 255), tr("tile.pad"));
  for (unsigned r = 0; r < dim; r += row_step) {
    char lab[16];
    std::snprintf(lab, sizeof lab, "%u", r);
    dl->AddText(font, fs, ImVec2(o.x - margin + 2, o.y + r * cs + (cs - fs) * 0.5f), IM_COL32(170, 170, 170, 255), lab);
  }
  // Small type for the element index where a cell is wide enough.
  const float tsz = std::min(ImGui::GetFontSize(), cs * 0.62f);
  const bool numbers = font->CalcTextSizeA(tsz, FLT_MAX, 0, "1055").x <= cs - 2 && tsz >= fs * 0.5f;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (unsigned r = 0; r < dim; ++r)
    for (unsigned pc = 0; pc < cols; ++pc) {
      const std::uint32_t e = r * cols + pc;
      const unsigned bank = (e * width / 4) % 32;
      ImVec2 c0(o.x + pc * cs, o.y + r * cs), c1(c0.x + cs - 1, c0.y + cs - 1);
      if (pc >= dim) {  // the pad column: memory the tile never uses
        dl->AddRectFilled(c0, c1, IM_COL32(58, 60, 66, 255));
        dl->AddLine(c0, c1, IM_COL32(100, 100, 108, 255));
      } else {
        const float alpha = !any || lit[e] == 2 ? 1.0f : lit[e] == 1 ? 0.7f : 0.4f;
        dl->AddRectFilled(c0, c1, bank_color(bank, alpha));
        if (numbers) {
          char lab[16];
          std::snprintf(lab, sizeof lab, "%u", e);
          dl->AddText(ImGui::GetFont(), tsz, ImVec2(c0.x + 1, c0.y + (cs - tsz) * 0.5f), bank_text_color(bank), lab);
        }
      }
      if (lit[e] == 2)
        dl->AddRect(ImVec2(c0.x - 1, c0.y - 1), ImVec2(c1.x + 1, c1.y + 1), color_highlight(), 0, 0, 2.0f);
      else if (lit[e] == 1)
        dl->AddRect(c0, c1, IM_COL32(230, 230, 230, 150));
      if (mouse.x >= c0.x && mouse.x < c1.x && mouse.y >= c0.y && mouse.y < c1.y) {
        if (pc >= dim) {
          ImGui::SetTooltip("%s", trf("tile.pad.tip", {std::to_string(r), std::to_string(e)}).c_str());
        } else {
          // Swizzled: unit u (of `vec` elements) of row r holds the matrix's unit u ^ (r / vec).
          const unsigned c = shape.swizzled ? ((pc / vec) ^ (r / vec % (dim / vec))) * vec + pc % vec : pc;
          ImGui::SetTooltip(
              "%s", trf("tile.cell.tip", {std::to_string(r), std::to_string(c), std::to_string(r), std::to_string(pc),
                                          std::to_string(e), std::to_string(e * width), std::to_string(bank)})
                        .c_str());
        }
      }
    }
  // Room for the pad column's label, wider than its column.
  ImGui::Dummy(ImVec2(margin + cols * cs + (cols > dim ? font->CalcTextSizeA(fs, FLT_MAX, 0, tr("tile.pad")).x : 0.0f),
                      fs * 1.2f + dim * cs + 2));
}

// The warp's global requests this step, and why the naive transpose is slow.
// `totals`: the grid's sectors per request (false while a lesson keeps the global figures back).
void global_side(const Trace& t, const Selection& sel, int step, bool totals) {
  if (sel.global.empty()) {
    ImGui::TextDisabled("%s", tr("tile.global.none"));
  } else {
    // Group the requests by kind: how many, lanes, sectors.
    for (AccessKind k : {AccessKind::load, AccessKind::store}) {
      unsigned req = 0, sect = 0, lanes = 0, width = 4;
      for (const WarpAccess* a : sel.global)
        if (a->kind == k) {
          ++req;
          sect += a->sectors;
          lanes += unsigned(std::popcount(a->mask));
          width = a->width;
        }
      if (!req) continue;
      const unsigned per = sect / req, lanes_per = lanes / req;
      const unsigned used = lanes * width;
      const double eff = sect ? 100.0 * double(used) / double(sect * 32) : 0;
      const std::string kind = k == AccessKind::load ? tr("tile.load") : tr("tile.store");
      const bool scattered = per >= lanes_per && lanes_per > 4;
      ImGui::TextColored(ImColor(scattered ? color_conflict() : color_ok()), "%s",
                         trf("tile.global.line", {kind, std::to_string(req), std::to_string(lanes_per),
                                                  std::to_string(per), fmt("%.0f", eff)})
                             .c_str());
      if (scattered) text_wrapped(trf("tile.global.scattered", {std::to_string(width), std::to_string(32 - width)}));
    }
    tooltip_key("def.sectors");
  }
  if (totals && size_t(step) < t.steps.size()) {
    const StepStats& s = t.steps[size_t(step)].stats;
    auto per = [](std::uint64_t a, std::uint64_t b) { return fmt("%.1f", double(a) / double(b)); };
    if (s.gmem_load_requests)
      ImGui::TextDisabled(
          "%s", trf("tile.global.all", {tr("tile.load"), per(s.gmem_load_sectors, s.gmem_load_requests)}).c_str());
    if (s.gmem_store_requests)
      ImGui::TextDisabled(
          "%s", trf("tile.global.all", {tr("tile.store"), per(s.gmem_store_sectors, s.gmem_store_requests)}).c_str());
  }
}

// The kernel's reference time (assets/reference/transpose_<type>.json, rows at 8192 x 8192), never live. % of
// copy as in the Timings window: copy's time / this kernel's time in the same run (not the share of the
// cudaMemcpy ceiling that bench also records as pct_copy).
void reference_line(Model& model, const Trace& t) {
  const ReferenceTimings& f = model.work.transpose_reference(t.scenario.type);
  if (!f.present) {
    ImGui::TextDisabled("%s", (transpose_reference_name(t.scenario.type) + " not found").c_str());
    return;
  }
  if (!f.error.empty()) {
    ImGui::TextDisabled("%s", (f.path + ": " + f.error).c_str());
    return;
  }
  const bool at_8192 = std::uint64_t(f.rep.mat_rows) * f.rep.mat_cols == 8192ull * 8192ull;
  for (const TransposeLine& l : transpose_lines(f.rep)) {
    if (!at_8192 || l.kernel != t.scenario.kernel) continue;
    std::string line = trf("tile.ref", {t.scenario.kernel, fmt("%.3f", l.median_ms), fmt("%.0f", l.gbps),
                                        l.pct_of_copy >= 0 ? fmt("%.0f", l.pct_of_copy) : std::string("-")});
    ImGui::TextColored(ImVec4(0.6f, 0.8f, 1.0f, 1), "%s", line.c_str());
    ImGui::TextDisabled("%s", trf("tile.ref.label", {f.rep.device, f.rep.date.substr(0, 10)}).c_str());
    tooltip_key("tile.ref.tip");
    return;
  }
  ImGui::TextDisabled("%s", trf("tile.ref.none", {t.scenario.kernel}).c_str());
}
}  // namespace

// One side's tile panel: the tile on the left, the request's banks, the global side and the timing beside it.
void draw_tile_panel(Model& model, const Side& s, int step, ImVec2 size) {
  stale_banner(s);
  const Trace& t = *s.trace;
  const TileShape shape = tile_shape(t);
  const Selection sel = select(model, s, step);
  // The shown request's banks (read by the line beside the tile and the grid under it), and whether their wavefronts
  // may be written: "?" while a lesson keeps shared-memory figures back.
  std::optional<WarpAddresses> wa;
  std::optional<BankReport> rep;
  if (sel.cur) rep = bank_report(*(wa = addresses_of(*sel.cur)));
  const bool degrees = !kept_back(model, s, FigureKind::shared);
  const float fs = ImGui::GetFontSize(), bars = fs * chrome_ratio();  // the head line's type, the tile's numbers'
  // The tile takes the panel's whole height (its declaration heads the column beside it).
  const float tile_w =
      std::min(size.x * 0.46f, (size.y - bars * 1.4f) * float(shape.pitch) / float(shape.dim) + bars * 1.6f);
  ImGui::BeginGroup();
  if (shape.shared)
    draw_tile(t, shape, sel, ImVec2(tile_w, size.y));
  else
    text_wrapped(tr("tile.no_shared"));
  ImGui::EndGroup();
  if (shape.shared) ImGui::SameLine();
  ImGui::BeginChild("tile_side", ImVec2(0, shape.shared ? size.y : 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  // Wrap text at the child's visible width (the bank grid below may scroll sideways).
  ImGui::PushTextWrapPos(ImGui::GetWindowWidth() - ImGui::GetStyle().ScrollbarSize - ImGui::GetStyle().WindowPadding.x);
  // (A kernel without a tile: its type and step, no declaration it does not make.)
  const std::string step_label = size_t(step) < t.steps.size() ? step_label_text(t, unsigned(step)) : std::string("-");
  if (!shape.shared) {
    ImGui::TextUnformatted(trf("tile.head.global", {to_string(t.scenario.type), step_label}).c_str());
  } else {
    ImGui::TextUnformatted(trf("tile.head", {shape.decl, to_string(t.scenario.type), step_label}).c_str());
    tooltip_key(shape.vector > 1          ? "tile.head.pairs.tip"
                : shape.swizzled          ? "tile.head.swizzled.tip"
                : shape.pitch > shape.dim ? "tile.head.padded.tip"
                                          : "tile.head.tip");
  }
  if (sel.ws) {
    ImGui::TextDisabled(
        "%s", trf("tile.warp",
                  {std::to_string(t.focus[size_t(std::clamp(model.view.sel_focus, 0, int(t.focus.size()) - 1))].block),
                   std::to_string(sel.ws->warp)})
                  .c_str());
  }
  if (sel.cur) {
    unsigned worst = 1;
    for (const BankPhase& ph : rep->phases)
      for (const auto& w : ph.words) worst = std::max<unsigned>(worst, unsigned(w.size()));
    const bool conflict = rep->wavefronts > rep->ideal;
    ImGui::TextColored(ImColor(conflict ? color_conflict() : color_ok()), "%s",
                       trf(conflict ? "tile.banks.conflict" : "tile.banks.ok",
                           {sel.cur->kind == AccessKind::store ? tr("tile.write_row") : tr("tile.read_col"),
                            degrees ? std::to_string(rep->wavefronts) : "?", std::to_string(rep->ideal),
                            degrees ? std::to_string(worst) : "?"})
                           .c_str());
    tooltip_key("def.wavefronts");
    if (sel.shared.size() > 1) {  // on its own line: beside a wrapped sentence it had one letter's room
      ImGui::TextDisabled(
          "%s", trf("tile.req", {std::to_string(sel.cur_index + 1), std::to_string(sel.shared.size())}).c_str());
      tooltip_key("tile.req.tip");
    }
  } else if (shape.shared) {
    ImGui::TextDisabled("%s", tr("banks.no_access"));
  }
  global_side(t, sel, step, !kept_back(model, s, FigureKind::global));
  reference_line(model, t);
  ImGui::PopTextWrapPos();
  if (sel.cur) {
    ImGui::Separator();
    draw_bank_grid(*rep, *wa, -1, 0, degrees);
  }
  ImGui::EndChild();
}

namespace {
class TileView final : public View {
 public:
  TileView() : View(ViewId::tile, "win.tile") {}
  bool applies(const Model& model) const override { return !model.work.compare && side_draws_tile(model.work.a); }
  void draw(Model& model) override {
    const Side& s = model.work.a;
    const Trace& t = *s.trace;
    // A view exported as a slide has no controls (its caption says what is shown); they are at the bars' scale.
    if (!model.view.slide_view) {
      ChromeStyle bars;
      if (!t.focus.empty()) {
        focus_block_combo(model, t);
        ImGui::SameLine();
      }
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
      ImGui::SliderInt(L("banks.warp").c_str(), &model.view.sel_warp, 0, std::max(0, int(t.warps_per_block) - 1));
      tooltip_key("tile.warp.tip");
      ImGui::SameLine();
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
      const int nreq = int(tile_requests(t));
      ImGui::SliderInt(L("tile.req.slider").c_str(), &model.view.sel_tile_req, 0, nreq - 1);
      tooltip_key("tile.req.tip");
    }
    draw_tile_panel(model, s, side_step(s, model.view.step), ImGui::GetContentRegionAvail());
  }
};
}  // namespace

const RegisterView<TileView> tile_view(50);

}  // namespace redlab::gui
