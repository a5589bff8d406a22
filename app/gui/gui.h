// The window. `redlab` / `redlab gui` land here.
#pragma once
#include <string>
#include <vector>

#include "model/options.h"

namespace redlab {

int run_gui(const GuiOptions&);

// The font files the window draws with, one line each, as `redlab --version -v` prints them
// (gui/shell/font_files.cpp: font_files_in_use).
std::vector<std::string> window_font_files();

}  // namespace redlab
