#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "model/i18n.h"
#include "model/tree_model.h"
#include "model/text_wrap.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

std::string fmt_u(std::uint64_t v) {
  std::string s = std::to_string(v), o;
  int n = 0;
  for (auto it = s.rbegin(); it != s.rend(); ++it) {
    if (n && n % 3 == 0) o += ',';
    o += *it;
    ++n;
  }
  return {o.rbegin(), o.rend()};
}
std::string fmt_pct(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f %%", v * 100.0);
  return b;
}
bool kept_back(const Model& model, const Side& side, FigureKind k) {
  return lesson_hides_kind(model, &side == &model.work.b ? SideId::b : SideId::a, k);
}
std::string figure_text(const Model& model, const Side& side, FigureKind k, const std::string& text) {
  return kept_back(model, side, k) ? "?" : text;
}
std::string wrapped(const std::string& s, float width) {
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  return wrap_text(s, std::max(width, size),
                   [&](const char* b, const char* e) { return font->CalcTextSizeA(size, FLT_MAX, 0, b, e).x; });
}
void text_wrapped(const std::string& s, const ImVec4* colour, float width) {
  const std::string w = wrapped(s, width > 0 ? width : ImGui::GetContentRegionAvail().x);
  if (colour) ImGui::PushStyleColor(ImGuiCol_Text, *colour);
  ImGui::TextUnformatted(w.c_str());
  if (colour) ImGui::PopStyleColor();
}

void lost_inputs(Model& model, const Trace& t) {
  static const ImVec4 amber(1.0f, 0.75f, 0.3f, 1);
  for (const std::string& line : lost_input_lines(t, model.work.input_reach_of(t))) {
    text_wrapped(line, &amber);
    tooltip_key("code.lost.tip");
  }
}
std::string fit_text(const std::string& s, float width) {
  if (ImGui::CalcTextSize(s.c_str()).x <= width) return s;
  const float room = width - ImGui::CalcTextSize("...").x;
  std::size_t end = s.size();
  while (end > 0 && ImGui::CalcTextSize(s.c_str(), s.c_str() + end).x > room) {
    --end;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;  // whole UTF-8 characters
  }
  return s.substr(0, end) + "...";
}
// Text on one line in at most `width` pixels: cut with "..." where longer, the whole text then in a tooltip.
void text_fitted(const std::string& s, float width, const ImVec4* colour) {
  const std::string shown = fit_text(s, width);
  if (colour)
    ImGui::TextColored(*colour, "%s", shown.c_str());
  else
    ImGui::TextDisabled("%s", shown.c_str());
  if (shown != s && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
    ImGui::TextUnformatted(s.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

bool begin_combo_fitted(const char* label, const std::string& preview, int flags) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float room = ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - style.FramePadding.x * 2;
  const std::string shown = fit_text(preview, std::max(room, ImGui::GetFontSize()));
  const bool open = ImGui::BeginCombo(label, shown.c_str(), flags);
  if (!open && shown != preview && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", preview.c_str());
  return open;
}
void same_line_if_fits(const std::string& text) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(text.c_str()).x) ImGui::NewLine();
}
float buttons_width(std::initializer_list<std::string> labels) {
  const ImGuiStyle& style = ImGui::GetStyle();
  float w = 0;
  for (const std::string& l : labels)
    w += ImGui::CalcTextSize(l.c_str(), nullptr, true).x + style.FramePadding.x * 2 + style.ItemSpacing.x;
  return w;
}
void tooltip_key(const char* key) {
  if (ImGui::IsItemHovered()) {
    const char* t = tr(key);
    if (t != key && *t) {
      ImGui::BeginTooltip();
      text_wrapped(t, nullptr, ImGui::GetFontSize() * 30);
      ImGui::EndTooltip();
    }
  }
}
void help_marker(Model& model, const char* key) {
  ImGui::TextDisabled("(?)");
  tooltip_key(key);
  // A (?) leads on to the glossary (the concept its text names first, else the glossary's start).
  if (ImGui::IsItemHovered()) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  if (ImGui::IsItemClicked()) {
    const std::vector<std::string> named = glossary_concepts_in(tr(key));
    open_glossary(model, named.empty() ? std::string() : named.front());
  }
}

bool key_pressed(const Model& model, Key key, bool repeats, bool ctrl) {
  for (const KeyPress& k : model.view.keys)
    if (k.key == key && (repeats || !k.repeat) && (!ctrl || k.ctrl)) return true;
  return false;
}

void handle_step_keys(Model& model) {
  const ImGuiIO& io = ImGui::GetIO();
  auto pressed = [&](Key key, bool repeats = false, bool ctrl = false) {
    return key_pressed(model, key, repeats, ctrl);
  };
  if (pressed(Key::f11)) model.view.fullscreen = !model.view.fullscreen;
  // F5: run the scenario as its form stands (A, and B when comparing), asking first as Run does.
  if (pressed(Key::f5) && !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) {
    run_or_ask(model, model.work.a);
    if (model.work.compare) run_or_ask(model, model.work.b);
  }
  if (pressed(Key::f1)) model.view.show_help = !model.view.show_help;
  if (pressed(Key::q, false, true)) model.view.quit = true;
  // Esc: cancel the runs in progress (a text field or a dialog takes Esc first, to leave it).
  if (pressed(Key::escape) && !io.WantTextInput && !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId))
    for (Side* s : {&model.work.a, &model.work.b}) model.work.cancel_run(*s);
  // Page Down / Page Up (a presenter's remote sends them): the open lesson's next and previous beat, also from its
  // answer field (which has no use for them).
  if (model.lesson.open() && (!io.WantTextInput || model.lesson.answering)) {
    if (pressed(Key::page_down)) lesson_show(model, model.lesson.beat + 1);
    if (pressed(Key::page_up)) lesson_show(model, model.lesson.beat - 1);
  }
  if (io.WantTextInput) return;
  if (pressed(Key::space)) model.view.playing = !model.view.playing;
  for (const KeyPress& k : model.view.keys) {  // every press and repeat of an arrow is a step
    if (k.key == Key::right) {
      model.view.playing = false;
      model.set_step(model.view.step + 1);
    }
    if (k.key == Key::left) {
      model.view.playing = false;
      model.set_step(model.view.step - 1);
    }
  }
  // Without a lesson, the lecture playlist's next and previous scenario.
  if (!model.lesson.open() && pressed(Key::page_down)) playlist_show(model, model.work.playlist.current + 1);
  if (!model.lesson.open() && pressed(Key::page_up)) playlist_show(model, std::max(0, model.work.playlist.current - 1));
  if (pressed(Key::home)) {
    model.view.playing = false;
    model.set_step(0, false);
  }
  if (pressed(Key::end)) {
    model.view.playing = false;
    model.set_step(model.max_step(), false);
  }
}

void playlist_show(Model& model, int index) {
  if (!model.work.playlist_go(index)) return;
  model.view.playing = false;
  model.set_step(0, false);
  run_or_ask(model, model.work.a);
}

namespace {
// Present's line of key figures under the controls; not while a lesson is open in a short window (under 450 scaled
// px: 1280x720 at x2 leaves 360), where its question and narration need the line more.
bool shows_key_figures(const Model& model) {
  return model.view.layout == LayoutKind::present &&
         !(model.lesson.open() && ImGui::GetMainViewport()->Size.y < 450 * model.view.ui_scale);
}
}  // namespace

float controls_height(const Model& model) {
  const float h = ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().WindowPadding.y * 2;
  return shows_key_figures(model) ? h + ImGui::GetTextLineHeightWithSpacing() : h;
}

namespace {
// Present: the current step's key figures in one line under the controls, for the room to read.
void key_figures(const Model& model) {
  if (!model.work.a.trace || model.work.a.trace->steps.empty()) return;
  const int s = side_step(model.work.a, model.view.step);
  const StepStats& x = model.work.a.trace->steps[std::size_t(s)].stats;
  const std::uint64_t smem_wf = x.smem_load_wavefronts + x.smem_store_wavefronts;
  const std::uint64_t smem_ideal = x.smem_load_ideal + x.smem_store_ideal;
  // (A figure a lesson keeps back reads "?": the room predicts it first.)
  auto shown = [&](FigureKind k, std::uint64_t v) { return figure_text(model, model.work.a, k, fmt_u(v)); };
  const std::string figures =
      trf("ctl.figures", {shown(FigureKind::lanes, x.active_threads), shown(FigureKind::lanes, x.active_warps),
                          shown(FigureKind::lanes, x.divergent_warps), shown(FigureKind::shared, smem_wf),
                          shown(FigureKind::shared, smem_ideal),
                          shown(FigureKind::global, x.gmem_load_sectors + x.gmem_store_sectors)});
  // The whole line on the strip: in a smaller type where it is wider (down to 3/4), cut with "..." only beyond that.
  const float room = ImGui::GetContentRegionAvail().x, natural = ImGui::CalcTextSize(figures.c_str()).x;
  const float scale = natural > room ? std::max(0.75f, room / natural) : 1.0f;
  ImGui::SetWindowFontScale(scale);
  ImGui::TextUnformatted(fit_text(figures, room).c_str());
  ImGui::SetWindowFontScale(1.0f);
  tooltip_key("ctl.figures.tip");
}
}  // namespace

void draw_controls(Model& model) {
  // A bar under the menu: the step controls every view follows, at the bars' scale.
  ChromeStyle bars;
  const float h = controls_height(model);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x, vp->Pos.y + ImGui::GetFrameHeight()));  // under the menu bar
  ImGui::SetNextWindowSize(ImVec2(vp->Size.x, h));
  ImGui::Begin("##controls", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  const int last = model.max_step();
  if (ImGui::Button("|<")) {
    model.view.playing = false;
    model.set_step(0, false);
  }
  tooltip_key("ctl.first.tip");
  ImGui::SameLine();
  if (ImGui::Button("<")) {
    model.view.playing = false;
    model.set_step(model.view.step - 1);
  }
  tooltip_key("ctl.back.tip");
  ImGui::SameLine();
  if (ImGui::Button(model.view.playing ? L("ctl.pause").c_str() : L("ctl.play").c_str(),
                    ImVec2(ImGui::GetFontSize() * 5, 0))) {
    if (!model.view.playing && model.view.step >= last) model.set_step(0, false);
    model.view.playing = !model.view.playing;
  }
  tooltip_key("ctl.play.tip");
  ImGui::SameLine();
  if (ImGui::Button(">")) {
    model.view.playing = false;
    model.set_step(model.view.step + 1);
  }
  tooltip_key("ctl.fwd.tip");
  ImGui::SameLine();
  if (ImGui::Button(">|")) {
    model.view.playing = false;
    model.set_step(last, false);
  }
  tooltip_key("ctl.last.tip");
  ImGui::SameLine();
  int s = model.view.step;
  // The scrubber shows the counter as text (each trace's own steps, from 1), not its 0-based position.
  std::string fmt = model.step_counter();
  for (std::size_t at = fmt.find('%'); at != std::string::npos; at = fmt.find('%', at + 2)) fmt.insert(at, "%");
  // The scrubber and the speed give way on a narrow window (presentation scale) so the step's name still shows.
  const float em = ImGui::GetFontSize();
  const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(tr("ctl.speed")).x - 20 * em;
  // (Never narrower than its counter: "step A 3/10 · B 3/10" cut to "step A 3/10 · E" reads as nonsense.)
  const float counter_w =
      ImGui::CalcTextSize(model.step_counter().c_str()).x + ImGui::GetStyle().FramePadding.x * 2 + em * 0.5f;
  const float scrub_w = std::max(std::clamp(room * 0.66f, 6 * em, 16 * em), counter_w);
  const float speed_w = std::clamp(room * 0.34f, 4 * em, 8 * em);
  // The handles are a thin, see-through bar under the text: the text they sit on stays readable.
  ImGui::PushStyleVar(ImGuiStyleVar_GrabMinSize, std::max(4.0f, 0.35f * em));
  ImGui::PushStyleColor(ImGuiCol_SliderGrab, ImVec4(0.35f, 0.6f, 1.0f, 0.45f));
  ImGui::PushStyleColor(ImGuiCol_SliderGrabActive, ImVec4(0.45f, 0.7f, 1.0f, 0.6f));
  ImGui::SetNextItemWidth(scrub_w);
  if (ImGui::SliderInt("##scrub", &s, 0, last, fmt.c_str())) model.set_step(s, false);
  tooltip_key("ctl.scrub.tip");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(speed_w);
  ImGui::SliderFloat(L("ctl.speed").c_str(), &model.view.speed, 0.25f, 8.0f, "%.2f /s", ImGuiSliderFlags_Logarithmic);
  tooltip_key("ctl.speed.tip");
  ImGui::PopStyleColor(2);
  ImGui::PopStyleVar();
  if (model.work.a.trace && model.view.step < int(model.work.a.trace->steps.size())) {
    ImGui::SameLine();
    ImGui::Text("%s", step_name(*model.work.a.trace, unsigned(model.view.step)).c_str());
    const Step& stp = model.work.a.trace->steps[size_t(model.view.step)];
    const KernelRecord* k = find_kernel(model.work.a.trace->scenario.kernel);
    const int line =
        k && !k->source_file.empty()
            ? step_statement_lines(model.work.source(model.work.step_file(*k, stp)).lines, int(stp.line)).front()
            : int(stp.line);
    ImGui::SameLine();
    ImGui::TextDisabled("%s", trf("ctl.line", {std::to_string(line)}).c_str());
  }
  if (shows_key_figures(model)) key_figures(model);
  ImGui::End();
}

}  // namespace redlab::gui
