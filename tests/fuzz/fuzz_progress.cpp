// libFuzzer target: the lessons' progress file (lessons.json in the user's data folder), which anyone with the
// user's rights may have changed, read for a lesson of four beats (questions at beats 1 and 3) as the window reads
// it at a lesson's opening, then saved and forgotten as the window and `lesson reset` do. Besides sanitizer
// reports, crashes and leaks, a failure is progress outside the lesson (a beat it does not have, an answer to a
// beat that asks nothing, an answer too long or with a control character), a save that is not read back as it
// was saved, or a forgotten lesson still there.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/printable.h"
#include "model/lesson.h"
#include "model/lesson_progress.h"

namespace {

void check(bool ok, const char* what, const std::string& text) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_progress: %s: %s\n", what, redlab::printable(text.substr(0, 200)).c_str());
  std::abort();
}

redlab::model::Lesson four_beats() {
  redlab::model::Lesson l;
  l.name = "mine";
  l.beats.resize(4);
  l.beats[1].question.emplace();
  l.beats[3].question.emplace();
  return l;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace redlab::model;
  static const Lesson l = four_beats();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::optional<LessonProgress> kept = progress_from_text(text, l);
  LessonProgress p;
  if (kept) {
    p = *kept;
    check(p.beat >= 0 && p.beat < int(l.beats.size()), "a beat the lesson does not have", std::to_string(p.beat));
    for (const auto& [beat, answer] : p.answers) {
      check(beat >= 0 && beat < int(l.beats.size()) && l.beats[std::size_t(beat)].question, "an answer to no question",
            std::to_string(beat));
      check(answer.size() <= kProgressMaxAnswer, "an answer longer than the field", answer);
      check(redlab::printable(answer) == answer, "an answer with a control character or a broken character", answer);
      check(p.revealed.count(beat) == 1, "an answered figure still hidden", std::to_string(beat));
    }
    for (const int beat : p.revealed)
      check(beat >= 0 && beat < int(l.beats.size()), "a revealed beat the lesson does not have", std::to_string(beat));
  }
  // Saved over the file as it is, read back as it was saved, and kept within the reader's bounds.
  const std::string saved = progress_text_with(text, l.name, p);
  check(saved.size() <= kProgressMaxBytes, "a saved file the reader would refuse", std::to_string(saved.size()));
  const std::optional<LessonProgress> back = progress_from_text(saved, l);
  check(back.has_value() && *back == p, "the saved progress read back otherwise", saved);
  std::size_t forgotten = 0;
  const std::string without = progress_text_without(saved, l.name, &forgotten);
  check(forgotten == 1 && !progress_from_text(without, l), "a forgotten lesson still kept", without);
  const std::string none = progress_text_without(saved, "", &forgotten);
  check(forgotten >= 1 && forgotten <= kProgressMaxLessons, "more lessons kept than the file allows",
        std::to_string(forgotten));
  (void)progress_text_without(none, "", &forgotten);
  check(forgotten == 0, "a reset file keeps lessons", none);
  return 0;
}
