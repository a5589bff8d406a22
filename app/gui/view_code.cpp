#include <algorithm>

#include "../core/catalog.h"
#include "i18n.h"
#include "views.h"

namespace redlab::gui {

namespace {
class CodeView final : public View {
 public:
  CodeView() : View("code", "win.code") {}
  void draw(Session& st) override {
    const std::string kid = st.a.trace ? st.a.trace->scenario.kernel : st.a.scenario.kernel;
    const KernelRecord* k = find_kernel(kid);
    std::string key = "teach." + kid;
    const char* teach = tr(key.c_str());
    ImGui::PushTextWrapPos(0);
    if (k) ImGui::TextColored(ImVec4(0.6f, 0.8f, 1.0f, 1), "%s  (%s)", kernel_title(*k).c_str(), k->seed.c_str());
    text_wrapped(teach != key ? teach : (k ? k->teaches.c_str() : ""));
    ImGui::PopTextWrapPos();
    ImGui::Separator();
    if (!k || k->source_file.empty()) {
      ImGui::TextDisabled("%s", tr("code.none"));
      return;
    }
    const auto* lines = &st.source(k->source_file).lines;
    if (lines->empty()) {
      ImGui::TextDisabled("%s", trf("code.missing", {k->source_file}).c_str());
      return;
    }
    // The statements the step runs (not its probe.step line).
    std::vector<int> lit_lines;
    if (st.a.trace && st.step < int(st.a.trace->steps.size()))
      lit_lines = step_statement_lines(*lines, int(st.a.trace->steps[size_t(st.step)].line));
    const int line = lit_lines.empty() ? 0 : lit_lines.front();
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", trf("code.file", {k->source_file, std::to_string(line)}).c_str());
    ImGui::PopTextWrapPos();
    ImGui::BeginChild("src", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int i = 0; i < int(lines->size()); ++i) {
      const bool lit = std::find(lit_lines.begin(), lit_lines.end(), i + 1) != lit_lines.end();
      ImVec2 p = ImGui::GetCursorScreenPos();
      if (lit) {
        dl->AddRectFilled(p, ImVec2(p.x + ImGui::GetContentRegionAvail().x + 2000, p.y + lh), IM_COL32(80, 110, 40, 200));
        if (i + 1 == line && line != st.memory.code_line) ImGui::SetScrollHereY(0.35f);
      }
      ImGui::TextColored(ImVec4(0.5f, 0.5f, 0.5f, 1), "%4d", i + 1);
      ImGui::SameLine();
      ImGui::TextUnformatted((*lines)[size_t(i)].c_str());
    }
    st.memory.code_line = line;
    ImGui::EndChild();
  }
};
}  // namespace

std::unique_ptr<View> make_code_view() { return std::make_unique<CodeView>(); }

}  // namespace redlab::gui
