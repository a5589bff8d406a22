// Help > Glossary: the course's words (warp, lane, divergence, bank, wavefront, sector, coalescing, occupancy,
// barrier, shuffle, atomic), each with its definition in the UI's language (i18n: glossary.<c> the term,
// define.<c> what it means). A (?) mark in a view opens it, and a lesson's beat names the terms it uses; the one
// asked for comes into view, marked.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "model/i18n.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {

class GlossaryView final : public View {
 public:
  GlossaryView() : View(ViewId::glossary, "win.glossary", true) { open = false; }
  ImVec2 first_size(const ImVec2& viewport) const override {
    return ImVec2(std::min(viewport.x * 0.9f, ImGui::GetFontSize() * 36),
                  std::min(viewport.y * 0.8f, ImGui::GetFontSize() * 32));
  }
  void draw(Model& model) override {
    const ImVec4 term_colour(0.6f, 0.8f, 1.0f, 1), marked(1.0f, 0.8f, 0.35f, 1);
    text_wrapped(tr("gloss.intro"), &ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    for (const std::string& c : glossary_concepts()) {
      ImGui::Separator();
      const bool asked = model.view.glossary_term == c;
      text_wrapped(glossary_term(c), asked ? &marked : &term_colour);
      if (asked && std::exchange(scroll_to_, std::string()) == c) ImGui::SetScrollHereY(0.2f);
      text_wrapped(tr(("define." + c).c_str()));
    }
    if (model.view.glossary_term != shown_) scroll_to_ = shown_ = model.view.glossary_term;
  }

 private:
  std::string shown_, scroll_to_;  // the term last asked for: scrolled to once
};

}  // namespace

const std::vector<std::string>& glossary_concepts() {
  static const std::vector<std::string> concepts = {"warp",      "lane",    "divergence", "bank",
                                                    "wavefront", "sector",  "coalescing", "occupancy",
                                                    "barrier",   "shuffle", "atomic"};
  return concepts;
}

std::string glossary_term(const std::string& concept_name) {
  // The term as the glossary names it: its first form ("divergence" of "divergence, divergent").
  const std::string all = tr(("glossary." + concept_name).c_str());
  return all.substr(0, all.find(','));
}

std::vector<std::string> glossary_concepts_in(const std::string& text) {
  std::string lower = text;
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  std::vector<std::pair<std::size_t, std::string>> found;  // where each concept's first form first stands
  for (const std::string& c : glossary_concepts()) {
    std::size_t first = std::string::npos;
    const std::string forms = tr(("glossary." + c).c_str());
    for (std::size_t a = 0; a < forms.size();) {
      const std::size_t b = std::min(forms.find(',', a), forms.size());
      std::string form = forms.substr(a, b - a);
      form.erase(0, form.find_first_not_of(' '));
      for (char& ch : form) ch = char(std::tolower(static_cast<unsigned char>(ch)));
      if (!form.empty()) first = std::min(first, lower.find(form));
      a = b + 1;
    }
    if (first != std::string::npos) found.emplace_back(first, c);
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

void open_glossary(Model& model, const std::string& concept_name) {
  model.view.glossary_term = concept_name;
  model.view.views_to_open.push_back(ViewId::glossary);
}

const RegisterView<GlossaryView> glossary_view(140);

}  // namespace redlab::gui
