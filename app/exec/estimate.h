// Before a run starts: about how long the CPU emulator will take and how much host memory the run will hold,
// so that the window can ask before one that would take long or fill the machine.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include "core/scenario.h"
#include "exec/executor.h"

namespace redlab {

struct RunEstimate {
  double seconds = 0;  // the emulator's time for the traced run (0 on the GPU: a traced run there is short)
  double bytes = 0;  // host memory: the input, the run's buffers and the trace budget on the emulator
  double free_bytes = 0;  // host memory available now
  // Reruns of the first launch (one per chunk of the trace budget; on a GPU, of the largest budget, kGpuTraceBudget).
  std::uint32_t chunks = 1;
  std::uint64_t threads = 0;  // threads of the first launch
  // A run worth asking about: more than 10 s, or more than half the free memory.
  bool ask() const { return seconds > 10.0 || bytes > 0.5 * free_bytes; }
};

// Emulator cost per thread, measured with `redlab stats` on the reference CI machine (2 cores, AMD EPYC;
// interleaved int32, block 256, n = 2^20, 2^22, 2^24: 0.21 to 0.22 s, 0.71 to 0.72 s, 2.79 to 2.86 s, 2026-11-27): a
// traced thread costs about 0.165 us of the 2 cores' time and a run 0.1 s besides. Each chunk runs only its own blocks on the emulator,
// so the chunks add nothing. Scaled by the cores the emulator uses; the window refines it with the speed it
// observes (the window's Work).
// A host-only kernel (cpu_sequential) runs no emulated threads: its input, loop and reference cost about
// 0.056 us per element (2^24: 1.10 s, 2^26: 3.93 s on the same machine).
struct EmulatorRates {
  double traced_us = 0.165, fixed_s = 0.1, host_us_per_element = 0.056;
  unsigned measured_cores = 2;
};

// Throws ScenarioError for a scenario that cannot run (as the run would).
RunEstimate estimate_run(const Scenario&, bool on_cpu, const RunOptions& = {}, const EmulatorRates& = {});

}  // namespace redlab
