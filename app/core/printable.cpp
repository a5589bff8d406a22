#include "core/printable.h"

#include <cstdarg>
#include <cstdio>
#include <vector>

namespace redlab {

namespace {
// The length of the UTF-8 sequence at text[i] (2 to 4), or 0 where it is not one.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const unsigned char c = static_cast<unsigned char>(text[i]);
  const std::size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? (c <= 0xEF ? 3 : 0) : c >= 0xC2 && c <= 0xDF ? 2 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  return n;
}
// The controls that reorder text shown after them (a right-to-left override makes "evil\u202Etxt.cu" read as
// "eviluc.txt"): the marks, embeddings, overrides and isolates of Unicode's bidirectional algorithm.
bool is_bidi_control(unsigned cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}
}  // namespace

std::string printable(std::string_view text, bool keep_lines) {
  std::string out;
  out.reserve(text.size());
  char code[8];
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c < 0x20 && !(keep_lines && (c == '\n' || c == '\t'))) || c == 0x7F) {
        std::snprintf(code, sizeof code, "\\x%02x", c);
        out += code;
      } else {
        out += char(c);
      }
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      std::snprintf(code, sizeof code, "\\x%02x", c);
      out += code;
      ++i;
    } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {  // C1: U+0080..U+009F
      std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned char>(text[i + 1]));
      out += code;
      i += 2;
    } else if (const unsigned cp = n == 2 ? (c & 0x1Fu) << 6 | (static_cast<unsigned char>(text[i + 1]) & 0x3Fu)
                                   : n == 3
                                       ? (c & 0x0Fu) << 12 | (static_cast<unsigned char>(text[i + 1]) & 0x3Fu) << 6 |
                                             (static_cast<unsigned char>(text[i + 2]) & 0x3Fu)
                                       : 0;
               is_bidi_control(cp)) {
      std::snprintf(code, sizeof code, "\\u%04x", cp);
      out += code;
      i += n;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

void print_message(std::FILE* out, const char* format, ...) {
  std::va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  if (n < 0) {
    va_end(again);
    return;
  }
  std::vector<char> text(std::size_t(n) + 1);
  std::vsnprintf(text.data(), text.size(), format, again);
  va_end(again);
  std::fputs(printable(std::string_view(text.data(), std::size_t(n)), true).c_str(), out);
}

}  // namespace redlab
