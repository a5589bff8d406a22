// The menu bar: File (open, save, export, quit), View (every view registered, views.h), Lesson, Layout,
// Classroom (scale, colours), Language and Help; its shortcuts (Ctrl+E, Ctrl+S); and the About box.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "gui/shell/chrome_parts.h"
#include "core/version.h"
#include "gui/export/exporter.h"
#include "model/i18n.h"
#include "gui/shell/palette.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {

// The Export window, its path ending in EXT (the format), the path field taking the keys.
void open_export(Model& model, Chrome& chrome, const char* ext) {
  chrome.show_export = true;
  chrome.export_focus = true;
  std::string& path = chrome.export_form.path;
  if (path.empty()) path = "redlab-" + model.work.a.scenario.kernel + ".png";
  if (ext) path = path.substr(0, path.find_last_of('.')) + "." + ext;
}

// The Open window for a trace or a kernel file, its path field taking the keys.
void open_window(Chrome& chrome, Chrome::OpenMode mode) {
  chrome.show_open = true;
  chrome.open_mode = mode;
  chrome.open_focus = true;
}

// The Lesson menu: the shipped lessons by title (the one open checked), a lesson file of one's own, the beats.
void lesson_menu(Model& model, Chrome& chrome) {
  const bool zh = model.view.lang == "zh_CN";
  // The shipped lessons, read once (their files do not change while the window is open).
  static const std::vector<std::pair<std::string, Lesson>> shipped = [&] {
    std::vector<std::pair<std::string, Lesson>> out;
    if (!model.work.opts.scenario_words) return out;
    for (const std::string& path : shipped_lessons())
      if (Lesson l; read_lesson(path, model.work.opts.scenario_words, l).empty()) {
        model.work.need_glyphs(l.title.zh);  // the menu's titles in Chinese
        out.emplace_back(path, std::move(l));
      }
    return out;
  }();
  for (const auto& [path, l] : shipped) {
    const std::string label = l.note + "  " + l.title.in(zh);
    if (ImGui::MenuItem(label.c_str(), nullptr, model.lesson.open() && model.lesson.lesson.name == l.name) &&
        !(model.lesson.open() && model.lesson.lesson.name == l.name))
      open_lesson(model, path);
  }
  ImGui::Separator();
  if (ImGui::MenuItem(L("menu.lesson.open").c_str())) open_window(chrome, Chrome::OpenMode::lesson);
  tooltip_key("menu.lesson.open.tip");
  const int beat = model.lesson.beat, beats = int(model.lesson.lesson.beats.size());
  if (ImGui::MenuItem(L("menu.lesson.next").c_str(), "PgDn", false, model.lesson.open() && beat + 1 < beats))
    lesson_show(model, beat + 1);
  if (ImGui::MenuItem(L("menu.lesson.prev").c_str(), "PgUp", false, model.lesson.open() && beat > 0))
    lesson_show(model, beat - 1);
  const bool zh_titles = model.view.lang == "zh_CN";
  for (const LessonExercise& e : model.lesson.lesson.exercises)
    if (ImGui::MenuItem(trf("lesson.exercise", {e.title.in(zh_titles)}).c_str(), nullptr,
                        model.lesson.exercise == e.name))
      start_exercise(model, e.name);
  ImGui::Separator();
  if (ImGui::MenuItem(L("menu.lesson.restart").c_str(), nullptr, false, model.lesson.open())) lesson_restart(model);
  tooltip_key("menu.lesson.restart.tip");
  if (ImGui::MenuItem(L("menu.lesson.restart_all").c_str())) lesson_restart_all(model);
  tooltip_key("menu.lesson.restart_all.tip");
  if (ImGui::MenuItem(L("menu.lesson.close").c_str(), nullptr, false, model.lesson.open())) close_lesson(model);
}

}  // namespace

void menu_bar(Model& model, Views& views, Chrome& chrome) {
  ChromeStyle bars;
  // Ctrl+E: the Export window (Enter in its path field exports).
  if (key_pressed(model, Key::e, false, true) && model.work.a.trace) open_export(model, chrome, nullptr);
  // Ctrl+S: the kernel file the code view shows is saved (and runs), wherever the keys are.
  if (key_pressed(model, Key::s, false, true)) {
    if (model.code_side().user.editor.dirty()) model.work.save_kernel_source(model.code_side());
  }
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu(L("menu.file").c_str())) {
    if (ImGui::MenuItem(L("menu.open").c_str())) open_window(chrome, Chrome::OpenMode::trace);
    if (ImGui::MenuItem(L("menu.open_source").c_str())) open_window(chrome, Chrome::OpenMode::source_a);
    tooltip_key("menu.open_source.tip");
    if (ImGui::MenuItem(L("menu.open_source_b").c_str())) open_window(chrome, Chrome::OpenMode::source_b);
    tooltip_key("menu.open_source_b.tip");
    if (ImGui::MenuItem(L("menu.gallery").c_str())) model.view.views_to_open.push_back(ViewId::gallery);
    tooltip_key("menu.gallery.tip");
    if (ImGui::MenuItem(L("menu.playlist").c_str())) open_window(chrome, Chrome::OpenMode::playlist);
    tooltip_key("menu.playlist.tip");
    const Playlist& list = model.work.playlist;
    if (ImGui::MenuItem(L("menu.playlist.next").c_str(), "PgDn", false,
                        !list.entries.empty() && list.current + 1 < int(list.entries.size())))
      playlist_show(model, list.current + 1);
    if (ImGui::MenuItem(L("menu.playlist.prev").c_str(), "PgUp", false, list.current > 0))
      playlist_show(model, list.current - 1);
    if (ImGui::MenuItem(L("menu.save_source").c_str(), "Ctrl+S", false, model.code_side().user.editor.dirty()))
      model.work.save_kernel_source(model.code_side());
    tooltip_key("menu.save_source.tip");
    if (ImGui::MenuItem(L("menu.save").c_str(), nullptr, false, model.work.a.trace.has_value())) {
      open_window(chrome, Chrome::OpenMode::trace);
      model.view.open_path = "redlab-trace.rltrace";
    }
    ImGui::Separator();
    // Export: the form opens with the path's extension set to the format chosen (export.h).
    for (const char* ext : {"png", "csv", "gif"}) {
      const std::string key = std::string("menu.export_") + ext;
      if (ImGui::MenuItem(L(key.c_str()).c_str(), nullptr, false, model.work.a.trace.has_value()))
        open_export(model, chrome, ext);
      tooltip_key((key + ".tip").c_str());
    }
    ImGui::Separator();
    if (ImGui::MenuItem(L("menu.quit").c_str(), "Ctrl+Q")) chrome.quit = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.view").c_str())) {
    for (auto& v : views)
      if (ImGui::MenuItem(L(v->title_key).c_str(), nullptr, &v->open) && v->open) v->opened(model);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.lesson").c_str())) {
    lesson_menu(model, chrome);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.layout").c_str())) {
    for (LayoutKind k : {LayoutKind::study, LayoutKind::present, LayoutKind::compare}) {
      const std::string key = std::string("layout.") + to_string(k);
      if (ImGui::MenuItem(L(key.c_str()).c_str(), nullptr, model.view.layout == k)) {
        model.view.layout = k;
        model.view.layout_reset = true;
      }
      tooltip_key((key + ".tip").c_str());
    }
    ImGui::Separator();
    if (ImGui::MenuItem(L("layout.reset").c_str())) model.view.layout_reset = true;
    tooltip_key("layout.reset.tip");
    if (ImGui::MenuItem(L("menu.fullscreen").c_str(), "F11", model.view.fullscreen))
      model.view.fullscreen = !model.view.fullscreen;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.classroom").c_str())) {
    for (float s : {1.0f, 1.5f, 2.0f, 2.5f, 3.0f}) {
      char lab[32];
      std::snprintf(lab, sizeof lab, "%s x%.1f", tr("menu.scale"), s);
      if (ImGui::MenuItem(lab, nullptr, model.view.ui_scale == s)) {
        model.view.ui_scale = s;
        model.view.fonts_dirty = true;
      }
    }
    tooltip_key("menu.scale.tip");
    if (ImGui::MenuItem(L("menu.colorblind").c_str(), nullptr, &model.view.colorblind))
      palette_set_colorblind(model.view.colorblind);
    tooltip_key("menu.colorblind.tip");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.language").c_str())) {
    if (ImGui::MenuItem("English", nullptr, model.view.lang == "en")) {
      model.view.lang = "en";
      model.view.lang_dirty = true;
    }
    if (ImGui::MenuItem("简体中文", nullptr, model.view.lang == "zh_CN")) {
      model.view.lang = "zh_CN";
      model.view.lang_dirty = true;
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.help").c_str())) {
    ImGui::MenuItem(L("menu.keys").c_str(), "F1", &model.view.show_help);
    if (ImGui::MenuItem(L("menu.glossary").c_str())) open_glossary(model, "");
    tooltip_key("menu.glossary.tip");
    ImGui::MenuItem(L("menu.about").c_str(), nullptr, &chrome.show_about);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

void about(Chrome& chrome) {
  if (!chrome.show_about) return;
  if (ImGui::Begin(L("menu.about").c_str(), &chrome.show_about, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::Text("redlab %s", version());
    ImGui::TextUnformatted(tr("about.text"));
  }
  ImGui::End();
}

}  // namespace redlab::gui
