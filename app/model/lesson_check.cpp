// The checks that need traces: a lesson's beats against their runs (check_lesson_runs), and an exercise's checks on
// a student's trace (check_exercise). Apart from the reader (lesson.cpp), which the fuzz target takes alone.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/catalog.h"
#include "core/family.h"
#include "core/gallery.h"
#include "core/input_reach.h"
#include "core/kernel_source.h"
#include "model/i18n.h"
#include "model/lesson.h"
#include "model/side.h"

namespace redlab::model {

namespace {

// The numbers written as numbers in a text, as counts: the text cut into words (runs of ASCII between spaces, and
// runs of other characters: a Chinese word or punctuation), the sentence's punctuation taken off ("64:" is 64,
// "0.66," is 0.66). Code and names are not numbers: a word with a letter, a bracket or an operator in it ("reduce0",
// "s[4k", "2*stride", "64x64", "2^24") is left out. Neither are indices: the numbers that follow "lane", "bank",
// "warp", "step", "GPU" (通道, 存储体 ...) and the list they start ("lanes 0, 8, 16 and 24", "通道 0、8、16、24").
std::vector<std::pair<std::string, double>> written_numbers(const std::string& text) {
  static const std::set<std::string> index_words = {
      "lane",  "lanes",  "bank",    "banks", "thread", "threads", "warp",    "block",  "step",
      "steps", "line",   "GPU",     "GPUs",  "slice",  "stride",  "strides", "offset", "offsets",
      "note",  "lesson", "section", "beat",  "通道",   "存储体",  "线程",    "线程束", "线程块",
      "第",    "行",     "步长",    "偏移",  "笔记",   "课程",    "节"};
  static const std::set<std::string> list_words = {"and", "or", "to", "、", "和", "与", "或", "至", "到", "-", ","};
  std::vector<std::pair<std::string, double>> out;
  std::vector<std::string> words;
  std::string run;
  bool ascii = true;
  auto cut = [&] {
    if (!run.empty()) words.push_back(run);
    run.clear();
  };
  bool in_ref = false;
  for (unsigned char c : text) {
    if (c == '{') {
      cut();
      in_ref = true;
    }
    if (in_ref) {
      if (c == '}') {
        in_ref = false;
        words.push_back("{}");  // a reference: a word of its own, a count written by reference
      }
      continue;
    }
    if (c <= ' ') {
      cut();
      continue;
    }
    const bool is_ascii = c < 0x80;
    if (is_ascii != ascii) cut();
    ascii = is_ascii;
    run += char(c);
  }
  cut();
  bool listing = false;  // in a list of indices
  for (const std::string& w : words) {
    std::size_t b = 0, e = w.size();
    while (b < e && std::string_view("([\"'").find(w[b]) != std::string_view::npos) ++b;
    while (e > b && std::string_view(".,:;!?)]\"'%").find(w[e - 1]) != std::string_view::npos) --e;
    const std::string word = w.substr(b, e - b);
    // A Chinese word is one run: its last word names what the number after it is ("……的通道" ends in 通道).
    bool index_word = index_words.count(word) > 0;
    for (const std::string& iw : index_words)
      if (!index_word && (unsigned char)iw[0] >= 0x80 && word.size() >= iw.size() &&
          word.compare(word.size() - iw.size(), iw.size(), iw) == 0)
        index_word = true;
    if (index_word) {
      listing = true;
      continue;
    }
    bool number = !word.empty() && std::isdigit((unsigned char)word[0]) && word.back() != '.' && word.size() <= 15;
    for (std::size_t i = 0, dots = 0; number && i < word.size(); ++i)
      if (word[i] == '.' ? ++dots > 1 : !std::isdigit((unsigned char)word[i])) number = false;
    if (number) {
      if (!listing) out.emplace_back(word, std::stod(word));
      continue;
    }
    if (listing && (list_words.count(word) || word.empty())) continue;  // "0, 8, 16 and 24"; "0、8"
    listing = false;
  }
  return out;
}

// Which figure of the beat's traces a written number states ("{a.smem_load_wavefronts}"), or "". The question's
// answer, and for a comparison both sides' values of the figure asked, are never written; numbers the scenario
// gives (n, block, grid, warps a block, rows, cols, GPUs, blocks a cluster, a step's stride or offset, 0 and 1, a
// warp's 32 lanes) are written freely where they are not those; every other figure of the beat's traces, the card's
// limits among them, is named by reference.
std::string stated_figure(double v, const LessonBeat& beat, const std::vector<std::pair<std::string, double>>& figures,
                          const Trace& a, const Trace* b) {
  const LessonQuestion* q = beat.question ? &*beat.question : nullptr;
  for (const auto& [ref, value] : figures)
    if (value == v && q && (ref == "answer" || (q->compare && (ref == "a." + q->figure || ref == "b." + q->figure))))
      return "{" + ref + "}";
  std::set<double> free = {0, 1, 32};
  const auto& numbers = lesson_scenario_numbers();
  // (The card's limits are the GPU's, not the scenario's: an H100 PCIe has 114 SMs, an SXM 132.)
  for (const auto& figure : figures)
    if (const std::string name = figure.first.substr(2);
        !is_card_number(name) && std::find(numbers.begin(), numbers.end(), name) != numbers.end())
      free.insert(figure.second);
  for (const Trace* t : {&a, b}) {
    if (!t) continue;
    for (const Step& s : t->steps) {
      const std::size_t digits = s.label.find_last_not_of("0123456789") + 1;
      if (digits < s.label.size() && s.label.size() - digits < 10) free.insert(std::stod(s.label.substr(digits)));
    }
  }
  if (free.count(v)) return "";
  for (const auto& [ref, value] : figures)
    if (value == v) return "{" + ref + "}";
  return "";
}

}  // namespace

std::vector<std::string> check_lesson_runs(const Lesson& l, const LessonTracer& trace) {
  std::vector<std::string> problems;
  std::optional<Gallery> gallery;  // read at the first beat that shows an entry of it
  for (const LessonBeat& beat : l.beats) {
    const std::string at = "line " + std::to_string(beat.line) + ": ";
    if (!beat.gallery.empty()) {  // its kernel is compiled in the window only: the entry is there, and it was made
      if (!gallery) gallery = load_gallery();  // from a kernel of the catalog (B)
      const GalleryEntry* e = find_gallery_entry(*gallery, beat.gallery);
      if (!e)
        problems.push_back(at + "gallery: no entry '" + beat.gallery + "' in the gallery" +
                           (gallery->error.empty() ? std::string() : " (" + gallery->error + ")"));
      else if (!find_kernel(e->from))
        problems.push_back(at + "gallery: " + beat.gallery + " was made from '" + e->from + "', not a catalog kernel");
      continue;
    }
    std::string why;
    const Trace* a = trace(*beat.a, &why);
    if (!a) {
      problems.push_back(at + "a: " + why);
      continue;
    }
    const Trace* b = nullptr;
    if (beat.b) {
      b = trace(*beat.b, &why);
      if (!b) {
        problems.push_back(at + "b: " + why);
        continue;
      }
    }
    if (lesson_step(beat, *a, &why) < 0) problems.push_back(at + "A: " + why);
    if (b && lesson_step(beat, *b, &why) < 0) problems.push_back(at + "B: " + why);
    if (beat.warp >= 0 && std::uint32_t(beat.warp) >= a->warps_per_block)
      problems.push_back(at + "warp " + std::to_string(beat.warp) + ": a block of " + std::to_string(a->block) +
                         " threads has warps 0 to " + std::to_string(a->warps_per_block - 1));
    if (beat.source_line > 0) {
      const KernelRecord* k = find_kernel(a->scenario.kernel);
      const KernelSources src = load_kernel_sources(k ? k->source_file : std::string());
      const std::size_t lines = src.files.empty() ? 0 : src.lines.at(src.files.front()).size();
      if (std::size_t(beat.source_line) > lines)
        problems.push_back(at + "line " + std::to_string(beat.source_line) + ": " + a->scenario.kernel +
                           "'s file has " + std::to_string(lines) + " lines");
    }
    if (beat.look == ViewId::tile && family_of(a->scenario).view != FamilyView::tile)
      problems.push_back(at + "look: tile: " + a->scenario.kernel + " is not a transpose (its view is the tree)");
    if (beat.look == ViewId::tree && family_of(a->scenario).view == FamilyView::tile)
      problems.push_back(at + "look: tree: " + a->scenario.kernel + " is a transpose (its view is the tile)");
    const KernelRecord* shown = find_kernel(a->scenario.kernel);
    const bool allreduce = shown && shown->family == Family::allreduce;
    if (beat.look == ViewId::cluster && !(shown && shown->clustered))
      problems.push_back(at + "look: cluster: " + a->scenario.kernel +
                         " launches no thread block clusters (the cluster view is a cluster kernel's)");
    if (beat.look == ViewId::ring && !allreduce)
      problems.push_back(at + "look: ring: " + a->scenario.kernel +
                         " runs on one GPU (the ring is an all-reduce's view)");
    if ((beat.look == ViewId::tree || beat.look == ViewId::tile || beat.look == ViewId::banks) && allreduce)
      problems.push_back(at + "look: " + view_key(*beat.look) + ": " + a->scenario.kernel +
                         " is an all-reduce (its view is the ring)");
    if (beat.question && lesson_answer(beat, *a, b, &why).empty())
      problems.push_back("line " + std::to_string(beat.question->line) + ": ask: " + why);
    // Every reference has its number in these traces; no number of them is written by hand.
    why.clear();
    fill_beat_texts(beat, *a, b, &why);
    if (!why.empty()) problems.push_back("line " + std::to_string(beat.line) + ": " + why);
    const auto figures = lesson_beat_figures(beat, *a, b);
    std::vector<std::pair<std::string, const std::string*>> texts = {{"say.en", &beat.say.en},
                                                                     {"say.zh", &beat.say.zh}};
    if (beat.question)
      texts.insert(texts.end(), {{"ask.en", &beat.question->text.en},
                                 {"ask.zh", &beat.question->text.zh},
                                 {"explain.en", &beat.question->explain.en},
                                 {"explain.zh", &beat.question->explain.zh}});
    for (const auto& [key, text] : texts)
      for (const auto& [word, value] : written_numbers(*text))
        if (const std::string ref = stated_figure(value, beat, figures, *a, b); !ref.empty())
          problems.push_back("line " + std::to_string(beat.line) + ": the beat's " + key + " writes " + word +
                             ", which is " + ref + " of the trace: write " + ref + " and redlab fills it in");
    // A question names the launch its figure counts: the steps' figures are the first launch's, the second pass is
    // the relaunch that adds the blocks' results.
    if (beat.question && beat.question->figure != "result") {
      const LessonQuestion& q = *beat.question;
      if (q.text.en.find("second pass") != std::string::npos || q.text.zh.find("第二遍") != std::string::npos)
        problems.push_back("line " + std::to_string(q.line) + ": ask: " + q.figure +
                           " counts the first launch only, and the question speaks of the second pass (ask about the "
                           "first launch, or for the result)");
    }
  }
  // An exercise whose starting kernel already passes every check asks nothing of the student.
  for (const LessonExercise& e : l.exercises) {
    std::string why;
    const Trace* t = trace(e.scenario, &why);
    if (!t) {
      problems.push_back("line " + std::to_string(e.line) + ": exercise " + e.name + ": " + why);
      continue;
    }
    const KernelRecord* k = find_kernel(e.from);
    const KernelSources src = load_kernel_sources(k ? k->source_file : std::string());
    const auto outcomes = check_exercise(e, *t, src);
    if (std::all_of(outcomes.begin(), outcomes.end(), [](const ExerciseOutcome& o) { return o.pass; }))
      problems.push_back("line " + std::to_string(e.line) + ": exercise " + e.name + ": " + e.from +
                         " already passes every check: the student would have nothing to change");
  }
  return problems;
}

const char* to_string(ExerciseCheck::Kind k) {
  switch (k) {
    case ExerciseCheck::Kind::correct: return "correct";
    case ExerciseCheck::Kind::no_fault: return "no_fault";
    case ExerciseCheck::Kind::ideal_wavefronts: return "ideal_wavefronts";
    case ExerciseCheck::Kind::sectors_per_request: return "sectors_per_request";
    case ExerciseCheck::Kind::time_vs_cub: return "time_vs_cub";
  }
  return "?";
}

namespace {
// "step 3 'stride 2'", counted from 1 as the window counts them.
std::string step_words(const Trace& t, std::size_t s) {
  return trf("exercise.step", {std::to_string(s + 1), step_label_text(t, unsigned(s))});  // (in the UI's words)
}
// Where in the student's source a step's worst access of `space` was made: " s[a] at line 29", or "".
std::string worst_access(const Trace& t, std::size_t step, Space space, const KernelSources& sources) {
  const WarpAccess* worst = nullptr;
  auto excess = [&](const WarpAccess& a) {
    return space == Space::shared ? double(a.wavefronts) - a.ideal
                                  : double(a.sectors) / std::max(1u, unsigned(__builtin_popcount(a.mask)));
  };
  for (const FocusBlock& fb : t.focus)
    if (step < fb.steps.size())
      for (const WarpStep& w : fb.steps[step])
        for (const WarpAccess& a : w.accesses)
          if (a.space == space && (!worst || excess(a) > excess(*worst))) worst = &a;
  if (!worst) return "";
  const std::optional<AccessSource> src = access_source(t, *worst, sources);
  return src ? trf("exercise.made_at", {src->expression, std::to_string(src->line)}) : std::string();
}
}  // namespace

std::vector<ExerciseOutcome> check_exercise(const LessonExercise& e, const Trace& t, const KernelSources& sources,
                                            std::optional<double> time_vs_cub, const std::string& no_time) {
  std::vector<ExerciseOutcome> out;
  for (const ExerciseCheck& c : e.checks) {
    ExerciseOutcome o;
    o.check = c;
    switch (c.kind) {
      case ExerciseCheck::Kind::correct:
        o.pass = !t.fault && t.correct;
        if (t.fault) {  // no result: where it stopped, and who did what at which line
          o.text = fault_summary(t) + " " + fault_report(t);
          break;
        }
        o.text = trf(o.pass ? "exercise.correct.pass" : "exercise.correct.fail", {result_text(t)});
        if (!o.pass)  // which inputs never reached the result, as `stats` says it
          for (const std::string& line : lost_input_lines(t, input_reach(t))) o.text += "; " + line;
        break;
      case ExerciseCheck::Kind::no_fault:
        o.pass = !t.fault;
        o.text = o.pass ? tr("exercise.no_fault.pass") : trf("exercise.no_fault.fail", {fault_report(t)});
        break;
      case ExerciseCheck::Kind::ideal_wavefronts: {
        o.pass = true;
        std::size_t shared_steps = 0;
        for (std::size_t s = 0; s < t.steps.size() && o.pass; ++s) {
          const StepStats& x = t.steps[s].stats;
          if (x.smem_load_requests + x.smem_store_requests == 0) continue;
          ++shared_steps;
          const std::uint64_t wf = x.smem_load_wavefronts + x.smem_store_wavefronts;
          const std::uint64_t ideal = x.smem_load_ideal + x.smem_store_ideal;
          if (wf > ideal) {
            o.pass = false;
            o.text = trf("exercise.ideal.fail", {step_words(t, s), std::to_string(wf), std::to_string(ideal),
                                                 worst_access(t, s, Space::shared, sources)});
          }
        }
        if (o.pass)
          o.text =
              shared_steps ? trf("exercise.ideal.pass", {std::to_string(shared_steps)}) : tr("exercise.ideal.none");
        if (t.fault && o.pass) {  // the steps before a fault say nothing of the rest
          o.pass = false;
          o.text = fault_summary(t);
        }
        break;
      }
      case ExerciseCheck::Kind::time_vs_cub: {
        char limit[32], ratio[32];
        std::snprintf(limit, sizeof limit, "%g", c.limit);
        if (!time_vs_cub) {
          o.skipped = true;
          o.text = trf("exercise.time.skipped", {limit, std::to_string(c.n), no_time});
          break;
        }
        std::snprintf(ratio, sizeof ratio, "%.2f", *time_vs_cub);
        o.pass = *time_vs_cub <= c.limit;
        o.text = trf(o.pass ? "exercise.time.pass" : "exercise.time.fail", {ratio, limit, std::to_string(c.n)});
        break;
      }
      case ExerciseCheck::Kind::sectors_per_request: {
        o.pass = true;
        double most = 0;
        for (std::size_t s = 0; s < t.steps.size() && o.pass; ++s) {
          const StepStats& x = t.steps[s].stats;
          const std::uint64_t requests = x.gmem_load_requests + x.gmem_store_requests;
          if (requests == 0) continue;
          const double per = double(x.gmem_load_sectors + x.gmem_store_sectors) / double(requests);
          most = std::max(most, per);
          if (per > c.limit + 1e-9) {
            o.pass = false;
            char figure[32];
            std::snprintf(figure, sizeof figure, "%.1f", per);
            o.text = trf("exercise.sectors.fail", {step_words(t, s), figure, std::to_string(int(c.limit)),
                                                   worst_access(t, s, Space::global, sources)});
          }
        }
        if (o.pass) {
          char figure[32];
          std::snprintf(figure, sizeof figure, "%.1f", most);
          o.text = trf("exercise.sectors.pass", {figure, std::to_string(int(c.limit))});
        }
        if (t.fault && o.pass) {  // the steps before a fault say nothing of the rest
          o.pass = false;
          o.text = fault_summary(t);
        }
        break;
      }
    }
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace redlab::model
