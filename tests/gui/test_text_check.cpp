// The text-over-text check (app/gui/shell/text_check.h) on frames drawn by ImGui without a window: text laid over text
// is found and named, text side by side, a popup over a window, clipped text and one word's letters are not.
#include <gtest/gtest.h>
#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

#include "gui/shell/text_check.h"

namespace redlab {
namespace {

class TextCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(800, 600);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  void TearDown() override { ImGui::DestroyContext(ctx_); }

  TextCheckResult frame(const std::function<void()>& draw) {
    ImGui::NewFrame();
    draw();
    ImGui::Render();
    return check_text(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts);
  }
  static void window(const char* name, ImVec2 pos, const std::function<void()>& body) {
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(ImVec2(300, 200));
    ImGui::Begin(name, nullptr, ImGuiWindowFlags_NoTitleBar);
    body();
    ImGui::End();
  }

  ImGuiContext* ctx_ = nullptr;
};

TEST_F(TextCheck, TheFramesTextReadsAsRunsWithTheirSpacesAndWindows) {
  TextCheckResult r = frame([] {
    window("Tree", ImVec2(10, 10), [] {
      ImGui::TextUnformatted("active threads 1,024");
      ImGui::Text("SIMD %s", "17.0 %");
      ImGui::SameLine();
      ImGui::TextUnformatted("(2,040 / 12,032)");
      ImGui::TextUnformatted("sm_90");
    });
    window("Lesson###win.lesson", ImVec2(400, 10), [] { ImGui::TextUnformatted("two  words"); });
  });
  const std::vector<std::string> runs = text_runs(r.glyphs, r.roots);
  ASSERT_EQ(runs.size(), 4u) << ::testing::PrintToString(runs);
  EXPECT_EQ(runs[0], "Tree: active threads 1,024");
  EXPECT_EQ(runs[1], "Tree: SIMD 17.0 % (2,040 / 12,032)");  // SameLine: one run
  EXPECT_EQ(runs[2], "Tree: sm_90");  // '_' below the baseline stays on the line
  EXPECT_EQ(runs[3], "Lesson###win.lesson: two words");  // the root's name with its id; two spaces read as one
}

TEST_F(TextCheck, TextDrawnOverTextIsFoundAndNamed) {
  const TextCheckResult r = frame([] {
    window("Tree", ImVec2(10, 10), [] {
      ImGui::SetCursorPos(ImVec2(20, 40));
      ImGui::TextUnformatted("active threads");
      ImGui::SetCursorPos(ImVec2(40, 40));
      ImGui::TextUnformatted("128");
    });
  });
  ASSERT_FALSE(r.overlaps.empty()) << r.report();
  const std::string report = r.report();
  EXPECT_NE(report.find("in \"Tree\""), std::string::npos) << report;
  EXPECT_NE(report.find("act[i]ve threads"), std::string::npos) << report;
  EXPECT_NE(report.find("[1]28"), std::string::npos) << report;
}

TEST_F(TextCheck, TextSideBySideAndOneWordsLettersDoNotOverlap) {
  const TextCheckResult r = frame([] {
    window("Tree", ImVec2(10, 10), [] {
      ImGui::TextUnformatted("active threads");
      ImGui::SameLine();
      ImGui::TextUnformatted("128");
      ImGui::TextUnformatted("ijijij fjord lily ||| ... Wij");
      ImGui::TextUnformatted("second line, right under the first");
    });
  });
  EXPECT_GT(r.glyphs.size(), 60u);
  EXPECT_TRUE(r.overlaps.empty()) << r.report();
}

TEST_F(TextCheck, AWindowOverAnotherHidesItsTextRatherThanOverlappingIt) {
  const TextCheckResult r = frame([] {
    window("Tree", ImVec2(10, 10), [] { ImGui::TextUnformatted("under the popup"); });
    window("Popup", ImVec2(12, 12), [] { ImGui::TextUnformatted("over the tree"); });
  });
  EXPECT_EQ(r.roots.size(), 2u);
  EXPECT_TRUE(r.overlaps.empty()) << r.report();
}

TEST_F(TextCheck, TextOutsideItsClipIsNotDrawnAndTextCutAtASideIsCounted) {
  const TextCheckResult r = frame([] {
    window("Tree", ImVec2(10, 10), [] {
      ImDrawList* dl = ImGui::GetWindowDrawList();
      dl->PushClipRect(ImVec2(10, 10), ImVec2(60, 300));
      dl->AddText(ImVec2(20, 40), IM_COL32_WHITE, "cut at the right side of its clip");  // most of it clipped
      dl->AddText(ImVec2(200, 40), IM_COL32_WHITE, "outside");  // entirely clipped
      dl->AddText(ImVec2(200, 40), IM_COL32_WHITE, "outside");
      dl->PopClipRect();
    });
  });
  EXPECT_GT(r.cut_horizontally, 0);
  for (const DrawnGlyph& g : r.glyphs) EXPECT_LE(g.x1, 60.0f);
  EXPECT_TRUE(r.overlaps.empty()) << r.report();
}

TEST(TextOverlaps, AQuarterOfTheSmallerGlyphIsTheThreshold) {
  // Two 10x10 glyphs of different text (not consecutive in drawing order) overlapping by 2 px and then by 4 px.
  std::vector<DrawnGlyph> g(3);
  g[0] = {0, 0, 10, 10, 10, 'a', 0, 0};
  g[1] = {100, 0, 110, 10, 10, 'x', 0, 1};
  g[2] = {8, 0, 18, 10, 10, 'b', 0, 2};
  EXPECT_TRUE(find_text_overlaps(g).empty());
  g[2].x0 = 6;
  g[2].x1 = 16;
  ASSERT_EQ(find_text_overlaps(g).size(), 1u);
  EXPECT_NEAR(find_text_overlaps(g)[0].fraction, 0.4f, 1e-6);
  g[2].root = 1;  // another window's: hidden under it, not an overlap
  EXPECT_TRUE(find_text_overlaps(g).empty());
}

}  // namespace
}  // namespace redlab
