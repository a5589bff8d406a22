#include "i18n.h"
#include "views.h"

namespace redlab::gui {


void view_compare(AppState& st) {
  if (!st.compare || !st.show_compare) return;
  if (ImGui::Begin(L("win.compare").c_str(), &st.show_compare)) {
    // A above B, full width: the trees' shapes line up column for column.
    const float half = ImGui::GetContentRegionAvail().y * 0.5f - 4;
    Slot* slots[2] = {&st.a, &st.b};
    for (int i = 0; i < 2; ++i) {
      ImGui::BeginChild(i ? "B" : "A", ImVec2(0, half), true);
      Slot& s = *slots[i];
      ImGui::Text("%s  %s", i ? "B" : "A", s.trace ? describe(s.trace->scenario).c_str() : tr("common.no_trace"));
      if (s.running) { ImGui::SameLine(); ImGui::TextDisabled("%s", tr("sc.running")); }
      if (!s.error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", s.error.c_str());
      if (s.trace) {
        if (s.summary.tree_simd_efficiency) {
          ImGui::SameLine();
          ImGui::TextColored(ImVec4(0.6f, 0.8f, 1.0f, 1), "|  %s",
                             trf("m.simd", {fmt_pct(*s.summary.tree_simd_efficiency), fmt_u(s.summary.tree_active_threads),
                                            fmt_u(32 * s.summary.tree_active_warps)}).c_str());
          tooltip_key("def.tree_simd_efficiency");
        }
        draw_tree(tree_widget(1 + i), st, s, st.step, ImGui::GetContentRegionAvail());
      }
      ImGui::EndChild();
    }
  }
  ImGui::End();
}

}  // namespace redlab::gui
