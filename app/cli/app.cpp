// The command line: every registered command (app/cli/commands/) declared on one CLI11 parser, the one named run;
// the window is the default command.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli.h"
#include "core/printable.h"
#include "core/scenario.h"
#include "exec/device.h"
#include "cli/source.h"

namespace redlab::cli {

int run(int argc, char** argv, GuiEntry run_gui, WindowFontsEntry window_fonts) {
  CLI::App app{"redlab: a lab that makes GPU reductions visible"};
  app.require_subcommand(0, 1);
  app.footer(
      "Exit codes (every command): 0 done; 1 a wrong result or a failed check; 2 bad input or an environment "
      "problem (an option, a file that cannot be read or written, a kernel that stopped at a fault, no display).");
  bool show_version = false, verbose = false;
  app.add_flag("--version", show_version,
               "print redlab's version and exit; with -v also where its files are and the CUDA toolkit, GPU, NVRTC, "
               "CUPTI and NCCL it finds, and the window's font files");
  app.add_flag("-v,--verbose", verbose, "with --version: what redlab finds on this machine");

  struct Declared {
    std::unique_ptr<Command> command;
    CLI::App* app;
    bool is_default;
  };
  std::vector<Declared> commands;
  for (const RegisteredCommand& r : registered_commands()) {
    std::unique_ptr<Command> c = r.make();
    CLI::App* sub = c->declare(app);
    commands.push_back({std::move(c), sub, r.is_default});
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) { return app.exit(e); } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ValidationError& e) {  // a check's sentence names the option and what it accepts
    print_message(stderr, "redlab: %s\n", e.what());
    return 2;
  } catch (const CLI::ParseError& e) {
    print_message(stderr, "redlab: %s (see redlab --help)\n", e.what());
    return 2;
  }

  try {
    if (show_version) return print_version(verbose, window_fonts);
    if (verbose) {
      print_message(stderr, "redlab: -v goes with --version (redlab --version -v)\n");
      return 2;
    }
    const Invocation invocation{argc, argv, run_gui, app};
    for (const Declared& d : commands)
      if (*d.app) return d.command->run(invocation);
    for (const Declared& d : commands)
      if (d.is_default) return d.command->run(invocation);
    print_message(stderr, "redlab: name a command (redlab --help)\n");
    return 2;
  } catch (const KernelFileError& e) {
    print_message(stderr, "%s\n", e.what());
    return 2;
  } catch (const ScenarioError& e) {
    print_message(stderr, "redlab: %s\n", e.what());
    return 2;
  } catch (const KernelFault& e) {  // the emulator's report on the kernel: a deadlock, a race, a bad index
    print_message(stderr, "redlab: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {  // not a wrong result (exit 1): a kernel file's thread, or redlab, out of memory
    return out_of_memory();
  } catch (const std::exception& e) {  // a file that cannot be written or read, a device that fails: exit 2, never
    print_message(stderr, "redlab: %s\n", e.what());  // 1, which says a result was wrong or a check failed
    return 2;
  }
}

}  // namespace redlab::cli
