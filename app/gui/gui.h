// The window. `redlab` / `redlab gui` land here.
#pragma once
#include <optional>
#include <string>

#include "../core/scenario.h"

namespace redlab {

struct GuiOptions {
  std::optional<Scenario> scenario;   // from the command line; else the default demo
  std::string trace_file;             // open a recorded trace instead of running
  std::string screenshot;             // render `frames` frames, write this PNG, exit
  int width = 1600, height = 900;
  int frames = 3;
  bool frame_report = false;          // print frame-time percentiles at exit
  // Added by the GUI (at the end, so existing initializers keep working):
  int step = -1;                      // screenshot: the step to show (-1: the middle one; env REDLAB_GUI_STEP)
  std::string lang;                   // "en" | "zh_CN"; empty: settings / system locale (env REDLAB_LANG)
  float ui_scale = 0;                 // presentation scale 1, 1.5, 2; 0: remembered setting
  bool colorblind = false;            // Okabe-Ito palette
  bool compare = false;               // open the compare window (scenario B: interleaved, same n/block)
};

int run_gui(const GuiOptions&);

}  // namespace redlab
