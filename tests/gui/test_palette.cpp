// The window's colours: a warp's colour by its number in both palettes (vivid and colour-blind safe), the banks'.
// Run in the sanitizer build too, whose compiler once gave every warp the first colour.
#include <gtest/gtest.h>

#include <set>

#include "gui/shell/palette.h"

namespace redlab::gui {
namespace {

TEST(Palette, EightWarpsEightColoursInEitherPaletteThenAgain) {
  for (bool colorblind : {false, true}) {
    palette_set_colorblind(colorblind);
    std::set<ImU32> seen;
    for (unsigned w = 0; w < 8; ++w) {
      seen.insert(warp_color(w));
      EXPECT_EQ(warp_color(w + 8), warp_color(w)) << "warp " << w;
      EXPECT_EQ(warp_color(w, 0.5f) & 0x00FFFFFFu, warp_color(w) & 0x00FFFFFFu) << "warp " << w;
      EXPECT_EQ(warp_color(w) >> IM_COL32_A_SHIFT, 255u);
      EXPECT_EQ(warp_color(w, 0.5f) >> IM_COL32_A_SHIFT, 128u);
    }
    EXPECT_EQ(seen.size(), 8u) << (colorblind ? "colour-blind palette" : "vivid palette");
  }
  palette_set_colorblind(false);
  EXPECT_EQ(warp_color(0), IM_COL32(66, 133, 244, 255));  // the first warp's blue, which the pictures' checks look for
  EXPECT_EQ(warp_color(2), IM_COL32(251, 188, 5, 255));  // and the third's yellow
}

TEST(Palette, ThirtyTwoBanksThirtyTwoColours) {
  for (bool colorblind : {false, true}) {
    palette_set_colorblind(colorblind);
    std::set<ImU32> seen;
    for (unsigned b = 0; b < 32; ++b) seen.insert(bank_color(b));
    EXPECT_EQ(seen.size(), 32u) << (colorblind ? "colour-blind palette" : "vivid palette");
    EXPECT_EQ(bank_color(33), bank_color(1));
  }
  palette_set_colorblind(false);
}

}  // namespace
}  // namespace redlab::gui
