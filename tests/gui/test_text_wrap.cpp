// Line breaking in English and Chinese (app/model/text_wrap.h), with a fixed-width measure: an ASCII character is
// 1 wide, a CJK character 2 (as the UI's fonts draw them, about).
#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "model/text_wrap.h"

using namespace redlab::model;

namespace {
float advance(const char* b, const char* e) { return is_cjk(b, int(e - b)) ? 2.0f : 1.0f; }
float width_of(const std::string& line) {
  float w = 0;
  for (std::size_t i = 0; i < line.size();) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    const int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    w += advance(line.data() + i, line.data() + i + len);
    i += std::size_t(len);
  }
  return w;
}
std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}
std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& l : v) s += l;
  return s;
}
}  // namespace

TEST(TextWrap, ChineseWithoutSpacesBreaksBetweenCharactersWithinTheWidth) {
  const std::string zh =
      "每一列是一个存储体（存储体编号等于字地址除以三十二的余数），每一行是该存储体中的一个不同的字。";
  const auto ls = lines(wrap_text(zh, 20, advance));
  ASSERT_GT(ls.size(), 3u);
  for (const auto& l : ls) EXPECT_LE(width_of(l), 20.0f) << l;
  // Every line but the last is full to within one character: no line is cut short at a rare space.
  for (std::size_t i = 0; i + 1 < ls.size(); ++i) EXPECT_GE(width_of(ls[i]), 16.0f) << ls[i];
  EXPECT_EQ(joined(ls), zh);  // nothing lost or added but the breaks
}

TEST(TextWrap, NoLineStartsWithClosingOrEndsWithOpeningPunctuation) {
  const std::string zh =
      "线程束（warp）中的三十二个线程，同时执行同一条指令。当它们的地址落在同一个存储体时，访问会被拆成几次。";
  for (float w : {7.0f, 9.0f, 11.0f, 13.0f, 17.0f, 23.0f}) {
    for (const auto& l : lines(wrap_text(zh, w, advance))) {
      ASSERT_FALSE(l.empty());
      for (const char* closing : {"，", "。", "）", "、"})
        EXPECT_NE(l.rfind(closing, 0), 0u) << "width " << w << ": " << l;
      EXPECT_FALSE(l.size() >= 3 && l.compare(l.size() - 3, 3, "（") == 0) << "width " << w << ": " << l;
    }
  }
}

TEST(TextWrap, EnglishBreaksAtSpacesAndDropsThem) {
  const std::string en = "Columns are the 32 banks; each row is one distinct word in that bank.";
  const auto ls = lines(wrap_text(en, 24, advance));
  EXPECT_EQ(ls.front(), "Columns are the 32");
  for (const auto& l : ls) {
    EXPECT_LE(width_of(l), 24.0f) << l;
    EXPECT_NE(l.front(), ' ');
    EXPECT_NE(l.back(), ' ');
  }
}

TEST(TextWrap, MixedTextAndLongWordsAndExistingBreaks) {
  // A word longer than the line is cut; existing line breaks stay; mixed Chinese and English breaks at both.
  const auto cut = lines(wrap_text("abcdefghijklmnopqrstuvwxyz", 10, advance));
  ASSERT_EQ(cut.size(), 3u);
  EXPECT_EQ(cut[0], "abcdefghij");
  const auto kept = lines(wrap_text("one\ntwo", 100, advance));
  ASSERT_EQ(kept.size(), 2u);
  const auto mixed = lines(wrap_text("共享内存 bank 冲突的次数 wavefronts 越多越慢", 12, advance));
  for (const auto& l : mixed) EXPECT_LE(width_of(l), 12.0f) << l;
  EXPECT_EQ(wrap_text("", 10, advance), "");
}
