// Executors run a scenario on a device and return its trace. Two exist: the CUDA device and the CPU SIMT
// emulator; both run the same kernel source (kernels/) through the same run pipeline (run.cpp).
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/scenario.h"
#include "core/trace.h"
#include "exec/device.h"

namespace redlab {

struct RunOptions {
  bool trace = true;  // false: the timed (uninstrumented) kernels only
  // Trace memory at once (raw records and their analysis); more blocks -> more chunks. None: the device's
  // (trace_budget_for).
  std::optional<std::size_t> trace_budget;
  RunControl* control = nullptr;  // progress and cancel (the window's runs)
  // Around the first launch of an untraced run, nothing else between them: the hardware counts
  // (exec/hw_collect.h) switch CUPTI's SASS metrics on and read them here.
  std::function<void()> before_first, after_first;
};

// The trace memory a run takes when its options name none: kTraceBudget, and on a GPU with room more, up to
// kGpuTraceBudget (a sixteenth of its free memory).
inline constexpr std::size_t kTraceBudget = std::size_t(128) << 20;
inline constexpr std::size_t kGpuTraceBudget = std::size_t(512) << 20;
std::size_t trace_budget_for(const Device&, const RunOptions&);

// ScenarioError (a scenario that cannot run; CLI exit code 2) lives in core/scenario.h.

class Executor {
 public:
  virtual ~Executor() = default;
  virtual Backend backend() const = 0;
  virtual std::string device() const = 0;  // human-readable device description
  virtual Trace run(const Scenario&, const RunOptions& = {}) = 0;
};

// The CPU emulator; always available.
std::unique_ptr<Executor> make_cpu_executor();
// The CUDA device, or nullptr with `why` set ("no CUDA device: driver version is insufficient ...").
std::unique_ptr<Executor> make_cuda_executor(std::string* why);

// Backend choice: cuda fails loudly when no device; auto falls back to the CPU and sets
// `notice` to "no CUDA device: using the CPU emulator (...)".
std::unique_ptr<Executor> make_executor(BackendChoice, std::string* notice);

}  // namespace redlab
