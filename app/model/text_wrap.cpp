#include "model/text_wrap.h"

#include <cstddef>
#include <vector>

namespace redlab::model {

namespace {
// The UTF-8 sequence at s: its length and code point (a stray byte counts as one character).
int decode(const char* s, const char* end, char32_t* cp) {
  const unsigned char c = static_cast<unsigned char>(*s);
  int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  if (s + len > end) len = 1;
  char32_t v = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
  for (int i = 1; i < len; ++i) v = (v << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
  *cp = v;
  return len;
}
bool cjk(char32_t c) {
  return (c >= 0x2E80 && c <= 0x9FFF) ||  // radicals, CJK punctuation, kana, ideographs
         (c >= 0xF900 && c <= 0xFAFF) ||  // compatibility ideographs
         (c >= 0xFE30 && c <= 0xFE4F) ||  // compatibility forms
         (c >= 0xFF00 && c <= 0xFFEF) ||  // fullwidth forms
         (c >= 0x20000 && c <= 0x2FFFF);
}
// No line starts with these (closing punctuation, CJK and ASCII).
bool no_break_before(char32_t c) {
  switch (c) {
    case 0xFF0C:
    case 0x3002:
    case 0x3001:
    case 0xFF1B:
    case 0xFF1A:
    case 0xFF01:
    case 0xFF1F:
    case 0xFF09:
    case 0x300D:
    case 0x300F:
    case 0x300B:
    case 0x3009:
    case 0x3011:
    case 0x2026:
    case 0x201D:
    case 0x2019:
    case 0xFF05:
    case 0xFF3D:
    case 0xFF5D:
    case ')':
    case ']':
    case '}':
    case ',':
    case '.':
    case ';':
    case ':':
    case '!':
    case '?':
    case '%': return true;
    default: return false;
  }
}
// No line ends with these (opening punctuation).
bool no_break_after(char32_t c) {
  switch (c) {
    case 0xFF08:
    case 0x300C:
    case 0x300E:
    case 0x300A:
    case 0x3008:
    case 0x3010:
    case 0x201C:
    case 0x2018:
    case 0xFF3B:
    case 0xFF5B:
    case '(':
    case '[':
    case '{': return true;
    default: return false;
  }
}
}  // namespace

bool is_cjk(const char* s, int len) {
  char32_t c = 0;
  decode(s, s + len, &c);
  return cjk(c);
}

std::string wrap_text(const std::string& text, float width,
                      const std::function<float(const char*, const char*)>& advance) {
  struct Char {
    std::size_t at;
    int len;
    char32_t cp;
    float w;
  };
  std::string out;
  std::size_t para = 0;
  while (para <= text.size()) {
    const std::size_t nl = text.find('\n', para);
    const std::size_t para_end = nl == std::string::npos ? text.size() : nl;
    // One paragraph, character by character.
    std::vector<Char> cs;
    for (std::size_t i = para; i < para_end;) {
      Char c{i, 0, 0, 0};
      c.len = decode(text.data() + i, text.data() + para_end, &c.cp);
      c.w = advance(text.data() + i, text.data() + i + c.len);
      cs.push_back(c);
      i += std::size_t(c.len);
    }
    // A break is allowed before character k when...
    auto can_break_before = [&](std::size_t k) {
      if (k == 0 || k >= cs.size()) return false;
      const char32_t prev = cs[k - 1].cp, cur = cs[k].cp;
      if (cur == ' ' || no_break_before(cur) || no_break_after(prev)) return false;
      if (prev == ' ') return true;
      if (cjk(prev) || cjk(cur)) return true;
      return prev == '-' || prev == '/' || prev == ',' || prev == '.' || prev == ';' || prev == '!' || prev == '?';
    };
    std::size_t start = 0;
    while (start < cs.size()) {
      float w = 0;
      std::size_t k = start, last_break = 0;
      bool have_break = false;
      for (; k < cs.size(); ++k) {
        if (k > start && can_break_before(k)) {
          last_break = k;
          have_break = true;
        }
        // Trailing spaces do not count against the line.
        if (cs[k].cp != ' ' && w + cs[k].w > width && k > start) break;
        w += cs[k].w;
      }
      std::size_t end = k;
      if (k < cs.size()) {
        end = have_break ? last_break : k;
        // A word wider than the line is cut, but not right before closing punctuation.
        if (!have_break)
          while (end > start + 1 && no_break_before(cs[end].cp)) --end;
      }
      // The line without the spaces at the break.
      std::size_t trim = end;
      while (trim > start && cs[trim - 1].cp == ' ') --trim;
      const std::size_t b = cs[start].at, e = trim > start ? cs[trim - 1].at + std::size_t(cs[trim - 1].len) : b;
      out.append(text, b, e - b);
      start = end;
      while (start < cs.size() && cs[start].cp == ' ') ++start;
      if (start < cs.size()) out += '\n';
    }
    if (nl == std::string::npos) break;
    out += '\n';
    para = nl + 1;
  }
  return out;
}

}  // namespace redlab::model
