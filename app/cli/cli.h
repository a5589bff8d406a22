// The command line as main() calls it.
#pragma once
#include "cli/command.h"

namespace redlab::cli {

// The whole command line (redlab's main): parses argv and runs the command chosen (app.cpp). `run_gui` opens the
// window (the default command) and `window_fonts` names its font files; both nullptr in a build without one.
int run(int argc, char** argv, GuiEntry run_gui, WindowFontsEntry window_fonts);

// `redlab --version`; with `verbose`, where its files are and what it found of CUDA: the toolkit it was built with,
// the GPU and driver, NVRTC, CUPTI and NCCL (each found, or why not), and the window's font files. version.cpp.
int print_version(bool verbose, WindowFontsEntry window_fonts);

}  // namespace redlab::cli
