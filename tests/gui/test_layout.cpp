// The layouts (app/model/layout.h) without a window: for every layout, window size from 1280x720 to 3840x2160,
// scale 1 to 3, with tiles or trees, compare on or off, and any set of open views, the panes tile the panels'
// area (no overlap, no gap), each open view is in exactly one pane, and a closed view's room goes to others.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/bank_grid.h"
#include "model/layout.h"
#include "model/tree_model.h"

using namespace redlab::model;

namespace {
const std::vector<ViewId> kViews = {ViewId::scenario, ViewId::warps,   ViewId::tree, ViewId::tile,  ViewId::ring,
                                    ViewId::compare,  ViewId::metrics, ViewId::code, ViewId::banks, ViewId::timings};
// A view registered without a place in the layouts (a new view's file and its text keys, nothing more).
constexpr ViewId kNewView{"new_view"};

// The panes' area sampled on a grid: every point in exactly one pane.
void expect_tiling(const std::vector<Pane>& panes, const std::string& what) {
  ASSERT_FALSE(panes.empty()) << what;
  double area = 0;
  for (const Pane& p : panes) {
    EXPECT_GT(p.w, 0.0f) << what;
    EXPECT_GT(p.h, 0.0f) << what;
    EXPECT_GE(p.x, -1e-4f) << what;
    EXPECT_GE(p.y, -1e-4f) << what;
    EXPECT_LE(p.x + p.w, 1.0001f) << what;
    EXPECT_LE(p.y + p.h, 1.0001f) << what;
    area += double(p.w) * p.h;
  }
  EXPECT_NEAR(area, 1.0, 1e-3) << what;
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 40; ++j) {
      const float x = (i + 0.5f) / 40, y = (j + 0.5f) / 40;
      int inside = 0;
      for (const Pane& p : panes) inside += x >= p.x && x < p.x + p.w && y >= p.y && y < p.y + p.h;
      ASSERT_EQ(inside, 1) << what << " at (" << x << ", " << y << ")";
    }
}
}  // namespace

TEST(Layout, NamesRoundTrip) {
  for (LayoutKind k : {LayoutKind::study, LayoutKind::present, LayoutKind::compare})
    EXPECT_EQ(parse_layout(to_string(k)), k);
  EXPECT_FALSE(parse_layout("classroom").has_value());
}

// The layouts place the course's panes by name; a view they do not name (a new one) and the floating windows they
// leave to LayoutContext::others and to the user.
TEST(Layout, NamesTheCoursePanesOnly) {
  for (ViewId v : kViews) EXPECT_TRUE(layout_names(v)) << view_key(v);
  EXPECT_TRUE(layout_names(ViewId::lesson));
  for (ViewId v : {ViewId::gallery, ViewId::bank_lab, ViewId::glossary, kNewView})
    EXPECT_FALSE(layout_names(v)) << view_key(v);
}

TEST(Layout, EveryArrangementTilesTheAreaAndShowsEachOpenViewOnce) {
  int checked = 0;
  for (LayoutKind k : {LayoutKind::study, LayoutKind::present, LayoutKind::compare})
    for (auto [w, h] : {std::pair{1280, 720}, {1366, 768}, {1920, 1080}, {2560, 1440}, {3840, 2160}, {800, 600}})
      for (float scale : {1.0f, 1.5f, 2.0f, 2.5f, 3.0f})
        for (bool tiles : {false, true})
          for (bool compare : {false, true})
            for (bool editing : {false, true})
              for (bool lesson : {false, true})
                for (bool new_view : {false, true}) {
                  LayoutContext c;
                  if (new_view) c.others = {kNewView};
                  c.tiles = tiles;
                  c.compare = compare;
                  c.editing = editing;
                  c.lesson = lesson;
                  c.width = w / scale;
                  c.height = (h - 120 * scale) / scale;  // less the menu, control strip and status bar
                  const std::vector<ViewId> opened = layout_views(k, c);
                  // The layout's own views, then with each one closed in turn, then with all views open.
                  std::vector<std::set<ViewId>> subsets;
                  subsets.emplace_back(opened.begin(), opened.end());
                  for (ViewId gone : opened) {
                    std::set<ViewId> s(opened.begin(), opened.end());
                    s.erase(gone);
                    if (!s.empty()) subsets.push_back(s);
                  }
                  subsets.emplace_back(kViews.begin(), kViews.end());
                  if (new_view) {
                    // Study opens it; every layout places it when it is open.
                    EXPECT_EQ(std::count(opened.begin(), opened.end(), kNewView), k == LayoutKind::study ? 1 : 0);
                    subsets.back().insert(kNewView);
                  }
                  if (lesson)
                    for (auto& sub : subsets) sub.insert(ViewId::lesson);
                  for (const auto& open : subsets) {
                    const std::string what = std::string(to_string(k)) + " " + std::to_string(w) + "x" +
                                             std::to_string(h) + " x" + std::to_string(scale) +
                                             (tiles ? " tiles" : "") + (compare ? " compare" : "") +
                                             (editing ? " editing" : "") + (lesson ? " lesson" : "") +
                                             (new_view ? " new view" : "") + " open " + std::to_string(open.size());
                    const auto panes = arrange(k, c, [&](ViewId id) { return open.count(id) > 0; });
                    expect_tiling(panes, what);
                    std::map<ViewId, int> seen;
                    for (const Pane& p : panes) {
                      EXPECT_FALSE(p.views.empty()) << what;
                      for (ViewId v : p.views) ++seen[v];
                    }
                    for (ViewId v : open) EXPECT_EQ(seen[v], 1) << what << ": " << view_key(v);
                    for (const auto& [v, n] : seen)
                      EXPECT_TRUE(open.count(v)) << what << ": " << view_key(v) << " is closed";
                    ++checked;
                  }
                }
  EXPECT_GT(checked, 4000);
}

// A lesson's panel: a column on the left beside the layout's views (their arrangement kept, in the rest of the area),
// a row at the bottom of a tall area; the panel alone when nothing else is open.
TEST(Layout, ALessonsPanelTakesAColumnBesideTheViews) {
  const std::set<ViewId> present = {ViewId::tree, ViewId::banks, ViewId::lesson};
  auto shown = [&](ViewId v) { return present.count(v) > 0; };
  LayoutContext c;
  c.lesson = true;
  c.width = 1280 / 2.0f;  // 1280x720 at x2
  c.height = (720 - 240) / 2.0f;
  const auto panes = arrange(LayoutKind::present, c, shown);
  ASSERT_FALSE(panes.empty());
  EXPECT_EQ(panes[0].views, std::vector<ViewId>{ViewId::lesson});
  EXPECT_FLOAT_EQ(panes[0].x, 0.0f);
  EXPECT_FLOAT_EQ(panes[0].h, 1.0f);
  EXPECT_GE(panes[0].w * c.width, 260.0f);  // room for a question and a narration at x2: about 30 characters a line
  EXPECT_GE((1 - panes[0].w) * c.width, 360.0f);  // and for a bank grid's 32 columns beside it
  for (std::size_t i = 1; i < panes.size(); ++i) EXPECT_GE(panes[i].x, panes[0].w - 1e-4f);
  // 1920x1080 at x1: a column of a quarter of the width; the tree and the banks beside it, in Present's arrangement
  // of the rest (one above the other: 1459 x 960 is not wide enough to put them side by side).
  c.width = 1920;
  c.height = 1080 - 120;
  const auto wide = arrange(LayoutKind::present, c, shown);
  ASSERT_EQ(wide.size(), 3u);
  EXPECT_NEAR(wide[0].w, 0.24f, 1e-4f);
  EXPECT_NEAR(wide[1].x, 0.24f, 1e-4f);
  EXPECT_NEAR(wide[2].x, 0.24f, 1e-4f);
  EXPECT_GT(wide[1].h, wide[2].h);  // the tree the larger
  // A tall area: a row at the bottom.
  c.width = 800;
  c.height = 1200;
  const auto tall = arrange(LayoutKind::study, c, shown);
  EXPECT_EQ(tall[0].views, std::vector<ViewId>{ViewId::lesson});
  EXPECT_NEAR(tall[0].y + tall[0].h, 1.0f, 1e-4f);
  EXPECT_FLOAT_EQ(tall[0].w, 1.0f);
  // Only the lesson open: it takes the area.
  const auto alone = arrange(LayoutKind::study, c, [](ViewId v) { return v == ViewId::lesson; });
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_FLOAT_EQ(alone[0].w * alone[0].h, 1.0f);
}

TEST(Layout, PresentShowsTheCentreLargeAndNothingElseBesideTheBanks) {
  LayoutContext c;
  c.width = 1920, c.height = 900;
  const auto ids = layout_views(LayoutKind::present, c);
  EXPECT_NE(std::find(ids.begin(), ids.end(), ViewId::tree), ids.end());
  EXPECT_NE(std::find(ids.begin(), ids.end(), ViewId::banks), ids.end());
  EXPECT_EQ(std::find(ids.begin(), ids.end(), ViewId::code), ids.end());
  EXPECT_EQ(std::find(ids.begin(), ids.end(), ViewId::timings), ids.end());
  c.tiles = true;
  const auto tile_ids = layout_views(LayoutKind::present, c);
  EXPECT_NE(std::find(tile_ids.begin(), tile_ids.end(), ViewId::tile), tile_ids.end());
  // The tree's pane is the largest.
  const auto panes = arrange(LayoutKind::present, LayoutContext{},
                             [&](ViewId id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); });
  const Pane* largest = &panes[0];
  for (const Pane& p : panes)
    if (p.w * p.h > largest->w * largest->h) largest = &p;
  EXPECT_NE(std::find(largest->views.begin(), largest->views.end(), ViewId::tree), largest->views.end());
}

TEST(Layout, ClosingAViewGivesItsRoomToTheOthers) {
  LayoutContext c;
  const auto ids = layout_views(LayoutKind::study, c);
  std::set<ViewId> open(ids.begin(), ids.end());
  auto pane_of = [](const std::vector<Pane>& panes, ViewId id) {
    for (const Pane& p : panes)
      if (std::find(p.views.begin(), p.views.end(), id) != p.views.end()) return p;
    return Pane{};
  };
  const auto before = arrange(LayoutKind::study, c, [&](ViewId id) { return open.count(id) > 0; });
  const Pane tree_before = pane_of(before, ViewId::tree);
  open.erase(ViewId::metrics);
  const auto after = arrange(LayoutKind::study, c, [&](ViewId id) { return open.count(id) > 0; });
  const Pane tree_after = pane_of(after, ViewId::tree);
  EXPECT_GT(tree_after.w * tree_after.h, tree_before.w * tree_before.h * 1.05f);
}

TEST(Layout, ASmallAreaIsOnePaneOfTabsWithTheCentreFirst) {
  LayoutContext c;
  c.width = 1280 / 2.0f;
  c.height = (720 - 240) / 2.0f;
  const auto ids = layout_views(LayoutKind::study, c);
  const auto panes =
      arrange(LayoutKind::study, c, [&](ViewId id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); });
  ASSERT_EQ(panes.size(), 1u);
  EXPECT_TRUE(panes[0].views.front() == ViewId::compare || panes[0].views.front() == ViewId::tree);
}

// Editing a kernel file of one's own: the study layout gives the source more room than it has for a catalog kernel.
TEST(Layout, EditingAKernelFileGivesTheSourceMoreRoom) {
  for (auto [w, h] : {std::pair{1600, 900}, {1920, 1080}, {1280, 720}}) {
    LayoutContext c;
    c.width = float(w);
    c.height = float(h) - 120;
    const auto ids = layout_views(LayoutKind::study, c);
    auto code_area = [&](const LayoutContext& ctx) {
      for (const Pane& p : arrange(LayoutKind::study, ctx,
                                   [&](ViewId id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); }))
        if (std::find(p.views.begin(), p.views.end(), ViewId::code) != p.views.end()) return p.w * p.h;
      return 0.0f;
    };
    const float reading = code_area(c);
    c.editing = true;
    EXPECT_GT(code_area(c), reading * 1.2f) << w << "x" << h;
  }
}

// Study shows at least 12 lines of the kernel's source at 1600x900: the code pane's height (scaled pixels, the
// panels' area under the menu, controls and status bar) holds its header (title, file, hardware-counts line:
// about 5 lines of 20 px with the window's title) and 12 lines of 18 px.
TEST(Layout, StudyShowsTwelveSourceLinesAt1600x900) {
  LayoutContext c;
  c.width = 1600;
  c.height = 900 - 120;
  const auto ids = layout_views(LayoutKind::study, c);
  float code_h = 0;
  for (const Pane& p :
       arrange(LayoutKind::study, c, [&](ViewId id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); }))
    if (std::find(p.views.begin(), p.views.end(), ViewId::code) != p.views.end()) code_h = p.h * c.height;
  EXPECT_GE(code_h, 5 * 20 + 12 * 18) << "the code pane is " << code_h << " px high";
}

// Present on a 1280x720 projector: the tree (or tile) and the bank grid at once, side by side, at every classroom
// scale (before, below a 420-pixel area every layout was one pane of tabs: the grid hid behind the tree's tab).
TEST(Layout, PresentShowsTheTreeAndTheBanksAtOnceOn720p) {
  for (float scale : {1.5f, 2.0f, 2.5f, 3.0f}) {
    const float bars = chrome_scale(scale, 720) * 125;  // menu, control strip (two lines) and status bar
    LayoutContext c;
    c.width = 1280 / scale;
    c.height = (720 - bars) / scale;
    const auto ids = layout_views(LayoutKind::present, c);
    const auto panes =
        arrange(LayoutKind::present, c, [&](ViewId id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); });
    const std::string what = "x" + std::to_string(scale);
    ASSERT_EQ(panes.size(), 2u) << what;
    auto has = [](const Pane& p, ViewId id) { return std::find(p.views.begin(), p.views.end(), id) != p.views.end(); };
    const Pane& tree = has(panes[0], ViewId::tree) ? panes[0] : panes[1];
    const Pane& banks = &tree == &panes[0] ? panes[1] : panes[0];
    EXPECT_TRUE(has(tree, ViewId::tree)) << what;
    EXPECT_EQ(banks.views.front(), ViewId::banks) << what;
    EXPECT_FLOAT_EQ(tree.h, 1.0f) << what;  // each the whole height: the tree's rows and the grid's conflict rows
    EXPECT_FLOAT_EQ(banks.h, 1.0f) << what;
    EXPECT_GT(tree.w, banks.w) << what;
    EXPECT_GE(banks.w, 0.4f) << what;
  }
}

// The window's bars grow with the classroom scale only as far as the window's height allows: on a 720-pixel screen
// they stop at x2, so x2.5 and x3 give the views larger type without taking their room (before, the bars grew to
// x3 and the tree's cells shrank to about 10 pixels).
TEST(Layout, TheBarsStopAtTheScaleTheWindowHeightAllows) {
  EXPECT_EQ(chrome_scale(1.0f, 720), 1.0f);
  EXPECT_EQ(chrome_scale(1.5f, 720), 1.5f);
  EXPECT_EQ(chrome_scale(2.0f, 720), 2.0f);
  EXPECT_EQ(chrome_scale(2.5f, 720), 2.0f);
  EXPECT_EQ(chrome_scale(3.0f, 720), 2.0f);
  EXPECT_EQ(chrome_scale(3.0f, 1080), 3.0f);
  EXPECT_EQ(chrome_scale(3.0f, 900), 2.5f);
  EXPECT_EQ(chrome_scale(2.0f, 480), 1.0f);
  // The panels' area never shrinks as the scale grows from x2 on a 720-pixel screen.
  float last = 1e9f;
  for (float s : {2.0f, 2.5f, 3.0f}) {
    const float area = 720 - chrome_scale(s, 720) * 125;
    EXPECT_LE(area, last + 1e-3f);
    EXPECT_GE(area, 720 - 2.0f * 125 - 1e-3f) << "x" << s;
    last = area;
  }
}

namespace {
// The room the banks view gives its grid, as DejaVu Sans measures at `font` pixels (a digit 0.636 em; "word 8"
// 2.9 em).
BankGridRoom room(float width, float height, float font, std::vector<unsigned> rows) {
  BankGridRoom r;
  r.width = width;
  r.height = height;
  r.font = font;
  r.digit_width = 0.636f * font;
  r.label_width = 2.9f * font;
  r.phase_line = 1.4f * font;
  r.rows = std::move(rows);
  return r;
}
}  // namespace

// Every bank's column inside the width (none cut or scrolled away) and, in Present, every conflict row inside the
// height: 1280x720 at x2 (the grid beside the tree: 0.44 of 1280, less the pane's padding), and at x3 where the
// summary takes more of the pane; a 32-way conflict (stride 16 of neighbored_strided) and the four phases of a
// 16-byte access too; and the half pane a lesson's compare of two transposes leaves the 32-way tile's grid at
// 1280x720 x2 (memory beat 5: 130 pixels, which showed 22 of its 32 rows and a scroll bar).
TEST(BankGrid, EveryColumnFitsTheWidthAndEveryRowTheHeight) {
  struct Case {
    float width, height, font;
    std::vector<unsigned> rows;
  };
  for (const Case& c : {Case{540, 300, 32, {8}}, Case{540, 220, 48, {8}}, Case{540, 300, 32, {32}},
                        Case{540, 300, 32, {2, 2, 2, 2}}, Case{1100, 400, 32, {16}}, Case{690, 130, 26, {32}}}) {
    const BankGridRoom r = room(c.width, c.height, c.font, c.rows);
    const BankGridGeometry g = bank_grid_geometry(r);
    const std::string what = std::to_string(int(c.width)) + "x" + std::to_string(int(c.height)) + " font " +
                             std::to_string(int(c.font)) + " rows " + std::to_string(c.rows[0]) + " phases " +
                             std::to_string(c.rows.size());
    EXPECT_LE(g.gutter + 32 * g.column, c.width + 0.01f) << what;
    EXPECT_LE(bank_grid_height(r, g), c.height + 0.01f) << what;
    EXPECT_GE(g.row, 2.0f) << what;
    if (c.rows.size() == 1 && c.rows[0] <= 8) EXPECT_GE(g.row, 14.0f) << what;  // 8 rows: a lane number each
    EXPECT_GE(g.label_font, 9.0f) << what;
  }
}

// Lane numbers at the default size (Study at 1600x900: a 432-pixel pane, its padding and scroll bar off it): 10 and
// up were about 6 pixels, one line squeezed into an 11-pixel column; one digit over the other they are 14.
TEST(BankGrid, LaneNumbersAtTheDefaultSizeAreReadable) {
  const BankGridRoom r = room(432 - 16 - 14, 0, 16, {8});
  const BankGridGeometry g = bank_grid_geometry(r);
  EXPECT_GE(g.lane_font, 12.0f);
  EXPECT_TRUE(g.lane_stacked);
  EXPECT_GE(g.row, 1.75f * g.lane_font - 0.01f);  // both digits in the row
  EXPECT_LE(g.gutter + 32 * g.column, r.width + 0.01f);
  // Wide columns keep lane numbers on one line at the UI's type.
  const BankGridGeometry wide = bank_grid_geometry(room(1200, 0, 16, {8}));
  EXPECT_FALSE(wide.lane_stacked);
  EXPECT_EQ(wide.lane_font, 16.0f);
  EXPECT_EQ(wide.header_every, 1u);
}

// The tree's Values zoom: every value the current row wrote gets room for its label (at Fit, a 64-cell tree on a
// 1040-pixel canvas at x2 shows every other value of its load row: 16 pixels a cell for 60-pixel labels).
TEST(TreeValues, TheZoomGivesEachWrittenValueRoomForItsLabel) {
  std::vector<std::uint32_t> load(64), tree_row(32), strided;
  for (std::uint32_t c = 0; c < 64; ++c) load[c] = c;
  for (std::uint32_t c = 0; c < 32; ++c) tree_row[c] = c;
  for (std::uint32_t c = 0; c < 256; c += 8) strided.push_back(c);  // neighbored pairs at stride 4
  const float canvas = 1040, label = 70;
  for (const auto* row : {&load, &tree_row, &strided}) {
    const std::uint32_t cells = row == &strided ? 256 : 64;
    const ValuesZoom z = values_zoom(*row, cells, label, canvas);
    const float px = canvas / z.vis;
    std::uint32_t gap = cells;
    for (std::size_t i = 1; i < row->size(); ++i) gap = std::min(gap, (*row)[i] - (*row)[i - 1]);
    EXPECT_GE(px * float(gap), label - 0.01f) << "cells " << cells << " gap " << gap;
    EXPECT_LE(z.x0, float((*row)[0]) + 0.5f);  // the first written value in view
    EXPECT_GE(z.x0 + z.vis, float((*row)[0]) + 0.5f);
    EXPECT_GE(z.x0, 0.0f);
    EXPECT_LE(z.x0 + z.vis, float(cells) + 0.01f);
  }
  // Fit already has room (a tree row with 4 values): no zoom in.
  EXPECT_EQ(values_zoom({0, 16, 32, 48}, 64, label, canvas).vis, 64.0f);
  // Nothing written: the whole array.
  EXPECT_EQ(values_zoom({}, 64, label, canvas).vis, 64.0f);
}
