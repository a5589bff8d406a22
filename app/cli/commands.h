#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "core/scenario.h"
#include "gui/gui.h"

namespace redlab::cli {

// The whole command line (redlab's main): parses argv and runs the subcommand. `run_gui` opens the window
// (the default command); nullptr in a build without one.
using GuiEntry = int (*)(const GuiOptions&);
int run(int argc, char** argv, GuiEntry run_gui);

// A kernel file of the student's own: `--source FILE` compiles it (exec/user_kernel.h) and runs the
// command again in a second redlab with `--load-kernel LIBRARY` (a crash, a deadlock or an endless loop ends
// that process, never this one), on the emulator or, through NVRTC, the GPU; `--time-limit S` stops a kernel that
// runs longer; `--nvrtc-check sm_XY` also compiles every instance an emulator run launches for that GPU.
struct SourceArgs {
  std::string file, library, nvrtc_check;
  double time_limit = 60;
  void add_to(CLI::App&, bool with_nvrtc_check = true);
};
// What the command's own options say that a kernel file's run needs.
struct SourceCommand {
  std::string type;      // --type as given ("": the family's default)
  std::string block, block_rows, op;   // as given ("": the scenario's default); the file is compiled for them
  std::string backend;   // --backend as given ("": auto)
  std::string kernel;    // --kernel as given (stats, trace): it must be the file's
  bool bench = false;    // bench: the file's kernel is added to --kernels (after those given)
  std::string kernels;   // bench: --kernels as given ("": none given)
};
int run_source(int argc, char** argv, const SourceArgs&, const SourceCommand&);
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

// Exit codes: 0 ok, 1 a failed check (selftest, wrong result), 2 bad input.
// redlab's version; with `verbose`, where its files are and what it found of CUDA: the toolkit it was built with,
// the GPU and driver, NVRTC, CUPTI and NCCL (each found, or why not).
int cmd_version(bool verbose);
int cmd_list(bool json, const std::string& find = "", bool ids = false);
int cmd_list_gallery(bool json);
// `hw`: the GPU's own counts beside the model's (core/hw_counts.h); collected before anything else touches CUDA.
// `hw_from`: a recorded collection instead (the JSON `stats --hw --json` writes, or its hw.collection).
int cmd_stats(const Scenario&, bool json, bool hw = false, const std::string& hw_from = "");
int cmd_hw_metrics();
// The hardware's collection of the scenario as JSON (kernel, n, block, type, hw.collection), nothing else run.
int cmd_hw_only(const Scenario&);
int cmd_trace(const Scenario&, const std::string& out);
int cmd_bank(const std::string& width, const std::string& access, const std::string& addrs, bool json,
             bool measure = false);
// Every row of a measured CSV (pattern,access,width_bytes,lane_byte_addresses,ncu_wavefronts) against the
// model; with `measure`, each access timed on this GPU too. Exit 1 on any model mismatch.
int cmd_bank_reference(const std::string& csv, bool measure);
// `kernels`: ids separated by commas, "" for the whole catalog (and the window's GPU paths).
int cmd_selftest(const std::string& backend, bool quick, const std::string& kernels = "");
// The lessons (model/lesson.h): the shipped ones; one lesson's beats with each question's computed answer (exit 1
// when one cannot be computed); a lesson file checked whole, its scenarios run (exit 1 naming each problem's line).
int cmd_lesson_list(bool json);
int cmd_lesson_show(const std::string& name, bool json);
// Every beat's runs, within `time_limit` seconds for the whole lesson (stopped with a sentence naming the beat).
int cmd_lesson_check(const std::string& file, double time_limit = 600);
// `redlab lesson reset [L]`: forgets what lesson L (every lesson) kept: exit 0, 2 for a lesson redlab does not have or a
// progress file it cannot write.
int cmd_lesson_reset(const std::string& name);
// A student's kernel file against an exercise's checks: exit 0 when every one holds, 1 naming each that fails (its
// step and line), 2 when the file gives no trace (it does not compile, say).
int cmd_lesson_exercise(const std::string& lesson, const std::string& exercise, const std::string& file, double time_limit);
// `redlab new-kernel FILE --from ID`: the catalog kernel ID as a file of the student's own (core/kernel_file.h);
// `dynamic_smem` keeps its variant sized at launch.
int cmd_new_kernel(const std::string& file, const std::string& from, const std::string& lang, bool dynamic_smem,
                   bool force);

struct BenchArgs {
  std::string kernels = "neighbored_modulo,neighbored_strided,interleaved,load_add,unroll_last_warp,"
                        "unroll_complete,multi_element,grid_stride_warp,vectorized,cub_device";
  std::string sizes = "2^22,2^28";
  std::string type = "int32", op = "sum", block = "256", finish = "relaunch", output;
  int reps = 30, warmup = 3;
  bool json = false, shmoo = false;
  std::string rows, cols, block_rows = "8";   // transposes
  unsigned gpus = 0;                            // > 0: all-reduce across this many GPUs (NCCL and the link)
};
int cmd_bench(const BenchArgs&);

}  // namespace redlab::cli
