#include <fstream>
#include <nlohmann/json.hpp>

#include "i18n.h"
#include "views.h"

namespace redlab::gui {

namespace {
struct RefTimings {
  bool loaded = false, present = false;
  std::string error, device, driver, date, path;
  struct Row { std::string kernel, type; std::uint64_t n = 0; double ms = 0, gbps = 0; };
  std::vector<Row> rows;
} g_ref;

void load_ref() {
  g_ref.loaded = true;
  g_ref.path = find_resource("assets/reference_timings.json");
  if (g_ref.path.empty()) return;
  g_ref.present = true;
  try {
    std::ifstream f(g_ref.path);
    auto j = nlohmann::json::parse(f);
    g_ref.device = j.value("device", "");
    g_ref.driver = j.value("driver", "");
    g_ref.date = j.value("date", "");
    for (auto& r : j.at("rows")) {
      RefTimings::Row row;
      row.kernel = r.value("kernel", "");
      row.type = r.value("type", "");
      row.n = r.value("n", std::uint64_t(0));
      row.ms = r.value("median_ms", 0.0);
      row.gbps = r.value("gbps", 0.0);
      g_ref.rows.push_back(row);
    }
  } catch (const std::exception& e) {
    g_ref.error = e.what();
  }
}
}  // namespace

void view_timings(AppState& st) {
  if (!st.show_timings) return;
  if (ImGui::Begin(L("win.timings").c_str(), &st.show_timings)) {
    if (!g_ref.loaded) load_ref();
    const bool gpu = st.a.trace && st.a.trace->backend == "cuda";
    ImGui::PushTextWrapPos(0);
    if (gpu) ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1), "%s", trf("tim.gpu", {st.a.trace->device}).c_str());
    else if (!g_ref.present) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "%s", tr("tim.none"));
    else ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "%s", trf("tim.reference", {g_ref.device, g_ref.date}).c_str());
    ImGui::PopTextWrapPos();
    if (!g_ref.error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s: %s", g_ref.path.c_str(), g_ref.error.c_str());
    if (g_ref.present && !g_ref.rows.empty()) {
      ImGui::TextDisabled("%s", trf("tim.source", {g_ref.device, g_ref.driver, g_ref.date}).c_str());
      const std::string kid = st.a.trace ? st.a.trace->scenario.kernel : st.a.scenario.kernel;
      if (ImGui::BeginTable("ref", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn(tr("tim.kernel"));
        ImGui::TableSetupColumn("n");
        ImGui::TableSetupColumn(tr("tim.type"));
        ImGui::TableSetupColumn(tr("tim.ms"));
        ImGui::TableSetupColumn("GB/s");
        ImGui::TableHeadersRow();
        for (auto& r : g_ref.rows) {
          ImGui::TableNextRow();
          if (r.kernel == kid) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(60, 90, 140, 200));
          ImGui::TableSetColumnIndex(0); ImGui::TextUnformatted(r.kernel.c_str());
          ImGui::TableSetColumnIndex(1); ImGui::TextUnformatted(fmt_u(r.n).c_str());
          ImGui::TableSetColumnIndex(2); ImGui::TextUnformatted(r.type.c_str());
          ImGui::TableSetColumnIndex(3); ImGui::Text("%.4f", r.ms); tooltip_key("def.median_ms");
          ImGui::TableSetColumnIndex(4); ImGui::Text("%.1f", r.gbps); tooltip_key("def.gbps");
        }
        ImGui::EndTable();
      }
    }
  }
  ImGui::End();
}

}  // namespace redlab::gui
