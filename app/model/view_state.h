// What the window shows of the work, apart from the work itself: the step clock, what is selected, the layout,
// this frame's keys, the settings, the bank lab's inputs and what views remember between frames. No work starts
// here and nothing here is drawn: views read and change it, the model keeps it in step with the traces.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/layout.h"
#include "model/options.h"

namespace redlab::model {

// What views remember between frames that the model or another view reads or sets as well (the command line, a
// lesson, the menu); what only one view reads it keeps in its own object (gui/views/views.h).
struct ViewMemory {
  std::string metrics_chart = "active_threads";  // the per-step chart's figure (a StepStats key, or cycles)
  std::string compare_chart = "smem_load_wavefronts";  // the same, A beside B (both: REDLAB_GUI_CHART)
  int code_side = 0;  // the side the code view shows (0: A, 1: B, with compare); Ctrl+S saves its file
  int code_goto = 0;  // a line of the editor to scroll to (a message clicked, a lesson's line:), 0: none
  // The kernel menu's search ("reduce1", "Harris 3", "PMPP"; kernel_matches): the scenario form and the gallery share
  // it.
  std::string kernel_search;
};

struct ViewState {
  explicit ViewState(const GuiOptions& opts);

  bool headless = false;  // screenshot mode: settle everything before drawing, no waiting on input

  // The step clock: the step shown of the first launch, playback, and the move into the current step.
  int step = 0;
  bool playing = false;
  float speed = 1.5f;  // steps per second
  double step_timer = 0;
  float anim = 1.0f;  // 0 -> 1: the move into the current step
  int anim_from = 0;
  // Goes to step `s` of `last` (clamped); a move one step forward animates when `animate`.
  void set_step(int s, int last, bool animate = true);
  // Advances the clock by `dt` seconds (playback stops at `last`, and the move into a step).
  void tick(float dt, int last);

  // What is selected.
  int sel_warp = 0, sel_access = 0;
  int sel_tile_req = 0;  // tile view: which of the warp's shared requests of the step is lit
  int sel_focus = 0;  // index into the trace's focus blocks (banks and warps windows)
  int sel_bank = -1;  // a bank column the bank grid marks (-1: none)

  // The layout (layout.h); `layout_reset`: open its views on the next frame (a layout chosen or reset).
  LayoutKind layout = LayoutKind::study;
  bool layout_reset = false;
  bool fullscreen = false;  // F11: asked for; the window applies it
  bool show_help = false;  // F1: the keys and where things are, over the window
  bool quit = false;  // Ctrl+Q (File > Quit sets the chrome's)
  std::vector<KeyPress> keys;  // this frame's key presses (the window's shortcuts read these)
  bool show_hint = false;  // the first start: a line saying F1 shows the keys (until dismissed)
  std::optional<ViewId> front_view;  // a view an export shows: its tab comes to the front while the export runs
  // A view exported as a slide (a view's PNG or GIF): drawn without its toolbars, under the export's caption
  // (export.h: export_caption) when `slide_caption`.
  std::optional<ViewId> slide_view;
  bool slide_caption = true;

  // Settings (saved between runs of the window).
  bool colorblind = false;
  float ui_scale = 1.0f;
  float chrome_scale = 1.0f;  // the bars' scale the fonts were built for (layout.h: chrome_scale)
  std::string lang = "en";
  bool fonts_dirty = false, lang_dirty = false;
  // What the fonts cannot draw (no Chinese font installed; glyphs beyond the GPU's texture), in English: the status
  // bar shows it while it holds ("" when every glyph is there).
  std::string font_notice;

  // The bank lab: one warp's access defined by the student.
  std::string lab_expr = "lane*32";
  std::uint32_t lab_mask = 0xffffffffu;
  int lab_width = 4;
  bool lab_store = false;

  std::string open_path;  // File > Open / Save: the path typed
  bool show_hw = false;  // the views' "Hardware counts" toggle

  ViewMemory memory;
  // Windows a view asks to open (the banks window's "Bank lab..." button); the window opens them.
  std::vector<ViewId> views_to_open;
  std::optional<ViewId> raise_view;  // the last of them: its tab comes to the front of its pane for a frame
  std::vector<ViewId> drawn;  // the views drawn in the last frame (the front tab of each pane, floating ones)
  // How far each of them (its window or a part it scrolls) runs past what its pane shows, in scaled pixels across and
  // down: 0 and 0 when the whole view is in sight (a lesson on a projector is read without scrolling).
  struct Overflow {
    ViewId id;
    float x = 0, y = 0;
  };
  std::vector<Overflow> overflow;
  // The trees drawn in the last frame with Values on, as screen rectangles of their canvases: what a lesson's walk
  // measures the drawn values' size in (a value on a row too thin for it is drawn small).
  struct ValuesCanvas {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  };
  std::vector<ValuesCanvas> values_canvases;
  // The open question of a lesson's beat, its words to its answer field and buttons (or, answered, to the verdict),
  // was wholly inside the lesson panel in the last frame: never scrolled out of sight.
  bool lesson_question_in_view = true;
  std::string glossary_term;  // the concept the glossary was last opened at ("" : none)
};

}  // namespace redlab::model
