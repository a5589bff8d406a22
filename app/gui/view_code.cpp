#include <algorithm>
#include <filesystem>
#include <map>

#include "../core/catalog.h"
#include "hw_panel.h"
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
    // A kernel file of the student's own: its messages, and the file itself while it does not compile.
    const UserSource& user = st.user_source();
    if (!user.path.empty()) {
      ImGui::PushTextWrapPos(0);
      if (user.running) ImGui::TextDisabled("%s", trf("source.running", {user.path}).c_str());
      else if (user.errors.empty()) ImGui::TextDisabled("%s", trf("source.watching", {user.path}).c_str());
      ImGui::PopTextWrapPos();
      if (!user.errors.empty()) {
        const ImVec4 red(1.0f, 0.5f, 0.45f, 1);
        std::string shown;
        int n = 0;
        for (std::size_t p = 0; p < user.errors.size() && n < 8; ++n) {
          const std::size_t e = user.errors.find('\n', p);
          shown += user.errors.substr(p, e == std::string::npos ? std::string::npos : e - p + 1);
          p = e == std::string::npos ? user.errors.size() : e + 1;
        }
        text_wrapped(trf("source.failed", {user.path}), &red);
        ImGui::BeginChild("errors", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 5), true,
                          ImGuiWindowFlags_HorizontalScrollbar);
        ImGui::TextUnformatted(shown.c_str());
        ImGui::EndChild();
        if (kid != user.id) {   // nothing of it ran yet: the file, its lines marked
          draw_file(st, std::filesystem::absolute(user.path).string(), {}, 0, user.marks, nullptr);
          return;
        }
      }
    }
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
    // The file of the current step's probe.step call: the kernel's own, or a helper it includes (the block
    // layer's steps are in kernels/block/block_reduce.cuh).
    const bool have_step = st.a.trace && st.step < int(st.a.trace->steps.size());
    const std::uint32_t step_line = have_step ? st.a.trace->steps[size_t(st.step)].line : 0;
    const std::string file = have_step ? st.step_file(*k, st.a.trace->steps[size_t(st.step)]) : k->source_file;
    const auto* lines = &st.source(file).lines;
    if (lines->empty()) {
      ImGui::TextDisabled("%s", trf("code.missing", {file}).c_str());
      return;
    }
    // The statements the step runs (not its probe.step line).
    std::vector<int> lit_lines;
    if (have_step) lit_lines = step_statement_lines(*lines, int(step_line));
    const int line = lit_lines.empty() ? 0 : lit_lines.front();
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", trf("code.file", {file, std::to_string(line)}).c_str());
    ImGui::PopTextWrapPos();
    // The hardware's counts per line of this file, in a column after the longest line.
    const HwCounts* hw = hw_toggle(st);
    std::map<std::uint32_t, HwLine> hw_by_line;
    if (hw)
      for (const HwLine& l : hw_lines(*hw))
        if (l.file == file) hw_by_line[l.line] = l;
    draw_file(st, file, lit_lines, line, user.id == kid ? user.marks : std::map<int, std::string>{}, &hw_by_line);
    st.memory.code_line = line;
  }

 private:
  // The file's lines: the step's statements lit, lines the compiler or the emulator named marked red (their
  // message in a tooltip), and the hardware's counts in a gutter when given.
  static void draw_file(Session& st, const std::string& file, const std::vector<int>& lit_lines, int line,
                        const std::map<int, std::string>& marks, const std::map<std::uint32_t, HwLine>* hw) {
    const auto* lines = &st.source(file).lines;
    const std::map<std::uint32_t, HwLine> none;
    const std::map<std::uint32_t, HwLine>& hw_by_line = hw ? *hw : none;
    ImGui::BeginChild("src", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // The hardware's warp-level executions of each line in a gutter before the code (the rest in a tooltip).
    const float gutter = hw_by_line.empty() ? 0 : ImGui::CalcTextSize("000.0M").x;
    for (int i = 0; i < int(lines->size()); ++i) {
      const bool lit = std::find(lit_lines.begin(), lit_lines.end(), i + 1) != lit_lines.end();
      ImVec2 p = ImGui::GetCursorScreenPos();
      if (const auto m = marks.find(i + 1); m != marks.end()) {
        dl->AddRectFilled(p, ImVec2(p.x + ImGui::GetContentRegionAvail().x + 2000, p.y + lh), IM_COL32(140, 40, 40, 220));
        if (ImGui::IsMouseHoveringRect(p, ImVec2(p.x + ImGui::GetContentRegionAvail().x, p.y + lh))) {
          ImGui::BeginTooltip();
          ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
          ImGui::TextUnformatted(m->second.c_str());
          ImGui::PopTextWrapPos();
          ImGui::EndTooltip();
        }
      }
      if (lit_lines.empty() && !marks.empty() && i + 1 == marks.begin()->first && st.memory.code_line != -(i + 1)) {
        ImGui::SetScrollHereY(0.35f);   // the first line a message names, once
        st.memory.code_line = -(i + 1);
      }
      if (lit) {
        dl->AddRectFilled(p, ImVec2(p.x + ImGui::GetContentRegionAvail().x + 2000, p.y + lh), IM_COL32(80, 110, 40, 200));
        if (i + 1 == line && line != st.memory.code_line) ImGui::SetScrollHereY(0.35f);
      }
      ImGui::TextColored(ImVec4(0.5f, 0.5f, 0.5f, 1), "%4d", i + 1);
      if (gutter > 0) {
        ImGui::SameLine();
        const auto it = hw_by_line.find(std::uint32_t(i + 1));
        const std::string figure = it == hw_by_line.end() ? std::string() : fmt_compact(it->second.get(HwMetric::inst_executed));
        const float x = ImGui::GetCursorPosX();
        ImGui::SetCursorPosX(x + gutter - ImGui::CalcTextSize(figure.c_str()).x);
        const bool memory = it != hw_by_line.end() &&
                            (it->second.get(HwMetric::shared_wavefronts) || it->second.get(HwMetric::global_sectors));
        ImGui::TextColored(memory ? ImVec4(0.55f, 0.8f, 0.95f, 1) : ImVec4(0.45f, 0.55f, 0.6f, 1), "%s", figure.c_str());
        if (it != hw_by_line.end() && ImGui::IsItemHovered()) {
          const HwLine& l = it->second;
          std::string figures = trf("hw.line", {fmt_u(l.get(HwMetric::inst_executed)), std::to_string(l.instructions)});
          if (const std::uint64_t wf = l.get(HwMetric::shared_wavefronts)) figures += "\n" + trf("hw.line.wavefronts", {fmt_u(wf)});
          if (const std::uint64_t sec = l.get(HwMetric::global_sectors)) figures += "\n" + trf("hw.line.sectors", {fmt_u(sec)});
          ImGui::BeginTooltip();
          ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
          ImGui::TextUnformatted(figures.c_str());
          ImGui::TextDisabled("%s", tr("def.hw.line"));
          ImGui::PopTextWrapPos();
          ImGui::EndTooltip();
        }
        ImGui::SameLine(x + gutter + ImGui::GetFontSize() * 0.6f);
      } else {
        ImGui::SameLine();
      }
      ImGui::TextUnformatted((*lines)[size_t(i)].c_str());
    }
    ImGui::EndChild();
  }
};
}  // namespace

std::unique_ptr<View> make_code_view() { return std::make_unique<CodeView>(); }

}  // namespace redlab::gui
