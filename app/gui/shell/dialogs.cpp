// The windows that ask: File > Open (a trace, a kernel file as A or B, a playlist, a lesson file), a kernel file's
// unsaved edits about to be replaced, and quitting with them.
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

// File > Open trace / Open kernel source (as A or B): a path, and Enter or the button opens it.
// File > Playlist: a path, and Enter or Open reads it and shows its first scenario.
void playlist_dialog(Model& model, Chrome& chrome) {
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0), ImGuiCond_Appearing);
  if (ImGui::Begin((L("open.playlist_title") + "##playlist").c_str(), &chrome.show_open)) {
    text_wrapped(tr("open.playlist_help"));
    ImGui::SetNextItemWidth(-1);
    if (std::exchange(chrome.open_focus, false)) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##playlist_path", &model.view.open_path,
                                        ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    if ((ImGui::Button(L("open.playlist").c_str()) || enter) && model.work.load_playlist(model.view.open_path)) {
      chrome.show_open = false;
      playlist_show(model, 0);
    }
    const ImVec4 warning(1, 0.6f, 0.4f, 1);
    if (!model.work.playlist_message.empty()) text_wrapped(model.work.playlist_message, &warning);
  }
  ImGui::End();
}

// Lesson > Open lesson file: a path (or a shipped lesson's name), and Enter or Open shows its first beat.
void lesson_dialog(Model& model, Chrome& chrome) {
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0), ImGuiCond_Appearing);
  if (ImGui::Begin((L("open.lesson_title") + "##lesson").c_str(), &chrome.show_open)) {
    text_wrapped(tr("open.lesson_help"));
    ImGui::SetNextItemWidth(-1);
    if (std::exchange(chrome.open_focus, false)) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##lesson_path", &model.view.open_path,
                                        ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    if ((ImGui::Button(L("open.lesson").c_str()) || enter) && open_lesson(model, model.view.open_path, 0))
      chrome.show_open = false;
    const ImVec4 warning(1, 0.6f, 0.4f, 1);
    if (!model.lesson.open() && !model.lesson.message.empty()) text_wrapped(model.lesson.message, &warning);
  }
  ImGui::End();
}

}  // namespace

void open_dialog(Model& model, Chrome& chrome) {
  if (!chrome.show_open) return;
  if (chrome.open_mode == Chrome::OpenMode::playlist) return playlist_dialog(model, chrome);
  if (chrome.open_mode == Chrome::OpenMode::lesson) return lesson_dialog(model, chrome);
  const bool source = chrome.open_mode != Chrome::OpenMode::trace;
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0), ImGuiCond_Appearing);
  if (ImGui::Begin((L(source ? "open.source_title" : "open.title") + "##open").c_str(), &chrome.show_open)) {
    text_wrapped(tr(source ? "open.source_help" : "open.help"));
    ImGui::SetNextItemWidth(-1);
    if (std::exchange(chrome.open_focus, false)) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##path", &model.view.open_path,
                                        ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    if (!source) {
      if ((ImGui::Button(L("open.open").c_str()) || enter) && model.open_trace(model.view.open_path))
        chrome.show_open = false;
      ImGui::SameLine();
      if (ImGui::Button(L("open.save").c_str())) model.work.save_trace(model.view.open_path);
    } else {
      // Which side follows the file: A, or B beside it (compare switches on).
      int as_b = chrome.open_mode == Chrome::OpenMode::source_b ? 1 : 0;
      ImGui::RadioButton(L("open.as_a").c_str(), &as_b, 0);
      tooltip_key("open.as_a.tip");
      ImGui::SameLine();
      ImGui::RadioButton(L("open.as_b").c_str(), &as_b, 1);
      tooltip_key("open.as_b.tip");
      chrome.open_mode = as_b ? Chrome::OpenMode::source_b : Chrome::OpenMode::source_a;
      std::error_code ec;
      const bool exists = std::filesystem::is_regular_file(model.view.open_path, ec);
      ImGui::BeginDisabled(!exists);
      if (ImGui::Button(L("open.source").c_str()) || (enter && exists)) {
        Side& side = as_b ? model.work.b : model.work.a;
        if (as_b && !model.work.compare) {  // B beside A at A's shape
          model.work.compare = true;
          model.work.b.scenario.n = model.work.a.scenario.n;
          model.work.b.scenario.block = model.work.a.scenario.block;
          sync_text_fields(model.work.b);
        }
        model.view.memory.code_side = as_b;
        model.work.open_kernel_source(side, model.view.open_path);
        model.view.views_to_open.push_back(ViewId::code);
        chrome.show_open = false;
      }
      ImGui::EndDisabled();
      tooltip_key("open.source.tip");
      if (!exists && !model.view.open_path.empty()) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1, 0.6f, 0.4f, 1), "%s", tr("open.source.missing"));
      }
    }
    if (!source && !model.work.open_error.empty())
      ImGui::TextColored(ImVec4(1, 0.6f, 0.4f, 1), "%s", model.work.open_error.c_str());
  }
  ImGui::End();
}

// A kernel file with unsaved edits that something would replace (another file, the gallery, Close): save, drop
// the edits, or leave it all as it is. One question per side, over the window.
void unsaved_dialogs(Model& model) {
  for (Side* side : {&model.work.a, &model.work.b}) {
    const std::string id = L("unsaved.title") + (side == &model.work.a ? "##unsavedA" : "##unsavedB");
    UserSource& u = side->user;
    if (!u.unsaved_question) continue;
    if (!ImGui::IsPopupOpen(id.c_str())) ImGui::OpenPopup(id.c_str());
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, 0));
    if (!ImGui::BeginPopupModal(id.c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) continue;
    const float width = ImGui::GetFontSize() * 28;
    text_wrapped(trf("unsaved.text", {side == &model.work.a ? "A" : "B", u.path}), nullptr, width);
    if (!u.editor.error.empty()) text_wrapped(u.editor.error, nullptr, width);
    const ImVec2 button(ImGui::GetFontSize() * 8.5f, 0);
    std::optional<Work::Unsaved> answer;
    if (ImGui::Button(L("unsaved.save").c_str(), button)) answer = Work::Unsaved::save;
    ImGui::SameLine();
    if (ImGui::Button(L("unsaved.discard").c_str(), button)) answer = Work::Unsaved::discard;
    ImGui::SameLine();
    if (ImGui::Button(L("unsaved.cancel").c_str(), button) || key_pressed(model, Key::escape))
      answer = Work::Unsaved::cancel;
    if (answer) {
      model.work.resolve_unsaved(*side, *answer);
      if (!u.unsaved_question) ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

// Quitting with unsaved edits in a kernel file: save them and quit, quit without them, or stay.
void quit_dialog(Model& model, Chrome& chrome) {
  const std::string id = L("quit.title") + "##quit";
  if (!chrome.quit_question) return;
  if (!ImGui::IsPopupOpen(id.c_str())) ImGui::OpenPopup(id.c_str());
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, 0));
  if (!ImGui::BeginPopupModal(id.c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
  const float width = ImGui::GetFontSize() * 28;
  for (Side* side : {&model.work.a, &model.work.b})
    if (side->user.editor.dirty())
      text_wrapped(trf("unsaved.text", {side == &model.work.a ? "A" : "B", side->user.path}), nullptr, width);
  const ImVec2 button(ImGui::GetFontSize() * 8.5f, 0);
  bool done = false;
  if (ImGui::Button(L("quit.save").c_str(), button)) {
    bool saved = true;
    for (Side* side : {&model.work.a, &model.work.b})
      if (side->user.editor.dirty()) saved = model.work.save_kernel_source(*side, false) && saved;
    done = saved;  // a file that could not be written says why (above), and the window stays
  }
  ImGui::SameLine();
  if (ImGui::Button(L("quit.discard").c_str(), button)) done = true;
  ImGui::SameLine();
  if (ImGui::Button(L("unsaved.cancel").c_str(), button) || key_pressed(model, Key::escape)) {
    chrome.quit_question = false;
    ImGui::CloseCurrentPopup();
  }
  for (Side* side : {&model.work.a, &model.work.b})
    if (!side->user.editor.error.empty())
      ImGui::TextColored(ImVec4(1, 0.6f, 0.4f, 1), "%s", side->user.editor.error.c_str());
  if (done) {
    chrome.quit_question = false;
    chrome.quit_confirmed = chrome.quit = true;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

bool ask_before_quit(Model& model, Chrome& chrome) {
  if (model.view.headless || chrome.quit_confirmed ||
      !(model.work.a.user.editor.dirty() || model.work.b.user.editor.dirty()))
    return false;
  chrome.quit_question = true;
  chrome.quit = model.view.quit = false;
  return true;
}

}  // namespace redlab::gui
