#include "model/bank_grid.h"

#include <algorithm>
#include <cmath>

namespace redlab::model {

namespace {
constexpr float kBanks = 32;
// Rows at 1.25 lines where nothing bounds them; bounded, every row shows, down to 2 pixels (a 32-way conflict's
// column is then a red bar of 32 stripes, as tall against one row as the conflict is: in a lesson's compare at
// 1280x720 x2 the conflicted grid has half a pane, about 80 pixels for its 33 rows; the row labels say how many).
constexpr float kRowLines = 1.25f, kMinRow = 2;
// A lane number smaller than this is not drawn in its cell (the cell's tooltip says it).
constexpr float kMinLaneFont = 9;
}  // namespace

float bank_grid_height(const BankGridRoom& r, const BankGridGeometry& g) {
  float h = 0;
  for (unsigned rows : r.rows)  // the phase's line, the header and rows, the xN marks under them
    h += r.phase_line + g.row * float(std::max(rows, 1u) + 1) + g.label_font + 6;
  return h;
}

BankGridGeometry bank_grid_geometry(const BankGridRoom& r) {
  BankGridGeometry g;
  const float fs = std::max(r.font, 1.0f);
  // Rows: as tall as the height allows, at most 1.25 lines.
  g.row = kRowLines * fs;
  if (r.height > 0) {
    float fixed = 0, units = 0;
    for (unsigned rows : r.rows) {
      fixed += r.phase_line + 6;
      units += float(std::max(rows, 1u) + 1) + 1.0f / kRowLines;  // the xN marks: a label line, 0.8 of a row
    }
    if (units > 0) g.row = std::clamp((r.height - fixed) / units, kMinRow, kRowLines * fs);
  }
  // Labels fill their row, no smaller than 9 pixels (then every k-th row has one). The xN marks under the grid are a
  // label's line: the rows give up what the estimate above left out.
  g.label_font = std::min(fs, std::max(g.row / 1.2f, 9.0f));
  while (r.height > 0 && g.row > kMinRow && bank_grid_height(r, g) > r.height) {
    g.row = std::max(kMinRow, g.row - 0.25f);
    g.label_font = std::min(fs, std::max(g.row / 1.2f, 9.0f));
  }
  // The gutter holds the row labels at their type; the columns share the rest, 2 px apart.
  const float label_scale = g.label_font / fs;
  g.gutter = r.label_width * label_scale + 0.5f * g.label_font;
  g.column = std::max(2.0f, (r.width - g.gutter) / kBanks);
  // Bank numbers ("28") over every k-th column where two digits are wider than one.
  const float two_digits = 2 * r.digit_width * label_scale + 3;
  g.header_every = 1;
  while (g.header_every < 8 && g.column * float(g.header_every) < two_digits) g.header_every *= 2;
  // Lane numbers: one line, or one digit over the other, whichever is larger; within the row's height where it is
  // bounded (unbounded, the rows grow to hold two digits one over the other).
  const float room_w = g.column - 3;
  const float one_line = std::min({fs, fs * room_w / (2 * r.digit_width), g.row / 1.15f});
  const float stacked_by_width = std::min(fs, fs * (room_w + 1) / r.digit_width);
  const float stacked = r.height > 0 ? std::min(stacked_by_width, g.row / 1.75f) : stacked_by_width;
  g.lane_stacked = stacked > one_line * 1.15f;
  g.lane_font = g.lane_stacked ? stacked : one_line;
  if (g.lane_stacked) g.row = std::max(g.row, 1.75f * g.lane_font);
  if (g.lane_font < kMinLaneFont) g.lane_font = 0;
  return g;
}

}  // namespace redlab::model
