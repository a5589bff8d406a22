// The lessons' progress file (lessons.json in the user's data folder): per lesson, the beat it was left at, the
// answers given and the figures revealed. Kept between runs as a convenience, and a file anyone with the user's
// rights may have changed: read as untrusted text (core/json_read.h), every field checked against the lesson.
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "model/lesson.h"

namespace redlab::model {

// A progress file larger than this is not one redlab wrote (a lesson's entry is a few hundred bytes).
constexpr std::size_t kProgressMaxBytes = 1u << 20;
// Lessons kept at most: past it, the file is started again with the one being saved.
constexpr std::size_t kProgressMaxLessons = 200;
// An answer's bytes at most (the window's answer field is shorter).
constexpr std::size_t kProgressMaxAnswer = 64;

struct LessonProgress {
  int beat = 0;  // the beat shown last
  std::map<int, std::string> answers;  // beat -> what the student answered
  std::set<int> revealed;  // beats whose figure shows
  bool operator==(const LessonProgress&) const = default;
};

// Lesson `l`'s progress as the file's `text` keeps it; nullopt where the text keeps none for it or is not a progress
// file (not JSON, nested too deep, not of its shape). The beat is clamped to the lesson's; an answer to a beat the
// lesson does not have, or that asks nothing, or that is not printable text, is left out; an answer is cut to
// kProgressMaxAnswer bytes at a character's boundary.
std::optional<LessonProgress> progress_from_text(std::string_view text, const Lesson& l);
// The file's text with lesson `name`'s progress set to `p`, the other lessons' kept (while they are fewer than
// kProgressMaxLessons and the file stays within kProgressMaxBytes); a text that is not a progress file is replaced.
std::string progress_text_with(std::string_view text, const std::string& name, const LessonProgress& p);
// The file's text without lesson `name`'s progress ("": without any); `*forgotten`: how many lessons' went.
std::string progress_text_without(std::string_view text, const std::string& name, std::size_t* forgotten);

}  // namespace redlab::model
