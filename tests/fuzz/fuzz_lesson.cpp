// libFuzzer target: a lesson file from anyone (a lecturer writes their own; `redlab gui --lesson F` and Lesson > Open
// read it), read as redlab reads it. The scenario words go to a stand-in for the command line's parser (the fuzz
// build has no CLI11): it takes `--kernel ID` of a catalog kernel and `--n` of digits, and refuses anything else,
// as the real one refuses what it does not know. Besides sanitizer reports, crashes and leaks, a failure is a lesson
// taken with a beat that shows no scenario, a text in only one language or with a control character, a question
// without its texts, or more beats or exercises than the reader allows.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/catalog.h"
#include "core/printable.h"
#include "model/lesson.h"

namespace {

void check(bool ok, const char* what, const std::string& text) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_lesson: %s: %s\n", what, redlab::printable(text).c_str());
  std::abort();
}

std::string stand_in_parser(const std::vector<std::string>& words, redlab::Scenario& s) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i + 1 == words.size()) return "'" + words[i] + "' takes a value";
    const std::string& v = words[++i];
    if (words[i - 1] == "--kernel") {
      if (!redlab::find_kernel(v)) return "--kernel: '" + v + "' is not a kernel redlab has";
      s.kernel = v;
    } else if (words[i - 1] == "--n") {
      if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) return "--n: not a size";
      s.n = std::stoull(v);
    } else {
      return "'" + words[i - 1] + "' is not an option";
    }
  }
  if (s.kernel.empty()) s.kernel = "interleaved";
  return "";
}

void whole(const redlab::model::LessonText& t, const char* what) {
  check(!t.en.empty() && !t.zh.empty(), what, t.en + " / " + t.zh);
  check(redlab::printable(t.en) == t.en && redlab::printable(t.zh) == t.zh, what, t.en + " / " + t.zh);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace redlab::model;
  Lesson l;
  const std::string why =
      parse_lesson(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.lesson", stand_in_parser, l);
  (void)redlab::printable(why);
  if (!why.empty()) {
    check(l.name.empty() && l.beats.empty(), "a refused lesson left something behind", why);
    return 0;
  }
  check(!l.name.empty() && l.name.size() <= 40, "a lesson without a good name", l.name);
  whole(l.title, "a title in one language, or with a control character");
  check(!l.beats.empty() && l.beats.size() <= kLessonMaxBeats, "beats out of bounds", std::to_string(l.beats.size()));
  for (const LessonBeat& b : l.beats) {
    check(b.a.has_value() && !b.a->kernel.empty(), "a beat without a scenario", std::to_string(b.line));
    whole(b.say, "a beat's narration in one language");
    check(b.warp >= -1 && b.warp < 32 && b.bank >= -1 && b.bank < 32, "a warp or bank out of range",
          std::to_string(b.line));
    if (b.question) {
      whole(b.question->text, "a question in one language");
      whole(b.question->explain, "an explanation in one language");
      const auto& figures = lesson_figures();
      check(std::find(figures.begin(), figures.end(), b.question->figure) != figures.end(), "an unknown figure",
            b.question->figure);
      check(!b.question->compare || b.b.has_value(), "a comparison without B", std::to_string(b.line));
    }
  }
  check(l.exercises.size() <= 20, "too many exercises", std::to_string(l.exercises.size()));
  for (const LessonExercise& e : l.exercises) {
    whole(e.title, "an exercise's title in one language");
    whole(e.task, "an exercise's task in one language");
    check(!e.checks.empty() && e.checks.size() <= 10, "an exercise's checks out of bounds", e.name);
    check(redlab::find_kernel(e.from) != nullptr, "an exercise from no kernel", e.from);
  }
  return 0;
}
