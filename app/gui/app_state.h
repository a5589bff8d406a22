// Everything the window shows, in one place: the scenarios, their traces (run in the background), the
// current step and the view settings. Views read it and change it; none of them calls CUDA.
#pragma once
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "../core/family.h"
#include "../core/trace.h"
#include "gui.h"
#include "tree_model.h"

namespace redlab::gui {

struct RunResult {
  std::optional<Trace> trace;
  std::string error, notice, backend, device;
};

// One scenario and what it produced.
struct Slot {
  Scenario scenario;            // as edited in the scenario panel
  std::string n_text = "256", block_text = "256";
  // Transposes: the matrix shape as text (refused with its reason instead of clamped).
  std::string rows_text = "1024", cols_text = "1024", block_rows_text = "8";
  bool type_switched = false;   // int32 was replaced by float32 when a transpose was picked
  std::string error;            // refusal (validate) or the run's exception message
  std::string notice;           // e.g. "no CUDA device: using the CPU emulator (...)"
  std::optional<Trace> trace;
  std::string origin;           // "" live run, else the trace file it came from
  TreeModel tree;
  Summary summary;
  std::future<RunResult> pending;
  bool running = false;
  double run_started = 0;
  unsigned generation = 0;      // counts the traces adopted (views cache what they derive from it)
};

struct AppState {
  GuiOptions opts;
  Slot a, b;                    // b: the compare scenario
  bool compare = false;

  int step = 0;                 // current step of the first launch
  bool playing = false;
  float speed = 1.5f;           // steps per second
  double step_timer = 0;
  float anim = 1.0f;            // 0 -> 1: the move into the current step
  int anim_from = 0;

  int sel_warp = 0, sel_access = 0;
  int sel_tile_req = 0;         // tile view: which of the warp's shared requests of the step is lit
  int sel_focus = 0;            // index into the trace's focus blocks (banks and warps windows)
  bool colorblind = false;
  float ui_scale = 1.0f;
  bool fonts_dirty = false;
  bool lang_dirty = false;
  std::string lang = "en";

  bool show_scenario = true, show_tree = true, show_warps = true, show_banks = true, show_metrics = true,
       show_code = true, show_timings = true, show_compare = true, show_open = false, show_about = false,
       show_bank_lab = false, show_tile = true;
  // Bank lab: one warp's access defined by the student.
  std::string lab_expr = "lane*32";
  std::uint32_t lab_mask = 0xffffffffu;
  int lab_width = 4;
  bool lab_store = false;
  std::string open_path;
  std::string open_error;
  std::string title;            // window title to apply
  bool title_dirty = true;
  bool headless = false;        // screenshot mode: no waiting on user input

  int max_step() const;         // last valid step index of the primary trace (or 0)
  void set_step(int s, bool animate = true);
};

// Validate and start a run in the background (the previous result stays until the new one arrives).
void start_run(AppState&, Slot&);
// Collect a finished run; returns true when a new trace arrived.
bool poll_run(AppState&, Slot&, bool wait = false);
// Open a trace file into slot a; errors go to open_error and the slot's error.
bool open_trace(AppState&, const std::string& path);
// The family of a scenario's kernel (reductions when the kernel is unknown), and whether it takes a matrix
// (transposes: rows, cols, block rows instead of n and block).
const FamilyRecord& family_of(const Scenario&);
bool takes_matrix(const Scenario&);
// Copies the scenario's shape into the slot's text fields.
void sync_text_fields(Slot&);
// A trace arrived: derived data, title.
void adopt_trace(AppState&, Slot&, Trace&&);

std::string window_title(const AppState&);

}  // namespace redlab::gui
