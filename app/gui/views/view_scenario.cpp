#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "core/catalog.h"
#include "model/i18n.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {
bool parse_u64(const std::string& s, std::uint64_t* v) {
  std::string t;
  for (char c : s)
    if (c != ' ' && c != ',' && c != '_') t += c;
  if (t.empty()) return false;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), *v);
  return ec == std::errc() && p == t.data() + t.size();
}

template <class E>
void enum_combo(const char* key, E* v, std::initializer_list<E> values, const char* tip_key = nullptr) {
  if (ImGui::BeginCombo(L(key).c_str(), to_string(*v))) {
    for (E e : values)
      if (ImGui::Selectable(to_string(e), e == *v)) *v = e;
    ImGui::EndCombo();
  }
  tooltip_key(tip_key ? tip_key : (std::string(key) + ".tip").c_str());
}
}  // namespace

// A kernel's title and what it teaches, in the UI's language (the catalog's English where no text exists).
std::string kernel_title(const KernelRecord& k) {
  const std::string key = "kernel." + k.id;
  if (const char* t = tr(key.c_str()); t != key) return t;
  // A kernel file made from a catalog kernel keeps that kernel's title: its translation.
  for (const KernelRecord* c : catalog())
    if (c != &k && c->title == k.title && !is_user_kernel(*c))
      if (const std::string ck = "kernel." + c->id; tr(ck.c_str()) != ck) return tr(ck.c_str());
  return k.title;
}
// Where a kernel comes from (the catalog's sources field: "000 交错归约, 001 reduce3, Harris 3, samples reduce2"), in the
// UI's language: each course note as a note, CUDA samples as samples; a kernel whose field says more in English
// has its own text ("sources.<id>").
std::string kernel_sources(const KernelRecord& k) {
  const std::string key = "sources." + k.id;
  if (const char* t = tr(key.c_str()); t != key) return t;
  std::string out;
  std::size_t p = 0;
  while (p < k.sources.size()) {
    std::size_t e = k.sources.find(", ", p);
    if (e == std::string::npos) e = k.sources.size();
    std::string part = k.sources.substr(p, e - p), text = part;
    const bool note = part.size() >= 3 && std::isdigit((unsigned char)part[0]) &&
                      std::isdigit((unsigned char)part[1]) && std::isdigit((unsigned char)part[2]) &&
                      (part.size() == 3 || part[3] == ' ');
    if (note)
      text = trf("sources.note", {part.substr(0, 3)}) + part.substr(3);
    else if (part.rfind("samples ", 0) == 0)
      text = trf("sources.samples", {part.substr(8)});
    else if (part == "ours")
      text = tr("sources.ours");
    out += (out.empty() ? "" : tr("sources.join")) + text;
    p = e + 2;
  }
  return out;
}
std::string kernel_teaches(const KernelRecord& k) {
  const std::string key = "teach." + k.id;
  const char* t = tr(key.c_str());
  return t == key ? k.teaches : t;
}

// The scenario editor for one side; `id` keeps two editors apart.
namespace {
// "about 40 s, 0.8 GB of 17 GB free, 26 chunks": beside Run and in the dialog that asks first.
std::string estimate_text(const RunEstimate& e) {
  char s[32], b[32], f[32];
  std::snprintf(s, sizeof s, "%.0f", std::max(1.0, e.seconds));
  std::snprintf(b, sizeof b, "%.2f", e.bytes / 1e9);
  std::snprintf(f, sizeof f, "%.1f", e.free_bytes / 1e9);
  return trf(e.seconds > 0 ? "sc.estimate" : "sc.estimate.gpu", {s, b, f, std::to_string(e.chunks)});
}
}  // namespace

void run_or_ask(Model& model, Side& side) {
  if (side_running(side) || !model.work.validate_side(side).empty()) return;
  std::optional<RunEstimate> est;
  try {
    est = model.work.estimate(side);
  } catch (const std::exception&) {
    return;  // the form shows why the scenario cannot run
  }
  if (est && est->ask())
    side.phase = RunPhase::confirming;
  else
    model.work.request_run(side);
}

// The question before a long or large run: Run (or Enter) starts it, Back (or Esc) leaves it. Drawn by the
// window, not the form, so that F5 asks in a layout without the Scenario panel too.
void confirm_run_dialogs(Model& model) {
  for (Side* side : {&model.work.a, &model.work.b}) {
    const std::string confirm_id = L("sc.confirm.title") + (side == &model.work.a ? "##confirmA" : "##confirmB");
    if (side->phase == RunPhase::confirming) {
      ImGui::OpenPopup(confirm_id.c_str());
      side->phase = RunPhase::idle;
    }
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 28, 0));
    if (!ImGui::BeginPopupModal(confirm_id.c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) continue;
    std::optional<RunEstimate> est;
    try {
      est = model.work.estimate(*side);
    } catch (const std::exception& e) { text_wrapped(e.what(), nullptr, ImGui::GetFontSize() * 26); }
    if (est) text_wrapped(estimate_text(*est), nullptr, ImGui::GetFontSize() * 26);
    text_wrapped(tr("sc.confirm.text"), nullptr, ImGui::GetFontSize() * 26);
    ImGui::BeginDisabled(!est);
    if (ImGui::Button(L("sc.confirm.run").c_str(), ImVec2(ImGui::GetFontSize() * 8, 0)) ||
        (est && key_pressed(model, Key::enter))) {
      model.work.request_run(*side);
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(L("sc.confirm.back").c_str(), ImVec2(ImGui::GetFontSize() * 8, 0)) ||
        key_pressed(model, Key::escape))
      ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
}

namespace {
// The first launch's occupancy (core/occupancy.h), one grey line; each resource's blocks per SM in its tooltip.
// While a lesson asks for the blocks per SM or the clusters at once (`kept`), every count of them is "?": the warps
// and the fraction follow from the blocks, the clusters from the blocks and the SMs, and the limiting resource names
// the least of the tooltip's counts. The card's limits the student works it out from are the lesson's to give.
void occupancy_line(const Occupancy& o, bool kept) {
  auto shown = [kept](const std::string& v) { return kept ? std::string("?") : v; };
  std::string limits;
  for (const OccupancyLimit l : o.limiting)
    limits += std::string(limits.empty() ? "" : ", ") + tr((std::string("occ.") + to_string(l)).c_str());
  const std::vector<std::string> args = {o.sm.card,
                                         shown(std::to_string(o.blocks)),
                                         shown(std::to_string(o.active_warps())),
                                         std::to_string(o.max_warps()),
                                         shown(std::to_string(int(100.0 * o.fraction() + 0.5))),
                                         shown(limits)};
  ImGui::TextDisabled("%s", trf(o.sm_is_device ? "sc.occupancy" : "sc.occupancy.ref", args).c_str());
  auto limit = [&](const std::optional<int>& v) { return shown(v ? std::to_string(*v) : std::string("-")); };
  const std::string from =
      o.sm_is_device ? trf("sc.occupancy.gpu", {limit(o.runtime_blocks)}) : std::string(tr("sc.occupancy.emulator"));
  if (ImGui::IsItemHovered()) {  // (wrapped as every tooltip of the window is: a long line ran off the screen)
    ImGui::BeginTooltip();
    text_wrapped(trf("sc.occupancy.tip", {shown(std::to_string(o.by_warps)), limit(o.by_registers), limit(o.by_shared),
                                          shown(std::to_string(o.by_blocks)), from}),
                 nullptr, ImGui::GetFontSize() * 30);
    ImGui::EndTooltip();
  }
  if (o.cluster > 1) {  // the card holds a cluster kernel's blocks in whole clusters
    const std::vector<std::string> c = {std::to_string(o.cluster), shown(std::to_string(o.clusters_at_most())),
                                        std::to_string(o.sm.sms), shown(std::to_string(o.blocks))};
    const std::string runtime = o.runtime_clusters ? shown(std::to_string(*o.runtime_clusters)) : "";
    const std::string line = o.runtime_clusters ? trf("sc.occupancy.cluster.gpu", {c[0], runtime, c[2], c[3], c[1]})
                                                : trf("sc.occupancy.cluster", c);
    ImGui::TextDisabled("%s", line.c_str());
    tooltip_key("sc.occupancy.cluster.tip");
  }
}
}  // namespace

void scenario_editor(Model& model, Side& side, const char* id) {
  ImGui::PushID(id);
  Scenario& sc = side.scenario;
  const KernelRecord* cur = find_kernel(sc.kernel);
  // A gallery entry's file: the entry's title, which the gallery gives in each language.
  const bool gallery_file = cur && side.user.gallery && side.user.gallery->id == cur->id;
  const std::string title = !cur           ? ""
                            : gallery_file ? text_in(side.user.gallery->title, i18n_lang())
                                           : kernel_title(*cur);
  std::string preview = cur ? cur->id + "  -  " + title : sc.kernel;
  if (begin_combo_fitted(L("sc.kernel").c_str(), preview, ImGuiComboFlags_HeightLargest)) {
    // A search first (the notes' and books' names: reduce1, Harris 3, PMPP), focused as the menu opens.
    std::string& search = model.view.memory.kernel_search;
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(-FLT_MIN);
    const bool enter =
        ImGui::InputTextWithHint("##search", tr("sc.kernel.search"), &search, ImGuiInputTextFlags_EnterReturnsTrue);
    tooltip_key("sc.kernel.search.tip");
    std::vector<const KernelRecord*> found;
    for (const KernelRecord* k : catalog())
      if (kernel_matches(*k, search, kernel_title(*k) + "\n" + kernel_teaches(*k))) found.push_back(k);
    if (found.empty()) ImGui::TextDisabled("%s", trf("sc.kernel.none", {search}).c_str());
    auto pick = [&](const KernelRecord* k) {
      sc.kernel = k->id;
      side.type_switched = false;
      if (!k->clustered) sc.cluster = 0;  // --cluster is the cluster kernels' alone (resolve_shape sets theirs)
      // Transposes move float matrices: int32 is refused for them, so switch to float32 (and say why).
      if (family_record(k->family).takes_matrix && sc.type == ElemType::int32) {
        sc.type = ElemType::float32;
        side.type_switched = true;
      }
      resolve_shape(sc);
    };
    if (enter && !found.empty()) {  // Enter takes the first kernel found
      pick(found.front());
      ImGui::CloseCurrentPopup();
    }
    std::vector<std::string> groups;
    for (const KernelRecord* k : found)
      if (std::find(groups.begin(), groups.end(), k->group) == groups.end()) groups.push_back(k->group);
    for (auto& g : groups) {
      const std::string group_key = "group." + g;
      const char* group = tr(group_key.c_str());
      ImGui::TextDisabled("%s", group == group_key ? g.c_str() : group);
      for (const KernelRecord* k : found) {
        if (k->group != g) continue;
        std::string lab = "  " + k->id + (k->gpu_only ? "  [GPU]" : "");
        if (ImGui::Selectable(lab.c_str(), k->id == sc.kernel)) pick(k);
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s", wrapped(kernel_title(*k) + "\n" + kernel_teaches(*k) + "\n" + kernel_sources(*k),
                                          ImGui::GetFontSize() * 32)
                                      .c_str());
        ImGui::SameLine(260 * ImGui::GetFontSize() / 16.0f);
        ImGui::TextDisabled("%s", kernel_title(*k).c_str());
      }
    }
    ImGui::EndCombo();
  }
  // A kernel file of the student's own: which one, and where it is edited.
  if (follows_file(side)) {
    const ImVec4 blue(0.6f, 0.8f, 1.0f, 1);
    text_wrapped(trf("sc.file", {side.user.path}), &blue);
    tooltip_key("sc.file.tip");
  } else if (cur) {
    // The catalog's one line in English; in other languages the first sentence of our explanation.
    std::string line = cur->teaches;
    if (i18n_lang() != "en") {
      std::string key = "teach." + cur->id;
      std::string tx = tr(key.c_str());
      if (tx != key)
        line = tx.substr(0, std::min(tx.find("。") == std::string::npos ? tx.size() : tx.find("。") + 3, tx.size()));
    }
    text_wrapped(line);
  }

  // n and block as text, so a bad value can be refused with its reason instead of clamped.
  std::string field_error;
  const bool transpose = cur && family_record(cur->family).takes_matrix;
  std::uint64_t v = 0;
  if (transpose) {
    // Transposes: the matrix (rows x cols) and blocks of 32 x K threads; n, block, op and finish do not apply.
    // Each field beside the last while it fits with its label, else on the next line (a label is never cut).
    auto beside_if_room = [](float field_em, const char* key) {
      ImGui::SameLine();
      const float need = ImGui::GetFontSize() * field_em + ImGui::GetStyle().ItemInnerSpacing.x +
                         ImGui::CalcTextSize(tr(key), nullptr, true).x;
      if (ImGui::GetContentRegionAvail().x < need) ImGui::NewLine();
    };
    for (auto [key, text, out] :
         {std::tuple{"sc.rows", &side.rows_text, &sc.rows}, std::tuple{"sc.cols", &side.cols_text, &sc.cols}}) {
      if (out == &sc.cols) beside_if_room(6, key);
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
      ImGui::InputText(L(key).c_str(), text);
      tooltip_key((std::string(key) + ".tip").c_str());
      if (parse_u64(*text, &v) && v >= 1 && v <= kMaxSide)
        *out = std::uint32_t(v);
      else
        field_error = trf("sc.side.bad", {tr(key), std::to_string(kMaxSide)});
    }
    beside_if_room(4, "sc.block_rows");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4);
    ImGui::InputText(L("sc.block_rows").c_str(), &side.block_rows_text);
    tooltip_key("sc.block_rows.tip");
    if (parse_u64(side.block_rows_text, &v) && v >= 1 && v <= 32 && (v & (v - 1)) == 0)
      sc.block_rows = unsigned(v);
    else
      field_error = tr("sc.block_rows.bad");
    resolve_shape(sc);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    enum_combo("sc.type", &sc.type, {ElemType::float32, ElemType::float64}, "sc.type.transpose.tip");
    if (side.type_switched) {
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1), "%s", tr("sc.type.switched"));
      tooltip_key("sc.type.transpose.tip");
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    enum_combo("sc.input", &sc.input, {InputKind::random, InputKind::ones, InputKind::ramp});
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    enum_combo("sc.backend", &sc.backend, {BackendChoice::auto_, BackendChoice::cuda, BackendChoice::cpu});
  } else {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    ImGui::InputText(L("sc.n").c_str(), &side.n_text);
    tooltip_key("sc.n.tip");
    // The same sizes as --n: decimal, 2^k, 2^k+c; a size out of range says so.
    if (!parse_size(side.n_text, v))
      field_error = tr("sc.n.bad");
    else if (v < 1 || v > kMaxN)
      field_error = trf("sc.n.range", {side.n_text, std::to_string(kMaxN)});
    else
      sc.n = v;
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::InputText(L("sc.block").c_str(), &side.block_text);
    tooltip_key("sc.block.tip");
    if (parse_u64(side.block_text, &v) && v < (1u << 20))
      sc.block = unsigned(v);
    else
      field_error = tr("sc.block.bad");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    enum_combo("sc.type", &sc.type, {ElemType::int32, ElemType::float32, ElemType::float64});
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    enum_combo("sc.op", &sc.op, {OpKind::sum, OpKind::min, OpKind::max});
    if (cur && cur->clustered) {  // blocks per thread block cluster
      ImGui::SameLine();
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4);
      const unsigned now = cluster_size(sc);
      if (ImGui::BeginCombo(L("sc.cluster").c_str(), std::to_string(now).c_str())) {
        for (unsigned c : {1u, 2u, 4u, 8u, 16u})
          if (ImGui::Selectable(std::to_string(c).c_str(), c == now)) sc.cluster = c;
        ImGui::EndCombo();
      }
      tooltip_key("sc.cluster.tip");
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    enum_combo("sc.input", &sc.input, {InputKind::random, InputKind::ones, InputKind::ramp});
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    enum_combo("sc.backend", &sc.backend, {BackendChoice::auto_, BackendChoice::cuda, BackendChoice::cpu});
  }
  int focus = int(sc.focus_blocks.size());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::SliderInt(L("sc.focus").c_str(), &focus, 1, 64)) {
    sc.focus_blocks.clear();
    for (int b = 0; b < focus; ++b) sc.focus_blocks.push_back(std::uint32_t(b));
  }
  tooltip_key("sc.focus.tip");

  // Refuse bad values in place, with the reason.
  std::string why = field_error.empty() ? model.work.validate_side(side) : field_error;
  if (!why.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1), "%s", why.c_str());
    ImGui::PopTextWrapPos();
  }
  // The estimate beside Run for a run that takes a while; Run asks first for one over 10 s or half the memory.
  std::optional<RunEstimate> est;
  if (why.empty()) {
    try {
      est = model.work.estimate(side);
    } catch (const std::exception& e) { why = e.what(); }
  }
  ImGui::BeginDisabled(!why.empty() || side_running(side));
  if (ImGui::Button(L("sc.run").c_str(), ImVec2(ImGui::GetFontSize() * 6, 0))) {
    if (est && est->ask())
      side.phase = RunPhase::confirming;
    else
      model.work.request_run(side);
  }
  ImGui::EndDisabled();
  tooltip_key("sc.run.tip");
  if (est && !side_running(side) && (est->seconds > 2 || est->bytes > 0.1 * est->free_bytes)) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", estimate_text(*est).c_str());
    tooltip_key("sc.estimate.tip");
  }
  if (side.user.running()) {  // the kernel file compiling, then tracing in the second redlab
    ImGui::SameLine();
    if (ImGui::SmallButton(L("sc.cancel").c_str())) model.work.cancel_run(side);
    tooltip_key("editor.cancel.tip");
    ImGui::SameLine();
    ImGui::TextDisabled("%s", trf("source.running", {side.user.path}).c_str());
  }
  if (side.running()) {
    ImGui::SameLine();
    const double progress = side.run.progress();
    if (ImGui::SmallButton(L("sc.cancel").c_str())) model.work.cancel_run(side);
    tooltip_key("sc.cancel.tip");
    // Blocks run of all the chunks' launches, the chunk, the time so far: a bar that moves and numbers that say
    // how far.
    const std::string secs = run_seconds_text(side);
    const RunControl& c = *side.run.control();
    const std::string detail =
        c.chunks ? trf("sc.progress.detail",
                       {fmt_u(c.blocks_run), fmt_u(c.blocks_expected),
                        std::to_string(std::min(c.chunks_done + 1, c.chunks.load())), std::to_string(c.chunks), secs})
                 : trf("sc.progress.preparing", {secs});
    ImGui::ProgressBar(float(progress), ImVec2(-1, 0), detail.c_str());
    tooltip_key("sc.progress.tip");
  }
  ImGui::PushTextWrapPos(0);
  if (!side.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1), "%s", side.error.c_str());
  // A's notice (no CUDA device: the CPU emulator runs it) is the status bar's, said once for the window.
  ImGui::PopTextWrapPos();
  if (side.trace) {
    const Trace& t = *side.trace;
    // The result of the trace shown; greyed, under why, when that trace is not of the scenario above.
    const bool stale = !stale_reason(side).empty();
    stale_banner(side);
    const ImVec4 grey = ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
    const ImVec4 red(1.0f, 0.45f, 0.35f, 1);
    if (t.fault) {  // no result: where the kernel stopped (the source panel names the lines)
      text_wrapped(fault_summary(t), stale ? &grey : &red);
    } else if (kept_back(model, side, FigureKind::result)) {  // a lesson asks for it: predicted first
      text_wrapped(trf("sc.result", {"?", "?"}), &grey);
    } else {
      // A transpose's result is a sentence: wrapped, never cut.
      text_wrapped(result_text(t), stale ? &grey : nullptr);
      const std::string verdict = tr(t.correct ? "sc.correct" : "sc.wrong");
      same_line_if_fits(verdict);
      ImGui::TextColored(stale ? grey : t.correct ? ImVec4(0.4f, 0.85f, 0.4f, 1) : red, "%s", verdict.c_str());
      tooltip_key("sc.result.tip");
      if (!t.correct) lost_inputs(model, t);
    }
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled(
        "%s", trf("sc.launch", {std::to_string(t.grid), std::to_string(t.block), std::to_string(t.warps_per_block),
                                std::to_string(t.steps.size()), to_string(t.backend)})
                  .c_str());
    if (t.occupancy) occupancy_line(*t.occupancy, kept_back(model, side, FigureKind::occupancy));
    ImGui::PopTextWrapPos();
  }
  ImGui::PopID();
}

namespace {
class ScenarioView final : public View {
 public:
  ScenarioView() : View(ViewId::scenario, "win.scenario") {}
  void draw(Model& model) override {
    ImGui::Checkbox(L("sc.compare").c_str(), &model.work.compare);
    tooltip_key("sc.compare.tip");
    if (!model.work.compare) {
      ImGui::Separator();
      scenario_editor(model, model.work.a, "A");
      return;
    }
    // A and B as tabs: each form whole with its Run button in the same place (under A's form, B's Run was below
    // the pane's fold). A tab's label names its kernel and marks a trace that is not current.
    if (ImGui::BeginTabBar("sides")) {
      for (const bool is_a : {true, false}) {
        Side& sl = is_a ? model.work.a : model.work.b;
        const std::string label = std::string(is_a ? "A: " : "B: ") + sl.scenario.kernel +
                                  (stale_reason(sl).empty() ? "" : " *") + (is_a ? "###sideA" : "###sideB");
        if (ImGui::BeginTabItem(label.c_str())) {
          scenario_editor(model, sl, is_a ? "A" : "B");
          ImGui::EndTabItem();
        }
      }
      ImGui::EndTabBar();
    }
  }
};
}  // namespace

const RegisterView<ScenarioView> scenario_view(20);

}  // namespace redlab::gui
