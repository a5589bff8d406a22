// The kernel's source: the current step's statements lit. A catalog kernel's file is shown read-only; a kernel
// file of the student's own is edited here: line numbers, the step's lines lit, the lines the
// compiler or the emulator named marked red (their message on hover), Save (Ctrl+S) writing the file and running
// it, the question when the file changed on disk under unsaved edits. What it edits and decides is the session's
// (side.h: UserSource, source_editor.h); this file only draws. With compare on, A's or B's source.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "core/catalog.h"
#include "gui/views/hw_panel.h"
#include "model/i18n.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {

const ImVec4 kRed(1.0f, 0.5f, 0.45f, 1), kAmber(1.0f, 0.8f, 0.35f, 1), kGreen(0.4f, 0.85f, 0.4f, 1);
const ImU32 kLitBg = IM_COL32(80, 110, 40, 200), kMarkBg = IM_COL32(140, 40, 40, 220);

// The step of `side` the view lights: its probe.step's line, the file that call is in, and the statements it runs.
struct StepLines {
  std::string file;  // "" : no step (no trace of this kernel)
  int probe_line = 0;
  std::vector<int> lit;
};
StepLines step_lines(Model& model, const Side& side, const KernelRecord& k) {
  StepLines s;
  const int step = side_step(side, model.view.step);
  if (!side.trace || side.trace->scenario.kernel != k.id || step >= int(side.trace->steps.size())) return s;
  const Step& st_ = side.trace->steps[std::size_t(step)];
  s.file = model.work.step_file(k, st_);
  s.probe_line = int(st_.line);
  const auto& lines = model.work.source(s.file).lines;
  if (!lines.empty()) s.lit = step_statement_lines(lines, s.probe_line);
  return s;
}

// A message's tooltip on a marked line.
void message_tooltip(const std::string& message) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
  ImGui::TextUnformatted(message.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// The cursor of the text being edited, as the text widget reports it every frame.
int editor_cursor_callback(ImGuiInputTextCallbackData* data) {
  if (data->EventFlag == ImGuiInputTextFlags_CallbackAlways) *static_cast<int*>(data->UserData) = data->CursorPos;
  return 0;
}

class CodeView final : public View {
 public:
  CodeView() : View(ViewId::code, "win.code") {}
  void draw(Model& model) override {
    // With compare on: A's source or B's (Ctrl+S saves the file of the side shown).
    if (model.work.compare) {
      for (int index = 0; index < 2; ++index) {
        const Side& s = index ? model.work.b : model.work.a;
        const std::string kernel = follows_file(s) ? std::filesystem::path(s.user.path).filename().string()
                                                   : (s.trace ? s.trace->scenario.kernel : s.scenario.kernel);
        if (index) ImGui::SameLine();
        const std::string label = std::string(index ? "B: " : "A: ") + kernel + (s.user.editor.dirty() ? " *" : "") +
                                  (index ? "##codeB" : "##codeA");
        if (ImGui::RadioButton(label.c_str(), model.view.memory.code_side == index))
          model.view.memory.code_side = index;
        tooltip_key("code.side.tip");
      }
    }
    Side& side = model.code_side();
    const int index = &side == &model.work.b ? 1 : 0;
    if (index != shown_side_) {
      shown_side_ = index;
      scrolled_to_line_ = -1;
      last_cursor_ = -1;
    }
    if (follows_file(side))
      draw_user_file(model, side, index);
    else
      draw_catalog_kernel(model, side, index);
  }

 private:
  int shown_side_ = 0;
  int scrolled_to_line_ = -1;  // the source line the view last scrolled to
  unsigned marks_shown_[2] = {~0u, ~0u};  // the run whose marked lines the editor last scrolled to, per side
  float notes_height_[2] = {0, 0};  // the notes' height last frame, per side (they take what they need)
  int last_cursor_ = -1;  // the editor's cursor last frame: the view follows it only when it moves
  unsigned last_revision_ = ~0u;
  bool was_active_ = false;  // the editor had the keys last frame
  ImGuiID scrolled_in_ = 0;  // the source's scrolling window last frame (a layout change makes a new one)

  // A catalog kernel (or a student's kernel no longer followed): its file read-only, the step's lines lit.
  void draw_catalog_kernel(Model& model, Side& side, int index) {
    const std::string kid = side.trace ? side.trace->scenario.kernel : side.scenario.kernel;
    const KernelRecord* k = find_kernel(kid);
    // A short pane (Present at x2) keeps its lines for the code: the title on one line, no line naming the file, and
    // the hardware counts' switch only where it is on.
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const bool short_pane = ImGui::GetContentRegionAvail().y < lh * 14;
    ImGui::PushTextWrapPos(0);
    const ImVec4 title_colour(0.6f, 0.8f, 1.0f, 1);
    if (k && short_pane)
      text_fitted(kernel_title(*k) + "  (" + kernel_sources(*k) + ")", ImGui::GetContentRegionAvail().x, &title_colour);
    else if (k)
      ImGui::TextColored(title_colour, "%s  (%s)", kernel_title(*k).c_str(), kernel_sources(*k).c_str());
    if (k) {
      // What the kernel teaches, under its title where the pane keeps 12 source lines below it; else in the title's
      // tooltip (a short pane shows the code, not a paragraph about it).
      const std::string teaches = kernel_teaches(*k);
      const float text_h = ImGui::CalcTextSize(teaches.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y;
      if (ImGui::GetContentRegionAvail().y - text_h >= lh * (4 + 12)) {
        text_wrapped(teaches);
      } else if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", wrapped(teaches, ImGui::GetFontSize() * 30).c_str());
      }
    }
    ImGui::PopTextWrapPos();
    ImGui::Separator();
    if (!k || k->source_file.empty()) {
      ImGui::TextDisabled("%s", tr("code.none"));
      return;
    }
    // The file of the current step's probe.step call: the kernel's own, or a helper it includes (the block
    // layer's steps are in kernels/block/block_reduce.cuh).
    const StepLines s = step_lines(model, side, *k);
    const std::string file = s.file.empty() ? k->source_file : s.file;
    if (model.work.source(file).lines.empty()) {
      ImGui::TextDisabled("%s", trf("code.missing", {file}).c_str());
      return;
    }
    const int line = s.lit.empty() ? 0 : s.lit.front();
    if (!short_pane) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextDisabled("%s", trf("code.file", {file, std::to_string(line)}).c_str());
      ImGui::PopTextWrapPos();
    }
    // The hardware's counts (A's scenario) per line of this file, in a gutter before the code.
    std::map<std::uint32_t, HwLine> hw_by_line;
    if (index == 0 && (!short_pane || model.view.show_hw))
      if (const HwCounts* hw = hw_toggle(model))
        for (const HwLine& l : hw_lines(*hw))
          if (l.file == file) hw_by_line[l.line] = l;
    // The access the bank grid shows (A's), where it was made in this file: underlined, so that the grid's
    // "s[tid + offset]" is found in the code.
    const std::optional<AccessSource> shown = shown_source(model, side, index, *k, file);
    // The line the lesson's beat points at (in the kernel's own file): marked, and scrolled to.
    const LessonBeat* beat = model.lesson.current();
    const int lesson_line = index == 0 && beat && beat->source_line > 0 && file == k->source_file && side.trace &&
                                    beat->a && beat->a->kernel == k->id
                                ? beat->source_line
                                : 0;
    draw_file(model, file, s.lit, lesson_line > 0 ? lesson_line : line, hw_by_line, shown, lesson_line);
  }

  // Where the access the bank grid shows (A's) was made, when that is in `file` of kernel `k`, which A's trace ran.
  static std::optional<AccessSource> shown_source(Model& model, const Side& side, int index, const KernelRecord& k,
                                                  const std::string& file) {
    if (index != 0 || !side.trace || side.trace->scenario.kernel != k.id) return std::nullopt;
    const WarpAccess* a = shown_access(model, *side.trace);
    if (!a) return std::nullopt;
    std::optional<AccessSource> src = access_source(*side.trace, *a, model.work.kernel_sources(k.source_file));
    return src && same_file(src->file, file) ? src : std::nullopt;
  }

  // The access the bank grid shows: A's focus block, step, warp and access as the grid clamps them (nullptr: none).
  static const WarpAccess* shown_access(const Model& model, const Trace& t) {
    if (t.focus.empty()) return nullptr;
    const FocusBlock& fb = t.focus[std::size_t(std::clamp(model.view.sel_focus, 0, int(t.focus.size()) - 1))];
    const int step = side_step(model.work.a, model.view.step);
    if (step < 0 || std::size_t(step) >= fb.steps.size() || fb.steps[std::size_t(step)].empty()) return nullptr;
    const auto& warps = fb.steps[std::size_t(step)];
    const WarpStep& ws = warps[std::size_t(std::clamp(model.view.sel_warp, 0, int(warps.size()) - 1))];
    if (ws.accesses.empty()) return nullptr;
    return &ws.accesses[std::size_t(std::clamp(model.view.sel_access, 0, int(ws.accesses.size()) - 1))];
  }

  // The file's lines read-only: the step's statements lit, and the hardware's counts in a gutter when given.
  void draw_file(Model& model, const std::string& file, const std::vector<int>& lit_lines, int line,
                 const std::map<std::uint32_t, HwLine>& hw_by_line, const std::optional<AccessSource>& shown = {},
                 int lesson_line = 0) {
    const auto& lines = model.work.source(file).lines;
    if (const ImGuiID id = ImGui::GetID("src"); id != scrolled_in_) {  // a new window: scrolled to the step again
      scrolled_in_ = id;
      scrolled_to_line_ = -1;
    }
    ImGui::BeginChild("src", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    if (ImFont* mono = code_font()) ImGui::PushFont(mono);
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // The hardware's warp-level executions of each line in a gutter before the code (the rest in a tooltip).
    const float gutter = hw_by_line.empty() ? 0 : ImGui::CalcTextSize("000.0M").x;
    for (int i = 0; i < int(lines.size()); ++i) {
      const bool lit = std::find(lit_lines.begin(), lit_lines.end(), i + 1) != lit_lines.end();
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (lit) dl->AddRectFilled(p, ImVec2(p.x + ImGui::GetContentRegionAvail().x + 2000, p.y + lh), kLitBg);
      if (i + 1 == lesson_line)
        dl->AddRect(p, ImVec2(p.x + ImGui::GetContentRegionAvail().x - 1, p.y + lh), ImGui::GetColorU32(kAmber), 0, 0,
                    std::max(2.0f, ImGui::GetFontSize() * 0.12f));
      if ((lit || i + 1 == lesson_line) && i + 1 == line && line != scrolled_to_line_) ImGui::SetScrollHereY(0.35f);
      ImGui::TextColored(ImVec4(0.5f, 0.5f, 0.5f, 1), "%4d", i + 1);
      if (gutter > 0) {
        ImGui::SameLine();
        const auto it = hw_by_line.find(std::uint32_t(i + 1));
        const std::string figure =
            it == hw_by_line.end() ? std::string() : fmt_compact(it->second.get(HwMetric::inst_executed));
        const float x = ImGui::GetCursorPosX();
        ImGui::SetCursorPosX(x + gutter - ImGui::CalcTextSize(figure.c_str()).x);
        const bool memory = it != hw_by_line.end() &&
                            (it->second.get(HwMetric::shared_wavefronts) || it->second.get(HwMetric::global_sectors));
        ImGui::TextColored(memory ? ImVec4(0.55f, 0.8f, 0.95f, 1) : ImVec4(0.45f, 0.55f, 0.6f, 1), "%s",
                           figure.c_str());
        if (it != hw_by_line.end() && ImGui::IsItemHovered()) {
          const HwLine& l = it->second;
          std::string figures = trf("hw.line", {fmt_u(l.get(HwMetric::inst_executed)), std::to_string(l.instructions)});
          const Side& side = model.code_side();  // (the side whose counts these are)
          if (const std::uint64_t wf = l.get(HwMetric::shared_wavefronts))
            figures.append("\n").append(
                trf("hw.line.wavefronts", {figure_text(model, side, FigureKind::shared, fmt_u(wf))}));
          if (const std::uint64_t sec = l.get(HwMetric::global_sectors))
            figures.append("\n").append(
                trf("hw.line.sectors", {figure_text(model, side, FigureKind::global, fmt_u(sec))}));
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
      const ImVec2 text_at = ImGui::GetCursorScreenPos();
      ImGui::TextUnformatted(lines[size_t(i)].c_str());
      if (shown && int(shown->line) == i + 1) underline_access(lines[size_t(i)], text_at, *shown);
    }
    if (code_font()) ImGui::PopFont();
    ImGui::EndChild();
    scrolled_to_line_ = line;
  }

  // The bank grid's access under its expression on the line drawn at `at` (the whole line where the expression is
  // not found in it), its words on hover.
  static void underline_access(const std::string& text, ImVec2 at, const AccessSource& shown) {
    // The expression's occurrence nearest where the trace says it starts (s[tid] = op(s[tid], ...) has two).
    std::size_t start = std::string::npos;
    for (std::size_t p = text.find(shown.expression); !shown.expression.empty() && p != std::string::npos;
         p = text.find(shown.expression, p + 1)) {
      auto distance = [&](std::size_t q) {
        return shown.start == std::string::npos ? 0 : q > shown.start ? q - shown.start : shown.start - q;
      };
      if (start == std::string::npos || distance(p) < distance(start)) start = p;
    }
    std::size_t length = shown.expression.size();
    if (start == std::string::npos) {
      start = std::min(text.find_first_not_of(' '), text.size());
      length = text.size() - start;
    }
    const float x0 = at.x + ImGui::CalcTextSize(text.c_str(), text.c_str() + start).x;
    const float x1 = x0 + ImGui::CalcTextSize(text.c_str() + start, text.c_str() + start + length).x;
    const float y = at.y + ImGui::GetTextLineHeight();
    const float thick = std::max(2.0f, ImGui::GetFontSize() * 0.12f);
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(x0, y - thick), ImVec2(x1, y), ImGui::GetColorU32(kAmber));
    if (ImGui::IsMouseHoveringRect(ImVec2(x0, at.y), ImVec2(x1, y))) ImGui::SetTooltip("%s", tr("code.access.tip"));
  }

  // A kernel file of the student's own: what it is and how its last run went, Save and the other actions, the
  // gallery's explanation when it came from there, its messages, and the editor.
  void draw_user_file(Model& model, Side& side, int index) {
    UserSource& u = side.user;
    SourceEditor& ed = u.editor;
    const std::string name = std::filesystem::path(u.path).filename().string();
    // The file and its state: unsaved edits (marked as editors mark them), running, or followed.
    ImGui::TextColored(ImVec4(0.6f, 0.8f, 1.0f, 1), "%s", name.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", u.path.c_str());
    const std::string state = ed.dirty()    ? tr("editor.modified")
                              : u.running() ? tr("editor.running")
                                            : tr("editor.saved");
    same_line_if_fits(state);
    ImGui::TextColored(ed.dirty() ? kAmber : u.running() ? ImVec4(0.55f, 0.8f, 1.0f, 1) : kGreen, "%s", state.c_str());
    tooltip_key(ed.dirty() ? "editor.modified.tip" : u.running() ? "editor.running.tip" : "editor.saved.tip");
    if (!u.running() && u.last_run_seconds > 0 && !ed.dirty()) {
      char secs[32];
      std::snprintf(secs, sizeof secs, u.last_run_seconds < 1 ? "%.2f" : "%.1f", u.last_run_seconds);
      const std::string ran = trf("editor.ran", {secs});
      same_line_if_fits(ran);
      ImGui::TextDisabled("%s", ran.c_str());
      tooltip_key("editor.ran.tip");
    }
    // Save (Ctrl+S), Revert, Run again, Close: one row while it fits, the buttons' own widths.
    ImGui::BeginDisabled(!ed.dirty());
    if (ImGui::Button(L("editor.save").c_str())) model.work.save_kernel_source(side);
    tooltip_key("editor.save.tip");
    ImGui::SameLine();
    if (ImGui::Button(L("editor.revert").c_str())) ed.take_file();
    tooltip_key("editor.revert.tip");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(u.running());
    if (ImGui::Button(L("editor.run").c_str())) model.work.request_run(side);
    tooltip_key("editor.run.tip");
    ImGui::EndDisabled();
    if (u.running()) {
      ImGui::SameLine();
      if (ImGui::Button(L("sc.cancel").c_str())) model.work.cancel_run(side);
      tooltip_key("editor.cancel.tip");
    }
    ImGui::SameLine();
    if (ImGui::Button(L("editor.close").c_str())) model.work.close_kernel_source(side);
    tooltip_key("editor.close.tip");
    if (!ed.error.empty()) text_wrapped(ed.error, &kRed);
    if (u.missing) text_wrapped(trf("editor.missing", {u.path}), &kAmber);
    // The file changed on disk while this editor has unsaved edits: which text wins.
    if (ed.conflict()) {
      text_wrapped(tr("editor.conflict"), &kAmber);
      if (ImGui::Button(L("editor.keep_mine").c_str())) ed.keep_mine();
      tooltip_key("editor.keep_mine.tip");
      ImGui::SameLine();
      if (ImGui::Button(L("editor.take_file").c_str())) ed.take_file();
      tooltip_key("editor.take_file.tip");
    }
    // The gallery's explanation, a wrong result, the messages: in a part that takes the room it needs up to 40 % of
    // the view (scrolling beyond), so that the editor keeps the rest at any size and scale.
    const bool mine = side.trace && side.trace->scenario.kernel == u.id;
    const bool wrong =
        mine && !side.trace->correct && !side.trace->fault && !kept_back(model, side, FigureKind::result);
    const bool fault = mine && side.trace->fault;
    if (u.gallery || wrong || fault || !u.errors.empty()) {
      const float most = ImGui::GetContentRegionAvail().y * 0.4f;
      ImGui::BeginChild("notes", ImVec2(0, notes_height_[index] > 0 ? std::min(notes_height_[index], most) : most),
                        false, ImGuiWindowFlags_HorizontalScrollbar);
      // A run that finished with a result other than the reference's, first: said here too, beside the file, with
      // the inputs that never reached the result (the elements a wrong sum lost, from the recorded data flow).
      if (wrong) {
        text_wrapped(result_text(*side.trace) + "  " + tr("sc.wrong"), &kRed);
        tooltip_key("sc.result.tip");
        lost_inputs(model, *side.trace);
      }
      if (fault) draw_fault(model, *side.trace, u);
      if (u.gallery) draw_gallery_note(*u.gallery);
      if (!u.errors.empty()) draw_messages(model, u);
      notes_height_[index] = ImGui::GetCursorPosY() + ImGui::GetStyle().ItemSpacing.y;
      ImGui::EndChild();
      ImGui::Separator();
    }
    // The trace the views show and this file: the step's lines are lit only when they are this file's.
    const KernelRecord* k = u.id.empty() ? nullptr : find_kernel(u.id);
    StepLines s;
    if (k) s = step_lines(model, side, *k);
    const bool here = !s.file.empty() && same_file(s.file, u.path);
    ImGui::PushTextWrapPos(0);
    if (!side.trace || !k || side.trace->scenario.kernel != u.id) {
      if (u.errors.empty())  // (a run that failed says why above)
        ImGui::TextDisabled("%s", tr(u.running() ? "editor.no_trace_yet" : "editor.not_traced"));
    } else if (here)
      ImGui::TextDisabled("%s", trf("code.file", {name, std::to_string(s.lit.empty() ? 0 : s.lit.front())}).c_str());
    else if (!s.file.empty())
      ImGui::TextDisabled(
          "%s", trf("editor.step_elsewhere", {s.file, std::to_string(s.lit.empty() ? 0 : s.lit.front())}).c_str());
    ImGui::PopTextWrapPos();
    // The bank grid's access, where it was made in this file (underlined).
    const std::optional<AccessSource> shown = k ? shown_source(model, side, index, *k, u.path) : std::nullopt;
    draw_editor(model, side, index, here ? s.lit : std::vector<int>{}, shown);
  }

  // A trace that ends at a fault: where the kernel stopped, each marked line with what happened there (a click goes
  // to it), then the whole report in the UI's language.
  static void draw_fault(Model& model, const Trace& t, const UserSource& u) {
    text_wrapped(fault_summary(t), &kRed);
    for (const auto& [line, what] : u.marks) {
      text_wrapped(trf("editor.line_says", {std::to_string(line), what}), &kAmber);
      if (ImGui::IsItemHovered()) {
        ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
        ImGui::SetTooltip("%s", trf("editor.goto", {std::to_string(line)}).c_str());
        if (ImGui::IsMouseClicked(0)) model.view.memory.code_goto = line;
      }
    }
    // Another fault's report is the emulator's own text, which its marked lines already quote.
    if (t.fault->kind != FaultKind::other || u.marks.empty())
      text_wrapped(fault_report(t), &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  }

  // The gallery entry the file came from: its title, the failure it is documented to show, the explanation.
  static void draw_gallery_note(const GalleryEntry& e) {
    ImGui::Separator();
    const std::string& lang = i18n_lang();
    const ImVec4 blue(0.6f, 0.8f, 1.0f, 1);
    text_wrapped(trf("gallery.note", {text_in(e.title, lang)}), &blue);
    const std::string expect = trf("gallery.expects", {tr(("gallery.expect." + e.expect).c_str())});
    text_wrapped(expect, &kAmber);
    tooltip_key(("def.expect." + e.expect).c_str());
    const std::string why = text_in(e.explanation, lang);
    if (!why.empty()) text_wrapped(why);
    ImGui::Separator();
  }

  // The compiler's or the emulator's messages, one per row: a message wrapped to the view, the source excerpts
  // under it as the compiler laid them out (their carets line up); a message naming a line of the file scrolls the
  // editor there when clicked.
  static void draw_messages(Model& model, const UserSource& u) {
    text_wrapped(trf("source.failed", {u.path}), &kRed);
    if (ImFont* mono = code_font()) ImGui::PushFont(mono);
    std::size_t p = 0;
    while (p < u.errors.size()) {
      const std::size_t e = u.errors.find('\n', p);
      const std::string line = u.errors.substr(p, e == std::string::npos ? std::string::npos : e - p);
      p = e == std::string::npos ? u.errors.size() : e + 1;
      const int target = message_line(line, u.path);
      if (target <= 0 && line.rfind("redlab: ", 0) != 0) {
        ImGui::TextUnformatted(line.c_str());
        continue;
      }
      text_wrapped(line, target > 0 ? &kRed : nullptr);
      if (target > 0 && ImGui::IsItemHovered()) {
        ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
        ImGui::SetTooltip("%s", trf("editor.goto", {std::to_string(target)}).c_str());
        if (ImGui::IsMouseClicked(0)) model.view.memory.code_goto = target;
      }
    }
    if (code_font()) ImGui::PopFont();
  }

  // The editor: a text widget as tall and wide as the text inside a child window that scrolls (so the lit and the
  // marked lines drawn behind the text stay on their lines), following the cursor as it moves; the line numbers in a
  // gutter beside it that scrolls with it up and down but not sideways. Undo and redo are the text widget's (Ctrl+Z,
  // Ctrl+Y).
  void draw_editor(Model& model, Side& side, int index, const std::vector<int>& lit,
                   const std::optional<AccessSource>& shown) {
    UserSource& u = side.user;
    SourceEditor& ed = u.editor;
    // A window of its own after a layout change (a pane of tabs instead of a pane, say) starts at the top: it is
    // scrolled to where to look again.
    if (const ImGuiID id = ImGui::GetID("editor"); id != scrolled_in_) {
      scrolled_in_ = id;
      marks_shown_[index] = ~0u;
      scrolled_to_line_ = -1;
    }
    ImFont* mono = code_font();
    if (mono) ImGui::PushFont(mono);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float lh = ImGui::GetFontSize();  // the text widget's line step
    int lines = 1;
    float longest = 0;
    for (std::size_t p = 0; p <= ed.text.size();) {
      const std::size_t e = std::min(ed.text.find('\n', p), ed.text.size());
      longest = std::max(longest, ImGui::CalcTextSize(ed.text.data() + p, ed.text.data() + e).x);
      if (e == ed.text.size()) break;
      ++lines;
      p = e + 1;
    }
    const float digit = ImGui::CalcTextSize("0").x;
    const float gutter = digit * (lines >= 1000 ? 5.5f : 4.5f);
    const ImVec2 start = ImGui::GetCursorScreenPos(), room = ImGui::GetContentRegionAvail();
    ImGui::SetCursorScreenPos(ImVec2(start.x + gutter, start.y));
    ImGui::BeginChild("editor", ImVec2(room.x - gutter, room.y), true, ImGuiWindowFlags_HorizontalScrollbar);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float top = origin.y + style.FramePadding.y;  // the first line's top
    // The room inside the scrollbars: what shows of the text at one scroll position.
    const float view_w = ImGui::GetContentRegionAvail().x, view_h = ImGui::GetContentRegionAvail().y;
    const float width = std::max(view_w, longest + style.FramePadding.x * 2 + digit * 8);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // Behind the text: the marked lines (red, their message on hover), and the step's other lines (green): a line
    // both marked and lit (a fault's, at its step) stays red.
    auto rows = [&](ImDrawList* list, float x0, float x1) {
      for (const auto& [l, message] : u.marks)
        if (l >= 1 && l <= lines)
          list->AddRectFilled(ImVec2(x0, top + float(l - 1) * lh), ImVec2(x1, top + float(l) * lh), kMarkBg);
      for (int l : lit)
        if (l >= 1 && l <= lines && !u.marks.count(l))
          list->AddRectFilled(ImVec2(x0, top + float(l - 1) * lh), ImVec2(x1, top + float(l) * lh), kLitBg);
    };
    rows(dl, origin.x - style.WindowPadding.x, origin.x + width + style.WindowPadding.x);
    if (shown && int(shown->line) <= lines) {  // the bank grid's access under its expression
      std::size_t p = 0;
      for (std::uint32_t l = 1; l < shown->line; ++l) p = ed.text.find('\n', p) + 1;
      const std::string text = ed.text.substr(p, std::min(ed.text.find('\n', p), ed.text.size()) - p);
      underline_access(text, ImVec2(origin.x + style.FramePadding.x, top + float(shown->line - 1) * lh), *shown);
    }
    // The text, over a transparent frame so that what is drawn behind it shows. A buffer replaced from outside
    // (loaded again, the file's text taken) gets a widget of its own: ImGui keeps its own copy of text being edited.
    ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0, 0, 0, 0));
    ImGui::PushID(int(ed.revision()));
    int cursor = -1;
    // Esc leaves the editor. ImGui 1.86's text widget also puts back the text it had when it took the keys, which
    // would drop every edit since: the text before this frame is kept to be restored.
    const bool escape = was_active_ && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
    const std::string before_escape = escape ? ed.text : std::string();
    if (ImGui::InputTextMultiline("##text", &ed.text, ImVec2(width, float(lines + 1) * lh + style.FramePadding.y * 2),
                                  ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackAlways,
                                  editor_cursor_callback, &cursor))
      model.work.edited(side);
    const bool active = ImGui::IsItemActive();
    if (escape && !active && ed.text != before_escape) {
      ed.text = before_escape;
      model.work.edited(side);
    }
    was_active_ = active;
    ImGui::PopID();
    ImGui::PopStyleColor();
    // The cursor moved (typing, arrows, a click): keep its line and column in view.
    if (active && cursor >= 0 && cursor != last_cursor_ && last_revision_ == ed.revision()) {
      const std::size_t at = std::min(std::size_t(cursor), ed.text.size());
      const std::size_t line_start = at == 0 ? 0 : ed.text.rfind('\n', at - 1) + 1;
      const int line = int(std::count(ed.text.begin(), ed.text.begin() + std::ptrdiff_t(at), '\n'));
      const float y = style.FramePadding.y + float(line) * lh;
      const float x = style.FramePadding.x + ImGui::CalcTextSize(ed.text.data() + line_start, ed.text.data() + at).x;
      if (y < ImGui::GetScrollY() + lh)
        ImGui::SetScrollY(std::max(0.0f, y - lh));
      else if (y + lh * 2 > ImGui::GetScrollY() + view_h)
        ImGui::SetScrollY(y + lh * 2 - view_h);
      if (x < ImGui::GetScrollX() + digit * 2)
        ImGui::SetScrollX(std::max(0.0f, x - digit * 6));
      else if (x + digit * 2 > ImGui::GetScrollX() + view_w)
        ImGui::SetScrollX(x + digit * 6 - view_w);
    }
    if (active) last_cursor_ = cursor;
    last_revision_ = ed.revision();
    // Where to look: a message clicked, else the first marked line of a run that failed (once per run), else the
    // current step's first lit line when the step changes.
    // (A line shown this way starts at the left edge: the view does not stay scrolled sideways from a long line.)
    auto scroll_to = [&](int l) {
      ImGui::SetScrollY(std::max(0.0f, style.FramePadding.y + float(l - 1) * lh - view_h * 0.35f));
      ImGui::SetScrollX(0.0f);
    };
    if (model.view.memory.code_goto > 0) {
      scroll_to(model.view.memory.code_goto);
      model.view.memory.code_goto = 0;
    } else if (!u.marks.empty() && marks_shown_[index] != u.runs && !u.running()) {
      scroll_to(u.marks.begin()->first);
      marks_shown_[index] = u.runs;
    } else if (!lit.empty() && lit.front() != scrolled_to_line_ && !active) {
      scroll_to(lit.front());
    }
    scrolled_to_line_ = lit.empty() ? -1 : lit.front();
    // The part of the window the text shows in (inside the border, above a horizontal scrollbar).
    const float shown_top = ImGui::GetWindowPos().y + style.ChildBorderSize;
    const float shown_bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() - style.ChildBorderSize -
                               (ImGui::GetScrollMaxX() > 0 ? style.ScrollbarSize : 0);
    ImGui::EndChild();
    // The gutter: the line numbers (only those in view), the lit and marked rows continued, a marked line's message
    // on hover (over its number or its text).
    ImGui::SetCursorScreenPos(start);
    ImGui::BeginChild("gutter", ImVec2(gutter, room.y), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImDrawList* gl = ImGui::GetWindowDrawList();
    gl->PushClipRect(ImVec2(start.x, shown_top), ImVec2(start.x + gutter, shown_bottom), true);
    rows(gl, start.x, start.x + gutter);
    const int first = std::max(1, int((shown_top - top) / lh));
    const int last = std::min(lines, int((shown_bottom - top) / lh) + 1);
    char number[16];
    for (int l = first; l <= last; ++l) {
      std::snprintf(number, sizeof number, "%d", l);
      const float w = ImGui::CalcTextSize(number).x;
      gl->AddText(ImVec2(start.x + gutter - digit - w, top + float(l - 1) * lh),
                  u.marks.count(l) ? IM_COL32(255, 150, 140, 255) : IM_COL32(128, 128, 128, 255), number);
    }
    gl->PopClipRect();
    ImGui::EndChild();
    if (mono) ImGui::PopFont();
    const float right = start.x + room.x;
    if (ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows))
      for (const auto& [l, message] : u.marks) {
        const float y = top + float(l - 1) * lh;
        if (y >= shown_top - lh && y < shown_bottom &&
            ImGui::IsMouseHoveringRect(ImVec2(start.x, std::max(y, shown_top)),
                                       ImVec2(right, std::min(y + lh, shown_bottom))))
          message_tooltip(message);
      }
  }
};
}  // namespace

const RegisterView<CodeView> code_view(90);

}  // namespace redlab::gui
