// Timings: the reference figures shipped in assets/reference/timings.json (written by `redlab bench --json`,
// bench_json format), or for a transpose assets/reference/transpose_<type>.json (every transpose at one matrix,
// as % of copy), labelled with their device and date and never shown as live; and, when the scenario runs on a
// CUDA device, figures the session measures now (Model::request_timings; transposes: copy and the kernel at
// the scenario's matrix, in one run).
#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/catalog.h"
#include "model/i18n.h"
#include "model/timings_model.h"
#include "gui/shell/palette.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {
std::string shape_text(unsigned rows, unsigned cols, unsigned block_rows) {
  return trf("tim.t.shape", {std::to_string(rows), std::to_string(cols), std::to_string(block_rows)});
}

std::string fmt_n(std::uint64_t n) { return fmt_u(n); }

// Rows of one kernel; the row at `cur_n` lit. As tall as its rows, with a horizontal scrollbar (and its room) only
// where the columns are wider than the window.
void rows_table(const char* id, const TimReport& r, const std::string& kernel, std::uint64_t cur_n, bool with_speedup) {
  struct Row {
    std::vector<std::string> cells;
    bool lit = false, correct = false, no_cub = false;
  };
  std::vector<Row> rows;
  char b[64];
  for (const TimRow& x : r.rows) {
    if (x.kernel != kernel) continue;
    Row row;
    row.lit = x.n == cur_n;
    row.correct = x.correct;
    row.no_cub = x.ratio_cub <= 0;
    row.cells.push_back(fmt_n(x.n));
    std::snprintf(b, sizeof b, "%.4f", x.median_ms);
    row.cells.push_back(b);
    std::snprintf(b, sizeof b, "%.1f", x.gbps);
    row.cells.push_back(b);
    std::snprintf(b, sizeof b, "%.1f %%", x.pct_copy);
    row.cells.push_back(b);
    std::snprintf(b, sizeof b, "%.1f %%", x.pct_read);
    row.cells.push_back(b);
    if (with_speedup) {
      std::snprintf(b, sizeof b, "%.2fx", x.speedup);
      row.cells.push_back(b);
    }
    std::snprintf(b, sizeof b, "%.2f", x.ratio_cub);
    row.cells.push_back(row.no_cub ? std::string("-") : std::string(b));
    row.cells.push_back(tr(x.correct ? "tim.ok" : "tim.wrong"));
    rows.push_back(std::move(row));
  }
  std::vector<const char*> heads = {"n", tr("tim.ms"), "GB/s", tr("tim.pct_copy"), tr("tim.pct_read")};
  if (with_speedup) heads.push_back(tr("tim.speedup"));
  heads.push_back(tr("tim.ratio_cub"));
  heads.push_back(tr("tim.check"));
  const int cols = int(heads.size());
  const ImGuiStyle& sty = ImGui::GetStyle();
  float need_w = 5;
  for (int c = 0; c < cols; ++c) {
    float w = ImGui::CalcTextSize(heads[std::size_t(c)]).x;
    for (const Row& row : rows) w = std::max(w, ImGui::CalcTextSize(row.cells[std::size_t(c)].c_str()).x);
    need_w += w + sty.CellPadding.x * 2 + 1;
  }
  const bool scroll = need_w > ImGui::GetContentRegionAvail().x;
  const float h =
      scroll ? (ImGui::GetTextLineHeight() + sty.CellPadding.y * 2 + 1) * float(rows.size() + 1) + 4 + sty.ScrollbarSize
             : 0;  // 0: as tall as its rows
  if (!ImGui::BeginTable(id, cols,
                         ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                             (scroll ? ImGuiTableFlags_ScrollX : 0),
                         ImVec2(0, h)))
    return;
  ImGui::PushTextWrapPos(-1.0f);  // cells never wrap: the columns fit their text
  for (const char* head : heads) ImGui::TableSetupColumn(head);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  const char* tips[] = {"def.n",        "def.median_ms", "def.gbps",      "def.pct_copy",
                        "def.pct_read", "def.speedup",   "def.ratio_cub", "def.check"};
  for (int c = 0, k = 0; c < cols; ++c, ++k) {
    if (!with_speedup && k == 5) ++k;
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    tooltip_key(tips[k]);
  }
  for (const Row& row : rows) {
    ImGui::TableNextRow();
    if (row.lit) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(60, 90, 140, 200));
    for (int c = 0; c < cols; ++c) {
      ImGui::TableSetColumnIndex(c);
      const std::string& cell = row.cells[std::size_t(c)];
      if (c == cols - 1)
        ImGui::TextColored(row.correct ? ImVec4(0.5f, 0.9f, 0.5f, 1) : ImVec4(1, 0.45f, 0.35f, 1), "%s", cell.c_str());
      else if (c == cols - 2 && row.no_cub)
        ImGui::TextDisabled("%s", cell.c_str());
      else
        ImGui::TextUnformatted(cell.c_str());
    }
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTable();
}

void ceilings_line(const TimReport& r, std::uint64_t n) {
  for (const TimCeiling& c : r.ceilings)
    if (c.n == n) {
      char a[32], b[32];
      std::snprintf(a, sizeof a, "%.0f", c.copy_gbps);
      std::snprintf(b, sizeof b, "%.0f", c.read_gbps);
      ImGui::TextDisabled("%s", trf(c.fits_l2 ? "tim.ceiling.l2" : "tim.ceiling", {fmt_n(n), a, b}).c_str());
      tooltip_key("tim.ceiling.tip");
    }
}
// Transposes: every kernel of the report at its matrix, one row each, the row of `cur` lit. Only the columns
// that mean something for a transpose (no x CUB, no % of the read ceiling).
void transpose_table(const char* id, const TimReport& r, const std::string& cur) {
  const std::vector<TransposeLine> lines = transpose_lines(r);
  const ImGuiStyle& sty = ImGui::GetStyle();
  // As tall as its rows (the window is small); a horizontal scrollbar only where the columns are wider than the window.
  const char* heads[] = {tr("tim.kernel"), tr("tim.ms"), tr("tim.t.gbps"), tr("tim.t.pct_copy")};
  float widths[4];
  for (int c = 0; c < 4; ++c) widths[c] = ImGui::CalcTextSize(heads[c]).x;
  for (const TransposeLine& x : lines) widths[0] = std::max(widths[0], ImGui::CalcTextSize(x.kernel.c_str()).x);
  widths[1] = std::max(widths[1], ImGui::CalcTextSize("0.0000").x);
  widths[2] = std::max(widths[2], ImGui::CalcTextSize("0000").x);
  widths[3] = std::max(widths[3], ImGui::CalcTextSize("100.0 %").x);
  float need_w = 5;
  for (float w : widths) need_w += w + sty.CellPadding.x * 2;
  const bool scroll = need_w > ImGui::GetContentRegionAvail().x;
  const float h = scroll ? (ImGui::GetTextLineHeight() + sty.CellPadding.y * 2 + 1) * float(lines.size() + 1) + 4 +
                               sty.ScrollbarSize
                         : 0;  // 0: as tall as its rows
  if (!ImGui::BeginTable(id, 4,
                         ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                             (scroll ? ImGuiTableFlags_ScrollX : 0),
                         ImVec2(0, h)))
    return;
  ImGui::PushTextWrapPos(-1.0f);  // cells never wrap: the columns fit their text
  for (const char* head : heads) ImGui::TableSetupColumn(head);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  const char* tips[] = {"def.t.kernel", "def.t.median_ms", "def.t.gbps", "def.t.pct_copy"};
  for (int c = 0; c < 4; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    tooltip_key(tips[c]);
  }
  for (const TransposeLine& x : lines) {
    ImGui::TableNextRow();
    if (x.kernel == cur) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(60, 90, 140, 200));
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(x.kernel.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::Text("%.4f", x.median_ms);
    ImGui::TableSetColumnIndex(2);
    ImGui::Text("%.0f", x.gbps);
    ImGui::TableSetColumnIndex(3);
    if (x.pct_of_copy >= 0)
      ImGui::Text("%.1f %%", x.pct_of_copy);
    else
      ImGui::TextDisabled("-");
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTable();
}

// The reference figures of the transposes of the scenario's type, labelled with device, date and matrix.
void transpose_reference(Model& model, const Scenario& sc) {
  const ReferenceTimings& ref = model.work.transpose_reference(sc.type);
  const std::string name = transpose_reference_name(sc.type);
  if (!ref.present) {
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "%s", trf("tim.t.none", {name, to_string(sc.type)}).c_str());
    return;
  }
  if (!ref.error.empty()) {
    ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s: %s", ref.path.c_str(), ref.error.c_str());
    return;
  }
  const TimReport& r = ref.rep;
  ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "%s",
                     trf("tim.reference", {r.device, r.date.substr(0, 10)}).c_str());
  const std::string shape = shape_text(r.mat_rows, r.mat_cols, r.mat_block_rows);
  ImGui::TextUnformatted(trf("tim.t.at", {r.type, shape}).c_str());
  tooltip_key("tim.t.at.tip");
  transpose_table("ref_t", r, sc.kernel);
  bool any = false;
  for (const TransposeLine& x : transpose_lines(r)) any = any || x.kernel == sc.kernel;
  if (!any) ImGui::TextDisabled("%s", trf("tim.t.no_row", {sc.kernel, name}).c_str());
  if (sc.rows != r.mat_rows || sc.cols != r.mat_cols || sc.block_rows != r.mat_block_rows)
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "%s",
                       trf("tim.t.other_shape", {shape, shape_text(sc.rows, sc.cols, sc.block_rows)}).c_str());
  ImGui::TextDisabled("%s", trf("tim.t.source", {driver_text(r.driver), r.host}).c_str());
}

// The sweep's chart: the kernel's median (or % of the read ceiling) at each block size, blocks evenly spaced by
// their log, the scenario's block ringed, a wrong result crossed; the family's reference (CUB, one launch of its
// own at every block) as a dashed level.
void sweep_plot(const BlockSweep& s, unsigned cur_block, bool pct) {
  if (s.points.empty()) return;
  const float fs = ImGui::GetFontSize();
  const ImVec2 size(std::max(ImGui::GetContentRegionAvail().x, fs * 12), fs * 9);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("sweep_plot", size);
  const bool hovered = ImGui::IsItemHovered();
  auto value = [pct](const SweepPoint& x) { return pct ? x.pct_read : x.median_ms; };
  double top = pct ? 100.0 : 0.0;
  for (const SweepPoint& x : s.points) top = std::max(top, value(x));
  const double ref_value = pct ? s.reference_pct_read : s.reference_ms;
  if (!s.reference.empty()) top = std::max(top, ref_value);
  if (top <= 0) top = 1;
  top *= 1.08;
  auto label = [pct](double v) {
    char b[32];
    std::snprintf(b, sizeof b, pct ? "%.0f %%" : v >= 1 ? "%.2f ms" : "%.3f ms", v);
    return std::string(b);
  };
  // Room for the value labels at the left and for half a block label either side of the first and last blocks.
  const float left = ImGui::CalcTextSize(label(top).c_str()).x + fs * 1.6f;
  const float bottom = fs * 1.4f, right = fs * 1.6f, above = fs * 0.6f;
  const ImVec2 a(p.x + left, p.y + above), b(p.x + size.x - right, p.y + size.y - bottom);
  dl->AddRectFilled(p, ImVec2(p.x + size.x, p.y + size.y), IM_COL32(30, 32, 38, 255));
  const ImU32 grid = IM_COL32(80, 84, 96, 255), text = IM_COL32(170, 170, 170, 255);
  auto y_of = [&](double v) { return b.y - float(v / top) * (b.y - a.y); };
  for (int i = 0; i <= 4; ++i) {
    const double v = top / 1.08 * i / 4;
    const float y = y_of(v);
    dl->AddLine(ImVec2(a.x - fs * 0.6f, y), ImVec2(b.x + fs * 0.6f, y), grid);
    const std::string t = label(v);
    dl->AddText(ImVec2(a.x - fs * 0.9f - ImGui::CalcTextSize(t.c_str()).x, y - fs * 0.5f), text, t.c_str());
  }
  // Blocks 32 .. 1024 by their log: the chart's x is the same for every kernel and card.
  auto x_of = [&](unsigned block) {
    const float l = std::log2(float(std::max(block, 32u)));
    return a.x + (l - 5.0f) / 5.0f * (b.x - a.x);
  };
  for (const SweepPoint& x : s.points) {
    const std::string t = std::to_string(x.block);
    const float w = ImGui::CalcTextSize(t.c_str()).x;
    dl->AddText(ImVec2(x_of(x.block) - w / 2, b.y + fs * 0.2f),
                x.block == cur_block ? IM_COL32(255, 255, 255, 255) : text, t.c_str());
  }
  if (!s.reference.empty() && ref_value > 0) {  // dashed
    const float y = y_of(ref_value);
    for (float x = a.x; x < b.x; x += fs * 0.8f)
      dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + fs * 0.45f, b.x), y), warp_color(2), 2);
  }
  const ImU32 line = warp_color(0);
  for (std::size_t i = 1; i < s.points.size(); ++i)
    dl->AddLine(ImVec2(x_of(s.points[i - 1].block), y_of(value(s.points[i - 1]))),
                ImVec2(x_of(s.points[i].block), y_of(value(s.points[i]))), line, 2);
  const SweepPoint* tip = nullptr;
  for (const SweepPoint& x : s.points) {
    const ImVec2 c(x_of(x.block), y_of(value(x)));
    if (x.correct) {
      dl->AddCircleFilled(c, fs * 0.28f, line, 16);
    } else {
      const float r = fs * 0.3f;
      const ImU32 red = IM_COL32(255, 90, 70, 255);
      dl->AddLine(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), red, 2);
      dl->AddLine(ImVec2(c.x - r, c.y + r), ImVec2(c.x + r, c.y - r), red, 2);
    }
    if (x.block == cur_block) dl->AddCircle(c, fs * 0.5f, IM_COL32(255, 255, 255, 255), 20, 2);
    if (hovered && std::fabs(ImGui::GetIO().MousePos.x - c.x) < fs * 0.8f) tip = &x;
  }
  if (tip) {
    char ms[32], read[32], cub[32];
    std::snprintf(ms, sizeof ms, "%.4f", tip->median_ms);
    std::snprintf(read, sizeof read, "%.1f", tip->pct_read);
    std::snprintf(cub, sizeof cub, "%.2f", tip->ratio_cub);
    ImGui::SetTooltip("%s", trf(tip->correct ? "tim.sweep.point" : "tim.sweep.point.wrong",
                                {std::to_string(tip->block), ms, read, cub})
                                .c_str());
  }
}

// One sweep's heading, chart and what it says about the scenario's block.
void sweep_figures(const TimReport& r, const BlockSweep& s, const Scenario& sc, bool& pct) {
  const ImVec4 amber(1.0f, 0.8f, 0.35f, 1);
  ImGui::TextUnformatted(trf("tim.sweep.at", {s.kernel, r.type, r.op, fmt_n(s.n)}).c_str());
  if (!s.own_n) text_wrapped(trf("tim.sweep.other_n", {fmt_n(sc.n), fmt_n(s.n)}), &amber);
  if (r.type != to_string(sc.type)) text_wrapped(trf("tim.sweep.other_type", {r.type, to_string(sc.type)}), &amber);
  if (s.points.size() < 2) {
    const KernelRecord* k = find_kernel(s.kernel);
    ImGui::TextDisabled("%s", tr(k && k->own_launch ? "tim.sweep.own_launch" : "tim.sweep.one_block"));
    return;
  }
  if (ImGui::RadioButton(L("tim.sweep.time").c_str(), !pct)) pct = false;
  tooltip_key("def.median_ms");
  ImGui::SameLine();
  if (ImGui::RadioButton(L("tim.sweep.pct_read").c_str(), pct)) pct = true;
  tooltip_key("def.pct_read");
  sweep_plot(s, sc.block, pct);
  const SweepPoint* fastest = s.fastest();
  const SweepPoint* yours = s.at(sc.block);
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.4f", fastest->median_ms);
  ImGui::TextUnformatted(trf("tim.sweep.fastest", {std::to_string(fastest->block), ms}).c_str());
  tooltip_key("def.sweep.fastest");
  if (yours && yours != fastest) {
    char mine[32], times[32];
    std::snprintf(mine, sizeof mine, "%.4f", yours->median_ms);
    std::snprintf(times, sizeof times, "%.2f", yours->median_ms / fastest->median_ms);
    ImGui::TextUnformatted(trf("tim.sweep.yours", {std::to_string(sc.block), mine, times}).c_str());
    tooltip_key("def.sweep.yours");
  } else if (!yours) {
    ImGui::TextDisabled("%s", trf("tim.sweep.not_swept", {std::to_string(sc.block)}).c_str());
  }
  if (!s.reference.empty()) {
    char ref[32];
    std::snprintf(ref, sizeof ref, "%.4f", s.reference_ms);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(warp_color(2)), "%s",
                       trf("tim.sweep.reference", {s.reference, ref}).c_str());
    tooltip_key("def.sweep.reference");
  }
}
}  // namespace

namespace {
class TimingsView final : public View {
 public:
  TimingsView() : View(ViewId::timings, "win.timings") {}
  void draw(Model& model) override {
    const Scenario& sc = model.work.a.trace ? model.work.a.trace->scenario : model.work.a.scenario;
    const bool transpose = takes_matrix(sc);
    bool gpu = model.work.a.trace && model.work.a.trace->backend == Backend::cuda;
    // REDLAB_GUI_MEASURE=1: measure at start whatever the backend (tests the background run and its errors).
    if (!forced_ && model.work.a.trace && model.work.opts.debug.measure) {
      forced_ = true;
      model.work.request_timings(model.work.a.trace->scenario);
      if (model.view.headless) model.poll(true);
    }
    gpu = gpu || forced_;
    const LiveTimings& live = model.work.live_timings();
    ImGui::PushTextWrapPos(0);

    // Live: a CUDA device is in use.
    if (gpu) {
      ImGui::BeginDisabled(live.running());
      if (ImGui::Button(L("tim.measure").c_str())) model.work.request_timings(sc);
      ImGui::EndDisabled();
      tooltip_key(transpose ? "tim.t.measure.tip" : "tim.measure.tip");
      ImGui::SameLine();
      const std::string device = model.work.a.trace ? model.work.a.trace->device : "";
      // This measurement's state; a block-size sweep's is shown beside its chart (block_sweep_section).
      const TimReport* rep = live.rep && !live.sweep ? &*live.rep : nullptr;
      const std::string error = live.sweep ? std::string() : live.error;
      if (live.running() && live.matrix) {
        ImGui::TextDisabled("%s", trf("tim.t.measuring", {live.what}).c_str());
      } else if (live.running() && !live.sweep) {
        ImGui::TextDisabled("%s", trf("tim.measuring", {live.kernel, fmt_n(live.n)}).c_str());
      } else if (transpose) {
        const KernelRecord* ref = reference_kernel(Family::transpose);  // copy: "% of copy" comes from it
        std::string ks = !ref || sc.kernel == ref->id ? sc.kernel : ref->id + ", " + sc.kernel;
        ImGui::TextDisabled("%s",
                            trf("tim.t.measure.what",
                                {trf("tim.t.kernels_at", {ks, shape_text(sc.rows, sc.cols, sc.block_rows)}), device})
                                .c_str());
      } else {
        ImGui::TextDisabled("%s", trf("tim.measure.what", {sc.kernel, fmt_n(sc.n), device}).c_str());
      }
      if (!error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", error.c_str());
      // Nothing timed here yet: one line says how (the reference below is another card's, folded away).
      const bool measured = rep && live.kernel == sc.kernel && live.n == sc.n;
      if (!live.running() && !measured && error.empty())
        text_wrapped(trf("tim.not_measured", {sc.kernel, fmt_n(sc.n)}), nullptr);
      if (rep && live.matrix) {
        const TimReport& r = *rep;
        ImGui::TextColored(
            ImVec4(0.5f, 0.9f, 0.5f, 1), "%s",
            trf("tim.t.live", {r.device, r.type, shape_text(r.mat_rows, r.mat_cols, r.mat_block_rows)}).c_str());
        transpose_table("live_t", r, live.kernel);
        // A matrix that fits in L2 is timed over rotating copies (family_run.h, bench.cpp): say so.
        for (const TimCeiling& c : r.ceilings)
          if (c.fits_l2) {
            char mb[32];
            std::snprintf(mb, sizeof mb, "%.1f", 2.0 * double(c.n) * (r.type == "float64" ? 8 : 4) / 1e6);
            ImGui::TextDisabled("%s", trf("tim.t.fits_l2", {mb}).c_str());
          }
      } else if (rep) {
        const TimReport& r = *rep;
        ImGui::TextColored(
            ImVec4(0.5f, 0.9f, 0.5f, 1), "%s",
            trf("tim.live", {r.device, live.kernel, fmt_n(live.n), r.type, r.op, std::to_string(r.block)}).c_str());
        rows_table("live", r, live.kernel, live.n, false);
        ceilings_line(r, live.n);
      }
      ImGui::Separator();
    } else {
      ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "%s", tr("tim.cpu"));
      tooltip_key("tim.cpu.tip");
      ImGui::SameLine();
      help_marker(model, "tim.cpu.tip");
    }

    // Reference figures, never live. Beside a GPU's live trace they are another card's, on another day: folded
    // under their header (open it to compare), so that they are not read as this run's.
    const ReferenceTimings& ref = model.work.reference_timings();
    if (gpu) {
      const ReferenceTimings& shown = transpose ? model.work.transpose_reference(sc.type) : ref;
      const bool read = shown.present && shown.error.empty();
      const std::string device = read ? shown.rep.device : std::string("?");
      const std::string date = read ? shown.rep.date.substr(0, 10) : std::string();
      if (!ImGui::CollapsingHeader((trf("tim.reference.folded", {device, date}) + "###reference").c_str())) {
        if (!transpose) block_sweep_section(model, sc, gpu);
        ImGui::PopTextWrapPos();
        return;
      }
    }
    if (transpose) {
      transpose_reference(model, sc);
    } else if (!ref.present) {
      ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "%s", tr("tim.none"));
    } else if (!ref.error.empty()) {
      ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s: %s", ref.path.c_str(), ref.error.c_str());
    } else {
      const TimReport& r = ref.rep;
      ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "%s",
                         trf("tim.reference", {r.device, r.date.substr(0, 10)}).c_str());
      ImGui::TextDisabled(
          "%s", trf("tim.source", {r.type, r.op, std::to_string(r.block), driver_text(r.driver), r.host}).c_str());
      bool any = false;
      for (const TimRow& x : r.rows) any = any || x.kernel == sc.kernel;
      if (any) {
        ImGui::TextUnformatted(trf("tim.rows_for", {sc.kernel}).c_str());
        rows_table("ref", r, sc.kernel, sc.n, true);
        ceilings_line(r, sc.n);
        // Whether the scenario's own size is among the rows (then lit), and its block against the reference's.
        bool own_n = false;
        std::string sizes;
        for (const TimRow& x : r.rows)
          if (x.kernel == sc.kernel) {
            own_n = own_n || x.n == sc.n;
            sizes += (sizes.empty() ? "" : ", ") + fmt_n(x.n);
          }
        const ImVec4 amber(1.0f, 0.8f, 0.35f, 1);
        if (own_n)
          ImGui::TextDisabled("%s", trf("tim.own_n", {fmt_n(sc.n)}).c_str());
        else
          text_wrapped(trf("tim.other_n", {fmt_n(sc.n), sizes}), &amber);
        if (sc.block != r.block)
          text_wrapped(trf("tim.other_block", {std::to_string(sc.block), std::to_string(r.block)}), &amber);
      } else {
        std::string ks;
        for (const TimRow& x : r.rows)
          if (ks.find(x.kernel) == std::string::npos) ks += (ks.empty() ? "" : ", ") + x.kernel;
        ImGui::TextDisabled("%s", trf("tim.no_rows", {sc.kernel, ks}).c_str());
      }
    }
    if (!transpose) block_sweep_section(model, sc, gpu);
    ImGui::PopTextWrapPos();
  }

 private:
  // Time against block size: measured now on the GPU (Sweep), else the sweeps recorded on cards, one at a time.
  void block_sweep_section(Model& model, const Scenario& sc, bool gpu) {
    if (!ImGui::CollapsingHeader(L("tim.sweep.header").c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
    const LiveTimings& live = model.work.live_timings();
    // A kernel file is compiled for one block size (its run is a child redlab's): bench times it block by block, and
    // no recorded sweep is of it.
    if (sweep_offer(sc) == SweepOffer::kernel_file) {
      const std::string& file = model.work.a.user.path;
      const std::string name = file.empty() ? std::string("FILE") : std::filesystem::path(file).filename().string();
      text_wrapped(
          trf("tim.sweep.kernel_file", {"redlab bench --source " + name + " --block B --n " + std::to_string(sc.n)}),
          nullptr);
      return;
    }
    if (!sweep_forced_ && model.work.a.trace && model.work.opts.debug.measure_sweep) {
      sweep_forced_ = true;
      model.work.request_block_sweep(sc);
      if (model.view.headless) model.poll(true);
    }
    if (gpu || sweep_forced_) {
      ImGui::BeginDisabled(live.running());
      if (ImGui::Button(L("tim.sweep.measure").c_str())) model.work.request_block_sweep(sc);
      ImGui::EndDisabled();
      tooltip_key("tim.sweep.measure.tip");
      if (live.running() && live.sweep) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", trf("tim.sweep.measuring", {live.what, fmt_n(live.n)}).c_str());
      }
      if (live.sweep && !live.error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", live.error.c_str());
    }
    // The sweep measured now, when it is of this scenario's kernel and size.
    if (live.sweep && live.rep && live.kernel == sc.kernel && live.n == sc.n) {
      if (const std::optional<BlockSweep> sw = block_sweep(*live.rep, sc.kernel, sc.n)) {
        ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1), "%s", trf("tim.sweep.live", {live.rep->device}).c_str());
        sweep_figures(*live.rep, *sw, sc, pct_);
        return;
      }
    }
    const std::vector<ReferenceTimings>& files = model.work.block_sweeps(sc.type);
    if (files.empty()) {
      const ImVec4 amber(1.0f, 0.8f, 0.35f, 1);
      text_wrapped(trf("tim.sweep.none", {to_string(sc.type), block_sweep_prefix(sc.type) + "<card>.json",
                                          "redlab bench --kernels " + sc.kernel + " --blocks all --n " +
                                              std::to_string(sc.n) + " --type " + to_string(sc.type) + " -o FILE"}),
                   &amber);
      return;
    }
    // One card at a time: a button per recorded card.
    card_ = std::min(card_, files.size() - 1);
    if (files.size() > 1)
      for (std::size_t i = 0; i < files.size(); ++i) {
        const ReferenceTimings& f = files[i];
        if (i) ImGui::SameLine();
        const std::string name = f.error.empty() ? f.rep.device : std::filesystem::path(f.path).filename().string();
        if (ImGui::RadioButton((name + "###card" + std::to_string(i)).c_str(), card_ == i)) card_ = i;
      }
    const ReferenceTimings& f = files[card_];
    if (!f.error.empty()) {
      ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s: %s", f.path.c_str(), f.error.c_str());
      return;
    }
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "%s",
                       trf("tim.reference", {f.rep.device, f.rep.date.substr(0, 10)}).c_str());
    const std::optional<BlockSweep> sw = block_sweep(f.rep, sc.kernel, sc.n);
    if (!sw) {
      ImGui::TextDisabled("%s", trf("tim.sweep.no_kernel", {sc.kernel, f.path}).c_str());
      return;
    }
    sweep_figures(f.rep, *sw, sc, pct_);
  }

  bool forced_ = false;  // REDLAB_GUI_MEASURE's measurement was started
  bool sweep_forced_ = false;  // REDLAB_GUI_MEASURE_SWEEP's sweep was started
  bool pct_ = false;  // the sweep's chart in % of the read ceiling (else milliseconds)
  std::size_t card_ = 0;  // the recorded sweep shown
};
}  // namespace

const RegisterView<TimingsView> timings_view(110);

}  // namespace redlab::gui
