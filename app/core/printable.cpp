#include "printable.h"

#include <cstdio>

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
    } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {   // C1: U+0080..U+009F
      std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned char>(text[i + 1]));
      out += code;
      i += 2;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace redlab
