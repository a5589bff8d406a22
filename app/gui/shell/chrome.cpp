// The frame: the window's own parts around the views, each in its file (chrome_parts.h: the menu bar, the status
// bar, the dialogs, the Export window), and the panes the layout puts the views in (layout.h), drawn here.
#include "gui/shell/chrome.h"

#include <imgui.h>
#include <imgui_internal.h>  // a window's scroll range and its child windows (overflow)
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/version.h"
#include "gui/export/exporter.h"
#include "model/i18n.h"
#include "gui/shell/chrome_parts.h"
#include "gui/shell/palette.h"

namespace redlab::gui {

using namespace redlab::model;

ChromeStyle::ChromeStyle() {
  ImFont* font = chrome_font();
  if (!font || ImGui::GetFont() == font) return;  // the views' scale, or inside the bars already
  const float r = chrome_ratio();
  const ImGuiStyle& s = ImGui::GetStyle();
  ImGui::PushFont(font);
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(s.FramePadding.x * r, s.FramePadding.y * r));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(s.WindowPadding.x * r, s.WindowPadding.y * r));
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(s.ItemSpacing.x * r, s.ItemSpacing.y * r));
  ImGui::PushStyleVar(ImGuiStyleVar_ItemInnerSpacing, ImVec2(s.ItemInnerSpacing.x * r, s.ItemInnerSpacing.y * r));
  pushed_ = true;
}
ChromeStyle::~ChromeStyle() {
  if (!pushed_) return;
  ImGui::PopStyleVar(4);
  ImGui::PopFont();
}

float menu_bar_height() {
  ChromeStyle bars;
  return ImGui::GetFrameHeight();
}
float status_bar_height() {
  ChromeStyle bars;
  return ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y * 2;
}

namespace {

// The panels' area: the window less the menu bar and control strip above and the status bar below.
struct PanelArea {
  float top, bottom;
};
PanelArea panel_area(const Model& model) {
  ChromeStyle bars;
  return {menu_bar_height() + controls_height(model), status_bar_height()};
}

// Above a view exported as a slide: what ran and the step shown with its figures (export.h), in the views' type on
// the window's colour.
void slide_caption(const Model& model, ViewId id) {
  if (model.view.slide_view != id || !model.view.slide_caption || !model.work.a.trace) return;
  const Trace& t = *model.work.a.trace;
  const std::vector<std::string> lines = export_caption(t, side_step(model.work.a, model.view.step));
  for (std::size_t i = 0; i < lines.size(); ++i)
    text_wrapped(lines[i], i == 0 ? nullptr : &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
}

// How far a window, or any part of it drawn this frame that scrolls (a child window), runs past its visible area:
// what its scroll bars would have to move (as ImGui measured the content in the last frame).
ImVec2 overflow(const ImGuiWindow* w) {
  ImVec2 over(std::max(w->ScrollMax.x, 0.0f), std::max(w->ScrollMax.y, 0.0f));
  for (const ImGuiWindow* c : w->DC.ChildWindows)
    if (c->Active) {
      const ImVec2 o = overflow(c);
      over = ImVec2(std::max(over.x, o.x), std::max(over.y, o.y));
    }
  return over;
}

// A view in its pane: under an export's caption; while a lesson asks for a figure this view prints, a line saying
// so instead (the student predicts first).
void draw_view(Model& model, View& v) {
  model.view.drawn.push_back(v.id);
  slide_caption(model, v.id);
  if (lesson_hides(model, v.id))
    text_wrapped(tr("lesson.hidden_view"), nullptr);
  else
    v.draw(model);
  const ImVec2 over = overflow(ImGui::GetCurrentWindow());
  model.view.overflow.push_back({v.id, over.x / model.view.ui_scale, over.y / model.view.ui_scale});
}

// The views registered that the layouts do not name and that are not floating (LayoutContext::others).
std::vector<ViewId> unnamed_views(const Views& views) {
  std::vector<ViewId> ids;
  for (const auto& v : views)
    if (!v->floating && !layout_names(v->id)) ids.push_back(v->id);
  return ids;
}

// The layout's panes this frame, as windows: one view with its title bar, or several as tabs. They are placed
// every frame (the layout owns them); a floating view (the bank lab) is a window the user places.
void draw_panes(Model& model, Views& views) {
  model.view.drawn.clear();
  model.view.overflow.clear();
  model.view.values_canvases.clear();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const PanelArea area = panel_area(model);
  const float W = vp->Size.x, H = vp->Size.y - area.top - area.bottom;
  if (W <= 0 || H <= 0) return;  // minimised
  LayoutContext c;
  c.tiles = shows_tiles(model);
  c.compare = model.work.compare;
  c.editing = follows_file(model.code_side());
  c.lesson = model.lesson.open();
  c.width = W / model.view.ui_scale;
  c.height = H / model.view.ui_scale;
  c.others = unnamed_views(views);
  auto shown = [&](ViewId id) {
    const View* v = find_view(views, id);
    return v && !v->floating && v->open && v->applies(model);
  };
  const ImGuiWindowFlags pane_flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                      ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                      ImGuiWindowFlags_NoBringToFrontOnFocus;
  for (const Pane& p : arrange(model.view.layout, c, shown)) {
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + std::round(p.x * W), vp->Pos.y + area.top + std::round(p.y * H)));
    ImGui::SetNextWindowSize(ImVec2(std::round(p.w * W) - 2, std::round(p.h * H) - 2));
    // A pane's title bar and tabs are the window's own parts: at the bars' scale, the view under them at its own.
    ImFont* bars_font = chrome_font();
    if (p.views.size() == 1) {
      View& v = *find_view(views, p.views[0]);
      // (ImGui draws the title bar in Begin with the font then current: the pane begins inside the bars' font and
      // pushes the views' own, each font popped in the window that pushed it.)
      if (bars_font) ImGui::PushFont(bars_font);
      const bool open = ImGui::Begin(L(v.title_key).c_str(), &v.open, pane_flags | v.flags());
      if (bars_font) ImGui::PushFont(ImGui::GetIO().Fonts->Fonts[0]);
      // What an export of the view takes: the window below its title bar.
      const float content_top = ImGui::GetCursorScreenPos().y - ImGui::GetStyle().WindowPadding.y;
      v.rect = ImVec4(ImGui::GetWindowPos().x, content_top, ImGui::GetWindowSize().x,
                      ImGui::GetWindowPos().y + ImGui::GetWindowSize().y - content_top);
      if (open) draw_view(model, v);
      if (bars_font) ImGui::PopFont();
      ImGui::End();
      if (bars_font) ImGui::PopFont();
      continue;
    }
    std::string name = "###pane";
    for (ViewId id : p.views) name += std::string(":") + view_key(id);
    // A view that appears in a pane already showing others (opened from the View menu, compare switched on)
    // comes to the front; on the pane's first frame the first tab is. A view asked for by name (a lesson's `look:`,
    // the gallery's code) comes first: in a layout just changed several views appear at once, and the last of them
    // would take the front instead.
    bool pane_was_shown = false;
    for (ViewId id : p.views) pane_was_shown = pane_was_shown || find_view(views, id)->was_shown;
    const bool raising =
        model.view.raise_view && std::find(p.views.begin(), p.views.end(), *model.view.raise_view) != p.views.end();
    if (ImGui::Begin(name.c_str(), nullptr, pane_flags | ImGuiWindowFlags_NoTitleBar)) {
      if (bars_font) ImGui::PushFont(bars_font);
      if (ImGui::BeginTabBar("tabs", ImGuiTabBarFlags_FittingPolicyScroll)) {
        for (ViewId id : p.views) {
          View& v = *find_view(views, id);
          // An export of this view brings it to the front too.
          const bool front =
              raising ? model.view.raise_view == id : (pane_was_shown && !v.was_shown) || model.view.front_view == id;
          const ImGuiTabItemFlags tf = front ? ImGuiTabItemFlags_SetSelected : 0;
          if (ImGui::BeginTabItem(L(v.title_key).c_str(), &v.open, tf)) {
            if (bars_font) ImGui::PopFont();
            ImGui::BeginChild("view");
            v.rect = ImVec4(ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x,
                            ImGui::GetWindowSize().y);
            draw_view(model, v);
            ImGui::EndChild();
            if (bars_font) ImGui::PushFont(bars_font);
            ImGui::EndTabItem();
          }
        }
        ImGui::EndTabBar();
      }
      if (bars_font) ImGui::PopFont();
    }
    ImGui::End();
  }
  for (auto& v : views) v->was_shown = !v->floating && shown(v->id);
  for (auto& v : views) {
    if (!v->floating || !v->open || !v->applies(model)) continue;
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(v->first_size(vp->Size), ImGuiCond_Appearing);
    if (ImGui::Begin(L(v->title_key).c_str(), &v->open, v->flags())) {
      v->draw(model);
      model.view.drawn.push_back(v->id);
    }
    v->rect =
        ImVec4(ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y);
    ImGui::End();
  }
}

}  // namespace

bool hidden_by(const std::string& hide, const std::string& id) {
  for (std::size_t start = 0; start <= hide.size();) {
    const std::size_t end = std::min(hide.find(',', start), hide.size());
    const std::string item = hide.substr(start, end - start);
    if (!item.empty() && id.rfind(item, 0) == 0) return true;
    start = end + 1;
  }
  return false;
}

void hide_views(Views& views, const std::string& hide) {
  for (auto& v : views)
    if (hidden_by(hide, view_key(v->id))) v->open = false;
}

void apply_layout(Model& model, Views& views) {
  LayoutContext c;
  c.tiles = takes_matrix(model.work.a.scenario);
  c.compare = model.work.compare;
  c.others = unnamed_views(views);
  const std::vector<ViewId> ids = layout_views(model.view.layout, c);
  for (auto& v : views)  // (the lesson panel stays: it shows while a lesson is open, whatever the layout)
    if (!v->floating && v->id != ViewId::lesson) v->open = std::find(ids.begin(), ids.end(), v->id) != ids.end();
  if (model.view.layout == LayoutKind::compare) model.work.compare = true;
  model.view.layout_reset = false;
}

void draw_frame(Model& model, Views& views, Chrome& chrome, bool exporting, double gif_progress) {
  if (model.view.layout_reset) apply_layout(model, views);
  model.view.raise_view.reset();
  for (ViewId id : model.view.views_to_open)
    if (View* v = find_view(views, id)) {
      v->open = true;
      v->opened(model);
      model.view.raise_view = id;  // to the front of its pane of tabs, this frame
    }
  model.view.views_to_open.clear();
  handle_step_keys(model);
  menu_bar(model, views, chrome);
  draw_controls(model);
  draw_panes(model, views);
  confirm_run_dialogs(model);
  unsaved_dialogs(model);
  quit_dialog(model, chrome);
  open_dialog(model, chrome);
  // An export's own frames show the views alone.
  if (!exporting) export_window(model, views, chrome);
  about(chrome);
  help_window(model);
  first_start_hint(model);
  status_bar(model, chrome, exporting, gif_progress);
}

}  // namespace redlab::gui
