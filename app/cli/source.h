// A kernel file of the student's own on the command line (source.cpp): `--source FILE` compiles it
// (exec/user_kernel.h) and runs the command again in a second redlab with `--load-kernel LIBRARY` (a crash, a
// deadlock or an endless loop ends that process, never this one), on the emulator or, through NVRTC, the GPU;
// `--time-limit S` stops a kernel that runs longer; `--nvrtc-check sm_XY` also compiles every instance an emulator
// run launches for that GPU.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace redlab::cli {

struct SourceArgs {
  std::string file, library, nvrtc_check;
  double time_limit = 60;
  void add_to(CLI::App&, bool with_nvrtc_check = true);
  // Both --source and --load-kernel given: the sentence that refuses it (--load-kernel is what redlab passes to the
  // second redlab itself), or "".
  std::string why_refused() const;
};
// What the command's own options say that a kernel file's run needs.
struct SourceCommand {
  std::string type;  // --type as given ("": the family's default)
  std::string block, block_rows, op;  // as given ("": the scenario's default); the file is compiled for them
  std::string backend;  // --backend as given ("": auto)
  std::string kernel;  // --kernel as given (stats, trace): it must be the file's
  bool bench = false;  // bench: the file's kernel is added to --kernels (after those given)
  std::string kernels;  // bench: --kernels as given ("": none given)
};
int run_source(int argc, char** argv, const SourceArgs&, const SourceCommand&);
// The kernel file's part of a command that takes --source: refuses --source with --load-kernel; runs the file in a
// second redlab (--source); or, being that second redlab (--load-kernel), loads its library. Returns the exit code
// when that ends the command, nothing when the command goes on to run (with the file's kernel registered).
std::optional<int> kernel_file_part(int argc, char** argv, const SourceArgs&, const SourceCommand&);
// In the second redlab: loads the library, one emulator worker, the crash report and the time limit.
int load_source_kernel(const SourceArgs&, const std::string& kernel, const std::string& backend);
// This is the second redlab of a kernel file, its library loaded (load_source_kernel succeeded).
bool kernel_file_loaded();
// The command's work is done (its output written and flushed): a fault from here on (a destructor or exit handler of
// the kernel file) is named as coming after the run, not blamed on the thread that ran last.
void kernel_file_run_finished();
// A std::bad_alloc that reached the command: in the second redlab of a kernel file, the kernel's thread is named
// (as the new-handler does); elsewhere redlab says it ran out of memory. Returns the exit code, 2.
int out_of_memory();

}  // namespace redlab::cli
