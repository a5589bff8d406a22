#include "model/lesson_progress.h"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_read.h"
#include "core/printable.h"

namespace redlab::model {

namespace {

// The file's "lessons" object: empty where the text is not a progress file.
nlohmann::json kept_lessons(std::string_view text) {
  if (text.size() > kProgressMaxBytes) return nlohmann::json::object();
  try {
    nlohmann::json j = parse_json(text);
    if (j.is_object() && j.contains("lessons") && j.at("lessons").is_object()) return std::move(j["lessons"]);
  } catch (const std::exception&) {}
  return nlohmann::json::object();
}

// `s` cut to at most `max` bytes without splitting a UTF-8 sequence (the JSON writer refuses a split one).
std::string utf8_prefix(const std::string& s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

std::string progress_file_text(nlohmann::json lessons) {
  return nlohmann::json{{"lessons", std::move(lessons)}}.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

}  // namespace

std::optional<LessonProgress> progress_from_text(std::string_view text, const Lesson& l) {
  const nlohmann::json lessons = kept_lessons(text);
  const auto mine = lessons.find(l.name);
  if (mine == lessons.end() || !mine->is_object() || l.beats.empty()) return std::nullopt;
  const int beats = int(l.beats.size());
  LessonProgress p;
  if (const auto b = mine->find("beat"); b != mine->end() && b->is_number_integer())
    p.beat = int(std::clamp<long long>(b->get<long long>(), 0, beats - 1));
  if (const auto a = mine->find("answers"); a != mine->end() && a->is_object()) {
    for (const auto& [key, answer] : a->items()) {
      // The key as the writer writes it: the beat's decimal number, nothing before or after.
      if (key.empty() || key.size() > 4 || key.find_first_not_of("0123456789") != std::string::npos) continue;
      const int k = std::stoi(key);
      if (k >= beats || !l.beats[std::size_t(k)].question || !answer.is_string()) continue;
      const std::string kept = utf8_prefix(answer.get<std::string>(), kProgressMaxAnswer);
      if (printable(kept) != kept) continue;
      p.answers[k] = kept;
      p.revealed.insert(k);
    }
  }
  if (const auto r = mine->find("revealed"); r != mine->end() && r->is_array())
    for (const auto& k : *r)
      if (k.is_number_integer() && k.get<long long>() >= 0 && k.get<long long>() < beats)
        p.revealed.insert(int(k.get<long long>()));
  return p;
}

std::string progress_text_with(std::string_view text, const std::string& name, const LessonProgress& p) {
  nlohmann::json lessons = kept_lessons(text);
  if (lessons.size() >= kProgressMaxLessons) lessons = nlohmann::json::object();
  nlohmann::json answers = nlohmann::json::object();
  for (const auto& [beat, answer] : p.answers) answers[std::to_string(beat)] = utf8_prefix(answer, kProgressMaxAnswer);
  nlohmann::json mine = {{"beat", std::max(p.beat, 0)}, {"answers", std::move(answers)}, {"revealed", p.revealed}};
  lessons[name] = mine;
  std::string out = progress_file_text(lessons);
  if (out.size() > kProgressMaxBytes) out = progress_file_text(nlohmann::json{{name, std::move(mine)}});
  return out;
}

std::string progress_text_without(std::string_view text, const std::string& name, std::size_t* forgotten) {
  nlohmann::json lessons = kept_lessons(text);
  if (name.empty()) {
    *forgotten = lessons.size();
    lessons = nlohmann::json::object();
  } else {
    *forgotten = lessons.erase(name);
  }
  return progress_file_text(std::move(lessons));
}

}  // namespace redlab::model
