// Text drawn over text, found in a frame's draw data (the window must show nothing overlapping or clipped).
//
// Every glyph ImGui draws is one textured quad from the font atlas. The check collects those quads from the
// frame's draw lists, keeps what their clip rectangle lets through, and reports two glyphs of different text
// that cover each other: a label running into a value, a caption over a grid's marks. Glyphs of windows with
// different roots are not compared: a popup, tooltip or help overlay has its own background and hides what is
// under it. The screenshot tests run it on every shot (REDLAB_GUI_TEXT_CHECK=1).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

struct ImDrawData;
struct ImFontAtlas;

namespace redlab {

struct DrawnGlyph {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // the visible part, in window pixels (quad within its clip rectangle)
  float full_w = 0;  // the quad's own width: a visible width below it was cut by the clip
  unsigned codepoint = 0;  // 0 where the quad was cut so that the atlas entry is not recognised
  int root = 0;  // index of the root window (the owner name up to its first '/')
  int order = 0;  // drawing order, for the text around a glyph in a report
  float pen = 0, pen_after = 0;  // the pen's x before and after it (its font's advance), where recognised
  float space = 0;  // its font's space at the size drawn (0: not recognised)
  float scale = 0;  // the size drawn over the atlas font's own (the UI's type): 0.6 is 60 %
};

struct TextOverlap {
  int a = 0, b = 0;  // indices into the glyphs
  float fraction = 0;  // the overlap as a fraction of the smaller glyph's area
};

struct TextCheckResult {
  std::vector<DrawnGlyph> glyphs;
  std::vector<std::string> roots;
  std::vector<TextOverlap> overlaps;
  int cut_horizontally = 0;  // glyphs with part of their width outside their clip rectangle
  // "N glyphs, K overlaps" and, for each overlap (at most `limit`), the two pieces of text and where they are.
  std::string report(std::size_t limit = 10) const;
};

// Glyph quads of a frame, drawn with `atlas` (the font texture and its glyph table).
std::vector<DrawnGlyph> glyphs_of(const ImDrawData& data, const ImFontAtlas& atlas, std::vector<std::string>* roots);

// Pairs of glyphs under one root whose visible parts overlap by more than `min_fraction` of the smaller one.
// Neighbouring glyphs of one line touch or overlap by a pixel or two (a descender, a wide letter); a threshold of
// a quarter of a glyph stays clear of that and catches any text laid over other text. Two glyphs drawn one after
// the other, the second further right, are letters of one text and not compared (a narrow 'i' before a 'j' whose
// tail reaches back under it); the same glyph drawn twice at one place is not an overlap.
std::vector<TextOverlap> find_text_overlaps(const std::vector<DrawnGlyph>& glyphs, float min_fraction = 0.25f);

TextCheckResult check_text(const ImDrawData& data, const ImFontAtlas& atlas);

// The text a frame shows, as a reader would copy it: glyphs drawn one after the other on one line (same root window,
// level with each other, each to the right of the last) make a run, the pen moving on by half a space or more
// between two of them is a space, and each run is "root: text" (the root window's name: its title, and its id after
// "###" where it has one). Glyphs cut by their clip rectangle so that the atlas entry is not recognised read "?".
std::vector<std::string> text_runs(const std::vector<DrawnGlyph>& glyphs, const std::vector<std::string>& roots);

}  // namespace redlab
