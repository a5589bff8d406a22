// How the window was asked to start: the command line's options and the environment's switches for screenshots,
// tests and profiling. The model and the window read them; nothing else reads the environment.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/scenario.h"
#include "model/playlist.h"

namespace redlab {

// Switches for screenshots, tests and profiling, from REDLAB_GUI_* and friends (docs/gui.md lists them). Read
// once, by read_environment(); nothing else in the window reads the environment.
struct GuiDebugOptions {
  std::string lang;  // REDLAB_LANG
  float scale = 0;  // REDLAB_GUI_SCALE
  bool colorblind = false;  // REDLAB_GUI_COLORBLIND=1
  int step = -2;  // REDLAB_GUI_STEP (-2: not set)
  bool play = false;  // REDLAB_GUI_PLAY=1: play from step 0 on a fixed 30 fps clock
  float anim = -1;  // REDLAB_GUI_ANIM=t: animation phase (-1: not set)
  int focus_block = -1, warp = -1, access = -1, tile_req = -1;  // REDLAB_GUI_FOCUS_BLOCK, _WARP, _ACCESS, _TILE_REQ
  int bank = -1;  // REDLAB_GUI_BANK: the bank column the bank grid marks
  std::string chart;  // REDLAB_GUI_CHART: the per-step chart's figure
  std::string compare_kernel;  // REDLAB_GUI_COMPARE_KERNEL: scenario B's kernel with --compare
  std::string bank_lab;  // REDLAB_GUI_BANK_LAB=expr: open the bank lab on it
  int bank_lab_width = 4;  // REDLAB_GUI_BANK_LAB_WIDTH
  bool bank_lab_store = false;  // REDLAB_GUI_BANK_LAB_STORE=1
  std::uint32_t bank_lab_mask = 0xffffffffu;  // REDLAB_GUI_BANK_LAB_MASK
  bool bank_lab_measure = false;  // REDLAB_GUI_BANK_LAB_MEASURE=1: start its GPU measurement at once
  bool measure = false;  // REDLAB_GUI_MEASURE=1: start the Timings window's measurement at once
  std::string reference_timings;  // REDLAB_REFERENCE_TIMINGS: another reference file for reductions
  std::string reference_blocks;  // REDLAB_REFERENCE_BLOCKS: a block-size sweep file instead of the shipped ones
  bool measure_sweep = false;  // REDLAB_GUI_MEASURE_SWEEP=1: start the Timings window's block-size sweep at once
  bool hw = false;  // REDLAB_GUI_HW=1: the views' "Hardware counts" on at start
  std::string self_exe;  // REDLAB_SELF_EXE: the redlab that collects them (tests: not this process)
  std::string hw_from;  // REDLAB_GUI_HW_FROM=file: counts recorded on a GPU (stats --hw --json)
  std::string hide;  // REDLAB_GUI_HIDE=tree,code,...: windows closed at start
  bool text_check = false;  // REDLAB_GUI_TEXT_CHECK=1: the last frame's text checked for overlaps (exit 3)
  std::string lesson_walk;  // REDLAB_GUI_LESSON_WALK=file: every beat of --lesson's text into file (lesson_walk.h)
  bool help = false, hint = false;  // REDLAB_GUI_HELP=1: the F1 window open; REDLAB_GUI_HINT=1: the first-start hint
  bool tree_values = false;  // REDLAB_GUI_TREE_VALUES=1: the tree's Values zoom on
  std::string gallery;  // REDLAB_GUI_GALLERY=list: the gallery window open; =<entry id>: that entry opened
  int compositor = -1;  // REDLAB_GUI_COMPOSITOR=0|1 (-1: by the renderer)
  bool linear_font = false;  // REDLAB_GUI_LINEAR_FONT=1
  bool profile = false, profile_frames = false, profile_lists = false;  // REDLAB_GUI_PROFILE(_FRAMES, _LISTS)
};
GuiDebugOptions read_environment();

struct GuiOptions {
  std::optional<Scenario> scenario;  // from the command line; else the default demo
  std::string trace_file;  // open a recorded trace instead of running
  std::string source_file;  // run a kernel file of the student's own (--source) as A, watched
  std::string source_file_b;  // the same as B (--source-b), compare on; A a catalog kernel or --source
  std::string screenshot;  // render `frames` frames, write this PNG, exit
  int width = 1600, height = 900;
  bool size_given = false;  // --size: else an interactive window opens no larger than the screen
  model::Playlist playlist;  // --playlist, read and checked by the command line (empty: none)
  std::string lesson;  // --lesson: a shipped lesson's name or a lesson file, checked by the command line
  int lesson_beat = -1;  // --beat N: its beat N - 1 (-1: where this user left it)
  bool lesson_fresh = false;  // --fresh: without the answers kept, keeping none
  model::ScenarioWordsParser scenario_words;  // a playlist line's words into a scenario (File > Playlist)
  int frames = 3;
  bool frame_report = false;  // print frame-time percentiles at exit
  int step = -1;  // screenshot: the step to show (-1: the middle one)
  std::string lang;  // "en" | "zh_CN"; empty: settings / system locale
  float ui_scale = 0;  // presentation scale 1, 1.5, 2; 0: remembered setting
  bool colorblind = false;  // Okabe-Ito palette
  bool compare = false;  // open the compare window (scenario B: interleaved, same n/block)
  std::string layout;  // "study" | "present" | "compare"; empty: the remembered one (study)
  // --export FILE: render headless, write FILE (.png, .csv, .gif by its extension) and exit.
  std::string export_path;
  std::string export_view;  // --export-view: one view's id ("" : the whole window; a GIF the centre view)
  bool export_transparent = false;  // --transparent: a PNG's background transparent
  float export_speed = 1.5f;  // --speed: a GIF's steps per second
  int export_width = 0;  // --export-width: a PNG or GIF scaled to this width (0: as drawn)
  float export_hold = 1.5f;  // --hold: a GIF's seconds on each finished step
  bool export_caption = true;  // --no-caption: a view's export without its caption
  bool export_force = false;  // --force: replace a file that is not one of redlab's exports
  GuiDebugOptions debug = read_environment();
};

// The keys the window's shortcuts answer to, by name (the platform maps its key codes to them: gui/shell/platform.cpp);
// every other key is `other`. Enter is either Enter key, the main one or the keypad's.
enum class Key : std::uint8_t {
  other,
  space,
  e,
  q,
  s,
  escape,
  enter,
  right,
  left,
  page_up,
  page_down,
  home,
  end,
  f1,
  f5,
  f11
};

// A key pressed in the window, with Ctrl held or not, or held down and repeating.
struct KeyPress {
  Key key = Key::other;
  bool ctrl = false;
  bool repeat = false;
};

}  // namespace redlab
