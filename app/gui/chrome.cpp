// The window's own parts around the views: the menu bar (its View menu lists the registry), the control
// strip, the status bar, the File dialog and the About box; and where the views go: their first-use places,
// and how they follow the window when its size changes.
#include "chrome.h"

#include <imgui.h>
#include <imgui_internal.h>  // the views' positions and sizes, to carry them through a window resize
#include <imgui_stdlib.h>

#include <cmath>
#include <cstdio>

#include "i18n.h"
#include "palette.h"

namespace redlab::gui {

namespace {

// The panels' area: the window less the menu bar and control strip above and the status bar below.
struct PanelArea {
  float top, bottom;
};
PanelArea panel_area() {
  // The viewport's work area only shrinks for the menu bar from the second frame: use its full size.
  return {ImGui::GetFrameHeight() + ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().WindowPadding.y * 2 + 2,
          ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y * 2};
}

// A view's first-use place (imgui.ini remembers what the user changes).
void place(const View::Placement& p) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const PanelArea a = panel_area();
  const float H = vp->Size.y - a.top - a.bottom, W = vp->Size.x;
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + p.x * W, vp->Pos.y + a.top + p.y * H), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(p.w * W - 2, p.h * H - 2), ImGuiCond_FirstUseEver);
}

// The views follow the window: when its size changes (a resize, a maximise, a move to the projector), every
// view keeps its share of the panels' area, so nothing is left off-screen and no part of the window stays
// empty, whatever the user had arranged. Called after NewFrame, before any view begins.
void follow_window_size(ImVec2& last) {
  const ImVec2 now = ImGui::GetIO().DisplaySize;
  if (now.x <= 0 || now.y <= 0) return;  // minimised: keep the layout for the size it comes back at
  const PanelArea a = panel_area();
  const float h0 = last.y - a.top - a.bottom, h1 = now.y - a.top - a.bottom;
  if (last.x > 0 && h0 > 0 && h1 > 0 && (now.x != last.x || now.y != last.y)) {
    // Each edge keeps its share of the area; an edge at the area's border (within a few pixels) keeps its
    // margin instead, so that views reaching the window's edge still do after any number of resizes.
    auto edge = [](float e, float from, float to) {
      const float margin = 8;
      if (e <= margin) return e;
      if (from - e <= margin) return to - (from - e);
      return std::round(e * to / from);
    };
    const ImVec2 origin(ImGui::GetMainViewport()->Pos.x, ImGui::GetMainViewport()->Pos.y + a.top);
    for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
      if (w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip |
                      ImGuiWindowFlags_NoMove))
        continue;  // children follow their parent; the bars place themselves every frame
      const float x0 = edge(w->Pos.x - origin.x, last.x, now.x), y0 = edge(w->Pos.y - origin.y, h0, h1);
      const float x1 = edge(w->Pos.x - origin.x + w->SizeFull.x, last.x, now.x);
      const float y1 = edge(w->Pos.y - origin.y + w->SizeFull.y, h0, h1);
      ImGui::SetWindowPos(w, ImVec2(origin.x + x0, origin.y + y0));
      ImGui::SetWindowSize(w, ImVec2(x1 - x0, y1 - y0));
    }
  }
  last = now;
}

void menu_bar(Session& st, Views& views, Chrome& chrome) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu(L("menu.file").c_str())) {
    if (ImGui::MenuItem(L("menu.open").c_str())) chrome.show_open = true;
    if (ImGui::MenuItem(L("menu.save").c_str(), nullptr, false, st.a.trace.has_value())) {
      chrome.show_open = true;
      st.open_path = "redlab-trace.rltrace";
    }
    ImGui::Separator();
    if (ImGui::MenuItem(L("menu.quit").c_str())) chrome.quit = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.view").c_str())) {
    for (auto& v : views)
      if (v->in_view_menu && ImGui::MenuItem(L(v->title_key).c_str(), nullptr, &v->open) && v->open) v->opened(st);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.classroom").c_str())) {
    for (float s : {1.0f, 1.5f, 2.0f}) {
      char lab[32];
      std::snprintf(lab, sizeof lab, "%s x%.1f", tr("menu.scale"), s);
      if (ImGui::MenuItem(lab, nullptr, st.ui_scale == s)) {
        st.ui_scale = s;
        st.fonts_dirty = true;
      }
    }
    tooltip_key("menu.scale.tip");
    if (ImGui::MenuItem(L("menu.colorblind").c_str(), nullptr, &st.colorblind)) palette_set_colorblind(st.colorblind);
    tooltip_key("menu.colorblind.tip");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.language").c_str())) {
    if (ImGui::MenuItem("English", nullptr, st.lang == "en")) {
      st.lang = "en";
      st.lang_dirty = true;
    }
    if (ImGui::MenuItem("简体中文", nullptr, st.lang == "zh_CN")) {
      st.lang = "zh_CN";
      st.lang_dirty = true;
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.help").c_str())) {
    ImGui::MenuItem(L("menu.about").c_str(), nullptr, &chrome.show_about);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

void status_bar(const Session& st) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float h = ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y * 2;
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x, vp->Pos.y + vp->Size.y - h));
  ImGui::SetNextWindowSize(ImVec2(vp->Size.x, h));
  ImGui::Begin("##status", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  if (st.a.trace) {
    const Trace& t = *st.a.trace;
    const bool gpu = t.backend == "cuda";
    ImGui::TextColored(gpu ? ImVec4(0.5f, 0.9f, 0.5f, 1) : ImVec4(1.0f, 0.8f, 0.35f, 1), "%s",
                       trf("status.backend", {t.backend, t.device}).c_str());
    tooltip_key(gpu ? "status.gpu.tip" : "status.cpu.tip");
    if (!st.a.origin.empty()) {
      ImGui::SameLine();
      ImGui::TextDisabled("%s", trf("status.replay", {st.a.origin, t.host, t.recorded_at}).c_str());
    }
  } else {
    ImGui::TextDisabled("%s", tr("status.no_trace"));
  }
  if (!st.a.notice.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "|  %s", st.a.notice.c_str());
  }
  ImGui::End();
}

void open_dialog(Session& st, Chrome& chrome) {
  if (!chrome.show_open) return;
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0), ImGuiCond_Appearing);
  if (ImGui::Begin(L("open.title").c_str(), &chrome.show_open)) {
    ImGui::TextWrapped("%s", tr("open.help"));
    ImGui::SetNextItemWidth(-1);
    ImGui::InputText("##path", &st.open_path);
    if (ImGui::Button(L("open.open").c_str()) && st.open_trace(st.open_path)) chrome.show_open = false;
    ImGui::SameLine();
    if (ImGui::Button(L("open.save").c_str())) st.save_trace(st.open_path);
    if (!st.open_error.empty()) ImGui::TextColored(ImVec4(1, 0.6f, 0.4f, 1), "%s", st.open_error.c_str());
  }
  ImGui::End();
}

void about(Chrome& chrome) {
  if (!chrome.show_about) return;
  if (ImGui::Begin(L("menu.about").c_str(), &chrome.show_about, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::Text("redlab %s", REDLAB_VERSION);
    ImGui::TextUnformatted(tr("about.text"));
  }
  ImGui::End();
}

}  // namespace

void hide_views(Views& views, const std::string& hide) {
  std::size_t start = 0;
  while (start <= hide.size()) {
    const std::size_t end = std::min(hide.find(',', start), hide.size());
    const std::string item = hide.substr(start, end - start);
    for (auto& v : views)
      if (!item.empty() && v->id.rfind(item, 0) == 0) v->open = false;
    start = end + 1;
  }
}

void draw_frame(Session& st, Views& views, Chrome& chrome) {
  follow_window_size(chrome.last_size);
  for (const std::string& id : st.views_to_open)
    if (View* v = find_view(views, id)) {
      v->open = true;
      v->opened(st);
    }
  st.views_to_open.clear();
  handle_step_keys(st);
  menu_bar(st, views, chrome);
  draw_controls(st);
  for (auto& v : views) {
    if (!v->open || !v->applies(st)) continue;
    place(v->placement(st));
    if (ImGui::Begin(L(v->title_key).c_str(), &v->open, v->flags())) v->draw(st);
    ImGui::End();
  }
  open_dialog(st, chrome);
  about(chrome);
  status_bar(st);
}

}  // namespace redlab::gui
