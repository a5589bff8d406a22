// The window's views (ImHex's model): one class per view, one file per view, each registering itself there
// (RegisterView) with its id, its title's text key, its place in the View menu and whether it floats. A view draws
// what the Model holds and sends it requests; it never starts work itself, and what it remembers between frames is
// in its own object (GL resources, a chosen chart), unless the model or another view reads it too (ViewMemory).
// The View menu, the layouts (layout.h: panes of one view or several as tabs; a view they do not name gets a tab
// beside the centre), REDLAB_GUI_HIDE, --export-view and the frame loop go over the registry. Adding a view is its
// file and its text keys (win.<id> in assets/i18n/*.json).
#pragma once
#include "core/hw_counts.h"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "core/bank_model.h"
#include "core/catalog.h"
#include "model/model.h"
#include "gui/render/tree_renderer.h"

namespace redlab::gui {

using namespace redlab::model;

class View {
 public:
  // `floating`: a window of its own the user places (the bank lab), not a pane of the layout (layout.h).
  View(ViewId id, const char* title_key, bool floating = false) : id(id), title_key(title_key), floating(floating) {}
  virtual ~View() = default;

  const ViewId id;  // layouts place views by it; REDLAB_GUI_HIDE and --export-view by its view_key
  const char* title_key;  // the window title's UI text key
  const bool floating;
  bool open = true;  // the View menu, a window's or tab's close button, and the layouts set it
  bool was_shown = false;  // shown last frame (a view that appears in a pane of tabs comes to the front)
  ImVec4 rect{};  // where it was drawn last (x, y, width, height in window pixels): exports crop to it

  // Whether the window shows this frame, besides `open` (the tile view only for a transpose, say).
  virtual bool applies(const Model&) const { return true; }
  virtual ImGuiWindowFlags flags() const { return 0; }
  // The View menu opened it.
  virtual void opened(Model&) {}
  // A floating view's size when it first appears, in pixels, for a window of `viewport` pixels.
  virtual ImVec2 first_size(const ImVec2& viewport) const {
    return ImVec2(std::min(viewport.x * 0.9f, ImGui::GetFontSize() * 62),
                  std::min(viewport.y * 0.88f, ImGui::GetFontSize() * 48));
  }
  // The view's content, inside its pane (or its own window, floating).
  virtual void draw(Model&) = 0;
  // GL objects to delete while the context still exists.
  virtual void release_gl() {}
};

// The centre shows tiles (transposes) rather than trees: A's family, or either side when comparing.
inline bool shows_tiles(const Model& s) {
  return s.work.compare ? side_draws_tile(s.work.a) || side_draws_tile(s.work.b) : side_draws_tile(s.work.a);
}
// The centre shows GPUs on their ring (all-reduce): A's family (compare draws each side's own picture).
inline bool shows_ring(const Model& s) { return !s.work.compare && side_draws_ring(s.work.a); }
// An all-reduce's GPUs, transfers, G x G grid and bytes at `step` in `size` (view_ring.cpp; compare draws one per side).
void draw_ring_panel(Model&, const Side&, int step, ImVec2 size);

using Views = std::vector<std::unique_ptr<View>>;
// Every view registered, made, in the order they are drawn and listed in the View menu (windows.cpp).
Views make_views();
View* find_view(const Views&, ViewId);
View* find_view(const Views&, const std::string& key);  // by its id's key ("tree"), as a user names it

// A view's registration, one in its file after its class: `RegisterView<TreeView> registered(40);`. `order` places
// it in the View menu and the frame's drawing (smaller first; the views of the course use the tens up to 140).
void register_view(int order, std::unique_ptr<View> (*make)());
template <class V>
struct RegisterView {
  explicit RegisterView(int order) {
    register_view(order, [] { return std::unique_ptr<View>(new V); });
  }
};

// The strip under the menu bar: step controls every view follows (not a registry window: it is always there).
void draw_controls(Model&);
float controls_height(const Model&);
void handle_step_keys(Model&);
// A's scenario becomes the playlist's entry `index` and runs (asking first when long), from its first step.
void playlist_show(Model&, int index);
// The glossary's concepts in its order ("warp", "lane", ...), a concept's term in the UI's language, and the glossary
// window opened at a concept (view_glossary.cpp).
const std::vector<std::string>& glossary_concepts();
std::string glossary_term(const std::string& concept_name);
void open_glossary(Model&, const std::string& concept_name);
// The glossary concepts a text names, by their terms in the UI's language, in the order they first stand there.
std::vector<std::string> glossary_concepts_in(const std::string& text);
// The open lesson's beat `beat` (Previous / Next, Page Up / Page Down, the Lesson menu).
void lesson_show(Model&, int beat);

// Whether KEY was pressed this frame (REPEATS: or held down and repeating), with Ctrl held when CTRL. The shortcuts
// read the presses the platform kept (a quick tap between two frames counts), not ImGui's keys held at the frame's start.
bool key_pressed(const Model&, Key key, bool repeats = false, bool ctrl = false);

// Run a side's scenario as the Run button does: at once, or after asking when the estimate is over 10 s or half
// the free memory. Nothing happens while it runs or when its scenario is not valid (the form says why).
void run_or_ask(Model&, Side&);
// The dialogs that ask before a long run (one per side), drawn over the window.
void confirm_run_dialogs(Model&);

// Parts shared by several views.
// One side's tile panel (the tile view and each side of the compare window).
void draw_tile_panel(Model&, const Side&, int step, ImVec2 size);
// The focus block shown by the banks and warps windows (trace.focus[model.view.sel_focus]).
void focus_block_combo(Model&, const Trace&);
// Over a trace that is not of what its side shows now (stale_reason: the scenario changed, a run is under way, the
// file does not compile), one line saying so; the views that draw a trace start with it.
void stale_banner(const Side&);
// A side's trace when it has focus blocks; nullptr after saying why there is none.
const Trace* focus_trace(const Side&);
// A view of one side's trace drawn for A, and with compare on for B beside it (side by side where each side has
// `min_side_width`, else one above the other in the view's scrolling), each side headed "A: kernel" / "B: kernel".
// `draw` gets the side, whether it is A (A's selections are the view's; B shows the same ones, clamped to what it
// has) and whether the sides are stacked (a part that would fill the rest of the height takes its own instead).
void draw_each_side(Model&, float min_side_width,
                    const std::function<void(const Side&, bool is_a, bool stacked)>& draw);
// The selection `selected` clamped to [0, count): written back for A, only read for B.
int clamped_selection(int& selected, int count, bool is_a);
// The 32-bank grid of one shared request, phase by phase, in the view's width (and `height` where it is not 0).
// Returns the bank whose number in the header was clicked (-1: none); the column `marked` is outlined.
// `degrees`: the phase lines' wavefronts and the xN marks under conflicting columns written (false while a lesson
// keeps shared-memory figures back: "?" in their place; the rows are drawn, for the student to count).
int draw_bank_grid(const BankReport&, const WarpAddresses&, int marked = -1, float height = 0, bool degrees = true);
// The per-step table of one trace, or two side by side.
void metrics_table(const Trace& t, const Trace* b, int cur);

// The tree widget (the tree window and each side of the compare window own one).
struct TreeWidget {
  TreeRenderer renderer;
  float x0 = 0, vis = 0;  // first visible cell, cells visible (0: fit all)
  bool fit_values = false;  // Values: zoomed so that the current row's values have room (model: values_zoom)
  bool zoom_chosen = false;  // the user zoomed (Fit, +, -, Values, the wheel): Present's default no longer applies
  int values_step = -1;  // the step that zoom was made for (a drag pans it until the step changes)
  float values_width = 0;  // and the canvas's width then (a pane laid out again zooms again)
  // Rows too low for Values: the window of rows ends one after the current step, moved up by `rows_up` rows (a
  // vertical drag) until the step changes; `drag_rows` is the part of a row dragged so far.
  int rows_up = 0, rows_up_step = -2;
  float drag_rows = 0;
  const void* model_id = nullptr;
  std::uint32_t model_cells = 0;
  // What a set of instances was built for: any change builds them again.
  struct BuiltFor {
    unsigned generation = ~0u;  // Side::generation
    float x0 = -1, vis = -1;  // the cells in view
    int width = 0, height = 0;  // the canvas, in pixels
    bool colorblind = false;
    bool values = false;  // Values was on (its cells are higher)
    bool operator==(const BuiltFor&) const = default;
  };
  // The current row's instances, built for `cells_for` at step `cells_step`.
  std::vector<GpuInstance> cells, lines;
  BuiltFor cells_for;
  int cells_step = -1;
  bool dirty = true;  // instances changed since the last upload
  std::size_t n_static = 0;  // cells[0, n_static) stand still; the rest move with the animation
  // Instances of history rows (not the current one), per row, built for `history_for`.
  std::vector<std::vector<GpuInstance>> hist_cells, hist_lines;
  std::vector<char> hist_ok;
  BuiltFor history_for;
};
// `inline_toolbar`: the zoom buttons on the caller's last line (a compare side short of room). Returns the canvas's
// rectangle when Values is on (the caller notes it in ViewState::values_canvases).
std::optional<model::ViewState::ValuesCanvas> draw_tree(TreeWidget&, const Model&, const Side&, int step, ImVec2 size,
                                                        bool inline_toolbar = false);
// GL textures drawn outside ImGui whose pixels changed this frame (the compositor redraws where they show).
void note_texture_changed(unsigned tex);

// Helpers
// The monospace font kernel sources are shown in (DejaVu Sans Mono with Chinese merged; platform.cpp builds it
// beside the UI font), or nullptr where it could not be loaded (the UI font is used then).
ImFont* code_font();
// The window's bars (menu bar, control strip, status bar) at their own scale where the window's height caps it
// (layout.h: chrome_scale): their font, and their paddings and spacing scaled as the font is, while one lives.
ImFont* chrome_font();  // nullptr: the bars' scale is the views'
float chrome_ratio();  // the bars' scale over the views'
class ChromeStyle {
 public:
  ChromeStyle();
  ~ChromeStyle();
  ChromeStyle(const ChromeStyle&) = delete;
  ChromeStyle& operator=(const ChromeStyle&) = delete;

 private:
  bool pushed_ = false;
};
// Text on one line in at most `width` pixels: cut with "..." where longer, the whole text then in a tooltip.
void text_fitted(const std::string&, float width, const ImVec4* colour);
void tooltip_key(const char* key);  // tooltip for the last item, text from i18n
// A kernel's title and what it teaches in the UI's language (kernel.<id>, teach.<id>; else the catalog's).
std::string kernel_title(const KernelRecord&);
std::string kernel_teaches(const KernelRecord&);
// Where it comes from (the course notes, Harris, PMPP, the CUDA samples) in the UI's language.
std::string kernel_sources(const KernelRecord&);
// Text broken into lines of at most `width` pixels (0: the room left) where English and Chinese allow it
// (text_wrap.h: ImGui 1.86 breaks only at spaces); `colour` for coloured text.
void text_wrapped(const std::string& s, const ImVec4* colour = nullptr, float width = 0);
// A wrong result's lost inputs, one line per focus block that lost any ("block 0: inputs 128-255 (128 of 256) never
// reached its result"), in the UI's language, each with its definition as a tooltip.
void lost_inputs(Model& model, const Trace& t);
std::string wrapped(const std::string& s, float width);
// `s` as it fits in `width` pixels on one line: whole, or cut at a whole UTF-8 character and ended with "...".
std::string fit_text(const std::string& s, float width);
// ImGui::BeginCombo with its preview fitted to the box (cut with "..." rather than clipped mid-letter), the whole
// preview in a tooltip when it was cut. Call before the item's own tooltip, after SetNextItemWidth.
bool begin_combo_fitted(const char* label, const std::string& preview, int flags = 0);
// Before a text item: on the same line as the last item when the text fits there, else on the next line.
void same_line_if_fits(const std::string& text);
// The width buttons with these labels take after an item on its line: each label (its ###id not counted), its frame
// padding and the spacing before it.
float buttons_width(std::initializer_list<std::string> labels);
void help_marker(Model&, const char* key);  // "(?)" with a tooltip; a click opens the glossary
std::string fmt_u(std::uint64_t v);
inline std::string fmt_compact(std::uint64_t v) { return compact_count(v); }  // "786k": core/hw_counts.h
std::string fmt_pct(double v);
// Whether a lesson keeps figures of kind `k` of `side`'s trace back for the student to predict
// (model/lesson_player.h): a view prints "?" in their place (figure_text) or leaves the line out.
bool kept_back(const Model&, const Side& side, FigureKind k);
// A figure of kind `k` of `side`'s trace as a view prints it: `text`, or "?" while it is kept back.
std::string figure_text(const Model&, const Side& side, FigureKind k, const std::string& text);

}  // namespace redlab::gui
