// Timings: the reference figures shipped in assets/reference_timings.json (written by `redlab bench --json`,
// bench_json format), labelled with their device and date and never shown as live; and, when the scenario
// runs on a CUDA device, figures measured now with run_bench() in a background thread.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <optional>
#include <nlohmann/json.hpp>

#include "i18n.h"
#include "views.h"
#if REDLAB_GUI_HAVE_BENCH
#include "../exec/bench.h"
#endif

namespace redlab::gui {

namespace {
// What the window shows of a bench report (bench.h's BenchReport where that library is linked).
struct TimRow {
  std::string kernel;
  std::uint64_t n = 0;
  double median_ms = 0, gbps = 0, pct_copy = 0, pct_read = 0, speedup = 0, ratio_cub = 0;
  bool correct = false;
};
struct TimCeiling {
  std::uint64_t n = 0;
  double copy_gbps = 0, read_gbps = 0;
  bool fits_l2 = false;
};
struct TimReport {
  std::string device, driver, date, host, type, op;
  unsigned block = 0;
  std::vector<TimRow> rows;
  std::vector<TimCeiling> ceilings;
};

#if REDLAB_GUI_HAVE_BENCH
TimReport from_bench(const BenchReport& b) {
  TimReport r;
  r.device = b.device; r.driver = b.driver; r.date = b.date; r.host = b.host;
  r.type = to_string(b.request.type); r.op = to_string(b.request.op); r.block = b.request.block;
  for (const BenchRow& x : b.rows)
    r.rows.push_back({x.kernel, x.n, x.median_ms, x.gbps, x.pct_copy, x.pct_read, x.speedup, x.ratio_cub, x.correct});
  for (const BenchCeiling& c : b.ceilings) r.ceilings.push_back({c.n, c.copy_gbps, c.read_gbps, c.fits_l2});
  return r;
}
#endif

// The same keys as bench_json(), read directly (used when the bench library is not linked).
TimReport parse_report(const nlohmann::json& j) {
#if REDLAB_GUI_HAVE_BENCH
  return from_bench(bench_from_json(j));
#else
  TimReport r;
  r.device = j.at("device"); r.driver = j.at("driver"); r.date = j.at("date"); r.host = j.value("host", "");
  r.type = j.value("type", ""); r.op = j.value("op", ""); r.block = j.value("block", 0u);
  for (const auto& x : j.at("rows"))
    r.rows.push_back({x.at("kernel"), x.at("n"), x.at("median_ms"), x.at("gbps"), x.value("pct_copy", 0.0),
                      x.value("pct_read", 0.0), x.value("speedup", 0.0), x.value("ratio_cub", 0.0), x.value("correct", false)});
  for (const auto& c : j.value("ceilings", nlohmann::json::array()))
    r.ceilings.push_back({c.at("n"), c.at("copy_gbps"), c.at("read_gbps"), c.value("fits_l2", false)});
  return r;
#endif
}

struct RefTimings {
  bool loaded = false, present = false;
  std::string error, path;
  TimReport rep;
} g_ref;

void load_ref() {
  g_ref.loaded = true;
  if (const char* e = std::getenv("REDLAB_REFERENCE_TIMINGS"); e && *e) g_ref.path = e;  // tests, other files
  else g_ref.path = find_resource("assets/reference_timings.json");
  if (g_ref.path.empty()) return;
  std::ifstream f(g_ref.path);
  if (!f) return;
  g_ref.present = true;
  try {
    g_ref.rep = parse_report(nlohmann::json::parse(f));
  } catch (const std::exception& e) {
    g_ref.error = e.what();
  }
}

struct Live {
  std::future<TimReport> pending;
  bool running = false;
  std::string error, kernel;
  std::uint64_t n = 0;
  std::optional<TimReport> rep;
} g_live;

#if REDLAB_GUI_HAVE_BENCH
void start_measure(const Scenario& sc) {
  BenchRequest req;
  req.kernels = {sc.kernel};
  req.sizes = {sc.n};
  req.type = sc.type;
  req.op = sc.op;
  req.block = sc.block;
  req.finish = sc.finish;
  g_live.running = true;
  g_live.error.clear();
  g_live.kernel = sc.kernel;
  g_live.n = sc.n;
  g_live.pending = std::async(std::launch::async, [req] { return from_bench(run_bench(req)); });
}
#endif

void poll_measure() {
  if (!g_live.running || !g_live.pending.valid()) return;
  if (g_live.pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  g_live.running = false;
  try {
    g_live.rep = g_live.pending.get();
  } catch (const std::exception& e) {
    g_live.error = e.what();
    g_live.rep.reset();
  }
}

std::string fmt_n(std::uint64_t n) { return fmt_u(n); }

// Rows of one kernel; the row at `cur_n` lit.
void rows_table(const char* id, const TimReport& r, const std::string& kernel, std::uint64_t cur_n, bool with_speedup) {
  const int cols = with_speedup ? 8 : 7;
  int nrows = 0;
  for (const TimRow& x : r.rows) nrows += x.kernel == kernel;
  const float h = ImGui::GetTextLineHeightWithSpacing() * float(nrows + 1) + ImGui::GetStyle().CellPadding.y * 2 * float(nrows + 1) +
                  ImGui::GetStyle().ScrollbarSize + 4;
  if (!ImGui::BeginTable(id, cols, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                       ImGuiTableFlags_ScrollX, ImVec2(0, h)))
    return;
  ImGui::TableSetupColumn("n");
  ImGui::TableSetupColumn(tr("tim.ms"));
  ImGui::TableSetupColumn("GB/s");
  ImGui::TableSetupColumn(tr("tim.pct_copy"));
  ImGui::TableSetupColumn(tr("tim.pct_read"));
  if (with_speedup) ImGui::TableSetupColumn(tr("tim.speedup"));
  ImGui::TableSetupColumn(tr("tim.ratio_cub"));
  ImGui::TableSetupColumn(tr("tim.check"));
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  const char* tips[] = {"def.n", "def.median_ms", "def.gbps", "def.pct_copy", "def.pct_read", "def.speedup", "def.ratio_cub", "def.check"};
  for (int c = 0, k = 0; c < cols; ++c, ++k) {
    if (!with_speedup && k == 5) ++k;
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    tooltip_key(tips[k]);
  }
  for (const TimRow& x : r.rows) {
    if (x.kernel != kernel) continue;
    ImGui::TableNextRow();
    if (x.n == cur_n) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(60, 90, 140, 200));
    int c = 0;
    ImGui::TableSetColumnIndex(c++); ImGui::TextUnformatted(fmt_n(x.n).c_str());
    ImGui::TableSetColumnIndex(c++); ImGui::Text("%.4f", x.median_ms);
    ImGui::TableSetColumnIndex(c++); ImGui::Text("%.1f", x.gbps);
    ImGui::TableSetColumnIndex(c++); ImGui::Text("%.1f %%", x.pct_copy);
    ImGui::TableSetColumnIndex(c++); ImGui::Text("%.1f %%", x.pct_read);
    if (with_speedup) { ImGui::TableSetColumnIndex(c++); ImGui::Text("%.2fx", x.speedup); }
    ImGui::TableSetColumnIndex(c++);
    if (x.ratio_cub > 0) ImGui::Text("%.2f", x.ratio_cub); else ImGui::TextDisabled("-");
    ImGui::TableSetColumnIndex(c++);
    if (x.correct) ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1), "ok");
    else ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", tr("tim.wrong"));
  }
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
}  // namespace

void view_timings(AppState& st) {
  if (!st.show_timings) return;
  if (ImGui::Begin(L("win.timings").c_str(), &st.show_timings)) {
    if (!g_ref.loaded) load_ref();
    poll_measure();
    const Scenario& sc = st.a.trace ? st.a.trace->scenario : st.a.scenario;
    bool gpu = st.a.trace && st.a.trace->backend == "cuda";
#if REDLAB_GUI_HAVE_BENCH
    // REDLAB_GUI_MEASURE=1: measure at start whatever the backend (tests the background run and its errors).
    static bool forced = false;
    if (!forced && st.a.trace && std::getenv("REDLAB_GUI_MEASURE") && *std::getenv("REDLAB_GUI_MEASURE") == '1') {
      forced = true;
      start_measure(st.a.trace->scenario);
      if (st.headless) g_live.pending.wait();
    }
    gpu = gpu || forced;
#endif
    ImGui::PushTextWrapPos(0);

    // Live: a CUDA device is in use.
    if (gpu) {
#if REDLAB_GUI_HAVE_BENCH
      ImGui::BeginDisabled(g_live.running);
      if (ImGui::Button(L("tim.measure").c_str())) start_measure(sc);
      ImGui::EndDisabled();
      tooltip_key("tim.measure.tip");
      ImGui::SameLine();
      if (g_live.running) ImGui::TextDisabled("%s", trf("tim.measuring", {g_live.kernel, fmt_n(g_live.n)}).c_str());
      else ImGui::TextDisabled("%s", trf("tim.measure.what", {sc.kernel, fmt_n(sc.n), st.a.trace ? st.a.trace->device : ""}).c_str());
#else
      ImGui::TextDisabled("%s", tr("tim.no_bench"));
#endif
      if (!g_live.error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", g_live.error.c_str());
      if (g_live.rep) {
        const TimReport& r = *g_live.rep;
        ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1), "%s",
                           trf("tim.live", {r.device, g_live.kernel, fmt_n(g_live.n), r.type, r.op, std::to_string(r.block)}).c_str());
        rows_table("live", r, g_live.kernel, g_live.n, false);
        ceilings_line(r, g_live.n);
      }
      ImGui::Separator();
    } else {
      ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "%s", tr("tim.cpu"));
      tooltip_key("tim.cpu.tip");
      ImGui::SameLine();
      help_marker("tim.cpu.tip");
    }

    // Reference figures, never live.
    if (!g_ref.present) {
      ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "%s", tr("tim.none"));
    } else if (!g_ref.error.empty()) {
      ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s: %s", g_ref.path.c_str(), g_ref.error.c_str());
    } else {
      const TimReport& r = g_ref.rep;
      ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "%s", trf("tim.reference", {r.device, r.date.substr(0, 10)}).c_str());
      ImGui::TextDisabled("%s", trf("tim.source", {r.type, r.op, std::to_string(r.block), r.driver, r.host}).c_str());
      bool any = false;
      for (const TimRow& x : r.rows) any = any || x.kernel == sc.kernel;
      if (any) {
        ImGui::TextUnformatted(trf("tim.rows_for", {sc.kernel}).c_str());
        rows_table("ref", r, sc.kernel, sc.n, true);
        ceilings_line(r, sc.n);
      } else {
        std::string ks;
        for (const TimRow& x : r.rows)
          if (ks.find(x.kernel) == std::string::npos) ks += (ks.empty() ? "" : ", ") + x.kernel;
        ImGui::TextDisabled("%s", trf("tim.no_rows", {sc.kernel, ks}).c_str());
      }
    }
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace redlab::gui
