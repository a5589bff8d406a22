// File > Export: where, what (the window or one view), and for a PNG the background, for a GIF the speed; the
// exporter (gui/export/exporter.h) takes the request on the next frames.
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

// File > Export: where, what (the window or one view), and for a PNG the background, for a GIF the speed.
void export_window(Model& model, Views& views, Chrome& chrome) {
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
      const std::string none =
          *format == ExportFormat::gif ? trf("export.centre", {view_key(centre_view(model))}) : tr("export.window");
      View* chosen = find_view(views, f.view);
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
      if (begin_combo_fitted(L("export.what").c_str(), chosen ? tr(chosen->title_key) : none)) {
        if (ImGui::Selectable(none.c_str(), f.view.empty())) f.view.clear();
        for (auto& v : views)
          if (!v->floating && v->open && v->applies(model) &&
              ImGui::Selectable(tr(v->title_key), f.view == view_key(v->id)))
            f.view = view_key(v->id);
        ImGui::EndCombo();
      }
      int width_choice = f.width;
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
      const std::string as_drawn = tr("export.as_drawn");
      if (ImGui::BeginCombo(L("export.width").c_str(),
                            width_choice ? std::to_string(width_choice).c_str() : as_drawn.c_str())) {
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
      if (chosen || *format == ExportFormat::gif) {  // a view: a slide, with its caption or without
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
    ImGui::BeginDisabled(!format || !model.work.a.trace);
    if (ImGui::Button(L("export.go").c_str(), ImVec2(ImGui::GetFontSize() * 7, 0)) ||
        (enter && format && model.work.a.trace))
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

}  // namespace redlab::gui
