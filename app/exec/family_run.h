// The executors' side of a family: one run of a plan on a device, every buffer allocated and the input
// uploaded before anything runs. The run pipeline (run.cpp) runs it once, traced or not; bench runs it many
// times between CUDA events. What differs between families (the buffers, the launches that finish a run,
// what the result is checked against) lives in their PlanRun; the pipeline is written once.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/plan.h"
#include "core/reference.h"
#include "exec/device.h"

namespace redlab {

class PlanRun {
 public:
  virtual ~PlanRun() = default;
  // Before each run, outside any timing: in-place kernels get their scratch back, atomic ones out[0] set to
  // the identity.
  virtual void prepare() {}
  // The first launch, traced into `buffers` when `layout` is given. A timed run reads the next of its input
  // copies (bench: none finds its data in L2 from the run before); a traced run always the first.
  virtual void run_first(const rec::Layout* layout = nullptr, const rec::Buffers* buffers = nullptr) = 0;
  // What finishes the run after the first launch: relaunches over the partials, the host's fold. `traced_build`:
  // the relaunches run the traced build recording nothing (an empty layout), as a traced run on a GPU does, so that
  // it needs one build: a kernel file's other one is not compiled first (NVRTC, 2.5 to 3 s on an H100 host).
  virtual void finish(bool traced_build = false) { (void)traced_build; }
  // After finish(): the result against the CPU's.
  virtual Check check() = 0;
  // Where the run ran, for the trace's device line.
  virtual std::string device_name(const Device& d) const { return d.name(); }
};

// A family's runs. `input` is the scenario's input on the host; it must outlive the run.
struct FamilyRunner {
  // Bytes one copy of a run's data occupies on the device (the input, and the output a transpose writes):
  // what bench rotates.
  std::size_t (*bytes_per_copy)(const Plan&);
  // Device memory a run with `copies` copies needs, trace memory aside.
  double (*device_bytes)(const Plan&, std::size_t copies);
  std::unique_ptr<PlanRun> (*make)(Device&, const Plan&, const void* input, std::size_t copies);
};
const FamilyRunner& family_runner(const Plan&);

// The arguments of a plan's first launch, its buffers aside (the PlanRun adds them): what Device::load needs.
// None for a plan whose first launch is not a kernel of the catalog's (the host loop, an all-reduce).
std::optional<LaunchArgs> first_launch_args(const Plan&);

// Refuses a plan whose run needs more device memory than `dev` has free (ScenarioError naming the family's
// size option); `purpose` follows the device's name (" to time").
void check_fits(Device& dev, const Plan&, double need_bytes, const char* purpose);

// The sequential host loop (the cpu_sequential record), in the element type.
std::uint64_t host_fold(const Scenario&, const void* input);

}  // namespace redlab
