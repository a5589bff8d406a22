#include "model/lesson.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <system_error>
#include <utility>

#include "core/catalog.h"
#include "core/family.h"
#include "core/kernel_source.h"
#include "core/occupancy.h"
#include "core/file_write.h"
#include "core/printable.h"
#include "core/resources.h"
#include "core/stats_json.h"
#include "model/i18n.h"
#include "model/layout.h"

namespace redlab::model {

namespace {

// The views a beat may look at: the layouts' panes (not the lesson's own panel, nor the floating windows).
const std::vector<ViewId> kLookableViews = {ViewId::tree,    ViewId::banks,    ViewId::warps,  ViewId::metrics,
                                            ViewId::code,    ViewId::tile,     ViewId::ring,   ViewId::timings,
                                            ViewId::compare, ViewId::scenario, ViewId::cluster};

std::optional<ViewId> lookable_view(const std::string& key) {
  for (ViewId v : kLookableViews)
    if (key == v.key()) return v;
  return std::nullopt;
}

std::string trimmed(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e + 1 - b);
}

// A step's figures, as `stats --json` names them (core/stats_json.cpp), and the summary's.
const std::vector<std::string> kStepFigures = {
    "active_threads",         "active_warps",         "divergent_warps",       "smem_load_requests",
    "smem_load_wavefronts",   "smem_store_requests",  "smem_store_wavefronts", "gmem_load_requests",
    "gmem_load_sectors",      "gmem_store_requests",  "gmem_store_sectors",    "smem_atomic_requests",
    "smem_atomic_wavefronts", "gmem_atomic_requests", "gmem_atomic_sectors",   "dsmem_load_requests",
    "dsmem_load_bytes",       "dsmem_store_requests", "dsmem_store_bytes"};
const std::vector<std::string> kSummaryFigures = {
    "tree_simd_efficiency", "tree_active_threads",     "tree_active_warps",         "tree_steps",
    "smem_requests",        "smem_wavefronts",         "smem_ideal_wavefronts",     "gmem_requests",
    "gmem_sectors",         "most_bytes_sent_per_gpu", "lower_bound_bytes_per_gpu", "dsmem_requests",
    "dsmem_bytes"};
// The first launch's occupancy (core/occupancy.h), as `stats --json` gives it under "occupancy": the blocks one SM
// holds at once and, for a cluster kernel, the most clusters the card holds at once.
const std::vector<std::string> kOccupancyFigures = {"blocks_per_sm", "clusters_at_most"};
// The card's limits the occupancy is of: the GPU's, or the reference card's on the emulator.
const std::vector<std::string> kCardNumbers = {"sms", "max_threads_per_sm", "max_blocks_per_sm"};

bool valid_name(const std::string& s) {
  return !s.empty() && s.size() <= 40 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::islower((unsigned char)c) || std::isdigit((unsigned char)c) || c == '_';
  });
}

// A whole number in [lo, hi] from the file, or nullopt.
std::optional<int> whole(const std::string& s, int lo, int hi) {
  if (s.empty() || s.size() > 6 ||
      !std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit((unsigned char)c); }))
    return std::nullopt;
  const int v = std::stoi(s);
  return v >= lo && v <= hi ? std::optional<int>(v) : std::nullopt;
}

std::vector<std::string> words_of(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The figure's value in `stats --json`'s words at step `step`: a step's, the summary's, or the result.
const nlohmann::json* figure_value(const nlohmann::json& stats, const std::string& figure, int step) {
  if (figure == "result") return stats.contains("result") ? &stats.at("result") : nullptr;
  if (is_step_figure(figure)) {
    const auto& steps = stats.at("steps");
    if (step < 0 || std::size_t(step) >= steps.size() || !steps[std::size_t(step)].contains(figure)) return nullptr;
    return &steps[std::size_t(step)].at(figure);
  }
  if (is_occupancy_figure(figure)) {
    const auto& o = stats.at("occupancy");
    return o.is_object() && o.contains(figure) && !o.at(figure).is_null() ? &o.at(figure) : nullptr;
  }
  const auto& summary = stats.at("summary");
  return summary.contains(figure) && !summary.at(figure).is_null() ? &summary.at(figure) : nullptr;
}

std::string answer_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::optional<double> parse_number(std::string s) {
  s = trimmed(s);
  double scale = 1;
  if (!s.empty() && s.back() == '%') {
    s.pop_back();
    scale = 0.01;
  }
  if (s.empty() || s.size() > 40) return std::nullopt;
  std::istringstream in(s);
  double v = 0;
  if (!(in >> v)) return std::nullopt;
  in >> std::ws;
  if (!in.eof()) return std::nullopt;
  return v * scale;
}

}  // namespace

const std::vector<std::string>& lesson_figures() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> v = kStepFigures;
    v.insert(v.end(), kSummaryFigures.begin(), kSummaryFigures.end());
    v.insert(v.end(), kOccupancyFigures.begin(), kOccupancyFigures.end());
    v.push_back("result");
    return v;
  }();
  return all;
}

bool is_step_figure(const std::string& f) {
  return std::find(kStepFigures.begin(), kStepFigures.end(), f) != kStepFigures.end();
}

bool is_occupancy_figure(const std::string& f) {
  return std::find(kOccupancyFigures.begin(), kOccupancyFigures.end(), f) != kOccupancyFigures.end();
}

const std::vector<std::string>& lesson_scenario_numbers() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v = {"n", "block", "grid", "warps_per_block", "rows", "cols", "gpus", "cluster"};
    v.insert(v.end(), kCardNumbers.begin(), kCardNumbers.end());
    return v;
  }();
  return names;
}

bool is_card_number(const std::string& name) {
  return std::find(kCardNumbers.begin(), kCardNumbers.end(), name) != kCardNumbers.end();
}

namespace {

std::string ref_text(const LessonRefTerm& t) {
  return std::string(1, t.side) + "." + t.name + (t.step.empty() ? "" : "@" + t.step);
}
std::string ref_text(const LessonRef& r) {
  return r.answer ? "answer" : ref_text(r.x) + (r.over ? " / " + ref_text(*r.over) : "");
}

std::string parse_ref_term(const std::string& in, LessonRefTerm& t) {
  const std::string s = trimmed(in);
  if (s.size() < 3 || (s[0] != 'a' && s[0] != 'b') || s[1] != '.')
    return "'" + s + "': a reference is {answer}, {a.FIGURE}, {b.FIGURE}, {a.FIGURE@STEP} or {X / Y}";
  t.side = s[0];
  const std::size_t at = s.find('@');
  t.name = trimmed(s.substr(2, at == std::string::npos ? std::string::npos : at - 2));
  t.step = at == std::string::npos ? std::string() : trimmed(s.substr(at + 1));
  if (at != std::string::npos && t.step.empty()) return "'" + s + "': a step after '@'";
  const auto& figures = lesson_figures();
  const auto& numbers = lesson_scenario_numbers();
  const bool scenario = std::find(numbers.begin(), numbers.end(), t.name) != numbers.end();
  if (!scenario && std::find(figures.begin(), figures.end(), t.name) == figures.end()) {
    std::string list;
    for (const std::string& f : figures) list += (list.empty() ? "" : ", ") + f;
    for (const std::string& f : numbers) list += ", " + f;
    return "'" + s + "': no figure '" + t.name + "' (one of: " + list + ")";
  }
  if (scenario && !t.step.empty()) return "'" + s + "': the scenario's " + t.name + " has no step";
  return "";
}

}  // namespace

std::string parse_lesson_refs(const std::string& text, std::vector<LessonRef>& out) {
  out.clear();
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '}') return "a '}' without its '{' (a reference is {a.FIGURE})";
    if (text[i] != '{') continue;
    const std::size_t end = text.find_first_of("{}", i + 1);
    if (end == std::string::npos || text[end] != '}') return "a '{' without its '}' (a reference is {a.FIGURE})";
    const std::string inner = trimmed(text.substr(i + 1, end - i - 1));
    LessonRef r;
    if (inner == "answer") {
      r.answer = true;
    } else {
      const std::size_t slash = inner.find('/');
      if (std::string why = parse_ref_term(inner.substr(0, slash), r.x); !why.empty()) return why;
      if (slash != std::string::npos) {
        r.over.emplace();
        if (std::string why = parse_ref_term(inner.substr(slash + 1), *r.over); !why.empty()) return why;
      }
    }
    if (out.size() == 64) return "more than 64 references in one text";
    out.push_back(r);
    i = end;
  }
  return "";
}

std::string unfilled_lesson_text(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t end = text[i] == '{' ? text.find('}', i) : std::string::npos;
    if (end == std::string::npos) {
      out += text[i];
      continue;
    }
    out += "\u2026";
    i = end;
  }
  return out;
}

namespace {

// A figure's value as a student reads it: a count as it is, a fraction to two figures ("0.66"), a ratio of counts
// that comes out whole as the whole number ("4").
std::string number_text(double v) {
  if (!std::isfinite(v)) return "?";
  if (std::floor(v) == v && std::fabs(v) < 1e15) return std::to_string((long long)v);
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 10 ? "%.0f" : "%.2g", v);
  return buf;
}

// The numbers a beat's references read: A's and B's `stats --json`, computed once.
class BeatFigures {
 public:
  BeatFigures(const LessonBeat& beat, const Trace& a, const Trace* b) : beat_(beat), trace_{&a, b} {}
  // The term's value, or nullopt with `why` (naming the term, or `who` where it is given: "A").
  std::optional<nlohmann::json> value(const LessonRefTerm& t, std::string* why, const std::string& who = "") const {
    const std::string said = who.empty() ? "{" + ref_text(t) + "}" : who;
    const int side = t.side == 'b' ? 1 : 0;
    const Trace* tr = trace_[side];
    if (!tr) {
      if (why) *why = said + ": this beat shows no B";
      return std::nullopt;
    }
    if (t.name == "n") return nlohmann::json(tr->scenario.n);
    if (t.name == "block") return nlohmann::json(tr->block);
    if (t.name == "grid") return nlohmann::json(tr->grid);
    if (t.name == "warps_per_block") return nlohmann::json(tr->warps_per_block);
    if (t.name == "rows") return nlohmann::json(tr->scenario.rows);
    if (t.name == "cols") return nlohmann::json(tr->scenario.cols);
    if (t.name == "gpus") return nlohmann::json(tr->gpus);
    // The blocks per cluster (1: no clusters) and the card's limits, from the occupancy.
    if (t.name == "cluster" || is_card_number(t.name)) {
      if (!tr->occupancy) {
        if (why) *why = said + ": the trace has no occupancy";
        return std::nullopt;
      }
      const Occupancy& o = *tr->occupancy;
      if (t.name == "cluster") return nlohmann::json(o.cluster);
      return nlohmann::json(t.name == "sms"                  ? o.sm.sms
                            : t.name == "max_threads_per_sm" ? o.sm.max_threads_per_sm
                                                             : o.sm.max_blocks_per_sm);
    }
    LessonBeat at = beat_;
    if (!t.step.empty()) at.step = t.step;
    std::string step_why;
    const int step = lesson_step(at, *tr, &step_why);
    if (step < 0 && is_step_figure(t.name)) {
      if (why) *why = said + ": " + step_why;
      return std::nullopt;
    }
    if (!stats_[side]) stats_[side] = stats_json(*tr);
    const nlohmann::json* v = figure_value(*stats_[side], t.name, step);
    if (!v || v->is_null()) {
      if (why) *why = said + ": the trace has no " + t.name + (tr->fault ? " (it stopped at a fault)" : "");
      return std::nullopt;
    }
    return *v;
  }
  // The beat's question's answer: the figure at the beat's step, or for a comparison "A", "B" or "same" ("" with
  // `why`).
  std::string answer(std::string* why) const {
    if (!beat_.question) {
      if (why) *why = "the beat asks nothing";
      return "";
    }
    const LessonQuestion& q = *beat_.question;
    const auto va = value({'a', q.figure, ""}, why, "A");
    if (!va) return "";
    if (!q.compare) return answer_text(*va);
    if (!trace_[1]) {
      if (why) *why = "a comparison needs B's trace";
      return "";
    }
    const auto vb = value({'b', q.figure, ""}, why, "B");
    if (!vb) return "";
    if (!va->is_number() || !vb->is_number()) {
      if (why) *why = q.figure + " is not a number";
      return "";
    }
    const double x = va->get<double>(), y = vb->get<double>();
    return x > y ? "A" : y > x ? "B" : "same";
  }
  std::string ref_value(const LessonRef& r, bool chinese, std::string* why) const {
    if (r.answer) {
      const std::string given = answer(why);
      if (given.empty()) return "?";
      return given == "same" && chinese ? "相同" : given;  // the word lesson_answer_right takes
    }
    const auto x = value(r.x, why);
    if (!x) return "?";
    if (!r.over) return x->is_number() ? number_text(x->get<double>()) : answer_text(*x);
    const auto y = value(*r.over, why);
    if (!y) return "?";
    if (!x->is_number() || !y->is_number() || y->get<double>() == 0) {
      if (why) *why = "{" + ref_text(r) + "}: not a ratio of two numbers (or over zero)";
      return "?";
    }
    return number_text(x->get<double>() / y->get<double>());
  }
  std::string fill(const std::string& text, bool chinese, std::string* why) const {
    std::vector<LessonRef> refs;
    if (!parse_lesson_refs(text, refs).empty()) return text;  // (the reader refused such a text)
    std::string out;
    std::size_t k = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '{') {
        out += text[i];
        continue;
      }
      std::string ref_why;
      out += ref_value(refs[k++], chinese, &ref_why);
      if (!ref_why.empty() && why && why->empty()) *why = ref_why;
      i = text.find('}', i);
    }
    return out;
  }

 private:
  const LessonBeat& beat_;
  const Trace* trace_[2];
  mutable std::optional<nlohmann::json> stats_[2];  // `stats --json` of each trace, once it is read
};

}  // namespace

std::vector<std::pair<std::string, double>> lesson_beat_figures(const LessonBeat& beat, const Trace& a,
                                                                const Trace* b) {
  const BeatFigures figures(beat, a, b);
  std::vector<std::pair<std::string, double>> out;
  if (beat.question && !beat.question->compare)
    if (const auto v = parse_number(figures.answer(nullptr))) out.emplace_back("answer", *v);
  for (const char side : {'a', 'b'}) {
    if (side == 'b' && !b) break;
    for (const std::string& f : lesson_scenario_numbers())
      if (const auto v = figures.value({side, f, ""}, nullptr); v && v->is_number())
        out.emplace_back(std::string(1, side) + "." + f, v->get<double>());
    for (const std::string& f : lesson_figures()) {
      if (const auto v = figures.value({side, f, ""}, nullptr); v && v->is_number())
        out.emplace_back(std::string(1, side) + "." + f, v->get<double>());
    }
    for (const char* space : {"smem_load_wavefronts / smem_load_requests", "gmem_load_sectors / gmem_load_requests",
                              "gmem_store_sectors / gmem_store_requests"}) {
      const std::string ratio(space);
      const std::size_t slash = ratio.find(" / ");
      const auto x = figures.value({side, ratio.substr(0, slash), ""}, nullptr);
      const auto y = figures.value({side, ratio.substr(slash + 3), ""}, nullptr);
      if (x && y && x->is_number() && y->is_number() && y->get<double>() > 0)
        out.emplace_back(
            std::string(1, side) + "." + ratio.substr(0, slash) + " / " + side + "." + ratio.substr(slash + 3),
            x->get<double>() / y->get<double>());
    }
  }
  return out;
}

LessonBeatTexts fill_beat_texts(const LessonBeat& beat, const Trace& a, const Trace* b, std::string* why) {
  const BeatFigures figures(beat, a, b);
  LessonBeatTexts out;
  out.say = {figures.fill(beat.say.en, false, why), figures.fill(beat.say.zh, true, why)};
  if (beat.question) {
    out.ask = {figures.fill(beat.question->text.en, false, why), figures.fill(beat.question->text.zh, true, why)};
    out.explain = {figures.fill(beat.question->explain.en, false, why),
                   figures.fill(beat.question->explain.zh, true, why)};
  }
  return out;
}

std::string read_lesson(const std::string& path, const ScenarioWordsParser& parse, Lesson& out) {
  std::string text;
  if (std::string why = read_small_file(path, kLessonMaxBytes, "a lesson", &text); !why.empty()) return why;
  return parse_lesson(text, path, parse, out);
}

std::string parse_lesson(std::string_view text_in, const std::string& path, const ScenarioWordsParser& parse,
                         Lesson& out) {
  if (text_in.size() > kLessonMaxBytes)
    return "'" + printable(path) + "' has " + std::to_string(text_in.size()) + " bytes; a lesson has at most " +
           std::to_string(kLessonMaxBytes);
  const std::string text(text_in);
  Lesson l;
  l.path = path;
  std::set<std::string> seen;  // the keys of the lesson's head, or of the current beat
  std::map<std::string, int> at_line;  // where each key of the current beat was
  LessonBeat* beat = nullptr;
  std::optional<Scenario> a, b;  // what the beats so far show
  std::string a_words, b_words;
  int question_line = 0;
  std::string ask;  // the current beat's `ask:`, checked when the beat ends

  // A beat's texts name figures by reference, the same ones in both languages; {answer} only where it is read after
  // the answer (the explanation), and nothing shown before it names the figure `asked` asks for, at the step asked.
  auto check_refs = [&](const char* key, const std::string& en, const std::string& zh,
                        const LessonQuestion* asked) -> std::string {
    std::vector<LessonRef> refs_en, refs_zh;
    const std::string k(key);
    const std::string at_en = "line " + std::to_string(at_line[k + ".en"]) + ": " + k + ".en: ";
    const std::string at_zh = "line " + std::to_string(at_line[k + ".zh"]) + ": " + k + ".zh: ";
    if (std::string why = parse_lesson_refs(en, refs_en); !why.empty()) return at_en + why;
    if (std::string why = parse_lesson_refs(zh, refs_zh); !why.empty()) return at_zh + why;
    std::multiset<std::string> names_en, names_zh;
    for (const LessonRef& r : refs_en) names_en.insert(ref_text(r));
    for (const LessonRef& r : refs_zh) names_zh.insert(ref_text(r));
    if (names_en != names_zh) {
      std::string list_en, list_zh;
      for (const std::string& n : names_en) list_en += " {" + n + "}";
      for (const std::string& n : names_zh) list_zh += " {" + n + "}";
      return at_zh + "names other figures than " + k + ".en (en:" + (list_en.empty() ? " none" : list_en) +
             "; zh:" + (list_zh.empty() ? " none" : list_zh) + ")";
    }
    const bool before_answer = k != "explain";
    for (const LessonRef& r : refs_en) {
      if (r.answer && before_answer)
        return at_en + "{answer} is read before the student answers (it belongs in explain.en and explain.zh)";
      if (!r.answer && !beat->b && (r.x.side == 'b' || (r.over && r.over->side == 'b')))
        return at_en + "{" + ref_text(r) + "}: this beat shows no B";
      if (!before_answer || !asked) continue;
      const LessonQuestion& q = *asked;
      for (const LessonRefTerm* t : {&r.x, r.over ? &*r.over : nullptr})
        if (t && t->name == q.figure && (q.compare || t->side == 'a') && (t->step.empty() || t->step == beat->step))
          return at_en + "{" + ref_text(*t) +
                 "} is the figure the question asks for: the student reads it before "
                 "answering (name it in explain.en and explain.zh)";
    }
    return "";
  };

  // A beat is whole: its narration in both languages, its question's texts with it (and only with a question).
  auto end_beat = [&]() -> std::string {
    if (!beat) return "";
    const std::string at = "line " + std::to_string(beat->line) + ": the beat ";
    if (beat->say.en.empty() || beat->say.zh.empty()) return at + "needs say.en and say.zh";
    const bool texts = at_line.count("ask.en") || at_line.count("ask.zh") || at_line.count("explain.en") ||
                       at_line.count("explain.zh");
    if (!beat->gallery.empty()) {
      if (!ask.empty() || texts)
        return at + "shows a gallery entry: it asks nothing (its kernel is compiled in the window only)";
      if (beat->say.en.find('{') != std::string::npos || beat->say.zh.find('{') != std::string::npos)
        return at +
               "shows a gallery entry: its narration writes no {figure} (no trace of it is made before the window)";
      return "";
    }
    if (ask.empty()) {
      if (std::string why = check_refs("say", beat->say.en, beat->say.zh, nullptr); !why.empty()) return why;
      if (texts) return at + "has a question's text (ask.en, explain.en ...) but no `ask:`";
      return "";
    }
    const std::string qat = "line " + std::to_string(question_line) + ": ask: ";
    LessonQuestion q;
    q.line = question_line;
    std::vector<std::string> w = words_of(ask);
    if (w.size() == 2 && w[0] == "more") {
      q.compare = true;
      w.erase(w.begin());
      if (!beat->b) return qat + "'more' compares A and B, and this beat shows no B (add `b: ...`)";
    }
    if (w.size() != 1) return qat + "one figure (as `divergent_warps`), or `more` and one figure";
    q.figure = w[0];
    const auto& figures = lesson_figures();
    if (std::find(figures.begin(), figures.end(), q.figure) == figures.end()) {
      std::string list;
      for (const std::string& fig : figures) list += (list.empty() ? "" : ", ") + fig;
      return qat + "no figure '" + printable(q.figure) + "' (one of: " + list + ")";
    }
    if (q.compare && q.figure == "result") return qat + "the result is not compared (ask for it on its own)";
    for (const char* k : {"ask.en", "ask.zh", "explain.en", "explain.zh"})
      if (!at_line.count(k)) return qat + "the question needs " + k;
    q.text = beat->question ? beat->question->text : LessonText{};
    q.explain = beat->question ? beat->question->explain : LessonText{};
    beat->question = q;
    if (std::string why = check_refs("say", beat->say.en, beat->say.zh, &q); !why.empty()) return why;
    if (std::string why = check_refs("ask", q.text.en, q.text.zh, &q); !why.empty()) return why;
    if (std::string why = check_refs("explain", q.explain.en, q.explain.zh, &q); !why.empty()) return why;
    return "";
  };

  LessonExercise* ex = nullptr;
  int words_line = 0;
  // An exercise is whole: where it starts, the scenario (checked as the command line checks it, with its kernel), both
  // languages, a check.
  auto end_exercise = [&]() -> std::string {
    if (!ex) return "";
    const std::string at = "line " + std::to_string(ex->line) + ": the exercise ";
    if (ex->from.empty()) return at + "needs `from:` (the catalog kernel the student's file starts as)";
    if (ex->a_words.empty()) return at + "needs `a:` (the scenario it runs on)";
    std::vector<std::string> words = words_of(ex->a_words);
    if (std::find(words.begin(), words.end(), "--kernel") != words.end() ||
        std::find(words.begin(), words.end(), "--source") != words.end())
      return "line " + std::to_string(words_line) + ": a: the kernel is the student's file (no --kernel or --source)";
    if (words.size() > kPlaylistMaxWords) return "line " + std::to_string(words_line) + ": a: too many words";
    words.insert(words.begin(), {"--kernel", ex->from});
    if (const std::string why = parse(words, ex->scenario); !why.empty())
      return "line " + std::to_string(words_line) + ": a: " + printable(why);
    if (ex->title.en.empty() || ex->title.zh.empty() || ex->task.en.empty() || ex->task.zh.empty())
      return at + "needs title.en, title.zh, task.en and task.zh";
    if (ex->checks.empty()) return at + "needs a check";
    return "";
  };

  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string at = "line " + std::to_string(number) + ": ";
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.size() > kLessonMaxLine) return at + "longer than " + std::to_string(kLessonMaxLine) + " bytes";
    const std::string t = trimmed(line);
    if (t.empty() || t[0] == '#') continue;
    if (t.rfind("exercise ", 0) == 0) {
      if (const std::string why = end_beat(); !why.empty()) return why;
      if (const std::string why = end_exercise(); !why.empty()) return why;
      if (l.name.empty()) return at + "an exercise before the lesson's name (`lesson: harris` first)";
      if (l.exercises.size() == 20) return at + "more than 20 exercises";
      const std::string name = trimmed(t.substr(9));
      if (!valid_name(name)) return at + "exercise: a name of lower-case letters, digits and '_' (at most 40)";
      if (l.exercise(name)) return at + "a second exercise '" + name + "'";
      beat = nullptr;
      l.exercises.emplace_back();
      ex = &l.exercises.back();
      ex->name = name;
      ex->line = number;
      seen.clear();
      at_line.clear();
      continue;
    }
    if (t == "beat") {
      if (const std::string why = end_beat(); !why.empty()) return why;
      if (const std::string why = end_exercise(); !why.empty()) return why;
      ex = nullptr;
      if (l.beats.size() == kLessonMaxBeats) return at + "more than " + std::to_string(kLessonMaxBeats) + " beats";
      if (l.name.empty()) return at + "a beat before the lesson's name (`lesson: harris` first)";
      l.beats.emplace_back();
      beat = &l.beats.back();
      beat->line = number;
      seen.clear();
      at_line.clear();
      ask.clear();
      question_line = 0;
      continue;
    }
    const std::size_t colon = t.find(':');
    if (colon == std::string::npos)
      return at + "`key: value` expected (or `beat`), not '" + printable(t.substr(0, 60)) + "'";
    const std::string key = trimmed(t.substr(0, colon)), value = printable(trimmed(t.substr(colon + 1)));
    if (key != "check" && !seen.insert(key).second)
      return at + "a second '" + printable(key) + "'" + (beat ? " in this beat" : ex ? " in this exercise" : "");
    at_line[key] = number;
    if (value.empty()) return at + printable(key) + ": no value";
    if (ex) {  // an exercise's keys
      if (key == "from") {
        const KernelRecord* k = find_kernel(value);
        if (!k || !k->traceable || k->host_only || k->gpu_only)
          return at + "from: '" + value + "' is not a catalog kernel with a traced build (redlab list)";
        ex->from = value;
      } else if (key == "a") {
        ex->a_words = value;
        words_line = number;
      } else if (key == "title.en" || key == "title.zh" || key == "task.en" || key == "task.zh") {
        LessonText& text = key.rfind("title", 0) == 0 ? ex->title : ex->task;
        (key.back() == 'n' ? text.en : text.zh) = value;
      } else if (key == "check") {
        if (ex->checks.size() == 10) return at + "more than 10 checks";
        const std::vector<std::string> w = words_of(value);
        ExerciseCheck c;
        c.line = number;
        if (w.size() == 1 && w[0] == "correct")
          c.kind = ExerciseCheck::Kind::correct;
        else if (w.size() == 1 && w[0] == "no_fault")
          c.kind = ExerciseCheck::Kind::no_fault;
        else if (w.size() == 1 && w[0] == "ideal_wavefronts")
          c.kind = ExerciseCheck::Kind::ideal_wavefronts;
        else if (w.size() == 2 && w[0] == "sectors_per_request" && whole(w[1], 1, 32)) {
          c.kind = ExerciseCheck::Kind::sectors_per_request;
          c.limit = *whole(w[1], 1, 32);
        } else if (w.size() == 3 && w[0] == "time_vs_cub" && parse_number(w[1]) && *parse_number(w[1]) >= 1 &&
                   *parse_number(w[1]) <= 100 && w[1].find('%') == std::string::npos && w[2].size() <= 10 &&
                   w[2].find_first_not_of("0123456789") == std::string::npos && std::stoull(w[2]) >= 1024 &&
                   std::stoull(w[2]) <= (1ull << 31)) {
          c.kind = ExerciseCheck::Kind::time_vs_cub;
          c.limit = *parse_number(w[1]);
          c.n = std::stoull(w[2]);
        } else {
          return at +
                 "check: correct, no_fault, ideal_wavefronts, sectors_per_request N (1 to 32) or time_vs_cub K N "
                 "(K from 1 to 100 times CUB's time, at N elements from 1024 to 2^31), not '" +
                 value + "'";
        }
        ex->checks.push_back(c);
      } else {
        return at + "'" + printable(key) +
               "' is not an exercise's key (from, a, title.en, title.zh, task.en, task.zh, check)";
      }
      continue;
    }
    if (!beat) {  // the lesson's head
      if (key == "lesson") {
        if (!valid_name(value)) return at + "lesson: a name of lower-case letters, digits and '_' (at most 40)";
        l.name = value;
      } else if (key == "note") {
        l.note = value;
      } else if (key == "title.en") {
        l.title.en = value;
      } else if (key == "title.zh") {
        l.title.zh = value;
      } else {
        return at + "'" + printable(key) + "' before the first beat (the head has lesson, note, title.en, title.zh)";
      }
      continue;
    }
    if (key == "a" || key == "b") {
      if (key == "b" && value == "none") {
        b.reset();
        b_words.clear();
      } else {
        Scenario sc;
        const std::vector<std::string> words = words_of(value);
        if (words.size() > kPlaylistMaxWords)
          return at + key + ": more than " + std::to_string(kPlaylistMaxWords) + " words";
        if (const std::string why = parse(words, sc); !why.empty()) return at + key + ": " + printable(why);
        (key == "a" ? a : b) = sc;
        (key == "a" ? a_words : b_words) = value;
      }
    } else if (key == "layout") {
      beat->layout = parse_layout(value);
      if (!beat->layout) return at + "layout: study, present or compare";
    } else if (key == "step") {
      beat->step = value;
    } else if (key == "look") {
      beat->look = lookable_view(value);
      if (!beat->look) {
        std::string names;
        for (ViewId v : kLookableViews)
          names += std::string(names.empty() ? "" : v == kLookableViews.back() ? " or " : ", ") + v.key();
        return at + "look: " + names;
      }
    } else if (key == "warp") {
      const auto v = whole(value, 0, 31);
      if (!v) return at + "warp: a warp of the block (0 to 31)";
      beat->warp = *v;
    } else if (key == "bank") {
      const auto v = whole(value, 0, 31);
      if (!v) return at + "bank: a bank column (0 to 31)";
      beat->bank = *v;
    } else if (key == "line") {
      const auto v = whole(value, 1, 100000);
      if (!v) return at + "line: a line of the kernel's file (from 1)";
      beat->source_line = *v;
    } else if (key == "gallery") {
      if (!valid_name(value)) return at + "gallery: a gallery entry's id (redlab's assets/gallery/gallery.json)";
      beat->gallery = value;
    } else if (key == "say.en") {
      beat->say.en = value;
    } else if (key == "say.zh") {
      beat->say.zh = value;
    } else if (key == "ask") {
      ask = value;
      question_line = number;
    } else if (key == "ask.en" || key == "ask.zh" || key == "explain.en" || key == "explain.zh") {
      if (!beat->question) beat->question.emplace();
      LessonText& text = key.rfind("ask", 0) == 0 ? beat->question->text : beat->question->explain;
      (key.back() == 'n' ? text.en : text.zh) = value;
    } else {
      return at + "'" + printable(key) +
             "' is not a beat's key (a, b, layout, step, look, warp, bank, line, gallery, "
             "say.en, say.zh, ask, ask.en, ask.zh, explain.en, explain.zh)";
    }
    if (key == "a" || key == "b") {
      // (B alone would compare with nothing)
      if (key == "b" && !a) return at + "b: comes after an `a:` (B is compared with A)";
    }
    if (!a) return at + "the first beat starts with `a:` (the scenario it shows)";
    beat->a = a;
    beat->a_words = a_words;
    beat->b = b;
    beat->b_words = b_words;
  }
  if (const std::string why = end_beat(); !why.empty()) return why;
  if (const std::string why = end_exercise(); !why.empty()) return why;
  if (l.name.empty()) return "'" + printable(path) + "' has no `lesson:` name";
  if (l.title.en.empty() || l.title.zh.empty()) return "'" + printable(path) + "' needs title.en and title.zh";
  if (l.beats.empty()) return "'" + printable(path) + "' has no beat";
  for (const LessonBeat& bt : l.beats)
    if (!bt.a) return "line " + std::to_string(bt.line) + ": the first beat starts with `a:` (the scenario it shows)";
  out = std::move(l);
  return "";
}

int lesson_step(const LessonBeat& beat, const Trace& t, std::string* why) {
  const int steps = int(t.steps.size());
  if (beat.step.empty()) return steps > 0 ? 0 : -1;
  if (const auto v = whole(beat.step, 0, 100000)) {
    if (*v < steps) return *v;
    if (why) *why = "step " + beat.step + ": the trace has steps 0 to " + std::to_string(steps - 1);
    return -1;
  }
  for (int s = 0; s < steps; ++s) {
    const Step& st = t.steps[std::size_t(s)];
    if (st.label == beat.step || std::string(redlab::to_string(st.phase)) + ": " + st.label == beat.step) return s;
  }
  if (why) {
    std::string labels;
    for (const Step& st : t.steps) labels += (labels.empty() ? "" : ", ") + st.label;
    *why = "step '" + beat.step + "': the trace's steps are " + labels;
  }
  return -1;
}

std::string lesson_answer(const LessonBeat& beat, const Trace& a, const Trace* b, std::string* why) {
  return BeatFigures(beat, a, b).answer(why);
}

std::string lesson_compared_figures(const LessonBeat& beat, const Trace& a, const Trace* b) {
  if (!beat.question || !beat.question->compare || !b) return "";
  const BeatFigures figures(beat, a, b);
  std::string out;
  for (const char side : {'a', 'b'}) {
    const auto v = figures.value({side, beat.question->figure, ""}, nullptr);
    if (!v || !v->is_number()) return "";
    const double x = v->get<double>();
    char text[48];
    if (std::floor(x) == x && std::fabs(x) < 1e15)
      std::snprintf(text, sizeof text, "%lld", (long long)x);
    else
      std::snprintf(text, sizeof text, "%.1f %%", x * 100);  // (a fraction: the SIMD efficiency)
    out += std::string(out.empty() ? "A " : " \u00b7 B ") + text;
  }
  return out;
}

bool lesson_answer_right(const std::string& answer, const std::string& given) {
  std::string g = trimmed(given);
  std::transform(g.begin(), g.end(), g.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (answer == "A" || answer == "B" || answer == "same") {
    if (answer == "same") return g == "same" || g == "equal" || g == "=" || g == "相同" || g == "一样";
    return g == (answer == "A" ? "a" : "b");
  }
  const auto want = parse_number(answer), got = parse_number(g);
  if (!want) return trimmed(answer) == trimmed(given);
  if (!got) return false;
  if (std::floor(*want) == *want && std::fabs(*want) < 1e15) {
    // A count: exactly; a percentage given for a count is not it.
    return *got == *want && g.find('%') == std::string::npos;
  }
  return std::fabs(*got - *want) <= std::max(0.005 * std::fabs(*want), 0.0005);
}

std::vector<std::string> shipped_lessons() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  const std::string dir = find_resource("assets/lessons");
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return out;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".lesson" && e.is_regular_file(ec)) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string find_lesson(const std::string& name_or_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (name_or_path.find('/') != std::string::npos || name_or_path.find(".lesson") != std::string::npos)
    return fs::is_regular_file(name_or_path, ec) ? name_or_path : std::string();
  // A file of that name here is the one meant (a lecturer's draft called `memory` beside the shipped memory lesson);
  // the commands print the path they read.
  if (fs::is_regular_file(name_or_path, ec)) return name_or_path;
  // A shipped lesson by its name: 001_harris.lesson is "harris" (and "001").
  for (const std::string& p : shipped_lessons()) {
    const std::string stem = fs::path(p).stem().string();
    const std::size_t u = stem.find('_');
    if (stem == name_or_path ||
        (u != std::string::npos && (stem.substr(u + 1) == name_or_path || stem.substr(0, u) == name_or_path)))
      return p;
  }
  return "";
}

}  // namespace redlab::model
