// Running redlab itself as a child process, for work that must not share the window's process: the hardware
// counts (CUPTI must see the kernel's module load before anything else uses CUDA in that process, and a
// profiler that fails takes only the child down).
#pragma once
#include <atomic>
#include <string>
#include <vector>

namespace redlab {

struct ChildResult {
  int exit_code = -1;       // the child's exit status; -1: it did not start or was killed (see `why`)
  std::string out, err;     // what it printed
  std::string why;          // "" or why there is no exit status (could not start, timed out, cancelled)
};

// Runs `program` with `args` (no shell), collecting its output; kills it after `timeout_s` seconds or once
// `cancel` is set (checked every 50 ms).
ChildResult run_child(const std::string& program, const std::vector<std::string>& args, double timeout_s,
                      const std::atomic<bool>* cancel = nullptr);

// This executable's own path (/proc/self/exe), "" where the system does not say.
std::string self_executable();

}  // namespace redlab
