#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/i18n.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {
class CompareView final : public View {
 public:
  CompareView() : View(ViewId::compare, "win.compare") {}
  bool applies(const Model& model) const override { return model.work.compare; }
  void opened(Model& model) override { model.work.compare = true; }
  void release_gl() override {
    for (auto& w : widgets_) w.reset();
  }
  void draw(Model& model) override {
    // A above B, full width: the trees' shapes line up column for column.
    const bool tiles = side_draws_tile(model.work.a) || side_draws_tile(model.work.b);
    if (tiles) {  // transposes: one warp and request for both sides, so the two tiles light the same access
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
      const unsigned wpb = model.work.a.trace ? model.work.a.trace->warps_per_block : 1;
      ImGui::SliderInt(L("banks.warp").c_str(), &model.view.sel_warp, 0, std::max(0, int(wpb) - 1));
      tooltip_key("tile.warp.tip");
      ImGui::SameLine();
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
      // The wider of the two tiles: each side clamps the request it shows to its own.
      unsigned nreq = 0;
      for (const Side* side : {&model.work.a, &model.work.b})
        if (side->trace && side_draws_tile(*side)) nreq = std::max(nreq, tile_requests(*side->trace));
      if (!nreq) nreq = 4;
      ImGui::SliderInt(L("tile.req.slider").c_str(), &model.view.sel_tile_req, 0, int(nreq) - 1);
      tooltip_key("tile.req.tip");
      ImGui::SameLine();
      ImGui::TextDisabled("%s", tr("tile.compare.hint"));
    }
    // Trees: A above B, full width, so that their shapes line up column for column. Tiles: A beside B, each the
    // pane's full height, so that a 32-row tile is drawn as large as the pane allows (above one another, each had
    // half the height and the tiles shrank to a few pixels a cell).
    // Two all-reduces side by side too: each ring as tall as the pane (above one another, the rings were cut off).
    const bool beside = tiles || (side_draws_ring(model.work.a) && side_draws_ring(model.work.b));
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 pane = beside ? ImVec2(avail.x * 0.5f - 4, avail.y) : ImVec2(0, avail.y * 0.5f - 4);
    // Short of room (presentation scale on a small screen): each side's caption is one line, the kernel and its
    // SIMD efficiency, with the tree's zoom buttons after it; the whole scenario is in the caption's tooltip.
    const bool compact = (beside ? pane.x * 0.5f : pane.y) < ImGui::GetFrameHeightWithSpacing() * 7;
    Side* sides[2] = {&model.work.a, &model.work.b};
    for (int i = 0; i < 2; ++i) {
      if (i && beside) ImGui::SameLine();
      ImGui::BeginChild(i ? "B" : "A", pane, true);
      Side& s = *sides[i];
      const std::string what = s.trace ? scenario_text(s.trace->scenario) : no_trace_text(s);
      ImGui::Text("%s  %s", i ? "B" : "A", compact && s.trace ? s.trace->scenario.kernel.c_str() : what.c_str());
      if (compact && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", what.c_str());
      if (side_running(s)) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", tr("sc.running"));
      }
      if (!s.error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", s.error.c_str());
      if (s.trace) {
        if (s.summary.tree_simd_efficiency) {
          ImGui::SameLine();
          auto lanes = [&](const std::string& text) { return figure_text(model, s, FigureKind::lanes, text); };
          const std::string simd = lanes(fmt_pct(*s.summary.tree_simd_efficiency));
          if (compact)
            ImGui::TextColored(ImVec4(0.6f, 0.8f, 1.0f, 1), "|  SIMD %s", simd.c_str());
          else
            ImGui::TextColored(ImVec4(0.6f, 0.8f, 1.0f, 1), "|  %s",
                               trf("m.simd", {simd, lanes(fmt_u(s.summary.tree_active_threads)),
                                              lanes(fmt_u(32 * s.summary.tree_active_warps))})
                                   .c_str());
          tooltip_key("def.tree_simd_efficiency");
        }
        if (side_draws_tile(s))
          draw_tile_panel(model, s, side_step(s, model.view.step), ImGui::GetContentRegionAvail());
        else if (side_draws_ring(s))
          draw_ring_panel(model, s, side_step(s, model.view.step), ImGui::GetContentRegionAvail());
        else {
          if (!widgets_[i]) widgets_[i] = std::make_unique<TreeWidget>();
          if (const auto c =
                  draw_tree(*widgets_[i], model, s, model.view.step, ImGui::GetContentRegionAvail(), compact))
            model.view.values_canvases.push_back(*c);
        }
      }
      ImGui::EndChild();
    }
  }

 private:
  std::unique_ptr<TreeWidget> widgets_[2];  // A's and B's trees: GL objects, deleted before the context
};
}  // namespace

const RegisterView<CompareView> compare_view(70);

}  // namespace redlab::gui
