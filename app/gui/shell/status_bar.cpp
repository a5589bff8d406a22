// The bottom of the window and what lies over it: the status bar (what runs, what ran, the export's and the
// fonts' messages), the first start's hint, and F1's keys and places.
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

// (An export's own frames do not say "writing ...": the window's PNG would show it.)
void status_bar(Model& model, const Chrome& chrome, bool exporting, double export_progress) {
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
  if (const LessonPlayer& p = model.lesson; p.open()) {
    if (!first) next();
    const ImVec4 blue(0.55f, 0.8f, 1.0f, 1);
    ImGui::TextColored(
        blue, "%s",
        trf("ctl.lesson", {p.lesson.name, std::to_string(p.beat + 1), std::to_string(p.lesson.beats.size())}).c_str());
    tooltip_key("ctl.lesson.tip");
    first = false;
  }
  // Where the lecture's playlist is (Page Down / Page Up), first: the lecturer looks for it.
  if (const Playlist& p = model.work.playlist; !p.entries.empty() && p.current >= 0) {
    if (!first) next();
    const ImVec4 blue(0.55f, 0.8f, 1.0f, 1);
    ImGui::TextColored(blue, "%s",
                       trf("ctl.playlist", {std::to_string(p.current + 1), std::to_string(p.entries.size())}).c_str());
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      text_wrapped(tr("ctl.playlist.tip"), nullptr, ImGui::GetFontSize() * 30);
      ImGui::TextDisabled("%s", p.entries[std::size_t(p.current)].text.c_str());
      ImGui::EndTooltip();
    }
    first = false;
  }
  if (!model.work.playlist_message.empty()) {  // why Page Down did not go on (unsaved edits)
    if (!first) next();
    const ImVec4 amber(1.0f, 0.75f, 0.3f, 1);
    text_fitted(model.work.playlist_message, room() * 0.5f, &amber);
    first = false;
  }
  if (model.work.a.trace &&
      model.work.a.trace->fault) {  // the kernel stopped at a fault: said first, the report on hover
    if (!first) next();
    const ImVec4 red(1.0f, 0.45f, 0.35f, 1);
    text_fitted(fault_summary(*model.work.a.trace), room() * 0.7f, &red);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
      ImGui::TextUnformatted(fault_summary(*model.work.a.trace).c_str());
      ImGui::TextDisabled("%s", fault_report(*model.work.a.trace).c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    first = false;
  }
  if (model.work.a.trace) {
    const Trace& t = *model.work.a.trace;
    const bool gpu = t.backend == Backend::cuda;
    const ImVec4 c = gpu ? ImVec4(0.5f, 0.9f, 0.5f, 1) : ImVec4(1.0f, 0.8f, 0.35f, 1);
    if (!first) next();
    if (room() > ImGui::GetFontSize() * 3) {
      text_fitted(trf("status.backend", {to_string(t.backend), device_text(t.device)}), room(), &c);
      tooltip_key(gpu ? "status.gpu.tip" : "status.cpu.tip");
    }
    if (!model.work.a.origin.empty() && room() > ImGui::GetFontSize() * 4) {
      next();
      text_fitted(trf("status.replay", {model.work.a.origin, t.host, t.recorded_at}), room(), nullptr);
    }
  } else {
    if (!first) next();
    // the views' own words: why there is no trace (a cancel, a refusal), or how far the run is
    const ImVec4 grey = ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
    text_fitted(no_trace_text(model.work.a), room(), &grey);
  }
  if (!model.view.font_notice.empty() && room() > ImGui::GetFontSize() * 5) {
    // In English in either language: where it is about the missing Chinese font, Chinese could not be drawn.
    next();
    const ImVec4 c(1.0f, 0.8f, 0.35f, 1);
    text_fitted(model.view.font_notice, room() * 0.6f, &c);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
      ImGui::TextUnformatted(model.view.font_notice.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  if (!model.work.a.notice.empty() && room() > ImGui::GetFontSize() * 5) {  // once, short and translated; the runtime's
    next();  // own words (English) in the tooltip
    const ImVec4 c(1.0f, 0.8f, 0.35f, 1);
    text_fitted(tr("status.no_cuda"), room() - ImGui::GetFontSize(), &c);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
      ImGui::TextUnformatted(tr("status.no_cuda.tip"));
      ImGui::TextDisabled("%s", model.work.a.notice.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  ImGui::End();
}

// The first start: three lines (what the window shows, Space plays, the arrows step) in the bottom-right corner
// above the status bar, until dismissed (F1 dismisses it too); the settings file remembers (hint_seen).
void first_start_hint(Model& model) {
  if (!model.view.show_hint) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float bottom = status_bar_height() + ImGui::GetStyle().ItemSpacing.y;
  ImGui::SetNextWindowPos(
      ImVec2(vp->Pos.x + vp->Size.x - ImGui::GetStyle().ItemSpacing.x, vp->Pos.y + vp->Size.y - bottom),
      ImGuiCond_Always, ImVec2(1, 1));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0),
                                      ImVec2(std::min(vp->Size.x * 0.9f, ImGui::GetFontSize() * 34), FLT_MAX));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.13f, 0.22f, 0.36f, 1));
  ImGui::PushStyleColor(ImGuiCol_Border, ImVec4(0.55f, 0.8f, 1.0f, 1));
  if (ImGui::Begin("##hint", nullptr,
                   ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove)) {
    // Broken into lines once, here (an ImGui wrap position as well broke the lines again, a word short).
    for (const char* k : {"hint.what", "hint.play", "hint.step"})
      text_wrapped(tr(k), nullptr, std::min(vp->Size.x * 0.9f, ImGui::GetFontSize() * 32));
    if (ImGui::Button(L("status.hint.ok").c_str())) model.view.show_hint = false;
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr("hint.f1"));
  }
  ImGui::End();
  ImGui::PopStyleColor(2);
}

// F1: the keys, the layouts and where the definitions are, over the window.
void help_window(Model& model) {
  if (!model.view.show_help) return;
  model.view.show_hint = false;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(vp->Size.x * 0.9f, ImGui::GetFontSize() * 40), 0), ImGuiCond_Appearing);
  // Inside the window at any scale (the keys, the layouts and the editor's paragraph are taller than 1280x720 at x2):
  // it scrolls instead.
  // Centred, so clear of the status bar below when it leaves as much room above.
  const float bars = status_bar_height() + ImGui::GetStyle().ItemSpacing.y;
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0),
                                      ImVec2(FLT_MAX, std::max(vp->Size.y - 2 * bars, vp->Size.y * 0.5f)));
  if (ImGui::Begin(L("help.title").c_str(), &model.view.show_help,
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
      ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("does", ImGuiTableColumnFlags_WidthStretch);
      for (const char* k :
           {"space", "arrows", "home_end", "pgup_pgdn", "f5", "esc", "ctrl_s", "ctrl_e", "f11", "f1", "ctrl_q"}) {
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

}  // namespace redlab::gui
