// Named layouts: where the views go, as panes that tile the panels' area (between the control strip and the
// status bar). A pane shows one view, or several as tabs. The arrangement is a function of the layout, the
// views that are open, and the area's size in scaled pixels, recomputed every frame: it fills any window,
// reflows on resize, gives a closed view's room to the others, and is reset by opening the layout's views
// again. No GL, no ImGui (tests/gui/test_layout.cpp checks every arrangement).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/view_id.h"

namespace redlab::model {

enum class LayoutKind { study, present, compare };
const char* to_string(LayoutKind);
std::optional<LayoutKind> parse_layout(const std::string&);  // "study" | "present" | "compare"

// Where one pane goes, in fractions of the panels' area, and the views it shows (open ones only, in tab order).
struct Pane {
  float x = 0, y = 0, w = 0, h = 0;
  std::vector<ViewId> views;
};

// What the arrangement depends on besides the layout.
struct LayoutContext {
  bool tiles = false;  // the centre shows transposes' tiles (no tree)
  bool compare = false;  // scenario B is shown beside A
  bool editing = false;  // a kernel file of the student's own is followed: the code view (its editor) gets more room
  // A lesson is open: its panel takes a column on the left (a row at the bottom of a tall area), every layout the rest.
  bool lesson = false;
  float width = 1600, height = 800;  // the panels' area in scaled pixels (window pixels / UI scale)
  // Views registered without a place in the layouts (none that layout_names names), in the View menu's order: each
  // layout gives them tabs at the end of its pane of tabs beside the centre, and study opens them.
  std::vector<ViewId> others;
};

// Whether the layouts place view `v` by name (the views of model/view_id.h that are not floating windows).
bool layout_names(ViewId v);

// The panes for the views `shown(id)` says are open and apply. Every such view is in exactly one pane; the
// panes do not overlap and cover the whole area (when at least one view is shown).
std::vector<Pane> arrange(LayoutKind, const LayoutContext&, const std::function<bool(ViewId)>& shown);

// The scale of the window's own bars (menu bar, control strip, status bar): the presentation scale, up to what the
// window's height leaves the views (one of the menu's scales, x1 at least): a 720-pixel window keeps its bars at x2,
// so that x2.5 and x3 go to the views, never taking their room (1080 pixels allow x3).
float chrome_scale(float ui_scale, float window_height);

// The views a layout opens when it is chosen or reset (the others close; the View menu opens them again).
std::vector<ViewId> layout_views(LayoutKind, const LayoutContext&);

}  // namespace redlab::model
