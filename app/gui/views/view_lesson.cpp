// The lesson panel (model/lesson_player.h): the lesson's title, beat k of N with Previous and Next (Page Up and Page
// Down), the beat's narration, and its question: an answer typed and checked against the trace, or revealed by the
// lecturer; then what the trace says and why. It shows while a lesson is open, in a column of its own (layout.h).
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "core/stats_json.h"
#include "model/i18n.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {

const ImVec4 kRight(0.4f, 0.85f, 0.4f, 1), kWrong(1.0f, 0.55f, 0.45f, 1), kAsk(1.0f, 0.8f, 0.35f, 1),
    kTitle(0.6f, 0.8f, 1.0f, 1);

// "same" in the UI's language; A and B and numbers as they are.
std::string answer_words(const std::string& answer) { return answer == "same" ? tr("lesson.same") : answer; }

class LessonView : public View {
 public:
  LessonView() : View(ViewId::lesson, "win.lesson") {}

  bool applies(const Model& model) const override { return model.lesson.open(); }

  void draw(Model& model) override {
    LessonPlayer& p = model.lesson;
    const LessonBeat* b = p.current();
    if (!b) return;
    const bool zh = model.view.lang == "zh_CN";
    const int beats = int(p.lesson.beats.size());
    // Where the panel is too short for all of it (a projector at x2), the question stays in view under the narration,
    // which scrolls in the room the question leaves: a class reads what it is asked, and the narration's start. The
    // title goes to the counter's tooltip and Previous and Next become arrows. (The heights are last frame's, each as
    // drawn in full on this beat: ImGui lays out as it draws, and the short form must not bring the full one back.)
    const float panel_room = ImGui::GetContentRegionAvail().y, line = ImGui::GetTextLineHeightWithSpacing();
    if (measured_beat_ != p.beat) {
      measured_beat_ = p.beat;
      ask_full_height_ = 0;
    }
    short_panel_ = b->question && ask_full_height_ > 0 && header_height_ + say_height_ + ask_full_height_ > panel_room;
    const float header_top = ImGui::GetCursorPosY();
    const std::string title_tip = p.lesson.title.in(zh) + "\n" + trf("lesson.note", {p.lesson.note});
    // The title on one line (the whole of it and its course note on hover): the beat's words get the room.
    if (!short_panel_) {
      text_fitted(p.lesson.title.in(zh), ImGui::GetContentRegionAvail().x, &kTitle);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", title_tip.c_str());
    }
    {
      ChromeStyle bars;  // the beat's controls at the bars' scale, as the step controls are
      const std::string counter = trf("lesson.beat", {std::to_string(p.beat + 1), std::to_string(beats)});
      ImGui::TextUnformatted(counter.c_str());
      if (short_panel_ && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", title_tip.c_str());
      const std::string prev = short_panel_ ? "<##prev" : L("lesson.prev"),
                        next = short_panel_ ? ">##next" : L("lesson.next");
      // The buttons beside the counter where they fit, else under it.
      if (ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(counter.c_str()).x >= buttons_width({prev, next}))
        ImGui::SameLine();
      ImGui::BeginDisabled(p.beat == 0);
      if (ImGui::SmallButton(prev.c_str())) lesson_show(model, p.beat - 1);
      ImGui::EndDisabled();
      tooltip_key("lesson.prev.tip");
      ImGui::SameLine();
      ImGui::BeginDisabled(p.beat + 1 >= beats);
      if (ImGui::SmallButton(next.c_str())) lesson_show(model, p.beat + 1);
      ImGui::EndDisabled();
      tooltip_key("lesson.next.tip");
    }
    ImGui::Separator();
    if (!short_panel_) header_height_ = ImGui::GetCursorPosY() - header_top;
    const LessonBeatTexts texts = lesson_current_texts(model);
    // The narration, and the lesson's exercises after its last beat (or the one the student works on, whatever the
    // beat).
    auto narration = [&] {
      if (!p.message.empty()) text_wrapped(p.message, &kWrong);
      text_wrapped(texts.say.in(zh));
      draw_terms(model, texts.say.in(zh));
      if (p.pending) text_wrapped(tr("lesson.waiting"), &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
      if (!p.lesson.exercises.empty() && (p.beat + 1 == beats || !p.exercise.empty())) draw_exercises(model, zh);
    };
    if (short_panel_) {
      const float room = ImGui::GetContentRegionAvail().y;
      // (As tall as the narration where it fits, the question right under it.)
      ImGui::BeginChild("narration", ImVec2(0, std::max(std::min(room - ask_height_, say_height_), line * 3)));
      narration();
      say_height_ = ImGui::GetCursorPosY();
      ImGui::EndChild();
    } else {
      const float top = ImGui::GetCursorPosY();
      narration();
      say_height_ = ImGui::GetCursorPosY() - top;
    }
    if (!b->question) return;
    const float top = ImGui::GetCursorPosY();
    draw_question(model, *b, texts, zh);
    ask_height_ = ImGui::GetCursorPosY() - top;
    if (!short_panel_) ask_full_height_ = ask_height_;
  }

 private:
  // The glossary's terms the narration uses, each a button that opens the glossary there.
  static void draw_terms(Model& model, const std::string& text) {
    const std::vector<std::string> named = glossary_concepts_in(text);
    if (named.empty()) return;
    ChromeStyle bars;
    ImGui::TextDisabled("%s", tr("lesson.terms"));
    for (const std::string& c : named) {
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(glossary_term(c).c_str()).x + ImGui::GetFontSize())
        ImGui::NewLine();
      if (ImGui::SmallButton((glossary_term(c) + "##term_" + c).c_str())) open_glossary(model, c);
    }
  }

  void draw_exercises(Model& model, bool zh) {
    LessonPlayer& p = model.lesson;
    for (const LessonExercise& e : p.lesson.exercises) {
      const bool working = p.exercise == e.name;
      if (!working && !p.exercise.empty()) continue;
      ImGui::Spacing();
      ImGui::Separator();
      text_wrapped(trf("lesson.exercise", {e.title.in(zh)}), &kTitle);
      text_wrapped(e.task.in(zh));
      ImGui::PushID(e.name.c_str());
      if (!working) {
        if (ImGui::Button(L("lesson.exercise.start").c_str())) start_exercise(model, e.name);
        tooltip_key("lesson.exercise.start.tip");
        ImGui::PopID();
        continue;
      }
      ImGui::PopID();
      ImGui::TextDisabled("%s", trf("lesson.exercise.file", {p.exercise_file}).c_str());
      const auto outcomes = exercise_outcomes(model);
      if (!outcomes) {
        text_wrapped(tr("lesson.exercise.waiting"), &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        continue;
      }
      for (const ExerciseOutcome& o : *outcomes)
        text_wrapped(std::string(o.skipped ? tr("lesson.exercise.skip")
                                 : o.pass  ? tr("lesson.exercise.pass")
                                           : tr("lesson.exercise.fail")) +
                         " " + o.text,
                     o.skipped ? &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]
                     : o.pass  ? &kRight
                               : &kWrong);
    }
  }

  float say_height_ = 0, ask_height_ = 0;  // the narration's and the question's heights, as last drawn
  float ask_full_height_ = 0;  // the question's, drawn in full on this beat (0: not yet)
  float header_height_ = 0;  // the title, counter and buttons, drawn in full
  int measured_beat_ = -1;  // the beat they were measured on
  bool short_panel_ = false;  // the narration scrolls above the question (a short panel)

  // The answer field asks for the keys on every beat with a question until it has them: a focus request made in a
  // frame where the panel's window is new (the first frame after launch, a layout entered or left: the panes are
  // other windows then) is lost, so it is made again each frame until the field is active; and for a second after,
  // it asks again when they go elsewhere (a view the beat brings to the front of its pane of tabs takes the pane's
  // window's focus a frame or two after the field had it). A click elsewhere or another text field in use ends the
  // asking: the student chose where the keys go.
  int focused_beat_ = -1;  // the beat whose field asked for the keys
  bool want_focus_ = false;  // it has not had them yet, or not for long
  double keep_asking_until_ = 0;  // (ImGui's clock) until when it asks again after it had them
  bool was_active_ = false;  // it had the keys last frame
  LayoutKind focused_layout_ = LayoutKind::study;
  bool focus_scroll_ = false;  // the frame after it took them: the panel scrolls to the field

  void draw_question(Model& model, const LessonBeat& b, const LessonBeatTexts& texts, bool zh) {
    LessonPlayer& p = model.lesson;
    const LessonQuestion& q = *b.question;
    ImGui::Spacing();
    ImGui::Separator();
    const float top = ImGui::GetCursorScreenPos().y;
    // Whether the question, down to `bottom`, is inside the panel's visible part (the clip rectangle of its window).
    auto in_view = [&](float bottom) {
      const float x = ImGui::GetCursorScreenPos().x;
      model.view.lesson_question_in_view = ImGui::IsRectVisible(ImVec2(x, top), ImVec2(x + 1, top + 1)) &&
                                           ImGui::IsRectVisible(ImVec2(x, bottom - 1), ImVec2(x + 1, bottom));
    };
    text_wrapped(texts.ask.in(zh), &kAsk);
    // What the figure is (its definition, as every view's (?) says it).
    const char* def = definition(q.figure);
    auto definition_tip = [&] {
      if (!def || !*def || !ImGui::IsItemHovered()) return;
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
      ImGui::TextUnformatted(def);
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    };
    // (A short panel names the figure in the empty answer field instead, a line saved.)
    if (def && *def && !short_panel_) {
      ImGui::TextDisabled("(?) %s", lesson_figure_name(q.figure).c_str());
      definition_tip();
    }
    const std::string answer = lesson_current_answer(model);
    p.answering = false;
    if (!p.revealed.count(p.beat)) {
      // (Short, the field leaves Answer and Reveal the rest of its row: one row, not two.)
      const float buttons = buttons_width({L("lesson.answer"), L("lesson.reveal")});
      const float avail = ImGui::GetContentRegionAvail().x;
      ImGui::SetNextItemWidth(short_panel_
                                  ? std::clamp(avail - buttons, ImGui::GetFontSize() * 3, ImGui::GetFontSize() * 8)
                                  : std::min(avail * 0.5f, ImGui::GetFontSize() * 8));
      // A new question, or the same one in a new layout, takes the keys: the student types the answer and Enter.
      if (focused_beat_ != p.beat || focused_layout_ != model.view.layout) {
        want_focus_ = true;
        keep_asking_until_ = ImGui::GetTime() + 1.0;
        was_active_ = false;
      }
      focused_beat_ = p.beat;
      focused_layout_ = model.view.layout;
      const ImGuiIO& io = ImGui::GetIO();
      // (io.WantTextInput says last frame's: the field's own, when it had the keys then.)
      if (want_focus_ && (ImGui::IsMouseClicked(ImGuiMouseButton_Left) || (io.WantTextInput && !was_active_)))
        want_focus_ = false;
      if (want_focus_ && !was_active_) {
        // (ImGui 1.89 on serves a focus request through its keyboard navigation, in the focused window only: the
        // panel's window takes the focus first, or Debian 13's ImGui leaves the field without the keys.)
        ImGui::SetWindowFocus();
        ImGui::SetKeyboardFocusHere();
      }
      const bool enter = ImGui::InputTextWithHint("##answer", short_panel_ ? lesson_figure_name(q.figure).c_str() : "",
                                                  &p.input, ImGuiInputTextFlags_EnterReturnsTrue);
      p.answering = ImGui::IsItemActive();
      if (short_panel_) definition_tip();
      const bool focus = want_focus_ && p.answering && !was_active_;
      was_active_ = p.answering;
      if (p.answering && ImGui::GetTime() > keep_asking_until_) want_focus_ = false;
      ImGui::SameLine();
      // (Before the traces are there the answer waits for them: lesson_submit.)
      ImGui::BeginDisabled(p.input.empty() || !p.submitted.empty());
      if ((ImGui::Button(L("lesson.answer").c_str()) || enter) && !p.input.empty()) lesson_submit(model, p.input);
      ImGui::EndDisabled();
      // Reveal beside them where it fits, else under them.
      if (ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x - ImGui::GetItemRectMax().x >=
          buttons_width({L("lesson.reveal")}))
        ImGui::SameLine();
      ImGui::BeginDisabled(answer.empty());
      if (ImGui::Button(L("lesson.reveal").c_str())) lesson_reveal(model);
      ImGui::EndDisabled();
      if (focus_scroll_) ImGui::SetScrollHereY(1.0f);  // the question and its buttons in view (a short panel scrolls)
      focus_scroll_ = focus;
      tooltip_key("lesson.reveal.tip");
      in_view(ImGui::GetItemRectMax().y);
      if (!short_panel_) text_wrapped(tr("lesson.hidden"), &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
      return;
    }
    if (const auto it = p.answers.find(p.beat); it != p.answers.end()) {
      const bool right = lesson_answer_right(answer, it->second);
      text_wrapped(
          right ? trf("lesson.right", {answer_words(answer)}) : trf("lesson.wrong", {it->second, answer_words(answer)}),
          right ? &kRight : &kWrong);
    } else {
      text_wrapped(trf("lesson.revealed", {answer_words(answer)}), &kAsk);
    }
    in_view(ImGui::GetItemRectMax().y);
    // A comparison's figures themselves (A's and B's), which the views may not show side by side.
    if (const auto it = p.compared.find(p.beat); it != p.compared.end()) text_wrapped(it->second, &kAsk);
    text_wrapped(texts.explain.in(zh));
  }
};

}  // namespace

// (A lesson's scenarios are small, `redlab lesson check` runs them all in seconds: they run at once, never asked about.)
void lesson_show(Model& model, int beat) { lesson_go(model, beat); }

const RegisterView<LessonView> lesson_view(10);

}  // namespace redlab::gui
