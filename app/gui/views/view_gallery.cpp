// File > Gallery of mistakes: the gallery's kernels (gallery.h), each with its title in the UI's
// language, the failure it is documented to show and its explanation. Open copies the file into the student's
// folder (never changing the installed one; an existing copy with other text is replaced only when they say so)
// and runs it on the entry's scenario in side A, where the code view shows the explanation above the file.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "model/i18n.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {

class GalleryView final : public View {
 public:
  GalleryView() : View(ViewId::gallery, "win.gallery", true) { open = false; }
  ImVec2 first_size(const ImVec2& viewport) const override {
    return ImVec2(std::min(viewport.x * 0.9f, ImGui::GetFontSize() * 46),
                  std::min(viewport.y * 0.8f, ImGui::GetFontSize() * 30));
  }
  void draw(Model& model) override {
    const Gallery& g = model.work.gallery();
    const ImVec4 amber(1.0f, 0.8f, 0.35f, 1), grey = ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
    text_wrapped(trf("gallery.help", {student_kernel_dir()}));
    if (!g.error.empty()) text_wrapped(g.error, &amber);
    const std::string& lang = i18n_lang();
    if (!g.entries.empty() &&
        ImGui::BeginTable("entries", 3,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
      ImGui::TableSetupColumn(tr("gallery.col.title"), ImGuiTableColumnFlags_WidthStretch, 3.0f);
      ImGui::TableSetupColumn(tr("gallery.col.expect"), ImGuiTableColumnFlags_WidthStretch, 1.4f);
      ImGui::TableSetupColumn("##open", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableHeadersRow();
      for (int i = 0; i < int(g.entries.size()); ++i) {
        const GalleryEntry& e = g.entries[std::size_t(i)];
        ImGui::PushID(i);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        // The title selects the entry (its explanation below); the whole explanation in its tooltip too.
        const std::string title = text_in(e.title, lang);
        if (ImGui::Selectable(title.c_str(), selected_ == i, ImGuiSelectableFlags_AllowDoubleClick)) {
          selected_ = i;
          if (ImGui::IsMouseDoubleClicked(0)) open_entry(model, e);
        }
        if (ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
          ImGui::TextUnformatted(text_in(e.explanation, lang).c_str());
          ImGui::TextDisabled("%s", trf("gallery.file_from", {e.file, e.from.empty() ? "-" : e.from}).c_str());
          ImGui::PopTextWrapPos();
          ImGui::EndTooltip();
        }
        ImGui::TableNextColumn();
        ImGui::TextColored(amber, "%s", tr(("gallery.expect." + e.expect).c_str()));
        tooltip_key(("def.expect." + e.expect).c_str());
        ImGui::TableNextColumn();
        if (ImGui::SmallButton(L("gallery.open").c_str())) open_entry(model, e);
        tooltip_key("gallery.open.tip");
        ImGui::PopID();
      }
      ImGui::EndTable();
    }
    // The selected entry's explanation, beside the list for reading (and projecting).
    if (selected_ >= 0 && selected_ < int(g.entries.size())) {
      const GalleryEntry& e = g.entries[std::size_t(selected_)];
      ImGui::Separator();
      const ImVec4 blue(0.6f, 0.8f, 1.0f, 1);
      text_wrapped(text_in(e.title, lang), &blue);
      text_wrapped(text_in(e.explanation, lang));
      text_wrapped(trf("gallery.file_from", {e.file, e.from.empty() ? "-" : e.from}), &grey);
    }
    // A copy of the student's own with other text: theirs, the gallery's, or neither.
    if (model.work.gallery_question) {
      ImGui::Separator();
      text_wrapped(model.work.gallery_message, &amber);
      const GalleryEntry e = *model.work.gallery_question;
      if (ImGui::Button(L("gallery.open_mine").c_str())) {
        model.work.open_gallery_entry(e, Work::ExistingCopy::open_mine);
        opened(model, e);
      }
      tooltip_key("gallery.open_mine.tip");
      ImGui::SameLine();
      if (ImGui::Button(L("gallery.replace").c_str())) {
        model.work.open_gallery_entry(e, Work::ExistingCopy::replace);
        opened(model, e);
      }
      tooltip_key("gallery.replace.tip");
      ImGui::SameLine();
      if (ImGui::Button(L("unsaved.cancel").c_str())) {
        model.work.gallery_question.reset();
        model.work.gallery_message.clear();
      }
    } else if (!model.work.gallery_message.empty()) {
      text_wrapped(model.work.gallery_message, &grey);
    }
    for (const std::string& p : g.problems) text_wrapped(p, &amber);
  }

 private:
  int selected_ = 0;  // the entry whose explanation is shown under the list

  void open_entry(Model& model, const GalleryEntry& e) {
    model.work.open_gallery_entry(e);
    opened(model, e);
  }
  // Opened (not waiting on a question): the code view shows the file and the explanation.
  void opened(Model& model, const GalleryEntry&) {
    if (model.work.gallery_question) return;
    model.view.memory.code_side = 0;
    model.view.views_to_open.push_back(ViewId::code);
    open = false;  // out of the way of the tree and the source, where the failure shows
  }
};

}  // namespace

const RegisterView<GalleryView> gallery_view(130);

}  // namespace redlab::gui
