// Text drawn over text, from the frame's draw data (text_check.h).
#include "gui/shell/text_check.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <type_traits>
#include <utility>

namespace redlab {

namespace {

bool same_uv(const ImVec2& a, const ImVec2& b) { return a.x == b.x && a.y == b.y; }

// The atlas region of the baked anti-aliased lines: quads textured from it are lines, not text.
struct UvBox {
  float u0 = 1, v0 = 1, u1 = 0, v1 = 0;
  bool holds(const ImVec2& uv) const { return uv.x >= u0 && uv.x <= u1 && uv.y >= v0 && uv.y <= v1; }
};

UvBox lines_region(const ImFontAtlas& atlas) {
  UvBox box;
  if (atlas.Flags & ImFontAtlasFlags_NoBakedLines) return box;
  for (const ImVec4& l : atlas.TexUvLines) {
    box.u0 = std::min({box.u0, l.x, l.z});
    box.v0 = std::min({box.v0, l.y, l.w});
    box.u1 = std::max({box.u1, l.x, l.z});
    box.v1 = std::max({box.v1, l.y, l.w});
  }
  return box;
}

std::string utf8(unsigned c) {
  std::string s;
  if (c == 0) return "?";
  if (c < 0x80) {
    s += char(c);
  } else if (c < 0x800) {
    s += char(0xC0 | (c >> 6));
    s += char(0x80 | (c & 0x3F));
  } else {
    s += char(0xE0 | (c >> 12));
    s += char(0x80 | ((c >> 6) & 0x3F));
    s += char(0x80 | (c & 0x3F));
  }
  return s;
}

std::string root_of(const char* owner) {
  std::string name = owner ? owner : "";
  return name.substr(0, name.find('/'));
}

}  // namespace

std::vector<DrawnGlyph> glyphs_of(const ImDrawData& data, const ImFontAtlas& atlas, std::vector<std::string>* roots) {
  // The glyph table, by the top-left texture coordinate a quad carries when it is drawn whole: its character, where
  // its quad starts after the pen (X0), how wide the font draws it (X1 - X0), how far it moves the pen, and the
  // font's space.
  struct AtlasGlyph {
    unsigned codepoint;
    float x0, width, advance, space;
  };
  std::map<std::pair<float, float>, AtlasGlyph> by_uv;
  for (const ImFont* font : atlas.Fonts) {
    const ImFontGlyph* space = font->FindGlyphNoFallback(' ');
    const float space_advance = space ? space->AdvanceX : font->FontSize / 4;
    for (const ImFontGlyph& g : font->Glyphs)
      by_uv.emplace(std::make_pair(g.U0, g.V0),
                    AtlasGlyph{unsigned(g.Codepoint), g.X0, g.X1 - g.X0, g.AdvanceX, space_advance});
  }
  const UvBox lines = lines_region(atlas);
  std::vector<std::string> names;
  std::vector<DrawnGlyph> out;
  for (int l = 0; l < data.CmdListsCount; ++l) {
    const ImDrawList& list = *data.CmdLists[l];
    const std::string root = root_of(list._OwnerName);
    auto at = std::find(names.begin(), names.end(), root);
    const int root_index = int(at - names.begin());
    if (at == names.end()) names.push_back(root);
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback || cmd.TextureId != atlas.TexID) continue;
      const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
      const ImDrawVert* vtx = list.VtxBuffer.Data + cmd.VtxOffset;
      // A glyph is a quad written as (a, a+1, a+2, a, a+2, a+3), corners clockwise from its top left.
      for (unsigned i = 0; i + 6 <= cmd.ElemCount; i += 6) {
        const unsigned a = idx[i];
        if (idx[i + 1] != a + 1 || idx[i + 2] != a + 2 || idx[i + 3] != a || idx[i + 4] != a + 2 || idx[i + 5] != a + 3)
          continue;
        const ImDrawVert* q = vtx + a;
        const bool rect = q[0].pos.y == q[1].pos.y && q[1].pos.x == q[2].pos.x && q[2].pos.y == q[3].pos.y &&
                          q[3].pos.x == q[0].pos.x && q[2].pos.x > q[0].pos.x && q[2].pos.y > q[0].pos.y;
        if (!rect) continue;
        if (same_uv(q[0].uv, atlas.TexUvWhitePixel) && same_uv(q[2].uv, atlas.TexUvWhitePixel)) continue;
        if (lines.holds(q[0].uv) && lines.holds(q[2].uv)) continue;
        if (((q[0].col | q[2].col) & IM_COL32_A_MASK) == 0) continue;  // fully transparent
        DrawnGlyph g;
        g.x0 = std::max(q[0].pos.x, cmd.ClipRect.x);
        g.y0 = std::max(q[0].pos.y, cmd.ClipRect.y);
        g.x1 = std::min(q[2].pos.x, cmd.ClipRect.z);
        g.y1 = std::min(q[2].pos.y, cmd.ClipRect.w);
        if (g.x1 <= g.x0 || g.y1 <= g.y0) continue;  // clipped away
        g.full_w = q[2].pos.x - q[0].pos.x;
        const auto found = by_uv.find(std::make_pair(q[0].uv.x, q[0].uv.y));
        g.codepoint = found == by_uv.end() ? 0 : found->second.codepoint;
        if (g.codepoint == ' ') continue;
        if (found != by_uv.end() && found->second.width > 0) {  // the pen, at the scale this text was drawn
          const float scale = g.full_w / found->second.width;
          g.scale = scale;
          g.pen = q[0].pos.x - found->second.x0 * scale;
          g.pen_after = g.pen + found->second.advance * scale;
          g.space = found->second.space * scale;
        }
        g.root = root_index;
        g.order = int(out.size());
        out.push_back(g);
      }
    }
  }
  if (roots) *roots = std::move(names);
  return out;
}

std::vector<std::string> text_runs(const std::vector<DrawnGlyph>& glyphs, const std::vector<std::string>& roots) {
  std::vector<std::string> out;
  std::string run;
  const DrawnGlyph* last = nullptr;
  float top = 0, bottom = 0;  // the run's line: from its highest glyph's top to its lowest glyph's bottom
  auto root_name = [&](int i) {
    return i >= 0 && std::size_t(i) < roots.size() ? roots[std::size_t(i)] : std::string();
  };
  for (const DrawnGlyph& g : glyphs) {
    // On the run's line: to the right of its last glyph and level with it (an '_' below the letters' baseline
    // still touches the line; the next line of text starts a line's spacing lower).
    const float slack = (bottom - top) / 4;
    const bool same_line =
        last && g.root == last->root && g.x0 >= last->x0 && g.y0 < bottom + slack && g.y1 > top - slack;
    if (!same_line) {
      if (last) out.push_back(root_name(last->root) + ": " + run);
      run.clear();
      top = g.y0;
      bottom = g.y1;
    } else {
      // A space is not drawn: the pen moved on by half a space or more past where the last glyph left it. (A glyph
      // the atlas does not name: a gap of a sixth of the taller glyph's height.)
      const float height = std::max(g.y1 - g.y0, last->y1 - last->y0);
      const bool spaced = g.space > 0 && last->space > 0
                              ? g.pen - last->pen_after > 0.5f * std::min(g.space, last->space)
                              : g.x0 - last->x1 > std::max(1.5f, height / 6);
      if (spaced) run += ' ';
      top = std::min(top, g.y0);
      bottom = std::max(bottom, g.y1);
    }
    run += utf8(g.codepoint);
    last = &g;
  }
  if (last) out.push_back(root_name(last->root) + ": " + run);
  return out;
}

std::vector<TextOverlap> find_text_overlaps(const std::vector<DrawnGlyph>& glyphs, float min_fraction) {
  // Sweep along x: glyphs sorted by their left edge, each compared with those that start before it ends.
  std::vector<int> by_x(glyphs.size());
  for (std::size_t i = 0; i < glyphs.size(); ++i) by_x[i] = int(i);
  std::sort(by_x.begin(), by_x.end(), [&](int a, int b) { return glyphs[a].x0 < glyphs[b].x0; });
  std::vector<TextOverlap> out;
  for (std::size_t i = 0; i < by_x.size(); ++i) {
    const DrawnGlyph& a = glyphs[by_x[i]];
    for (std::size_t j = i + 1; j < by_x.size() && glyphs[by_x[j]].x0 < a.x1; ++j) {
      const DrawnGlyph& b = glyphs[by_x[j]];
      if (a.root != b.root) continue;
      if (a.codepoint == b.codepoint && a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1) continue;
      // Letters next to each other in one piece of text ('i' then 'j', whose tail reaches back under the 'i').
      const int first = std::min(by_x[i], by_x[j]), second = std::max(by_x[i], by_x[j]);
      if (second == first + 1 && glyphs[second].x0 > glyphs[first].x0) continue;
      const float w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
      const float h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
      if (w <= 0 || h <= 0) continue;
      const float smaller = std::min((a.x1 - a.x0) * (a.y1 - a.y0), (b.x1 - b.x0) * (b.y1 - b.y0));
      const float fraction = w * h / smaller;
      if (fraction > min_fraction) out.push_back({std::min(by_x[i], by_x[j]), std::max(by_x[i], by_x[j]), fraction});
    }
  }
  std::sort(out.begin(), out.end(), [](const TextOverlap& x, const TextOverlap& y) {
    return std::make_pair(x.a, x.b) < std::make_pair(y.a, y.b);
  });
  return out;
}

TextCheckResult check_text(const ImDrawData& data, const ImFontAtlas& atlas) {
  TextCheckResult r;
  r.glyphs = glyphs_of(data, atlas, &r.roots);
  r.overlaps = find_text_overlaps(r.glyphs);
  for (const DrawnGlyph& g : r.glyphs)
    if (g.x1 - g.x0 < g.full_w - 0.5f) ++r.cut_horizontally;
  return r;
}

std::string TextCheckResult::report(std::size_t limit) const {
  // The text around a glyph: its neighbours in drawing order on the same line, as they were drawn.
  auto around = [&](int i) {
    const DrawnGlyph& g = glyphs[i];
    int first = i, last = i;
    auto same_line = [&](int k) {
      return k >= 0 && k < int(glyphs.size()) && glyphs[k].root == g.root && std::fabs(glyphs[k].y1 - g.y1) < 2;
    };
    while (first > i - 12 && same_line(first - 1) && glyphs[first - 1].x1 <= glyphs[first].x0 + 4) --first;
    while (last < i + 12 && same_line(last + 1) && glyphs[last + 1].x0 >= glyphs[last].x1 - 4) ++last;
    float height = 0;
    for (int k = first; k <= last; ++k) height = std::max(height, glyphs[k].y1 - glyphs[k].y0);
    std::string s;
    for (int k = first; k <= last; ++k) {
      // a gap wider than half the line's tallest glyph was a space (spaces draw no quad)
      if (k > first && glyphs[k].x0 - glyphs[k - 1].x1 > height / 2) s += ' ';
      s += (k == i ? "[" : "") + utf8(glyphs[k].codepoint) + (k == i ? "]" : "");
    }
    return s;
  };
  char line[512];
  std::snprintf(line, sizeof line, "%zu glyphs in %zu windows, %d cut at a side by their clip, %zu overlapping",
                glyphs.size(), roots.size(), cut_horizontally, overlaps.size());
  std::string out = line;
  for (std::size_t k = 0; k < overlaps.size() && k < limit; ++k) {
    const DrawnGlyph& a = glyphs[overlaps[k].a];
    const DrawnGlyph& b = glyphs[overlaps[k].b];
    std::snprintf(line, sizeof line, "\n  in \"%s\": \"%s\" at (%.0f,%.0f) and \"%s\" at (%.0f,%.0f) overlap by %.0f%%",
                  roots[a.root].c_str(), around(overlaps[k].a).c_str(), a.x0, a.y0, around(overlaps[k].b).c_str(), b.x0,
                  b.y0, overlaps[k].fraction * 100);
    out += line;
  }
  std::size_t shown = 0;
  for (std::size_t i = 0; i < glyphs.size() && shown < limit; ++i) {
    const DrawnGlyph& g = glyphs[i];
    if (g.x1 - g.x0 >= g.full_w - 0.5f) continue;
    std::snprintf(line, sizeof line, "\n  cut in \"%s\": \"%s\" at (%.0f,%.0f), %.0f of %.0f px wide shown",
                  roots[g.root].c_str(), around(int(i)).c_str(), g.x0, g.y0, g.x1 - g.x0, g.full_w);
    out += line;
    ++shown;
  }
  return out;
}

}  // namespace redlab
