#include "i18n.h"
#include "views.h"

namespace redlab::gui {

void compare_metrics(const Trace& a, const Trace& b, int cur);
void summary_block(const Slot& sl);

void view_compare(AppState& st) {
  if (!st.compare || !st.show_compare) return;
  if (ImGui::Begin(L("win.compare").c_str(), &st.show_compare)) {
    const float half = ImGui::GetContentRegionAvail().x * 0.5f - 4;
    const float tree_h = ImGui::GetContentRegionAvail().y * 0.55f;
    Slot* slots[2] = {&st.a, &st.b};
    for (int i = 0; i < 2; ++i) {
      if (i) ImGui::SameLine();
      ImGui::BeginChild(i ? "B" : "A", ImVec2(half, tree_h), true);
      Slot& s = *slots[i];
      ImGui::Text("%s  %s", i ? "B" : "A", s.trace ? describe(s.trace->scenario).c_str() : tr("common.no_trace"));
      if (s.running) { ImGui::SameLine(); ImGui::TextDisabled("%s", tr("sc.running")); }
      if (!s.error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", s.error.c_str());
      if (s.trace) {
        summary_block(s);
        draw_tree(tree_widget(1 + i), st, s, st.step, ImGui::GetContentRegionAvail());
      }
      ImGui::EndChild();
    }
    if (st.a.trace && st.b.trace) compare_metrics(*st.a.trace, *st.b.trace, st.step);
  }
  ImGui::End();
}

}  // namespace redlab::gui
