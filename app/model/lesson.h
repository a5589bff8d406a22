// A lesson: the course notes' story told on the real kernels, as a list of beats a student (or a lecturer, in
// Present) steps through. A beat names what the window shows (scenario A, and B where it compares; the layout; the
// step; the view to look at and, in it, a warp, a bank column or a source line), says why in English and Chinese,
// and may ask the student to predict a figure of the trace before the views show it. The answer is never in the
// file: it is the figure `stats --json` gives for the beat's scenario and step.
//
// The file is text, one `key: value` a line, '#' starting a comment; `beat` starts a beat (docs/lessons.md):
//
//   lesson: harris                       the lesson's name (letters, digits, '_'), as `redlab lesson show harris`
//   note: 001                            the course note it follows
//   title.en: ... / title.zh: ...
//   beat
//   a: --kernel neighbored_modulo --n 2048 --block 256     the command line's scenario words
//   b: --kernel interleaved --n 2048 --block 256           (optional: compare)
//   layout: study | present | compare
//   step: 1 | offset 32 | load                             the step, as --step counts (from 0), or its label
//   look: tree | banks | warps | metrics | code | tile | ring | timings | compare | scenario
//   warp: 3     bank: 4     line: 28                       what to look at in that view (optional)
//   gallery: full_mask_shuffle                             a mistake of the gallery in A, its catalog kernel in B
//   say.en: ... / say.zh: ...                              the narration
//   ask: divergent_warps | more smem_load_wavefronts       a figure to predict (or which of A and B has more)
//   ask.en: ... / ask.zh: ...    explain.en: ... / explain.zh: ...
//
// The file is the user's (a lecturer writes their own): read with bounds, every line checked, data only.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/scenario.h"
#include "core/kernel_source.h"
#include "core/trace.h"
#include "model/playlist.h"
#include "model/view_id.h"
#include "model/view_state.h"

namespace redlab::model {

struct LessonText {
  std::string en, zh;
  const std::string& in(bool chinese) const { return chinese ? zh : en; }
};

// A figure of a trace as `stats --json` names it: a step's ("smem_load_wavefronts", at the beat's step), the
// summary's ("tree_simd_efficiency") or the result ("result").
struct LessonQuestion {
  std::string figure;
  bool compare = false;  // which of A and B has more of it: "A", "B" or "same"
  LessonText text, explain;
  int line = 0;
};

struct LessonBeat {
  int line = 0;  // where it starts in the file
  std::optional<Scenario> a, b;  // none: the scenario the beat before showed
  std::string a_words, b_words;  // as written
  std::optional<LayoutKind> layout;
  std::string step;  // "" (the first), a step index as --step counts, or a step's label
  std::optional<ViewId> look;
  int warp = -1, bank = -1, source_line = 0;
  LessonText say;
  std::optional<LessonQuestion> question;
  // A mistake of the gallery (assets/gallery, by its id): the beat shows its kernel file in A, as the student's copy,
  // beside the catalog kernel it was made from in B. The window compiles it; the beat asks nothing and writes no
  // figure (`lesson check` runs no compiler), and its narration says what the note should have written.
  std::string gallery;
};

// An exercise: the student starts from a kernel of the catalog (a file of their own, as `redlab new-kernel` writes it)
// and changes it until every check holds on their trace. Its block in the file:
//
//   exercise no_conflicts                 its name
//   from: neighbored_strided              the catalog kernel the file starts as
//   a: --n 2048 --block 256 --input ones  the scenario it runs on (the kernel is the file's)
//   title.en: ... / title.zh: ...    task.en: ... / task.zh: ...
//   check: correct                        the result equals the CPU's reference
//   check: no_fault                       no race, no index out of bounds, no deadlock
//   check: ideal_wavefronts               every step's shared wavefronts equal the ideal (no bank conflict)
//   check: sectors_per_request 4          no step's global requests take more than 4 sectors each on average
//   check: time_vs_cub 2 16777216         on a GPU, at most 2 times cub::DeviceReduce's time at n = 16777216
//                                         (`redlab lesson exercise` times it; without a GPU it is not checked)
struct ExerciseCheck {
  enum class Kind { correct, no_fault, ideal_wavefronts, sectors_per_request, time_vs_cub } kind = Kind::correct;
  double limit = 0;  // sectors_per_request's, time_vs_cub's
  std::uint64_t n = 0;  // time_vs_cub's size
  int line = 0;
};
struct LessonExercise {
  std::string name, from, a_words;
  Scenario scenario;  // the kernel: `from` (a run of the student's file names its own)
  LessonText title, task;
  std::vector<ExerciseCheck> checks;
  int line = 0;
};
const char* to_string(ExerciseCheck::Kind);

struct Lesson {
  std::string path, name, note;
  LessonText title;
  std::vector<LessonBeat> beats;
  std::vector<LessonExercise> exercises;
  std::size_t questions() const {
    std::size_t n = 0;
    for (const LessonBeat& b : beats) n += b.question ? 1 : 0;
    return n;
  }
  const LessonExercise* exercise(const std::string& name) const {
    for (const LessonExercise& e : exercises)
      if (e.name == name) return &e;
    return nullptr;
  }
};

// One check on a student's trace: passed, or why not, the step and the line named where the trace says them
// ("step 2 'stride 2': 128 shared load wavefronts where 32 would do; s[a] at line 29 makes a 4-way conflict").
// In the UI's language.
struct ExerciseOutcome {
  ExerciseCheck check;
  bool pass = false;
  bool skipped = false;  // not checked here (a time without a GPU): neither passed nor failed
  std::string text;
};
// `sources`: the student's file (and what it includes), for the lines' expressions. `time_vs_cub`: the student's
// kernel's median time over cub::DeviceReduce's at the check's n, as `redlab bench` measured it on a GPU (none: the
// time checks are skipped, saying why in `no_time`).
std::vector<ExerciseOutcome> check_exercise(const LessonExercise&, const Trace&, const KernelSources&,
                                            std::optional<double> time_vs_cub = std::nullopt,
                                            const std::string& no_time = "");

constexpr std::size_t kLessonMaxBytes = 256 * 1024, kLessonMaxBeats = 200, kLessonMaxLine = 4096;

// Reads `path` into `out`: the syntax and everything that needs no run (kernels, options, views, figures, both
// languages). Returns "" or what is wrong, its line named ("line 12: ask: no figure 'wavefront' ...").
std::string read_lesson(const std::string& path, const ScenarioWordsParser&, Lesson& out);
// The same for a lesson's text (`path` names it in messages): what read_lesson does once the file is read.
std::string parse_lesson(std::string_view text, const std::string& path, const ScenarioWordsParser&, Lesson& out);

// The figures a question may name: a step's, the summary's, the occupancy's (blocks_per_sm, clusters_at_most), and
// "result".
const std::vector<std::string>& lesson_figures();
// Whether `f` is a step's figure (its value depends on the beat's step), not the summary's or the result.
bool is_step_figure(const std::string& f);
// Whether `f` is one of the occupancy's figures (blocks_per_sm, clusters_at_most).
bool is_occupancy_figure(const std::string& f);

// A lesson's texts name the trace's numbers instead of writing them, so that what the student reads is what the trace
// gives (docs/lessons.md):
//   {answer}                 the question's answer (in an explanation only: it is read after the answer)
//   {a.FIGURE} {b.FIGURE}    a figure of A's or B's trace at the beat's step (a summary figure, or the result)
//   {a.FIGURE@STEP}          at another step, named as `step:` names one ("{a.active_warps@stride 8}")
//   {X / Y}                  the ratio of two ("{a.smem_load_wavefronts / a.smem_load_requests}"-way conflict)
//   {a.n} {a.block} {a.grid} {a.warps_per_block} {a.rows} {a.cols} {a.gpus} {a.cluster}    the scenario's own numbers
//   {a.sms} {a.max_threads_per_sm} {a.max_blocks_per_sm}    the card's, that the occupancy is of
struct LessonRefTerm {
  char side = 'a';
  std::string name;  // a figure of lesson_figures(), or a scenario number
  std::string step;  // "": the beat's step
};
struct LessonRef {
  bool answer = false;
  LessonRefTerm x;
  std::optional<LessonRefTerm> over;  // {x / over}
};
// The scenario's numbers a text may name ("n", "block", ...), the card's limits among them.
const std::vector<std::string>& lesson_scenario_numbers();
// Whether `name` is one of the card's limits (sms, max_threads_per_sm, max_blocks_per_sm): the GPU's, so a text names
// it rather than write the reference card's.
bool is_card_number(const std::string& name);
// The references of `text`, in order: "" or what is wrong with one ("{a.wavefront}: no figure 'wavefront' ...").
std::string parse_lesson_refs(const std::string& text, std::vector<LessonRef>& out);

// A beat's texts with their references filled from the beat's traces, in both languages. A reference the traces
// cannot give (a step they do not have) reads "?", and `why` says which.
struct LessonBeatTexts {
  LessonText say, ask, explain;
};
LessonBeatTexts fill_beat_texts(const LessonBeat&, const Trace& a, const Trace* b, std::string* why = nullptr);
// The numbers a beat's texts could state, each with the reference that names it: "answer" (a question's, not a
// comparison's), the scenario's numbers ("a.n", "a.block" ...), "a.FIGURE" and "b.FIGURE" at the beat's step and the
// summary's, and the steps' ratios a student reads ("a.smem_load_wavefronts / a.smem_load_requests", sectors a
// request). `lesson check` refuses them written, but for the scenario's numbers.
std::vector<std::pair<std::string, double>> lesson_beat_figures(const LessonBeat&, const Trace& a, const Trace* b);
// A text before its traces are there: each reference as "…".
std::string unfilled_lesson_text(const std::string& text);

// A beat's step in a trace: its index, or -1 with `why` set when the trace has no such step.
int lesson_step(const LessonBeat&, const Trace&, std::string* why = nullptr);

// The answer to a beat's question, from the traces its scenarios give (B's only for a comparison): the figure as
// `stats --json` gives it at the beat's step ("37", "0.664"), or for a comparison "A", "B" or "same". "" with `why`
// set when it cannot be computed (no such step, a figure the trace does not have: a fault's result).
std::string lesson_answer(const LessonBeat&, const Trace& a, const Trace* b, std::string* why = nullptr);

// A comparison's two figures as the student reads them once it is answered: "A 64 · B 64", a fraction as a
// percentage ("A 29.0 % · B 79.8 %"), as the views write them; "" for a question that compares nothing, or where a
// trace does not give the figure.
std::string lesson_compared_figures(const LessonBeat&, const Trace& a, const Trace* b);

// Whether a student's answer is right: a comparison's word (either case), or a number equal to the figure (within
// 0.5 % where the figure is not a whole number; "66%" reads as 0.66).
bool lesson_answer_right(const std::string& answer, const std::string& given);

// Each beat's scenarios run (`trace` gives their traces) and checked against the lesson: the step exists, the warp
// and bank are in range, the line is in the kernel's file, the question's answer is computable. Returns the
// problems, each naming its line ("line 30: step 'offset 512': interleaved n=2048 block 256 has offset 128 .. 1").
using LessonTracer = std::function<const Trace*(const Scenario&, std::string* why)>;
std::vector<std::string> check_lesson_runs(const Lesson&, const LessonTracer&);

// The lessons redlab ships (assets/lessons/*.lesson), by file name: the notes' order.
std::vector<std::string> shipped_lessons();
// A lesson by its file's path, a file of that name in the current folder, or a shipped lesson's name ("harris"); "" when
// there is none.
std::string find_lesson(const std::string& name_or_path);

}  // namespace redlab::model
