// The window's own parts around the views: the menu bar (its View menu lists the registry, its Layout menu
// the layouts), the control strip, the status bar, the File dialog and the About box; and the panes the
// layout puts the views in (layout.h).
#include "chrome.h"

#include <imgui.h>
#include <imgui_internal.h>   // a window's scroll range and its child windows (overflow)
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
#include "palette.h"

namespace redlab::gui {

using namespace redlab::model;

ChromeStyle::ChromeStyle() {
  ImFont* font = chrome_font();
  if (!font || ImGui::GetFont() == font) return;   // the views' scale, or inside the bars already
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

namespace {

// The menu bar's and the status bar's heights, at the bars' scale.
float menu_bar_height() {
  ChromeStyle bars;
  return ImGui::GetFrameHeight();
}
float status_bar_height() {
  ChromeStyle bars;
  return ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y * 2;
}

// The panels' area: the window less the menu bar and control strip above and the status bar below.
struct PanelArea {
  float top, bottom;
};
PanelArea panel_area(const Model& st) {
  ChromeStyle bars;
  return {menu_bar_height() + controls_height(st), status_bar_height()};
}

// Above a view exported as a slide: what ran and the step shown with its figures (export.h), in the views' type on
// the window's colour.
void slide_caption(const Model& st, ViewId id) {
  if (st.view.slide_view != id || !st.view.slide_caption || !st.work.a.trace) return;
  const Trace& t = *st.work.a.trace;
  const std::vector<std::string> lines = export_caption(t, slot_step(st.work.a, st.view.step));
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
void draw_view(Model& st, View& v) {
  st.view.drawn.push_back(v.id);
  slide_caption(st, v.id);
  if (lesson_hides(st, v.id))
    text_wrapped(tr("lesson.hidden_view"), nullptr);
  else
    v.draw(st);
  const ImVec2 over = overflow(ImGui::GetCurrentWindow());
  st.view.overflow.push_back({v.id, over.x / st.view.ui_scale, over.y / st.view.ui_scale});
}

// The layout's panes this frame, as windows: one view with its title bar, or several as tabs. They are placed
// every frame (the layout owns them); a floating view (the bank lab) is a window the user places.
void draw_panes(Model& st, Views& views) {
  st.view.drawn.clear();
  st.view.overflow.clear();
  st.view.values_canvases.clear();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const PanelArea area = panel_area(st);
  const float W = vp->Size.x, H = vp->Size.y - area.top - area.bottom;
  if (W <= 0 || H <= 0) return;  // minimised
  LayoutContext c;
  c.tiles = shows_tiles(st);
  c.compare = st.work.compare;
  c.editing = follows_file(st.code_slot());
  c.lesson = st.lesson.open();
  c.width = W / st.view.ui_scale;
  c.height = H / st.view.ui_scale;
  auto shown = [&](ViewId id) {
    const View* v = find_view(views, id);
    return v && !v->floating && v->open && v->applies(st);
  };
  const ImGuiWindowFlags pane_flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  for (const Pane& p : arrange(st.view.layout, c, shown)) {
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
      if (open) draw_view(st, v);
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
    const bool raising = st.view.raise_view && std::find(p.views.begin(), p.views.end(), *st.view.raise_view) != p.views.end();
    if (ImGui::Begin(name.c_str(), nullptr, pane_flags | ImGuiWindowFlags_NoTitleBar)) {
      if (bars_font) ImGui::PushFont(bars_font);
      if (ImGui::BeginTabBar("tabs", ImGuiTabBarFlags_FittingPolicyScroll)) {
        for (ViewId id : p.views) {
          View& v = *find_view(views, id);
          // An export of this view brings it to the front too.
          const bool front = raising ? st.view.raise_view == id
                                     : (pane_was_shown && !v.was_shown) || st.view.front_view == id;
          const ImGuiTabItemFlags tf = front ? ImGuiTabItemFlags_SetSelected : 0;
          if (ImGui::BeginTabItem(L(v.title_key).c_str(), &v.open, tf)) {
            if (bars_font) ImGui::PopFont();
            ImGui::BeginChild("view");
            v.rect = ImVec4(ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x,
                            ImGui::GetWindowSize().y);
            draw_view(st, v);
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
    if (!v->floating || !v->open || !v->applies(st)) continue;
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(v->first_size(vp->Size), ImGuiCond_Appearing);
    if (ImGui::Begin(L(v->title_key).c_str(), &v->open, v->flags())) {
      v->draw(st);
      st.view.drawn.push_back(v->id);
    }
    v->rect = ImVec4(ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y);
    ImGui::End();
  }
}

// The Export window, its path ending in EXT (the format), the path field taking the keys.
void open_export(Model& st, Chrome& chrome, const char* ext) {
  chrome.show_export = true;
  chrome.export_focus = true;
  std::string& path = chrome.export_form.path;
  if (path.empty()) path = "redlab-" + st.work.a.scenario.kernel + ".png";
  if (ext) path = path.substr(0, path.find_last_of('.')) + "." + ext;
}

// The Open window for a trace or a kernel file, its path field taking the keys.
void open_window(Chrome& chrome, Chrome::OpenMode mode) {
  chrome.show_open = true;
  chrome.open_mode = mode;
  chrome.open_focus = true;
}

// The Lesson menu: the shipped lessons by title (the one open checked), a lesson file of one's own, the beats.
void lesson_menu(Model& st, Chrome& chrome) {
  const bool zh = st.view.lang == "zh_CN";
  // The shipped lessons, read once (their files do not change while the window is open).
  static const std::vector<std::pair<std::string, Lesson>> shipped = [&] {
    std::vector<std::pair<std::string, Lesson>> out;
    if (!st.work.opts.scenario_words) return out;
    for (const std::string& path : shipped_lessons())
      if (Lesson l; read_lesson(path, st.work.opts.scenario_words, l).empty()) {
        st.work.need_glyphs(l.title.zh);   // the menu's titles in Chinese
        out.emplace_back(path, std::move(l));
      }
    return out;
  }();
  for (const auto& [path, l] : shipped) {
    const std::string label = l.note + "  " + l.title.in(zh);
    if (ImGui::MenuItem(label.c_str(), nullptr, st.lesson.open() && st.lesson.lesson.name == l.name) &&
        !(st.lesson.open() && st.lesson.lesson.name == l.name))
      open_lesson(st, path);
  }
  ImGui::Separator();
  if (ImGui::MenuItem(L("menu.lesson.open").c_str())) open_window(chrome, Chrome::OpenMode::lesson);
  tooltip_key("menu.lesson.open.tip");
  const int beat = st.lesson.beat, beats = int(st.lesson.lesson.beats.size());
  if (ImGui::MenuItem(L("menu.lesson.next").c_str(), "PgDn", false, st.lesson.open() && beat + 1 < beats))
    lesson_show(st, beat + 1);
  if (ImGui::MenuItem(L("menu.lesson.prev").c_str(), "PgUp", false, st.lesson.open() && beat > 0))
    lesson_show(st, beat - 1);
  const bool zh_titles = st.view.lang == "zh_CN";
  for (const LessonExercise& e : st.lesson.lesson.exercises)
    if (ImGui::MenuItem(trf("lesson.exercise", {e.title.in(zh_titles)}).c_str(), nullptr, st.lesson.exercise == e.name))
      start_exercise(st, e.name);
  ImGui::Separator();
  if (ImGui::MenuItem(L("menu.lesson.restart").c_str(), nullptr, false, st.lesson.open())) lesson_restart(st);
  tooltip_key("menu.lesson.restart.tip");
  if (ImGui::MenuItem(L("menu.lesson.restart_all").c_str())) lesson_restart_all(st);
  tooltip_key("menu.lesson.restart_all.tip");
  if (ImGui::MenuItem(L("menu.lesson.close").c_str(), nullptr, false, st.lesson.open())) close_lesson(st);
}

void menu_bar(Model& st, Views& views, Chrome& chrome) {
  ChromeStyle bars;
  // Ctrl+E: the Export window (Enter in its path field exports).
  if (key_pressed(st, kKeyE, false, kModControl) && st.work.a.trace) open_export(st, chrome, nullptr);
  // Ctrl+S: the kernel file the code view shows is saved (and runs), wherever the keys are.
  if (key_pressed(st, kKeyS, false, kModControl)) {
    if (st.code_slot().user.editor.dirty()) st.work.save_kernel_source(st.code_slot());
  }
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu(L("menu.file").c_str())) {
    if (ImGui::MenuItem(L("menu.open").c_str())) open_window(chrome, Chrome::OpenMode::trace);
    if (ImGui::MenuItem(L("menu.open_source").c_str())) open_window(chrome, Chrome::OpenMode::source_a);
    tooltip_key("menu.open_source.tip");
    if (ImGui::MenuItem(L("menu.open_source_b").c_str())) open_window(chrome, Chrome::OpenMode::source_b);
    tooltip_key("menu.open_source_b.tip");
    if (ImGui::MenuItem(L("menu.gallery").c_str())) st.view.views_to_open.push_back(ViewId::gallery);
    tooltip_key("menu.gallery.tip");
    if (ImGui::MenuItem(L("menu.playlist").c_str())) open_window(chrome, Chrome::OpenMode::playlist);
    tooltip_key("menu.playlist.tip");
    const Playlist& list = st.work.playlist;
    if (ImGui::MenuItem(L("menu.playlist.next").c_str(), "PgDn", false,
                        !list.entries.empty() && list.current + 1 < int(list.entries.size())))
      playlist_show(st, list.current + 1);
    if (ImGui::MenuItem(L("menu.playlist.prev").c_str(), "PgUp", false, list.current > 0))
      playlist_show(st, list.current - 1);
    if (ImGui::MenuItem(L("menu.save_source").c_str(), "Ctrl+S", false, st.code_slot().user.editor.dirty()))
      st.work.save_kernel_source(st.code_slot());
    tooltip_key("menu.save_source.tip");
    if (ImGui::MenuItem(L("menu.save").c_str(), nullptr, false, st.work.a.trace.has_value())) {
      open_window(chrome, Chrome::OpenMode::trace);
      st.view.open_path = "redlab-trace.rltrace";
    }
    ImGui::Separator();
    // Export: the form opens with the path's extension set to the format chosen (export.h).
    for (const char* ext : {"png", "csv", "gif"}) {
      const std::string key = std::string("menu.export_") + ext;
      if (ImGui::MenuItem(L(key.c_str()).c_str(), nullptr, false, st.work.a.trace.has_value())) open_export(st, chrome, ext);
      tooltip_key((key + ".tip").c_str());
    }
    ImGui::Separator();
    if (ImGui::MenuItem(L("menu.quit").c_str(), "Ctrl+Q")) chrome.quit = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.view").c_str())) {
    for (auto& v : views)
      if (ImGui::MenuItem(L(v->title_key).c_str(), nullptr, &v->open) && v->open) v->opened(st);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.lesson").c_str())) {
    lesson_menu(st, chrome);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.layout").c_str())) {
    for (LayoutKind k : {LayoutKind::study, LayoutKind::present, LayoutKind::compare}) {
      const std::string key = std::string("layout.") + to_string(k);
      if (ImGui::MenuItem(L(key.c_str()).c_str(), nullptr, st.view.layout == k)) {
        st.view.layout = k;
        st.view.layout_reset = true;
      }
      tooltip_key((key + ".tip").c_str());
    }
    ImGui::Separator();
    if (ImGui::MenuItem(L("layout.reset").c_str())) st.view.layout_reset = true;
    tooltip_key("layout.reset.tip");
    if (ImGui::MenuItem(L("menu.fullscreen").c_str(), "F11", st.view.fullscreen)) st.view.fullscreen = !st.view.fullscreen;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.classroom").c_str())) {
    for (float s : {1.0f, 1.5f, 2.0f, 2.5f, 3.0f}) {
      char lab[32];
      std::snprintf(lab, sizeof lab, "%s x%.1f", tr("menu.scale"), s);
      if (ImGui::MenuItem(lab, nullptr, st.view.ui_scale == s)) {
        st.view.ui_scale = s;
        st.view.fonts_dirty = true;
      }
    }
    tooltip_key("menu.scale.tip");
    if (ImGui::MenuItem(L("menu.colorblind").c_str(), nullptr, &st.view.colorblind)) palette_set_colorblind(st.view.colorblind);
    tooltip_key("menu.colorblind.tip");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.language").c_str())) {
    if (ImGui::MenuItem("English", nullptr, st.view.lang == "en")) {
      st.view.lang = "en";
      st.view.lang_dirty = true;
    }
    if (ImGui::MenuItem("简体中文", nullptr, st.view.lang == "zh_CN")) {
      st.view.lang = "zh_CN";
      st.view.lang_dirty = true;
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.help").c_str())) {
    ImGui::MenuItem(L("menu.keys").c_str(), "F1", &st.view.show_help);
    if (ImGui::MenuItem(L("menu.glossary").c_str())) open_glossary(st, "");
    tooltip_key("menu.glossary.tip");
    ImGui::MenuItem(L("menu.about").c_str(), nullptr, &chrome.show_about);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}


// (An export's own frames do not say "writing ...": the window's PNG would show it.)
void status_bar(Model& st, const Chrome& chrome, bool exporting, double export_progress) {
  ChromeStyle bars;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float h = status_bar_height();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x, vp->Pos.y + vp->Size.y - h));
  ImGui::SetNextWindowSize(ImVec2(vp->Size.x, h));
  ImGui::Begin("##status", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  // Every part fits the line (cut with "..." and whole in its tooltip): an export's outcome first while it is
  // fresh, then the backend, a replay's origin, the missing-CUDA notice.
  auto room = [] { return ImGui::GetContentRegionAvail().x; };
  auto next = [] { ImGui::SameLine(0, ImGui::GetFontSize()); };
  bool first = true;
  if (export_progress >= 0) {
    const ImVec4 c(0.55f, 0.8f, 1.0f, 1);
    text_fitted(trf("export.progress", {std::to_string(int(export_progress * 100))}), room(), &c);
    first = false;
  } else if (!exporting && !chrome.export_message.empty() && ImGui::GetTime() - chrome.export_time < 10) {
    const ImVec4 c = chrome.export_failed ? ImVec4(1.0f, 0.45f, 0.35f, 1) : ImVec4(0.4f, 0.85f, 0.4f, 1);
    text_fitted(chrome.export_message, room(), &c);
    first = false;
  }
  // The open lesson and its beat (Page Down / Page Up step through them).
  if (const LessonPlayer& p = st.lesson; p.open()) {
    if (!first) next();
    const ImVec4 blue(0.55f, 0.8f, 1.0f, 1);
    ImGui::TextColored(blue, "%s", trf("ctl.lesson", {p.lesson.name, std::to_string(p.beat + 1),
                                                      std::to_string(p.lesson.beats.size())}).c_str());
    tooltip_key("ctl.lesson.tip");
    first = false;
  }
  // Where the lecture's playlist is (Page Down / Page Up), first: the lecturer looks for it.
  if (const Playlist& p = st.work.playlist; !p.entries.empty() && p.current >= 0) {
    if (!first) next();
    const ImVec4 blue(0.55f, 0.8f, 1.0f, 1);
    ImGui::TextColored(blue, "%s", trf("ctl.playlist", {std::to_string(p.current + 1), std::to_string(p.entries.size())}).c_str());
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      text_wrapped(tr("ctl.playlist.tip"), nullptr, ImGui::GetFontSize() * 30);
      ImGui::TextDisabled("%s", p.entries[std::size_t(p.current)].text.c_str());
      ImGui::EndTooltip();
    }
    first = false;
  }
  if (!st.work.playlist_message.empty()) {   // why Page Down did not go on (unsaved edits)
    if (!first) next();
    const ImVec4 amber(1.0f, 0.75f, 0.3f, 1);
    text_fitted(st.work.playlist_message, room() * 0.5f, &amber);
    first = false;
  }
  if (st.work.a.trace && st.work.a.trace->fault) {   // the kernel stopped at a fault: said first, the report on hover
    if (!first) next();
    const ImVec4 red(1.0f, 0.45f, 0.35f, 1);
    text_fitted(fault_summary(*st.work.a.trace), room() * 0.7f, &red);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
      ImGui::TextUnformatted(fault_summary(*st.work.a.trace).c_str());
      ImGui::TextDisabled("%s", fault_report(*st.work.a.trace).c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    first = false;
  }
  if (st.work.a.trace) {
    const Trace& t = *st.work.a.trace;
    const bool gpu = t.backend == Backend::cuda;
    const ImVec4 c = gpu ? ImVec4(0.5f, 0.9f, 0.5f, 1) : ImVec4(1.0f, 0.8f, 0.35f, 1);
    if (!first) next();
    if (room() > ImGui::GetFontSize() * 3) {
      text_fitted(trf("status.backend", {to_string(t.backend), device_text(t.device)}), room(), &c);
      tooltip_key(gpu ? "status.gpu.tip" : "status.cpu.tip");
    }
    if (!st.work.a.origin.empty() && room() > ImGui::GetFontSize() * 4) {
      next();
      text_fitted(trf("status.replay", {st.work.a.origin, t.host, t.recorded_at}), room(), nullptr);
    }
  } else {
    if (!first) next();
    // the views' own words: why there is no trace (a cancel, a refusal), or how far the run is
    const ImVec4 grey = ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
    text_fitted(no_trace_text(st.work.a), room(), &grey);
  }
  if (!st.view.font_notice.empty() && room() > ImGui::GetFontSize() * 5) {
    // In English in either language: where it is about the missing Chinese font, Chinese could not be drawn.
    next();
    const ImVec4 c(1.0f, 0.8f, 0.35f, 1);
    text_fitted(st.view.font_notice, room() * 0.6f, &c);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
      ImGui::TextUnformatted(st.view.font_notice.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  if (!st.work.a.notice.empty() && room() > ImGui::GetFontSize() * 5) {  // once, short and translated; the runtime's
    next();                                                           // own words (English) in the tooltip
    const ImVec4 c(1.0f, 0.8f, 0.35f, 1);
    text_fitted(tr("status.no_cuda"), room() - ImGui::GetFontSize(), &c);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
      ImGui::TextUnformatted(tr("status.no_cuda.tip"));
      ImGui::TextDisabled("%s", st.work.a.notice.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  ImGui::End();
}

// The first start: three lines (what the window shows, Space plays, the arrows step) in the bottom-right corner
// above the status bar, until dismissed (F1 dismisses it too); the settings file remembers (hint_seen).
void first_start_hint(Model& st) {
  if (!st.view.show_hint) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float bottom = status_bar_height() + ImGui::GetStyle().ItemSpacing.y;
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x - ImGui::GetStyle().ItemSpacing.x, vp->Pos.y + vp->Size.y - bottom),
                          ImGuiCond_Always, ImVec2(1, 1));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(std::min(vp->Size.x * 0.9f, ImGui::GetFontSize() * 34), FLT_MAX));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.13f, 0.22f, 0.36f, 1));
  ImGui::PushStyleColor(ImGuiCol_Border, ImVec4(0.55f, 0.8f, 1.0f, 1));
  if (ImGui::Begin("##hint", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                          ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove)) {
    // Broken into lines once, here (an ImGui wrap position as well broke the lines again, a word short).
    for (const char* k : {"hint.what", "hint.play", "hint.step"})
      text_wrapped(tr(k), nullptr, std::min(vp->Size.x * 0.9f, ImGui::GetFontSize() * 32));
    if (ImGui::Button(L("status.hint.ok").c_str())) st.view.show_hint = false;
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr("hint.f1"));
  }
  ImGui::End();
  ImGui::PopStyleColor(2);
}

// F1: the keys, the layouts and where the definitions are, over the window.
void help_window(Model& st) {
  if (!st.view.show_help) return;
  st.view.show_hint = false;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(vp->Size.x * 0.9f, ImGui::GetFontSize() * 40), 0), ImGuiCond_Appearing);
  // Inside the window at any scale (the keys, the layouts and the editor's paragraph are taller than 1280x720 at x2):
  // it scrolls instead.
  // Centred, so clear of the status bar below when it leaves as much room above.
  const float bars = status_bar_height() + ImGui::GetStyle().ItemSpacing.y;
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(FLT_MAX, std::max(vp->Size.y - 2 * bars, vp->Size.y * 0.5f)));
  if (ImGui::Begin(L("help.title").c_str(), &st.view.show_help, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
      ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("does", ImGuiTableColumnFlags_WidthStretch);
      for (const char* k : {"space", "arrows", "home_end", "pgup_pgdn", "f5", "esc", "ctrl_s", "ctrl_e", "f11", "f1", "ctrl_q"}) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(tr((std::string("help.key.") + k).c_str()));
        ImGui::TableNextColumn();
        text_wrapped(tr((std::string("help.does.") + k).c_str()));
      }
      ImGui::EndTable();
    }
    ImGui::Separator();
    text_wrapped(tr("help.layouts"));
    ImGui::Separator();
    text_wrapped(tr("help.editor"));
    ImGui::Separator();
    text_wrapped(tr("help.figures"));
  }
  ImGui::End();
}

// File > Open trace / Open kernel source (as A or B): a path, and Enter or the button opens it.
// File > Playlist: a path, and Enter or Open reads it and shows its first scenario.
void playlist_dialog(Model& st, Chrome& chrome) {
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0), ImGuiCond_Appearing);
  if (ImGui::Begin((L("open.playlist_title") + "##playlist").c_str(), &chrome.show_open)) {
    text_wrapped(tr("open.playlist_help"));
    ImGui::SetNextItemWidth(-1);
    if (std::exchange(chrome.open_focus, false)) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##playlist_path", &st.view.open_path,
                                       ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    if ((ImGui::Button(L("open.playlist").c_str()) || enter) && st.work.load_playlist(st.view.open_path)) {
      chrome.show_open = false;
      playlist_show(st, 0);
    }
    const ImVec4 warning(1, 0.6f, 0.4f, 1);
    if (!st.work.playlist_message.empty()) text_wrapped(st.work.playlist_message, &warning);
  }
  ImGui::End();
}

// Lesson > Open lesson file: a path (or a shipped lesson's name), and Enter or Open shows its first beat.
void lesson_dialog(Model& st, Chrome& chrome) {
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0), ImGuiCond_Appearing);
  if (ImGui::Begin((L("open.lesson_title") + "##lesson").c_str(), &chrome.show_open)) {
    text_wrapped(tr("open.lesson_help"));
    ImGui::SetNextItemWidth(-1);
    if (std::exchange(chrome.open_focus, false)) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##lesson_path", &st.view.open_path,
                                       ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    if ((ImGui::Button(L("open.lesson").c_str()) || enter) && open_lesson(st, st.view.open_path, 0))
      chrome.show_open = false;
    const ImVec4 warning(1, 0.6f, 0.4f, 1);
    if (!st.lesson.open() && !st.lesson.message.empty()) text_wrapped(st.lesson.message, &warning);
  }
  ImGui::End();
}

void open_dialog(Model& st, Chrome& chrome) {
  if (!chrome.show_open) return;
  if (chrome.open_mode == Chrome::OpenMode::playlist) return playlist_dialog(st, chrome);
  if (chrome.open_mode == Chrome::OpenMode::lesson) return lesson_dialog(st, chrome);
  const bool source = chrome.open_mode != Chrome::OpenMode::trace;
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0), ImGuiCond_Appearing);
  if (ImGui::Begin((L(source ? "open.source_title" : "open.title") + "##open").c_str(), &chrome.show_open)) {
    text_wrapped(tr(source ? "open.source_help" : "open.help"));
    ImGui::SetNextItemWidth(-1);
    if (std::exchange(chrome.open_focus, false)) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##path", &st.view.open_path, ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    if (!source) {
      if ((ImGui::Button(L("open.open").c_str()) || enter) && st.open_trace(st.view.open_path)) chrome.show_open = false;
      ImGui::SameLine();
      if (ImGui::Button(L("open.save").c_str())) st.work.save_trace(st.view.open_path);
    } else {
      // Which side follows the file: A, or B beside it (compare switches on).
      int side = chrome.open_mode == Chrome::OpenMode::source_b ? 1 : 0;
      ImGui::RadioButton(L("open.as_a").c_str(), &side, 0);
      tooltip_key("open.as_a.tip");
      ImGui::SameLine();
      ImGui::RadioButton(L("open.as_b").c_str(), &side, 1);
      tooltip_key("open.as_b.tip");
      chrome.open_mode = side ? Chrome::OpenMode::source_b : Chrome::OpenMode::source_a;
      std::error_code ec;
      const bool exists = std::filesystem::is_regular_file(st.view.open_path, ec);
      ImGui::BeginDisabled(!exists);
      if (ImGui::Button(L("open.source").c_str()) || (enter && exists)) {
        Slot& slot = side ? st.work.b : st.work.a;
        if (side && !st.work.compare) {   // B beside A at A's shape
          st.work.compare = true;
          st.work.b.scenario.n = st.work.a.scenario.n;
          st.work.b.scenario.block = st.work.a.scenario.block;
          sync_text_fields(st.work.b);
        }
        st.view.memory.code_side = side;
        st.work.open_kernel_source(slot, st.view.open_path);
        st.view.views_to_open.push_back(ViewId::code);
        chrome.show_open = false;
      }
      ImGui::EndDisabled();
      tooltip_key("open.source.tip");
      if (!exists && !st.view.open_path.empty()) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1, 0.6f, 0.4f, 1), "%s", tr("open.source.missing"));
      }
    }
    if (!source && !st.work.open_error.empty()) ImGui::TextColored(ImVec4(1, 0.6f, 0.4f, 1), "%s", st.work.open_error.c_str());
  }
  ImGui::End();
}

// A kernel file with unsaved edits that something would replace (another file, the gallery, Close): save, drop
// the edits, or leave it all as it is. One question per slot, over the window.
void unsaved_dialogs(Model& st) {
  for (Slot* slot : {&st.work.a, &st.work.b}) {
    const std::string id = L("unsaved.title") + (slot == &st.work.a ? "##unsavedA" : "##unsavedB");
    UserSource& u = slot->user;
    if (!u.unsaved_question) continue;
    if (!ImGui::IsPopupOpen(id.c_str())) ImGui::OpenPopup(id.c_str());
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, 0));
    if (!ImGui::BeginPopupModal(id.c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) continue;
    const float width = ImGui::GetFontSize() * 28;
    text_wrapped(trf("unsaved.text", {slot == &st.work.a ? "A" : "B", u.path}), nullptr, width);
    if (!u.editor.error.empty()) text_wrapped(u.editor.error, nullptr, width);
    const ImVec2 button(ImGui::GetFontSize() * 8.5f, 0);
    std::optional<Work::Unsaved> answer;
    if (ImGui::Button(L("unsaved.save").c_str(), button)) answer = Work::Unsaved::save;
    ImGui::SameLine();
    if (ImGui::Button(L("unsaved.discard").c_str(), button)) answer = Work::Unsaved::discard;
    ImGui::SameLine();
    if (ImGui::Button(L("unsaved.cancel").c_str(), button) || key_pressed(st, kKeyEscape)) answer = Work::Unsaved::cancel;
    if (answer) {
      st.work.resolve_unsaved(*slot, *answer);
      if (!u.unsaved_question) ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

// Quitting with unsaved edits in a kernel file: save them and quit, quit without them, or stay.
void quit_dialog(Model& st, Chrome& chrome) {
  const std::string id = L("quit.title") + "##quit";
  if (!chrome.quit_question) return;
  if (!ImGui::IsPopupOpen(id.c_str())) ImGui::OpenPopup(id.c_str());
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, 0));
  if (!ImGui::BeginPopupModal(id.c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
  const float width = ImGui::GetFontSize() * 28;
  for (Slot* slot : {&st.work.a, &st.work.b})
    if (slot->user.editor.dirty())
      text_wrapped(trf("unsaved.text", {slot == &st.work.a ? "A" : "B", slot->user.path}), nullptr, width);
  const ImVec2 button(ImGui::GetFontSize() * 8.5f, 0);
  bool done = false;
  if (ImGui::Button(L("quit.save").c_str(), button)) {
    bool saved = true;
    for (Slot* slot : {&st.work.a, &st.work.b})
      if (slot->user.editor.dirty()) saved = st.work.save_kernel_source(*slot, false) && saved;
    done = saved;   // a file that could not be written says why (above), and the window stays
  }
  ImGui::SameLine();
  if (ImGui::Button(L("quit.discard").c_str(), button)) done = true;
  ImGui::SameLine();
  if (ImGui::Button(L("unsaved.cancel").c_str(), button) || key_pressed(st, kKeyEscape)) {
    chrome.quit_question = false;
    ImGui::CloseCurrentPopup();
  }
  for (Slot* slot : {&st.work.a, &st.work.b})
    if (!slot->user.editor.error.empty()) ImGui::TextColored(ImVec4(1, 0.6f, 0.4f, 1), "%s", slot->user.editor.error.c_str());
  if (done) {
    chrome.quit_question = false;
    chrome.quit_confirmed = chrome.quit = true;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

// File > Export: where, what (the window or one view), and for a PNG the background, for a GIF the speed.
void export_window(Model& st, Views& views, Chrome& chrome) {
  if (!chrome.show_export) return;
  ExportRequest& f = chrome.export_form;
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 34, 0), ImGuiCond_Appearing);
  if (ImGui::Begin(L("export.title").c_str(), &chrome.show_export, ImGuiWindowFlags_NoCollapse)) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(tr("export.help"));
    ImGui::PopTextWrapPos();
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    if (std::exchange(chrome.export_focus, false)) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText(L("export.path").c_str(), &f.path,
                                         ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    std::string why;
    const std::optional<ExportFormat> format = export_format_of(f.path, &why);
    if (format) f.format = *format;
    if (format && *format != ExportFormat::csv) {
      // The whole window, or one view that shows now (a GIF: the centre view unless one is chosen).
      const std::string none = *format == ExportFormat::gif ? trf("export.centre", {view_key(centre_view(st))}) : tr("export.window");
      const std::optional<ViewId> chosen_id = parse_view(f.view);
      View* chosen = chosen_id ? find_view(views, *chosen_id) : nullptr;
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
      if (begin_combo_fitted(L("export.what").c_str(), chosen ? tr(chosen->title_key) : none)) {
        if (ImGui::Selectable(none.c_str(), f.view.empty())) f.view.clear();
        for (auto& v : views)
          if (!v->floating && v->open && v->applies(st) && ImGui::Selectable(tr(v->title_key), f.view == view_key(v->id)))
            f.view = view_key(v->id);
        ImGui::EndCombo();
      }
      int width_choice = f.width;
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
      const std::string as_drawn = tr("export.as_drawn");
      if (ImGui::BeginCombo(L("export.width").c_str(), width_choice ? std::to_string(width_choice).c_str() : as_drawn.c_str())) {
        for (int w : {0, 1920, 1280, 960, 640})
          if (ImGui::Selectable(w ? std::to_string(w).c_str() : as_drawn.c_str(), w == f.width)) f.width = w;
        ImGui::EndCombo();
      }
      tooltip_key("export.width.tip");
      if (*format == ExportFormat::png) {
        ImGui::Checkbox(L("export.transparent").c_str(), &f.transparent);
      } else {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        ImGui::SliderFloat(L("export.speed").c_str(), &f.speed, 0.5f, 6.0f, "%.1f /s");
        tooltip_key("export.speed.tip");
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        ImGui::SliderFloat(L("export.hold").c_str(), &f.hold, 0.2f, 10.0f, "%.1f s");
        tooltip_key("export.hold.tip");
      }
      if (chosen || *format == ExportFormat::gif) {   // a view: a slide, with its caption or without
        ImGui::Checkbox(L("export.caption").c_str(), &f.caption);
        tooltip_key("export.caption.tip");
      }
    }
    if (!format) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1), "%s", why.c_str());
    // A file there that redlab did not export is replaced only when asked (model/export.h).
    if (format && !export_may_write(f.path, *format, nullptr)) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1), "%s", trf("export.exists", {f.path}).c_str());
      ImGui::PopTextWrapPos();
      ImGui::Checkbox(L("export.replace").c_str(), &f.force);
    } else {
      f.force = false;
    }
    ImGui::BeginDisabled(!format || !st.work.a.trace);
    if (ImGui::Button(L("export.go").c_str(), ImVec2(ImGui::GetFontSize() * 7, 0)) || (enter && format && st.work.a.trace))
      chrome.export_request = f;
    ImGui::EndDisabled();
    if (!chrome.export_message.empty()) {
      ImGui::SameLine();
      ImGui::PushTextWrapPos(0);
      ImGui::TextColored(chrome.export_failed ? ImVec4(1.0f, 0.45f, 0.35f, 1) : ImVec4(0.4f, 0.85f, 0.4f, 1), "%s",
                         chrome.export_message.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  ImGui::End();
}

void about(Chrome& chrome) {
  if (!chrome.show_about) return;
  if (ImGui::Begin(L("menu.about").c_str(), &chrome.show_about, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::Text("redlab %s", version());
    ImGui::TextUnformatted(tr("about.text"));
  }
  ImGui::End();
}

}  // namespace

bool ask_before_quit(Model& st, Chrome& chrome) {
  if (st.view.headless || chrome.quit_confirmed || !(st.work.a.user.editor.dirty() || st.work.b.user.editor.dirty())) return false;
  chrome.quit_question = true;
  chrome.quit = st.view.quit = false;
  return true;
}

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

void apply_layout(Model& st, Views& views) {
  LayoutContext c;
  c.tiles = takes_matrix(st.work.a.scenario);
  c.compare = st.work.compare;
  const std::vector<ViewId> ids = layout_views(st.view.layout, c);
  for (auto& v : views)   // (the lesson panel stays: it shows while a lesson is open, whatever the layout)
    if (!v->floating && v->id != ViewId::lesson) v->open = std::find(ids.begin(), ids.end(), v->id) != ids.end();
  if (st.view.layout == LayoutKind::compare) st.work.compare = true;
  st.view.layout_reset = false;
}

void draw_frame(Model& st, Views& views, Chrome& chrome, bool exporting, double gif_progress) {
  if (st.view.layout_reset) apply_layout(st, views);
  st.view.raise_view.reset();
  for (ViewId id : st.view.views_to_open)
    if (View* v = find_view(views, id)) {
      v->open = true;
      v->opened(st);
      st.view.raise_view = id;   // to the front of its pane of tabs, this frame
    }
  st.view.views_to_open.clear();
  handle_step_keys(st);
  menu_bar(st, views, chrome);
  draw_controls(st);
  draw_panes(st, views);
  confirm_run_dialogs(st);
  unsaved_dialogs(st);
  quit_dialog(st, chrome);
  open_dialog(st, chrome);
  // An export's own frames show the views alone.
  if (!exporting) export_window(st, views, chrome);
  about(chrome);
  help_window(st);
  first_start_hint(st);
  status_bar(st, chrome, exporting, gif_progress);
}

}  // namespace redlab::gui
