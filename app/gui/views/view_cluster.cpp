// The cluster view: the blocks of one thread block cluster side by side in rank order, each with its partial (what its
// shared s[0] holds after the step), and the step's accesses to another block's shared memory (distributed shared
// memory) as arrows from the block whose memory it is to the block whose threads made them, labelled with a value
// and the lanes; under them the step's requests and bytes across the SM-to-SM network, and the cluster's value once
// written. It draws model::cluster_picture (app/model/cluster_model.h); shown for a cluster kernel's trace.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gui/shell/palette.h"
#include "model/cluster_model.h"
#include "model/i18n.h"
#include "model/tree_model.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {

constexpr ImU32 kRead = IM_COL32(255, 176, 64, 255);
constexpr ImU32 kWrite = IM_COL32(110, 170, 255, 255);

bool is_cluster_trace(const Side& side) {
  if (!side.trace) return false;
  const KernelRecord* k = find_kernel(side.trace->scenario.kernel);
  return k && k->clustered;
}

// The blocks as boxes in a row, the arrows above them; a row wider than the pane scrolls sideways (16 blocks at a
// lecture's scale), every box wide enough for its value.
void draw_blocks(const ClusterPicture& p, ElemType type, float width) {
  const float fs = ImGui::GetFontSize();
  const float gap = fs * 0.6f, pad = fs * 0.35f;
  float need = 0;
  std::vector<std::string> heads, ranks, bodies;
  for (unsigned r = 0; r < p.size; ++r) {
    const ClusterBlock& b = p.blocks[r];
    heads.push_back(trf("cluster.block", {std::to_string(b.block)}));
    ranks.push_back(trf("cluster.rank", {std::to_string(r)}));
    bodies.push_back(!b.recorded ? std::string(tr("cluster.unrecorded"))
                     : b.partial ? trf("cluster.partial", {format_value(type, *b.partial)})
                                 : std::string("-"));
    for (const std::string* text : {&heads.back(), &ranks.back(), &bodies.back()})
      need = std::max(need, ImGui::CalcTextSize(text->c_str()).x + 2 * pad);
  }
  const float box_w = std::max(need, (width - gap * float(p.size - 1)) / float(p.size));
  const float box_h = fs * 4.2f, arc_room = fs * 3.4f;
  const float row_w = box_w * float(p.size) + gap * float(p.size - 1);
  ImGui::BeginChild("cluster_row", ImVec2(0, arc_room + box_h + fs * (row_w > width ? 1.6f : 0.6f)), false,
                    ImGuiWindowFlags_HorizontalScrollbar);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float top = at.y + arc_room;
  ImGui::Dummy(ImVec2(row_w, arc_room + box_h));
  auto centre = [&](unsigned rank) { return at.x + float(rank) * (box_w + gap) + box_w * 0.5f; };
  for (unsigned r = 0; r < p.size; ++r) {
    const ClusterBlock& b = p.blocks[r];
    const ImVec2 a(at.x + float(r) * (box_w + gap), top), z(a.x + box_w, top + box_h);
    dl->AddRectFilled(a, z, b.recorded ? IM_COL32(38, 52, 74, 255) : IM_COL32(40, 40, 44, 255), fs * 0.3f);
    dl->AddRect(a, z, b.recorded ? IM_COL32(120, 150, 200, 255) : IM_COL32(90, 90, 96, 255), fs * 0.3f);
    dl->AddText(ImVec2(a.x + pad, a.y + fs * 0.25f), IM_COL32(220, 220, 228, 255), heads[r].c_str());
    dl->AddText(ImVec2(a.x + pad, a.y + fs * 1.4f), IM_COL32(150, 150, 160, 255), ranks[r].c_str());
    dl->AddText(ImVec2(a.x + pad, a.y + fs * 2.65f),
                b.recorded ? IM_COL32(255, 255, 255, 255) : IM_COL32(140, 140, 146, 255), bodies[r].c_str());
  }
  // Arrows over the boxes: from the block whose memory it is to the block whose threads read (or wrote) it, a block's
  // own memory through the cluster's window as a small loop; the value beside the arrow's start, over its source.
  for (const ClusterArrow& x : p.arrows) {
    const ImU32 colour = x.store ? kWrite : kRead;
    const bool self = x.from == x.to;
    const float x0 = centre(x.from) + (self ? -fs * 0.7f : 0.0f), x1 = centre(x.to) + (self ? fs * 0.7f : 0.0f);
    const float span = std::fabs(float(x.to) - float(x.from));
    const float lift = self ? fs * 1.3f : std::min(arc_room - fs * 0.3f, fs * (1.2f + 0.35f * span));
    const ImVec2 p0(x0, top), p3(x1, top);
    dl->AddBezierCubic(p0, ImVec2(p0.x, top - lift), ImVec2(p3.x, top - lift), p3, colour, std::max(2.0f, fs * 0.14f));
    const float h = fs * 0.45f;  // the head at the receiver
    dl->AddTriangleFilled(ImVec2(p3.x, top), ImVec2(p3.x - h * 0.6f, top - h), ImVec2(p3.x + h * 0.6f, top - h),
                          colour);
    const std::string label = format_value(type, x.bits);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    const float lx = self ? x0 - size.x - fs * 0.3f : x0 + fs * 0.25f;
    dl->AddText(ImVec2(lx, top - size.y - fs * 0.1f), colour, label.c_str());
  }
  ImGui::EndChild();
}

}  // namespace

namespace {

class ClusterView final : public View {
 public:
  ClusterView() : View(ViewId::cluster, "win.cluster") {}
  bool applies(const Model& model) const override { return !model.work.compare && is_cluster_trace(model.work.a); }
  void draw(Model& model) override {
    const Side& side = model.work.a;
    stale_banner(side);
    const Trace* t = focus_trace(side);
    if (!t) return;
    focus_block_combo(model, *t);
    const ClusterPicture p = cluster_picture(*t, side_step(side, model.view.step), std::size_t(model.view.sel_focus));
    if (p.size == 0) return;
    ImGui::SameLine();
    ImGui::TextUnformatted(trf("cluster.head", {std::to_string(p.index), std::to_string(p.blocks.front().block),
                                                std::to_string(p.blocks.back().block), std::to_string(p.size)})
                               .c_str());
    tooltip_key("cluster.head.tip");
    ImGui::TextDisabled("%s", step_name(*t, unsigned(std::max(0, p.step))).c_str());
    draw_blocks(p, t->scenario.type, ImGui::GetContentRegionAvail().x);
    // While a lesson's question about distributed shared memory waits, its figures read "?" (the arrows stay).
    const bool kept = kept_back(model, side, FigureKind::remote);
    if (p.remote_requests)
      text_wrapped(trf("cluster.step.remote",
                       {kept ? "?" : std::to_string(p.remote_requests), kept ? "?" : std::to_string(p.remote_bytes)}));
    else
      ImGui::TextDisabled("%s", tr("cluster.step.none"));
    tooltip_key("def.dsmem_load_requests");
    if (p.result) text_wrapped(trf("cluster.result", {format_value(t->scenario.type, *p.result)}));
    const ImVec4 grey = ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
    text_wrapped(tr("cluster.legend"), &grey);
  }
};

}  // namespace

const RegisterView<ClusterView> cluster_view(62);

}  // namespace redlab::gui
