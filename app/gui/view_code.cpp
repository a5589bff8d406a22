#include <fstream>
#include <map>
#include <sstream>

#include "../core/catalog.h"
#include "i18n.h"
#include "views.h"

namespace redlab::gui {

namespace {
struct SourceCache {
  std::map<std::string, std::vector<std::string>> files;
  const std::vector<std::string>* get(const std::string& rel, std::string* where) {
    auto it = files.find(rel);
    if (it == files.end()) {
      std::vector<std::string> lines;
      std::string path = find_resource(rel);
      std::ifstream f(path);
      for (std::string l; std::getline(f, l);) {
        for (size_t p; (p = l.find('\t')) != std::string::npos;) l.replace(p, 1, "  ");
        lines.push_back(l);
      }
      it = files.emplace(rel, std::move(lines)).first;
      if (where) *where = path;
    }
    return &it->second;
  }
} g_src;
int g_last_line = -1;
}  // namespace

void view_code(AppState& st) {
  if (!st.show_code) return;
  if (ImGui::Begin(L("win.code").c_str(), &st.show_code)) {
    const std::string kid = st.a.trace ? st.a.trace->scenario.kernel : st.a.scenario.kernel;
    const KernelRecord* k = find_kernel(kid);
    std::string key = "teach." + kid;
    const char* teach = tr(key.c_str());
    ImGui::PushTextWrapPos(0);
    if (k) ImGui::TextColored(ImVec4(0.6f, 0.8f, 1.0f, 1), "%s  (%s)", k->title.c_str(), k->seed.c_str());
    ImGui::TextUnformatted(teach != key ? teach : (k ? k->teaches.c_str() : ""));
    ImGui::PopTextWrapPos();
    ImGui::Separator();
    if (!k || k->source_file.empty()) {
      ImGui::TextDisabled("%s", tr("code.none"));
      ImGui::End();
      return;
    }
    const auto* lines = g_src.get(k->source_file, nullptr);
    if (lines->empty()) {
      ImGui::TextDisabled("%s", trf("code.missing", {k->source_file}).c_str());
      ImGui::End();
      return;
    }
    int line = 0;
    if (st.a.trace && st.step < int(st.a.trace->steps.size())) line = int(st.a.trace->steps[size_t(st.step)].line);
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", trf("code.file", {k->source_file, std::to_string(line)}).c_str());
    ImGui::PopTextWrapPos();
    ImGui::BeginChild("src", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int i = 0; i < int(lines->size()); ++i) {
      const bool lit = i + 1 == line;
      ImVec2 p = ImGui::GetCursorScreenPos();
      if (lit) {
        dl->AddRectFilled(p, ImVec2(p.x + ImGui::GetContentRegionAvail().x + 2000, p.y + lh), IM_COL32(80, 110, 40, 200));
        if (line != g_last_line) ImGui::SetScrollHereY(0.35f);
      }
      ImGui::TextColored(ImVec4(0.5f, 0.5f, 0.5f, 1), "%4d", i + 1);
      ImGui::SameLine();
      ImGui::TextUnformatted((*lines)[size_t(i)].c_str());
    }
    g_last_line = line;
    ImGui::EndChild();
  }
  ImGui::End();
}

}  // namespace redlab::gui
