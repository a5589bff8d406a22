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
};

int run_gui(const GuiOptions&);

}  // namespace redlab
