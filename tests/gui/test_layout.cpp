// The layouts (app/model/layout.h) without a window: for every layout, window size from 1280x720 to 3840x2160,
// scale 1 to 3, with tiles or trees, compare on or off, and any set of open views, the panes tile the panels'
// area (no overlap, no gap), each open view is in exactly one pane, and a closed view's room goes to others.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "../../app/model/layout.h"

using namespace redlab::model;

namespace {
const std::vector<ViewId> kViews = {ViewId::scenario, ViewId::warps, ViewId::tree, ViewId::tile, ViewId::compare, ViewId::metrics, ViewId::code, ViewId::banks,
                                         ViewId::timings};

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

TEST(Layout, EveryArrangementTilesTheAreaAndShowsEachOpenViewOnce) {
  int checked = 0;
  for (LayoutKind k : {LayoutKind::study, LayoutKind::present, LayoutKind::compare})
    for (auto [w, h] : {std::pair{1280, 720}, {1366, 768}, {1920, 1080}, {2560, 1440}, {3840, 2160}, {800, 600}})
      for (float scale : {1.0f, 1.5f, 2.0f, 2.5f, 3.0f})
        for (bool tiles : {false, true})
          for (bool compare : {false, true})
          for (bool editing : {false, true}) {
            LayoutContext c;
            c.tiles = tiles;
            c.compare = compare;
            c.editing = editing;
            c.width = w / scale;
            c.height = (h - 120 * scale) / scale;   // less the menu, control strip and status bar
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
            for (const auto& open : subsets) {
              const std::string what = std::string(to_string(k)) + " " + std::to_string(w) + "x" + std::to_string(h) +
                                       " x" + std::to_string(scale) + (tiles ? " tiles" : "") +
                                       (compare ? " compare" : "") + (editing ? " editing" : "") + " open " +
                                       std::to_string(open.size());
              const auto panes = arrange(k, c, [&](ViewId id) { return open.count(id) > 0; });
              expect_tiling(panes, what);
              std::map<ViewId, int> seen;
              for (const Pane& p : panes) {
                EXPECT_FALSE(p.views.empty()) << what;
                for (ViewId v : p.views) ++seen[v];
              }
              for (ViewId v : open) EXPECT_EQ(seen[v], 1) << what << ": " << view_key(v);
              for (const auto& [v, n] : seen) EXPECT_TRUE(open.count(v)) << what << ": " << view_key(v) << " is closed";
              ++checked;
            }
          }
  EXPECT_GT(checked, 1000);
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
  const auto panes = arrange(LayoutKind::present, LayoutContext{}, [&](ViewId id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
  });
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
  const auto panes = arrange(LayoutKind::study, c, [&](ViewId id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
  });
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
      for (const Pane& p : arrange(LayoutKind::study, ctx, [&](ViewId id) {
             return std::find(ids.begin(), ids.end(), id) != ids.end();
           }))
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
  for (const Pane& p : arrange(LayoutKind::study, c, [&](ViewId id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); }))
    if (std::find(p.views.begin(), p.views.end(), ViewId::code) != p.views.end()) code_h = p.h * c.height;
  EXPECT_GE(code_h, 5 * 20 + 12 * 18) << "the code pane is " << code_h << " px high";
}
