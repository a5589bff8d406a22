// The all-reduce view: the GPUs on a circle with the step's transfers as arrows (amber: combined into the receiver's
// values, blue: copied over them) labelled with their bytes; beside it the G x G grid of which GPUs' values each
// GPU's chunk holds after the step (a cell reduced when it holds all G); under it each GPU's bytes sent so far beside
// the least any all-reduce sends, 2(G-1)/G of a buffer. It draws model::ring_picture (app/model/ring_model.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gui/shell/palette.h"
#include "model/i18n.h"
#include "model/ring_model.h"
#include "model/tree_model.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {

constexpr ImU32 kCombine = IM_COL32(255, 176, 64, 255);
constexpr ImU32 kCopy = IM_COL32(110, 170, 255, 255);

std::string bytes_text(double b) {
  char out[32];
  if (b >= 1e9)
    std::snprintf(out, sizeof out, "%.2f GB", b / 1e9);
  else if (b >= 1e6)
    std::snprintf(out, sizeof out, "%.2f MB", b / 1e6);
  else if (b >= 1e3)
    std::snprintf(out, sizeof out, "%.1f KB", b / 1e3);
  else
    std::snprintf(out, sizeof out, "%.0f B", b);
  return out;
}

// The ring: GPU g at angle 2 pi g / G from the top, clockwise; each transfer an arrow between the nodes' rims.
void draw_gpus(const RingPicture& p, ImVec2 at, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float fs = ImGui::GetFontSize();
  const ImVec2 c(at.x + size.x / 2, at.y + size.y / 2);
  // Nodes as large as G of them fit on the circle without touching (neighbours are 2 r sin(pi/G) apart), and small
  // enough in a small pane (a projector's, at a large scale) that the arrows between them stay long enough to read.
  const float room = std::max(fs * 2, std::min(size.x, size.y) / 2 - fs * 0.5f);
  const float k = 0.8f * float(std::sin(M_PI / p.gpus));
  const float node = std::min({fs * 1.7f, room * k / (1 + k), room * 0.22f});
  const float r = room - node;
  std::vector<ImVec2> pos(p.gpus);
  for (unsigned g = 0; g < p.gpus; ++g) {
    const float a = float(2 * M_PI * g / p.gpus - M_PI / 2);
    pos[g] = ImVec2(c.x + r * std::cos(a), c.y + r * std::sin(a));
  }
  // Arrows first, nodes over them. Two transfers between the same GPUs in opposite directions bend apart.
  for (const GpuTransfer& x : p.moving) {
    if (x.from >= p.gpus || x.to >= p.gpus) continue;
    const ImVec2 a = pos[x.from], b = pos[x.to];
    const float dx = b.x - a.x, dy = b.y - a.y, len = std::max(1.0f, std::sqrt(dx * dx + dy * dy));
    const ImVec2 u(dx / len, dy / len), n(-u.y, u.x);
    const float bend = node * 0.45f;
    const ImVec2 s(a.x + u.x * node + n.x * bend, a.y + u.y * node + n.y * bend);
    const ImVec2 e(b.x - u.x * node + n.x * bend, b.y - u.y * node + n.y * bend);
    const ImU32 col = x.combine ? kCombine : kCopy;
    const float w = std::max(2.0f, fs * 0.16f);
    dl->AddLine(s, e, col, w);
    const float head = fs * 0.6f;
    dl->AddTriangleFilled(e, ImVec2(e.x - u.x * head + n.x * head * 0.5f, e.y - u.y * head + n.y * head * 0.5f),
                          ImVec2(e.x - u.x * head - n.x * head * 0.5f, e.y - u.y * head - n.y * head * 0.5f), col);
    // The bytes beside the arrow, on the circle's outer side; none where the arrow is shorter than its label (the
    // step's line above says them).
    const std::string label = (x.combine ? "+ " : "") + bytes_text(double(x.bytes));
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    const float arrow = std::sqrt((e.x - s.x) * (e.x - s.x) + (e.y - s.y) * (e.y - s.y));
    if (arrow < ts.x * 1.2f) continue;
    ImVec2 out((s.x + e.x) / 2 - c.x, (s.y + e.y) / 2 - c.y);
    const float ol = std::sqrt(out.x * out.x + out.y * out.y);
    out = ol > 1 ? ImVec2(out.x / ol, out.y / ol) : ImVec2(n.x, n.y);
    const float off = fs * 0.6f + std::abs(out.x) * ts.x / 2 + std::abs(out.y) * ts.y / 2;
    const ImVec2 mid((s.x + e.x) / 2 + out.x * off - ts.x / 2, (s.y + e.y) / 2 + out.y * off - ts.y / 2);
    dl->AddRectFilled(ImVec2(mid.x - 2, mid.y - 1), ImVec2(mid.x + ts.x + 2, mid.y + ts.y + 1),
                      IM_COL32(20, 22, 28, 220));
    dl->AddText(mid, col, label.c_str());
  }
  for (unsigned g = 0; g < p.gpus; ++g) {
    dl->AddCircleFilled(pos[g], node, warp_color(g, 0.85f), 32);
    dl->AddCircle(pos[g], node, IM_COL32(230, 230, 230, 255), 32, 1.5f);
    std::string label = trf("ring.gpu", {std::to_string(g)});
    if (ImGui::CalcTextSize(label.c_str()).x > node * 1.8f) label = std::to_string(g);  // small nodes: the number
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    dl->AddText(ImVec2(pos[g].x - ts.x / 2, pos[g].y - ts.y / 2), IM_COL32(255, 255, 255, 255), label.c_str());
  }
  ImGui::Dummy(size);
}

// Row g, column c: how many GPUs' values GPU g's chunk c holds (k of G); green when all.
void draw_holdings(const RingPicture& p, float width) {
  const float fs = ImGui::GetFontSize();
  const float head = ImGui::CalcTextSize(trf("ring.gpu", {"8"}).c_str()).x + fs * 0.6f;
  const float cell = std::clamp((width - head) / float(p.gpus), fs * 1.8f, fs * 3.6f);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  for (unsigned c = 0; c < p.gpus; ++c) {
    const std::string t = std::to_string(c);
    dl->AddText(ImVec2(o.x + head + c * cell + (cell - ImGui::CalcTextSize(t.c_str()).x) / 2, o.y),
                ImGui::GetColorU32(ImGuiCol_TextDisabled), t.c_str());
  }
  const float top = o.y + fs * 1.3f;
  for (unsigned g = 0; g < p.gpus; ++g) {
    dl->AddText(ImVec2(o.x, top + g * cell + (cell - fs) / 2), ImGui::GetColorU32(ImGuiCol_Text),
                trf("ring.gpu", {std::to_string(g)}).c_str());
    for (unsigned c = 0; c < p.gpus; ++c) {
      const unsigned k = holders(p.holds[g][c]);
      const bool whole = k == p.gpus;
      const float share = float(k) / float(p.gpus);
      const ImVec2 a(o.x + head + c * cell + 1, top + g * cell + 1), b(a.x + cell - 2, a.y + cell - 2);
      const ImU32 fill = whole ? color_ok() : ImU32(ImColor(0.25f + 0.5f * share, 0.35f + 0.3f * share, 0.6f, 1.0f));
      dl->AddRectFilled(a, b, fill, 3);
      const std::string t = std::to_string(k) + "/" + std::to_string(p.gpus);
      const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
      if (ts.x < cell - 2)
        dl->AddText(ImVec2(a.x + (cell - 2 - ts.x) / 2, a.y + (cell - 2 - ts.y) / 2),
                    whole ? IM_COL32(10, 30, 10, 255) : IM_COL32(255, 255, 255, 255), t.c_str());
    }
  }
  ImGui::Dummy(ImVec2(head + cell * p.gpus, fs * 1.3f + cell * p.gpus));
}

// Each GPU's bytes sent so far, a bar, with the lower bound marked.
void draw_sent(const RingPicture& p, float width, bool kept) {
  const float fs = ImGui::GetFontSize();
  double most = p.lower_bound_bytes;
  for (std::uint64_t s : p.sent) most = std::max(most, double(s));
  if (most <= 0) return;
  const float head = ImGui::CalcTextSize(trf("ring.gpu", {"8"}).c_str()).x + fs * 0.6f;
  const float bar_w = std::max(fs * 4, width - head - fs * 7);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (unsigned g = 0; g < p.gpus; ++g) {
    const ImVec2 o = ImGui::GetCursorScreenPos();
    dl->AddText(o, ImGui::GetColorU32(ImGuiCol_Text), trf("ring.gpu", {std::to_string(g)}).c_str());
    const ImVec2 a(o.x + head, o.y + fs * 0.15f);
    const float w = float(double(p.sent[g]) / most) * bar_w;
    dl->AddRectFilled(a, ImVec2(a.x + bar_w, a.y + fs * 0.8f), IM_COL32(50, 54, 64, 255), 2);
    dl->AddRectFilled(a, ImVec2(a.x + w, a.y + fs * 0.8f), warp_color(g), 2);
    const float bound = a.x + float(p.lower_bound_bytes / most) * bar_w;
    dl->AddLine(ImVec2(bound, a.y - fs * 0.2f), ImVec2(bound, a.y + fs), IM_COL32(255, 255, 255, 230), 2);
    dl->AddText(ImVec2(a.x + bar_w + fs * 0.4f, o.y), ImGui::GetColorU32(ImGuiCol_Text),
                kept ? "?" : bytes_text(double(p.sent[g])).c_str());
    ImGui::Dummy(ImVec2(width, fs * 1.15f));
  }
}

// Each link the run uses, from -> to: the bytes it has carried through the step, against the busiest link's total
// over the whole run (so a bar grows as the steps go by).
void draw_links(const RingPicture& p, float width, bool kept) {
  const float fs = ImGui::GetFontSize();
  double most = 0;
  for (std::uint64_t b : p.links_used_bytes) most = std::max(most, double(b));
  if (most <= 0) return;
  const float head = ImGui::CalcTextSize("8 -> 8").x + fs * 0.6f;
  const float bar_w = std::max(fs * 4, width - head - fs * 7);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (const auto& [from, to] : p.links_used) {
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const std::string name = std::to_string(from) + " -> " + std::to_string(to);
    dl->AddText(o, ImGui::GetColorU32(ImGuiCol_Text), name.c_str());
    const ImVec2 a(o.x + head, o.y + fs * 0.15f);
    const std::uint64_t bytes = p.link_so_far[from][to];
    dl->AddRectFilled(a, ImVec2(a.x + bar_w, a.y + fs * 0.8f), IM_COL32(50, 54, 64, 255), 2);
    dl->AddRectFilled(a, ImVec2(a.x + float(double(bytes) / most) * bar_w, a.y + fs * 0.8f), warp_color(from), 2);
    dl->AddText(ImVec2(a.x + bar_w + fs * 0.4f, o.y), ImGui::GetColorU32(ImGuiCol_Text),
                kept ? "?" : bytes_text(double(bytes)).c_str());
    ImGui::Dummy(ImVec2(width, fs * 1.15f));
  }
}

}  // namespace

void draw_ring_panel(Model& model, const Side& s, int step, ImVec2 size) {
  stale_banner(s);
  // While a lesson asks for bytes sent, the totals read "?": the rings, their arrows (one transfer's bytes each) and
  // the bars stay, the picture the student predicts from.
  const bool kept = kept_back(model, s, FigureKind::bytes);
  const Trace& t = *s.trace;
  const RingPicture p = ring_picture(t, step);
  if (p.gpus == 0) {
    text_wrapped(tr("ring.none"));
    return;
  }
  const float fs = ImGui::GetFontSize();
  std::vector<std::string> lines = {
      trf("ring.head", {std::to_string(p.gpus), bytes_text(double(p.buffer_bytes)),
                        p.step >= 0 ? step_name(t, unsigned(p.step)) : tr("ring.before")})};
  if (!p.moving.empty()) {
    std::uint64_t total = 0;
    for (const GpuTransfer& x : p.moving) total += x.bytes;
    lines.push_back(trf("ring.step_bytes", {std::to_string(p.moving.size()), kept ? "?" : bytes_text(double(total))}));
  }
  const std::string legend_combine = tr("ring.combine"), legend_copy = tr("ring.copy");
  auto head = [&] {
    for (const std::string& l : lines) text_wrapped(l);
    const ImVec4 combine = ImColor(kCombine), copy = ImColor(kCopy);
    text_wrapped(legend_combine, &combine);
    // The second on the same line where both fit.
    if (ImGui::CalcTextSize((legend_combine + "  " + legend_copy).c_str()).x < ImGui::GetContentRegionAvail().x) {
      ImGui::SameLine();
      ImGui::TextColored(copy, "%s", legend_copy.c_str());
    } else {
      text_wrapped(legend_copy, &copy);
    }
  };
  // Side by side where the pane is wide; in a narrow one (a projector's Present layout, compare's two panes) the ring
  // above, as large as the pane shows at once, whole, the grid and the bytes under it, scrolled; and where the lines
  // above it would take more than a third of its height, the ring first and they under it.
  const bool stacked = size.x < fs * 30;
  if (!stacked) head();
  const float h = stacked ? std::max(fs * 4, ImGui::GetContentRegionAvail().y)
                          : std::max(fs * 10, ImGui::GetContentRegionAvail().y);
  const float left = stacked ? size.x - ImGui::GetStyle().ScrollbarSize : std::max(fs * 12, std::min(size.x * 0.5f, h));
  float head_h = 0;
  for (const std::string& l : lines) head_h += ImGui::CalcTextSize(l.c_str(), nullptr, false, left).y;
  head_h += ImGui::CalcTextSize((legend_combine + "\n" + legend_copy).c_str(), nullptr, false, left).y;
  const bool ring_first = stacked && h - head_h < std::min(left, h) * 0.67f;
  if (stacked) {
    ImGui::BeginChild("ring_all", ImVec2(0, h), false);
    if (!ring_first) head();
  }
  const float ring_h = stacked ? std::min(left, std::max(fs * 4, ImGui::GetContentRegionAvail().y)) : h;
  ImGui::BeginChild("ring_gpus", ImVec2(left, ring_h), false, ImGuiWindowFlags_NoScrollbar);
  draw_gpus(p, ImGui::GetCursorScreenPos(), ImVec2(left, ring_h - fs * 0.5f));
  ImGui::EndChild();
  if (ring_first) head();
  if (!stacked) {
    ImGui::SameLine();
    ImGui::BeginChild("ring_side", ImVec2(0, h), false);
  }
  const float width = ImGui::GetContentRegionAvail().x;
  text_wrapped(tr("ring.grid"));
  draw_holdings(p, width);
  ImGui::Spacing();
  text_wrapped(trf("ring.sent", {kept ? "?" : bytes_text(p.lower_bound_bytes)}));
  draw_sent(p, width, kept);
  ImGui::Spacing();
  text_wrapped(tr("ring.links"));
  draw_links(p, width, kept);
  ImGui::EndChild();  // ring_side, or ring_all when stacked
}

namespace {
class RingView final : public View {
 public:
  RingView() : View(ViewId::ring, "win.ring") {}
  bool applies(const Model& model) const override { return shows_ring(model); }
  void draw(Model& model) override {
    draw_ring_panel(model, model.work.a, side_step(model.work.a, model.view.step), ImGui::GetContentRegionAvail());
  }
};
}  // namespace

const RegisterView<RingView> ring_view(60);

}  // namespace redlab::gui
