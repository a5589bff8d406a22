#include "model/layout.h"

#include <algorithm>
#include <initializer_list>
#include <iterator>

namespace redlab::model {

namespace {

// A layout as columns of rows; a row is one pane, its views in tab order. Rows and columns whose views are all
// closed go, and their room goes to the others in proportion.
struct Row {
  float weight;
  std::vector<ViewId> views;
};
struct Column {
  float weight;
  std::vector<Row> rows;
};

// The centre view: the compare window first (it is what a compare shows), then the tree (a cluster kernel's cluster
// as a tab beside it) or the tile.
const std::vector<ViewId> kCentre = {ViewId::compare, ViewId::tree, ViewId::cluster, ViewId::tile, ViewId::ring};

std::vector<ViewId> with(std::vector<ViewId> v, const std::vector<ViewId>& more) {
  v.insert(v.end(), more.begin(), more.end());
  return v;
}

std::vector<Pane> place(std::vector<Column> cols, const std::function<bool(ViewId)>& shown) {
  float total_w = 0;
  for (Column& c : cols) {
    float total_h = 0;
    std::vector<Row> kept;
    for (Row& r : c.rows) {
      std::vector<ViewId> views;
      for (ViewId v : r.views)
        if (shown(v)) views.push_back(v);
      if (views.empty()) continue;
      kept.push_back({r.weight, views});
      total_h += r.weight;
    }
    for (Row& r : kept) r.weight /= total_h;
    c.rows = kept;
    if (!c.rows.empty()) total_w += c.weight;
  }
  std::vector<Pane> panes;
  float x = 0;
  for (const Column& c : cols) {
    if (c.rows.empty()) continue;
    const float w = c.weight / total_w;
    float y = 0;
    for (const Row& r : c.rows) {
      panes.push_back({x, y, w, r.weight, r.views});
      y += r.weight;
    }
    panes.back().h = 1.0f - panes.back().y;  // no gap from rounding at the bottom
    x += w;
  }
  if (!panes.empty())
    for (Pane& p : panes)
      if (p.x + p.w > 0.999f) p.w = 1.0f - p.x;  // nor at the right
  return panes;
}

std::vector<Column> study(const LayoutContext& c) {
  if (c.width >= 1300 && c.height >= 650) {  // three columns, as the first layout was
    if (c.compare && c.tiles)  // two tiles side by side need the centre and right columns
      return {{0.22f, {{0.58f, {ViewId::scenario}}, {0.42f, {ViewId::warps}}}},
              {0.78f,
               {{0.64f, kCentre},
                {0.36f, with({ViewId::metrics, ViewId::code, ViewId::banks, ViewId::timings}, c.others)}}}};
    // The source shows at least 12 lines under its header at 1600x900 (0.46 of the column); a transpose's Timings
    // window lists every transpose (six rows): it takes room from the banks window, whose grid the tile view shows
    // as well.
    const float code = c.tiles ? 0.42f : 0.46f, banks = c.tiles ? 0.14f : 0.34f;
    // Editing a kernel file: the source takes most of the right column, wider, the banks and timings as tabs under it.
    if (c.editing)
      return {{0.22f, {{0.58f, {ViewId::scenario}}, {0.42f, {ViewId::warps}}}},
              {0.46f, {{0.62f, kCentre}, {0.38f, {ViewId::metrics}}}},
              {0.32f, {{0.66f, {ViewId::code}}, {0.34f, with({ViewId::banks, ViewId::timings}, c.others)}}}};
    return {
        {0.22f, {{0.58f, {ViewId::scenario}}, {0.42f, {ViewId::warps}}}},
        {0.51f, {{0.62f, kCentre}, {0.38f, {ViewId::metrics}}}},
        {0.27f,
         {{code, {ViewId::code}}, {banks, {ViewId::banks}}, {1.0f - code - banks, with({ViewId::timings}, c.others)}}}};
  }
  if (c.width >= 900)  // two columns: the centre, and two panes of tabs beside it (the source first when editing)
    return {{0.62f, {{0.62f, kCentre}, {0.38f, {ViewId::metrics}}}},
            {0.38f,
             {{c.editing ? 0.62f : 0.5f, c.editing ? std::vector<ViewId>{ViewId::code, ViewId::scenario}
                                                   : std::vector<ViewId>{ViewId::scenario, ViewId::code}},
              {c.editing ? 0.38f : 0.5f, with({ViewId::banks, ViewId::warps, ViewId::timings}, c.others)}}}};
  return {
      {0.6f, {{1.0f, kCentre}}},  // narrow: the centre, and everything else as tabs
      {0.4f,
       {{1.0f, with({ViewId::scenario, ViewId::metrics, ViewId::banks, ViewId::warps, ViewId::code, ViewId::timings},
                    c.others)}}}};
}

// Present: the tree (or the tile) and the bank grid at once, never as tabs of one pane. Beside each other on a wide
// screen, and on a short one (1280x720 at x2 leaves an area of about 640 x 235: the bank grid's conflict rows need
// the whole height, and so do the tree's rows); one above the other where the area is tall for its width.
bool present_side_by_side(const LayoutContext& c) { return c.width >= 1500 || c.width >= 2.2f * c.height; }

std::vector<Column> present(const LayoutContext& c) {
  const std::vector<ViewId> side =
      with({ViewId::banks, ViewId::metrics, ViewId::scenario, ViewId::warps, ViewId::code, ViewId::timings}, c.others);
  if (c.width >= 1500)  // the bank grid's 32 columns stay readable beside the tree
    return {{0.64f, {{1.0f, kCentre}}}, {0.36f, {{1.0f, side}}}};
  if (present_side_by_side(c))  // a short screen: the grid's 32 columns in a little under half the width
    return {{0.56f, {{1.0f, kCentre}}}, {0.44f, {{1.0f, side}}}};
  // Under it: the bank grid of one request needs about 170 px (its controls, the summary, a row of 32 banks);
  // the tree keeps the rest.
  const float below = std::clamp(170.0f / std::max(c.height, 1.0f), 0.3f, 0.4f);
  return {{1.0f, {{1.0f - below, kCentre}, {below, side}}}};
}

std::vector<Column> compare(const LayoutContext& c) {
  return {
      {1.0f,
       {{0.64f, kCentre},
        {0.36f, with({ViewId::metrics, ViewId::banks, ViewId::scenario, ViewId::warps, ViewId::code, ViewId::timings},
                     c.others)}}}};
}

}  // namespace

const char* to_string(LayoutKind k) {
  switch (k) {
    case LayoutKind::study: return "study";
    case LayoutKind::present: return "present";
    case LayoutKind::compare: return "compare";
  }
  return "?";
}

std::optional<LayoutKind> parse_layout(const std::string& s) {
  for (LayoutKind k : {LayoutKind::study, LayoutKind::present, LayoutKind::compare})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

// Below this height (scaled pixels) no two panes are both readable: every layout is one pane of tabs, the
// centre view first (1280x720 at scale 2 leaves about 250).
constexpr float kOnePaneHeight = 420;
// Present's two panes side by side need no more than a few rows of text each (1280x720 at x3 leaves about 155).
constexpr float kPresentPairHeight = 120;

std::vector<Pane> arrange(LayoutKind k, const LayoutContext& c, const std::function<bool(ViewId)>& shown) {
  // A lesson's panel first: a column of about 330 scaled px on the left where the area is wider than tall (its
  // narration and question read beside the views), a row of about 200 at the bottom where it is tall; the layout
  // arranges the rest as it would a smaller area.
  if (c.lesson && shown(ViewId::lesson)) {
    LayoutContext rest = c;
    rest.lesson = false;
    auto others = [&](ViewId v) { return v != ViewId::lesson && shown(v); };
    // A short area (one pane of tabs beside it) gives the column more: its question and the narration's start in
    // view at once, 1280x720 at x2 leaving about 640 x 250 (the views keep 370 across, a bank grid's 32 columns).
    const bool column = c.width >= c.height;
    const float f = column
                        ? std::clamp(330.0f / std::max(c.width, 1.0f), 0.24f, c.height < kOnePaneHeight ? 0.42f : 0.36f)
                        : std::clamp(200.0f / std::max(c.height, 1.0f), 0.25f, 0.4f);
    (column ? rest.width : rest.height) *= 1.0f - f;
    std::vector<Pane> panes = {column ? Pane{0, 0, f, 1, {ViewId::lesson}} : Pane{0, 1.0f - f, 1, f, {ViewId::lesson}}};
    for (Pane p : arrange(k, rest, others)) {
      if (column) {
        p.x = f + p.x * (1.0f - f);
        p.w *= 1.0f - f;
      } else {
        p.y *= 1.0f - f;
        p.h *= 1.0f - f;
      }
      panes.push_back(p);
    }
    if (panes.size() == 1) panes[0] = {0, 0, 1, 1, {ViewId::lesson}};  // nothing else open
    return panes;
  }
  // Present keeps its two panes side by side down to a short area (it has no third row to fit).
  const bool present_pair = k == LayoutKind::present && present_side_by_side(c) && c.height >= kPresentPairHeight;
  if (c.height < kOnePaneHeight && !present_pair)
    return place({{1.0f,
                   {{1.0f, with(with(kCentre, {ViewId::banks, ViewId::metrics, ViewId::scenario, ViewId::warps,
                                               ViewId::code, ViewId::timings}),
                                c.others)}}}},
                 shown);
  switch (k) {
    case LayoutKind::study: return place(study(c), shown);
    case LayoutKind::present: return place(present(c), shown);
    case LayoutKind::compare: return place(compare(c), shown);
  }
  return {};
}

bool layout_names(ViewId v) {
  return v != ViewId::bank_lab && v != ViewId::gallery && v != ViewId::glossary &&
         std::find(std::begin(kViewIds), std::end(kViewIds), v) != std::end(kViewIds);
}

float chrome_scale(float ui_scale, float window_height) {
  // 360 window pixels per unit of scale: the bars take about a third of the height at most.
  float cap = 1.0f;
  for (float s : {1.5f, 2.0f, 2.5f, 3.0f})
    if (s * 360.0f <= window_height) cap = s;
  return std::min(ui_scale, cap);
}

std::vector<ViewId> layout_views(LayoutKind k, const LayoutContext& c) {
  switch (k) {
    case LayoutKind::study:
      return with(with(kCentre, {ViewId::scenario, ViewId::warps, ViewId::metrics, ViewId::code, ViewId::banks,
                                 ViewId::timings}),
                  c.others);
    case LayoutKind::present:
      // The tree and the bank grid large; a transpose's tile view draws its own bank grid.
      return c.tiles ? kCentre : with(kCentre, {ViewId::banks});
    case LayoutKind::compare: return with(kCentre, {ViewId::metrics});
  }
  return {};
}

}  // namespace redlab::model
