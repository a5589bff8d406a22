// One function per window; each reads AppState (the trace model) and never calls CUDA.
#pragma once
#include <string>

#include <imgui.h>

#include "../core/bank_model.h"
#include "app_state.h"
#include "tree_renderer.h"

namespace redlab::gui {

void view_scenario(AppState&);
void view_controls(AppState&);   // stepping toolbar: play/pause, step, scrub, speed
void view_tree(AppState&);
void view_warps(AppState&);
void view_banks(AppState&);
void view_metrics(AppState&);
void view_code(AppState&);
void view_timings(AppState&);
void view_compare(AppState&);
void view_bank_lab(AppState&);
void view_tile(AppState&);       // transposes: the shared tile, banks, sectors (in the tree's place)
// The slot's trace is drawn by its family's tile view (transposes), not the reduction tree.
bool slot_draws_tile(const Slot&);
// One slot's tile panel (tile view window and each side of the compare window).
void draw_tile_panel(AppState&, const Slot&, int step, ImVec2 size);
// The focus block shown by the banks and warps windows (trace.focus[st.sel_focus]).
void focus_block_combo(AppState&, const Trace&);
// The 32-bank grid of one shared request, phase by phase.
void draw_bank_grid(const BankReport&, const WarpAddresses&);
void handle_step_keys(AppState&);

// The tree widget (the main tree window and each side of the compare window own one).
struct TreeWidget {
  TreeRenderer renderer;
  float x0 = 0, vis = 0;            // first visible cell, cells visible (0: fit all)
  const void* model_id = nullptr;
  std::uint32_t model_cells = 0;
  std::vector<GpuInstance> cells, lines;
  // what the instances were built for
  int k_step = -1, k_w = 0, k_h = 0;
  float k_x0 = -1, k_vis = -1;
  bool k_cb = false;
  bool dirty = true;               // instances changed since the last upload
  std::size_t n_static = 0;        // cells[0, n_static) stand still; the rest move with the animation
  unsigned k_gen = ~0u;            // Slot::generation the instances were built from
  // Instances of history rows (not the current one), per row, for the view they were built for.
  std::vector<std::vector<GpuInstance>> hist_cells, hist_lines;
  std::vector<char> hist_ok;
  unsigned h_gen = ~0u;
  float h_x0 = -1, h_vis = -1;
  int h_w = 0, h_h = 0;
  bool h_cb = false;
};
// GL textures drawn outside ImGui whose pixels changed this frame (the compositor redraws where they show).
void note_texture_changed(unsigned tex);
TreeWidget& tree_widget(int which);   // 0: tree window, 1/2: compare sides
void release_gl_resources();           // before the GL context goes
void draw_tree(TreeWidget&, const AppState&, const Slot&, int step, ImVec2 size);

// The step of `slot` shown when the app is at `step` (clamped to its trace).
int slot_step(const Slot&, int step);

// Helpers
void tooltip_key(const char* key);              // tooltip for the last item, text from i18n
void help_marker(const char* key);              // "(?)" with a tooltip
std::string fmt_u(std::uint64_t v);
std::string fmt_pct(double v);

}  // namespace redlab::gui
