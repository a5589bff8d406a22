#include "model/lesson_player.h"

#include <algorithm>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "core/catalog.h"
#include "core/file_write.h"
#include "core/gallery.h"
#include "core/kernel_file.h"
#include "core/user_dirs.h"
#include "model/i18n.h"
#include "model/lesson_progress.h"
#include "model/model.h"

namespace redlab::model {

namespace {

// Two scenarios that give the same run. (The cheap fields first: the views ask, through lesson_hidden_figures, a few
// dozen times a frame, and describe() builds a string.)
bool same_scenario(const Scenario& x, const Scenario& y) {
  return x.kernel == y.kernel && x.seed == y.seed && x.dynamic_smem == y.dynamic_smem && describe(x) == describe(y);
}

// A side shows `sc` already (the same run would give the same trace): the beat does not run it again.
bool shows(const Side& side, const Scenario& sc) {
  return side.trace && !side.running() && !follows_file(side) && same_scenario(side.scenario, sc) &&
         side.trace->scenario.kernel == sc.kernel;
}

// The beat's traces are there (A's, and B's where it compares), of its scenarios and not being replaced.
bool traces_ready(const Model& model, const LessonBeat& b) {
  if (!shows(model.work.a, *b.a)) return false;
  return !b.b || (model.work.compare && shows(model.work.b, *b.b));
}

void apply_view(Model& model, const LessonBeat& b) {
  const Trace& a = *model.work.a.trace;
  if (const int step = lesson_step(b, a); step >= 0) model.go_to_step(step);
  if (b.warp >= 0) model.select_warp(b.warp);
  model.select_bank_column(b.bank);
  if (b.source_line > 0) model.view.memory.code_goto = b.source_line;
}

}  // namespace

bool open_lesson(Model& model, const std::string& name_or_path, int beat, bool fresh) {
  LessonPlayer& p = model.lesson;
  const std::string path = find_lesson(name_or_path);
  if (path.empty()) {
    p.message = trf("lesson.none", {name_or_path});
    return false;
  }
  if (!model.work.opts.scenario_words) {
    p.message = "lessons are read by redlab's command line, which did not start this window";
    return false;
  }
  Lesson l;
  if (const std::string why = read_lesson(path, model.work.opts.scenario_words, l); !why.empty()) {
    p.message = path + ": " + why;
    return false;
  }
  // The fonts get the glyphs its words use (a Chinese narration's characters beyond those of the UI's own text).
  model.work.need_glyphs(l.title.en + l.title.zh + "\u2026");  // (… stands for a figure whose trace is not there yet)
  for (const LessonBeat& b : l.beats) {
    model.work.need_glyphs(b.say.en + b.say.zh);
    if (b.question)
      model.work.need_glyphs(b.question->text.en + b.question->text.zh + b.question->explain.en +
                             b.question->explain.zh);
  }
  LessonPlayer opened;
  opened.lesson = std::move(l);
  opened.fresh = fresh;
  if (!fresh) load_lesson_progress(opened);
  const int start = beat >= 0 ? beat : std::max(opened.beat, 0);
  opened.beat = -1;
  p = std::move(opened);
  model.view.views_to_open.push_back(ViewId::lesson);  // (closed by its tab's x before: a lesson shows it again)
  if (!lesson_go(model, start)) {  // (unsaved edits in A's kernel file: the editor asks; the lesson stays closed)
    const std::string why = p.message;
    p = LessonPlayer{};
    p.message = why;
    return false;
  }
  return true;
}

void lesson_restart(Model& model) {
  LessonPlayer& p = model.lesson;
  if (!p.open()) return;
  p.answers.clear();
  p.revealed.clear();
  p.input.clear();
  p.submitted.clear();
  if (!p.fresh) {
    std::size_t forgotten = 0;
    std::string why;
    if (!reset_lesson_progress(p.lesson.name, &forgotten, &why)) p.message = why;
  }
  if (p.beat != 0)
    lesson_go(model, 0);
  else
    save_lesson_progress(p);
}

void lesson_restart_all(Model& model) {
  std::size_t forgotten = 0;
  std::string why;
  if (!reset_lesson_progress("", &forgotten, &why)) model.lesson.message = why;
  lesson_restart(model);
}

void close_lesson(Model& model) {
  if (model.lesson.open()) save_lesson_progress(model.lesson);
  model.lesson = LessonPlayer{};
}

// The view the beat names (look:), opened and to the front of its pane. Comparing, the compare view draws A's and B's
// trees, tiles or rings: the one to bring to the front for them (a small window's single pane of tabs showed an
// all-reduce's empty tree tab instead of the two rings). While the named view keeps its figures back (the per-step
// table, when the question asks one of them), the picture they are of comes to the front instead, and the named view
// once the question is answered or revealed: a projector's one pane of tabs is never left saying "Predict first".
namespace {
void raise_look(Model& model) {
  const LessonBeat* b = model.lesson.current();
  if (!b || !b->look) return;
  const bool centre =
      *b->look == ViewId::tree || *b->look == ViewId::ring || *b->look == ViewId::tile || *b->look == ViewId::cluster;
  ViewId v = b->b && centre ? ViewId::compare : *b->look;
  if (lesson_hides(model, v))
    v = b->b                            ? ViewId::compare
        : side_draws_ring(model.work.a) ? ViewId::ring
        : side_draws_tile(model.work.a) ? ViewId::tile
                                        : ViewId::tree;
  model.view.views_to_open.push_back(v);
}
}  // namespace

bool lesson_go(Model& model, int k) {
  LessonPlayer& p = model.lesson;
  if (!p.open()) return false;
  k = std::clamp(k, 0, int(p.lesson.beats.size()) - 1);
  if (k == p.beat) return false;
  const LessonBeat& b = p.lesson.beats[std::size_t(k)];
  if (follows_file(model.work.a) && !model.work.close_kernel_source(model.work.a)) {
    p.message = tr("playlist.unsaved");
    return false;
  }
  if (model.work.compare && !b.b && follows_file(model.work.b) && !model.work.close_kernel_source(model.work.b)) {
    p.message = tr("playlist.unsaved");
    return false;
  }
  p.beat = k;
  p.input.clear();
  p.submitted.clear();
  p.message.clear();
  model.view.playing = false;
  // A beat's layout is the one a student alone sees it in; a lecturer who chose Present stays there (Present shows a
  // comparison as well), the projector's room going to the beat's views.
  if (b.layout && *b.layout != model.view.layout && model.view.layout != LayoutKind::present) {
    model.view.layout = *b.layout;
    model.view.layout_reset = true;
  }
  if (!b.gallery.empty()) {
    // The mistake in A (the student's copy of the gallery's file, compiled in the window: asked about first where
    // their copy differs), the catalog kernel it was made from in B. The beat asks nothing: no trace is waited for.
    if (const GalleryEntry* e = find_gallery_entry(model.work.gallery(), b.gallery))
      model.work.open_gallery_entry(*e);
    else
      p.message = trf("lesson.gallery.none", {b.gallery});
    raise_look(model);
    p.pending = false;
    save_lesson_progress(p);
    return true;
  }
  if (!shows(model.work.a, *b.a)) model.open_scenario(SideId::a, *b.a);
  if (b.b) {
    if (!shows(model.work.b, *b.b) || !model.work.compare) model.open_scenario(SideId::b, *b.b);
  } else {
    model.work.compare = false;
  }
  raise_look(model);
  p.pending = true;
  lesson_traces_arrived(model);
  save_lesson_progress(p);
  return true;
}

void lesson_traces_arrived(Model& model) {
  LessonPlayer& p = model.lesson;
  const LessonBeat* b = p.current();
  if (!b || !traces_ready(model, *b)) return;
  if (p.pending) {
    p.pending = false;
    apply_view(model, *b);
  }
  const Trace* bt = b->b ? &*model.work.b.trace : nullptr;
  if (b->question && !p.computed.count(p.beat)) {
    std::string why;
    const std::string answer = lesson_answer(*b, *model.work.a.trace, bt, &why);
    if (!answer.empty()) p.computed[p.beat] = answer;
    if (const std::string both = lesson_compared_figures(*b, *model.work.a.trace, bt); !both.empty())
      p.compared[p.beat] = both;
  }
  if (!p.texts.count(p.beat)) p.texts[p.beat] = fill_beat_texts(*b, *model.work.a.trace, bt);
  if (!p.submitted.empty() && !lesson_current_answer(model).empty()) {  // Enter came before the traces
    const std::string given = std::exchange(p.submitted, std::string());
    lesson_answer_given(model, given);
  }
}

bool lesson_submit(Model& model, const std::string& given) {
  LessonPlayer& p = model.lesson;
  if (!p.current() || !p.current()->question || given.empty()) return false;
  if (lesson_current_answer(model).empty()) {
    p.submitted = given;
    return false;
  }
  lesson_answer_given(model, given);
  return true;
}

LessonBeatTexts lesson_current_texts(const Model& model) {
  const LessonPlayer& p = model.lesson;
  const LessonBeat* b = p.current();
  if (!b) return {};
  if (const auto it = p.texts.find(p.beat); it != p.texts.end()) return it->second;
  auto unfilled = [](const LessonText& t) {
    return LessonText{unfilled_lesson_text(t.en), unfilled_lesson_text(t.zh)};
  };
  LessonBeatTexts out;
  out.say = unfilled(b->say);
  if (b->question) {
    out.ask = unfilled(b->question->text);
    out.explain = unfilled(b->question->explain);
  }
  return out;
}

bool lesson_answer_given(Model& model, const std::string& given) {
  LessonPlayer& p = model.lesson;
  const LessonBeat* b = p.current();
  if (!b || !b->question) return false;
  const std::string answer = lesson_current_answer(model);
  if (answer.empty()) return false;  // its traces are not there yet: nothing to judge against
  p.answers[p.beat] = given;
  p.revealed.insert(p.beat);
  save_lesson_progress(p);
  raise_look(model);
  return lesson_answer_right(answer, given);
}

void lesson_reveal(Model& model) {
  LessonPlayer& p = model.lesson;
  if (!p.current()) return;
  p.revealed.insert(p.beat);
  save_lesson_progress(p);
  raise_look(model);
}

std::string lesson_hidden_figure(const Model& model) {
  const LessonPlayer& p = model.lesson;
  const LessonBeat* b = p.current();
  if (!b || !b->question || p.revealed.count(p.beat)) return "";
  return b->question->figure;
}

std::string lesson_figure_name(const std::string& figure) {
  return tr(((is_step_figure(figure) ? "m." : "fig.") + figure).c_str());
}

FigureKind figure_kind(std::string_view f) {
  if (f == "result") return FigureKind::result;
  if (f == "most_bytes_sent_per_gpu" || f == "lower_bound_bytes_per_gpu") return FigureKind::bytes;
  if (f.substr(0, 5) == "smem_") return FigureKind::shared;
  if (f.substr(0, 5) == "gmem_") return FigureKind::global;
  if (f.substr(0, 6) == "dsmem_") return FigureKind::remote;
  if (is_occupancy_figure(std::string(f))) return FigureKind::occupancy;
  return FigureKind::lanes;  // active_threads, active_warps, divergent_warps, tree_*
}

std::vector<HiddenFigure> lesson_hidden_figures(const Model& model) {
  std::vector<HiddenFigure> out;
  const LessonPlayer& p = model.lesson;
  if (!p.current()) return out;
  auto add = [&](SideId id, const std::string& figure) {
    for (const HiddenFigure& h : out)
      if (h.side == id && h.figure == figure) return;
    out.push_back({id, figure});
  };
  const bool compare = model.work.compare;
  auto asked = [](const LessonBeat& b) {  // the scenarios a question's figure is of
    std::vector<const Scenario*> v = {&*b.a};
    if (b.question->compare && b.b) v.push_back(&*b.b);
    return v;
  };
  // Whether an answered (or revealed) question gave figure `f` of `sc` already, as beat `later` would ask it: the
  // same summary figure or result, or a step's figure at the same step.
  auto known = [&](const Scenario& sc, const std::string& f, const LessonBeat& later) {
    for (int r : p.revealed) {
      if (r < 0 || r >= int(p.lesson.beats.size())) continue;
      const LessonBeat& rb = p.lesson.beats[std::size_t(r)];
      if (!rb.question || rb.question->figure != f || (is_step_figure(f) && rb.step != later.step)) continue;
      for (const Scenario* x : asked(rb))
        if (same_scenario(*x, sc)) return true;
    }
    return false;
  };
  for (int k = p.beat; k < int(p.lesson.beats.size()); ++k) {
    const LessonBeat& b = p.lesson.beats[std::size_t(k)];
    if (!b.question || p.revealed.count(k)) continue;
    const std::string& f = b.question->figure;
    if (k == p.beat) {  // the question on screen: its figure on A, and on B for a comparison
      add(SideId::a, f);
      if (b.question->compare && compare) add(SideId::b, f);
      continue;
    }
    // A later question: hidden on whichever side shows the scenario it asks about, unless an answer gave it already.
    for (const Scenario* sc : asked(b)) {
      if (known(*sc, f, b)) continue;
      if (same_scenario(model.work.a.scenario, *sc)) add(SideId::a, f);
      if (compare && same_scenario(model.work.b.scenario, *sc)) add(SideId::b, f);
    }
  }
  return out;
}

bool lesson_hides_kind(const Model& model, SideId s, FigureKind k) {
  for (const HiddenFigure& h : lesson_hidden_figures(model))
    if (h.side == s && figure_kind(h.figure) == k) return true;
  return false;
}

bool lesson_hides(const Model& model, ViewId v) {
  return v == ViewId::metrics && !lesson_hidden_figures(model).empty();
}

std::string lesson_current_answer(const Model& model) {
  const auto it = model.lesson.computed.find(model.lesson.beat);
  return it == model.lesson.computed.end() ? std::string() : it->second;
}

bool start_exercise(Model& model, const std::string& name) {
  LessonPlayer& p = model.lesson;
  const LessonExercise* e = p.lesson.exercise(name);
  if (!e) return false;
  const std::string id = e->name + "_" + p.lesson.name;
  const std::string dir = student_kernel_dir(), path = dir + "/" + id + ".cu";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    std::string why;
    if (!make_private_dir(dir, &why)) {
      p.message = why;
      return false;
    }
    try {
      const KernelRecord* k = find_kernel(e->from);
      if (!k) throw std::invalid_argument(e->from + " is not a kernel redlab has");
      const std::string text =
          make_kernel_file(*k, id, {.lang = model.view.lang == "zh_CN" ? "zh_CN" : "en"}, read_catalog_source);
      write_file_atomically(path, text);
    } catch (const std::exception& x) {
      p.message = x.what();
      return false;
    }
  }
  if (follows_file(model.work.a) && !same_file(model.work.a.user.path, path) && model.work.a.user.editor.dirty()) {
    p.message = tr("playlist.unsaved");
    return false;
  }
  model.work.compare = false;
  model.work.a.scenario = e->scenario;
  sync_text_fields(model.work.a);
  if (!model.work.open_kernel_source(model.work.a, path)) {
    p.message = model.work.a.error;
    return false;
  }
  model.view.views_to_open.push_back(ViewId::code);
  p.exercise = e->name;
  p.exercise_file = path;
  p.message.clear();
  return true;
}

std::optional<std::vector<ExerciseOutcome>> exercise_outcomes(Model& model) {
  const LessonPlayer& p = model.lesson;
  const LessonExercise* e = p.lesson.exercise(p.exercise);
  const Side& a = model.work.a;
  if (!e || !a.trace || !same_file(a.user.path, p.exercise_file) || a.trace->scenario.kernel != a.user.id)
    return std::nullopt;
  const KernelRecord* k = find_kernel(a.user.id);
  // (The window does not time a file: its time check says where it is measured.)
  return check_exercise(*e, *a.trace, model.work.kernel_sources(k ? k->source_file : p.exercise_file), std::nullopt,
                        trf("exercise.time.cli", {p.lesson.name, e->name}));
}

std::string lesson_progress_path() {
  const std::string dir = user_dir(UserDir::data);
  return dir.empty() ? std::string() : dir + "/lessons.json";
}

namespace {
// The progress file's text: "" where there is none, or it is not a regular file of at most kProgressMaxBytes.
std::string progress_file(const std::string& path) {
  std::string text;
  if (path.empty() || !read_regular_file(path, kProgressMaxBytes, &text).empty()) return "";
  return text;
}
}  // namespace

void load_lesson_progress(LessonPlayer& p) {
  // (Not readable as progress: the lesson starts at its first beat.)
  const std::optional<LessonProgress> kept = progress_from_text(progress_file(lesson_progress_path()), p.lesson);
  if (!kept) return;
  p.beat = kept->beat;
  for (const auto& [beat, answer] : kept->answers) p.answers[beat] = answer;
  p.revealed.insert(kept->revealed.begin(), kept->revealed.end());
}

void save_lesson_progress(const LessonPlayer& p) {
  if (!p.open() || p.fresh) return;
  const std::string path = lesson_progress_path();
  std::string why;
  if (path.empty() || !make_private_dir(std::filesystem::path(path).parent_path().string(), &why)) return;
  LessonProgress mine;
  mine.beat = std::max(p.beat, 0);
  mine.answers = p.answers;
  mine.revealed = p.revealed;
  try {
    // Its own file: never a link's target.
    write_file_atomically(path, progress_text_with(progress_file(path), p.lesson.name, mine), SymlinkPolicy::replace);
  } catch (const std::exception&) {
    // Progress is a convenience: a full disk or a read-only home does not stop the lesson.
  }
}

bool reset_lesson_progress(const std::string& name, std::size_t* forgotten, std::string* why) {
  *forgotten = 0;
  const std::string path = lesson_progress_path();
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec)) return true;  // nothing kept
  if (!std::filesystem::is_regular_file(path, ec) || std::filesystem::file_size(path, ec) > kProgressMaxBytes) {
    *why = path + " is not a progress file redlab wrote (not a regular file of at most 1 MiB): left as it is";
    return false;
  }
  // (Not readable as progress: nothing kept, and replaced.)
  const std::string text = progress_text_without(progress_file(path), name, forgotten);
  try {
    write_file_atomically(path, text, SymlinkPolicy::replace);  // its own file: never a link's target
  } catch (const std::exception& x) {
    *why = x.what();
    return false;
  }
  return true;
}

}  // namespace redlab::model
