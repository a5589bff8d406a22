// Line breaking for the UI's paragraphs in English and Chinese. Dear ImGui 1.86 wraps only at spaces and
// after ASCII punctuation, so a Chinese sentence (no spaces) ran past the edge or broke at the one space it
// had, leaving a short line. Here a line may break where UAX #14 allows it for the text redlab shows: at a
// space (dropped at the break), after ASCII punctuation and hyphens, before and after each CJK character
// (ideographs, kana, CJK and fullwidth punctuation), but never before closing punctuation (，。、）」 ...) or
// after opening punctuation (（「 ...). A word wider than the line is cut. No ImGui here: the caller measures.
#pragma once
#include <functional>
#include <string>

namespace redlab::model {

// `text` with line breaks inserted so that no line is wider than `width`; `advance(begin, end)` is the width
// of one UTF-8 character. Existing line breaks stay.
std::string wrap_text(const std::string& text, float width,
                      const std::function<float(const char*, const char*)>& advance);

// Whether the UTF-8 character at `s` (length `len`) is CJK (a line may break before and after it).
bool is_cjk(const char* s, int len);

}  // namespace redlab::model
