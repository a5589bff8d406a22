// A lesson open in the window (lesson.h): which beat shows, what the student answered, which figures are still
// hidden, and the progress kept per user. The player drives the model through its plain calls (open the beat's
// scenarios, go to its step, select its warp and bank column, go to its line), the calls a student's clicks make.
// No GL, no ImGui.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/lesson.h"
#include "model/side.h"

namespace redlab::model {

class Model;

struct LessonPlayer {
  Lesson lesson;  // name "": no lesson open
  int beat = -1;  // the beat shown
  std::map<int, std::string> answers;  // beat -> what the student answered
  std::set<int> revealed;  // beats whose figure shows: answered, or revealed by the lecturer
  std::string input;  // the answer being typed
  std::string submitted;  // an answer given before the beat's traces were there: judged when they are
  bool answering = false;  // its field has the keys (Page Down / Page Up still step the beats)
  std::string message;  // why a lesson did not open, or a beat did not go on
  bool pending = false;  // the beat's scenarios run: its step and selections wait for them
  std::map<int, std::string> computed;  // beat -> its question's answer, once its traces are there
  std::map<int, std::string> compared;  // beat -> a comparison's two figures (lesson_compared_figures), likewise
  std::map<int, LessonBeatTexts> texts;  // beat -> its texts with their figures filled, once its traces are there
  std::string exercise;  // the exercise the student works on ("" : none): A follows its file
  std::string exercise_file;  // that file (the student's folder: <exercise>_<lesson>.cu)
  bool fresh = false;  // opened without the answers kept, and keeping none (a lecturer's class)

  bool open() const { return !lesson.name.empty(); }
  const LessonBeat* current() const {
    return open() && beat >= 0 && beat < int(lesson.beats.size()) ? &lesson.beats[std::size_t(beat)] : nullptr;
  }
};

// Opens a lesson (a shipped one's name, or a file) at `beat` (0-based; -1: where this user left it); false with the
// player's message saying why. `fresh`: without the answers this user gave before, and keeping none of this time's
// (a lecturer's rehearsal does not show in class).
bool open_lesson(Model&, const std::string& name_or_path, int beat = -1, bool fresh = false);
// Starts the open lesson again: its answers and revealed figures forgotten, here and in the progress file, at its
// first beat.
void lesson_restart(Model&);
// Every lesson starts again: what each kept forgotten, the open one at its first beat.
void lesson_restart_all(Model&);
void close_lesson(Model&);
// Shows beat `k` (clamped): its scenarios (run when they differ from what A and B show), its layout, and once the
// traces are there its step, warp, bank column and line. False when it stays (past either end; unsaved edits in a
// kernel file, which the editor asks about first).
bool lesson_go(Model&, int k);
// After a trace arrived: the pending beat's step and selections, and the question's answer from the traces.
void lesson_traces_arrived(Model&);
// The student's answer to the current beat's question: kept, the figure revealed; true when it is right.
bool lesson_answer_given(Model&, const std::string& given);
// The answer field's Enter: judged now (lesson_answer_given) when the beat's traces are there, else kept in
// `submitted` and judged as they arrive (a student who types fast does not lose the answer). True once judged.
bool lesson_submit(Model&, const std::string& given);
// The lecturer shows the figure without an answer.
void lesson_reveal(Model&);
// A figure's name in the UI's language, as the per-step table heads its column ("divergent warps", "分化线程束").
std::string lesson_figure_name(const std::string& figure);
// The figure the current beat's question asks until it is answered or revealed ("" : none).
std::string lesson_hidden_figure(const Model&);
// A figure the views keep back while a lesson waits for a prediction, on A's trace or B's.
struct HiddenFigure {
  SideId side = SideId::a;
  std::string figure;  // as lesson_figures() names it
};
// Every figure hidden now: the current question's (on A, and on B for a comparison) until it is answered or revealed,
// and each later question's not yet answered whose scenario A or B shows now (this beat's views would give it away
// before that beat asks it). A question counts at every step of its trace: the per-step table lists them all.
std::vector<HiddenFigure> lesson_hidden_figures(const Model&);
// The kinds of figure one printed number can give away: the lanes (active threads and warps, divergence, the tree's
// SIMD efficiency and its steps), shared memory, global memory, the result, the bytes a GPU sends. A view that prints
// a figure of one kind hides it while a figure of that kind is hidden on its side: the rest follow from it (the
// per-step figures add up to the totals, the active threads give the SIMD efficiency).
// remote: another block's shared memory in a thread block cluster (the dsmem_ figures); occupancy: the blocks an SM
// holds at once and the clusters the card does (each gives the other with the SM count).
enum class FigureKind : std::uint8_t { lanes, shared, global, result, bytes, remote, occupancy };
FigureKind figure_kind(std::string_view figure);
// Whether a number of kind `k` on side `s` is hidden now.
bool lesson_hides_kind(const Model&, SideId s, FigureKind k);
// Whether view `v` prints a hidden figure in its body (its numbers are what it shows): the per-step table, any kind on
// either side. It then shows a line saying so instead. The views the student predicts from (the tree, the warps'
// lanes, the bank grid, the tile, the rings, the source, the scenario) stay; a figure one of them prints beside its
// picture (compare's SIMD efficiency, the warps' counters, Present's figure strip, the tile's sectors per request,
// the rings' bytes sent and carried, the source's hardware counts, the scenario's result and occupancy) asks
// lesson_hides_kind and shows "?" in its place.
bool lesson_hides(const Model&, ViewId v);
// The current beat's computed answer ("" : its traces are not there yet).
std::string lesson_current_answer(const Model&);
// The current beat's texts as the student reads them: their figures filled from the traces, or "…" for each while the
// traces are not there yet.
LessonBeatTexts lesson_current_texts(const Model&);

// Starts the student on an exercise: its file in the student's folder (written from the exercise's catalog kernel, in
// the UI's language, the first time; kept after, with the student's changes), followed in A on the exercise's
// scenario. False with the player's message saying why (the file cannot be written; unsaved edits in A's file).
bool start_exercise(Model&, const std::string& name);
// The checks on A's trace while the student works on an exercise and A's trace is of its file (nullopt: not yet).
std::optional<std::vector<ExerciseOutcome>> exercise_outcomes(Model&);

// Progress, kept per user in the data folder (lessons.json): the beat each lesson was left at and the answers given.
// A file that cannot be read is ignored (a lesson starts at its first beat); one that cannot be written is not fatal.
std::string lesson_progress_path();
void save_lesson_progress(const LessonPlayer&);
void load_lesson_progress(LessonPlayer&);
// Forgets what lesson `name` kept ("" : every lesson): true with how many lessons' progress went, or false with why
// (the file cannot be written). A lesson with nothing kept is not an error.
bool reset_lesson_progress(const std::string& name, std::size_t* forgotten, std::string* why);

}  // namespace redlab::model
