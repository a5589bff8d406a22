// Where the 32-bank grid's parts go in the room a view gives it: the columns share the width (never wider than
// it: no bank is cut or scrolled away), the rows the height where it is bounded (Present: every conflict row
// shows), and each cell's lane number takes the largest type that fits it, on one line ("17") or, in a column
// too narrow for two digits at a readable size, one digit over the other. No ImGui: the view measures its text
// and draws (gui/views/view_banks.cpp); tests/gui/test_layout.cpp checks the sizes.
#pragma once
#include <vector>

namespace redlab::model {

struct BankGridRoom {
  float width = 0;  // pixels for the row labels and the 32 columns
  float height = 0;  // pixels for every phase's line, header, rows and xN marks; 0: unbounded (the view scrolls)
  float font = 16;  // the UI's type size
  float digit_width = 10;  // one digit's width at `font`
  float label_width = 40;  // the widest row label ("word 8") at `font`
  float phase_line = 20;  // the line above each phase's grid (its name and conflict)
  std::vector<unsigned> rows;  // per phase: its rows (the most distinct words one bank serves)
};

struct BankGridGeometry {
  float gutter = 0;  // the row labels' column
  float column = 0;  // one bank's column
  float row = 0;  // one word's row (the header is one more)
  float label_font = 0;  // row labels, bank numbers and xN marks (at most the UI's type)
  float lane_font = 0;  // lane numbers in the cells
  bool lane_stacked = false;  // two-digit lane numbers one digit over the other
  unsigned header_every = 1;  // bank numbers over every k-th column (1, 2, 4 or 8)
};

BankGridGeometry bank_grid_geometry(const BankGridRoom&);

// The height the grid takes with `g` (every phase: its line, the header, its rows, the xN marks).
float bank_grid_height(const BankGridRoom&, const BankGridGeometry& g);

}  // namespace redlab::model
