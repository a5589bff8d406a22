// The window's views (ImHex's model): one class per window, one file per view, each registered once in
// windows.cpp. A view draws what the Session holds and sends it requests; it never starts work itself and
// keeps no state between frames outside its own object (GL resources, "started once" flags). The menu, the
// first-use layout and the frame loop (run_gui.cpp) go over the registry.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <imgui.h>

#include "../core/bank_model.h"
#include "session.h"
#include "tree_renderer.h"

namespace redlab::gui {

class View {
 public:
  // Where a window goes the first time it shows (imgui.ini keeps what the user changes after), as fractions
  // of the panels' area between the control strip and the status bar.
  struct Placement {
    float x, y, w, h;
  };
  View(std::string id, const char* title_key, bool in_view_menu = true, bool open = true)
      : id(std::move(id)), title_key(title_key), in_view_menu(in_view_menu), open(open) {}
  virtual ~View() = default;

  const std::string id;         // "tree", "timings", ... (REDLAB_GUI_HIDE names views by these)
  const char* title_key;        // the window title's UI text key
  const bool in_view_menu;      // listed in the View menu, where it is opened and closed
  bool open;

  virtual Placement placement(const Session&) const = 0;
  // Whether the window shows this frame, besides `open` (the tile view only for a transpose, say).
  virtual bool applies(const Session&) const { return true; }
  virtual ImGuiWindowFlags flags() const { return 0; }
  // The View menu opened it.
  virtual void opened(Session&) {}
  // The window's content, between its Begin and End.
  virtual void draw(Session&) = 0;
  // GL objects to delete while the context still exists.
  virtual void release_gl() {}
};

// The first-use layout's columns: scenario and warps on the left, the tree (or tile) and the per-step figures
// in the centre, code, banks and timings on the right.
constexpr float kLeft = 0.22f, kCentre = 0.51f, kRight = 1.0f - kLeft - kCentre;
// The centre shows tiles (transposes) rather than trees: A's family, or either side when comparing.
inline bool shows_tiles(const Session& s) {
  return s.compare ? slot_draws_tile(s.a) || slot_draws_tile(s.b) : slot_draws_tile(s.a);
}
// The banks window is shorter for a transpose (the tile view shows a bank grid too), so that the Timings
// window below it fits the six transposes.
inline float banks_height(const Session& s) { return takes_matrix(s.a.scenario) ? 0.22f : 0.42f; }

using Views = std::vector<std::unique_ptr<View>>;
// Every window, in the order they are drawn and listed in the View menu (windows.cpp).
Views make_views();
View* find_view(const Views&, const std::string& id);

// The strip under the menu bar: step controls every view follows (not a registry window: it is always there).
void draw_controls(Session&);
void handle_step_keys(Session&);

// Parts shared by several views.
// One slot's tile panel (the tile view and each side of the compare window).
void draw_tile_panel(Session&, const Slot&, int step, ImVec2 size);
// The focus block shown by the banks and warps windows (trace.focus[st.sel_focus]).
void focus_block_combo(Session&, const Trace&);
// The 32-bank grid of one shared request, phase by phase.
void draw_bank_grid(const BankReport&, const WarpAddresses&);
// The per-step table of one trace, or two side by side.
void metrics_table(const Trace& t, const Trace* b, int cur);

// The tree widget (the tree window and each side of the compare window own one).
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
void draw_tree(TreeWidget&, const Session&, const Slot&, int step, ImVec2 size);
// GL textures drawn outside ImGui whose pixels changed this frame (the compositor redraws where they show).
void note_texture_changed(unsigned tex);

// Helpers
void tooltip_key(const char* key);              // tooltip for the last item, text from i18n
void help_marker(const char* key);              // "(?)" with a tooltip
std::string fmt_u(std::uint64_t v);
std::string fmt_pct(double v);

}  // namespace redlab::gui
