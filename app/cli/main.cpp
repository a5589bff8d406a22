// redlab: one executable; the window is its default command.
#include <iostream>

#include "cli/cli.h"
#include "cli/source.h"
#if REDLAB_HAVE_GUI
#include "gui/gui.h"
#endif

int main(int argc, char** argv) {
#if REDLAB_HAVE_GUI
  const int code = redlab::cli::run(argc, argv, &redlab::run_gui, &redlab::window_font_files);
#else
  const int code = redlab::cli::run(argc, argv, nullptr, nullptr);
#endif
  // The second redlab of a kernel file: its results out before the file's own exit code (destructors, atexit
  // handlers) runs, and a fault there named as such.
  if (redlab::cli::kernel_file_loaded()) {
    std::cout.flush();
    redlab::cli::kernel_file_run_finished();
  }
  return code;
}
