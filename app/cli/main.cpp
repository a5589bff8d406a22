// redlab: one executable; the window is its default command.
#include "commands.h"

int main(int argc, char** argv) {
#if REDLAB_HAVE_GUI
  return redlab::cli::run(argc, argv, &redlab::run_gui);
#else
  return redlab::cli::run(argc, argv, nullptr);
#endif
}
