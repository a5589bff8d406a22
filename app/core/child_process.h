// Running another program as a child process, for work that must not share redlab's process: the compiler of a
// kernel file, the second redlab that runs one (a crash or an endless loop ends that process, not this one), and
// the hardware counts (CUPTI must see the kernel's module load before anything else uses CUDA in that process).
//
// A child never outlives the redlab that started it. Each runs in a process group of its own under a small
// supervisor (a fork of this process that runs no other code): when the child ends, is stopped, or this process
// ends in any way (Ctrl+C, SIGTERM, SIGKILL, a crash), the supervisor kills the whole group, so the compiler's
// own children (cc1plus, as) and anything a kernel forked end with it.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace redlab {

struct ChildResult {
  int exit_code = -1;  // the child's exit status; -1: it did not start, was stopped or ended on a signal
  int signal = 0;  // the signal it ended on (SIGXCPU: its CPU time limit), 0 if none
  bool timed_out = false;  // stopped at `timeout_s`
  bool cancelled = false;  // stopped because `cancel` was set
  bool supervisor_stopped = false;  // its supervisor was stopped (SIGSTOP) and both were ended
  std::string out, err;  // what it printed (the first ChildOptions::max_output bytes of each)
  std::size_t dropped = 0;  // bytes of output past that cap, counted and not kept
  std::string why;  // "" or why there is no exit status (could not start, timed out, cancelled, a signal)
};

struct ChildOptions {
  double timeout_s = 300;  // wall-clock seconds before the group is killed
  const std::atomic<bool>* cancel = nullptr;  // checked every 50 ms: set, the group is killed
  std::uint64_t address_space = 0;  // bytes of address space per process (RLIMIT_AS), 0: no limit
  unsigned cpu_seconds = 0;  // CPU seconds per process (RLIMIT_CPU), 0: no limit
  std::size_t max_output = 0;  // bytes kept of each of stdout and stderr, 0: all
  bool pass_output = false;  // the child writes to this process's stdout and stderr
};

// Runs `program` with `args` (no shell; stdin is /dev/null), collecting its output, as above.
ChildResult run_child(const std::string& program, const std::vector<std::string>& args, const ChildOptions& options);
ChildResult run_child(const std::string& program, const std::vector<std::string>& args, double timeout_s,
                      const std::atomic<bool>* cancel = nullptr);

// This executable's own path (/proc/self/exe), "" where the system does not say.
std::string self_executable();

// The second redlab of a kernel file says this, first on its line, when the file's process fails after the run (a
// destructor, an atexit handler): the trace and results it wrote stand.
inline constexpr const char* kFailedAfterTheRun = "redlab: the kernel file's process stopped";
// That line of a child's stderr, or "".
std::string failed_after_the_run(const std::string& err);

}  // namespace redlab
