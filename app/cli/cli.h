// The command line as main() calls it.
#pragma once
#include "cli/command.h"

namespace redlab::cli {

// The whole command line (redlab's main): parses argv and runs the command chosen (app.cpp). `run_gui` opens the
// window (the default command); nullptr in a build without one.
int run(int argc, char** argv, GuiEntry run_gui);

// `redlab --version`; with `verbose`, where its files are and what it found of CUDA: the toolkit it was built with,
// the GPU and driver, NVRTC, CUPTI and NCCL (each found, or why not). version.cpp.
int print_version(bool verbose);

}  // namespace redlab::cli
