// One reduction on a device, every launch planned and every buffer allocated before anything runs: the
// first launch (traced or timed), then the finish (relaunches over partials, the host fold, or nothing for
// atomic and single-pass kernels). The driver runs it once; bench runs it many times between CUDA events.
#pragma once
#include <cstdint>
#include <vector>

#include "../core/catalog.h"
#include "../core/trace.h"
#include "device_memory.h"

namespace redlab {

class ReductionPlan {
 public:
  // Uploads the scenario's `input` (s.n elements; in-place kernels get a copy padded with the identity).
  ReductionPlan(Device&, const KernelInfo&, const Scenario&, const void* input);

  std::uint32_t grid() const { return launches_[0].grid; }
  bool atomic() const { return launches_[0].atomic; }

  // Before each run, outside any timing: in-place kernels get their scratch back, atomic ones out[0] = identity.
  void prepare();
  // The first launch; traced into `buffers` when `layout` is given. `in` replaces the uploaded input
  // (bench rotates copies); in-place kernels always read their scratch.
  void run_first(const rec::Layout* layout = nullptr, const rec::Buffers* buffers = nullptr,
                 const void* in = nullptr);
  // The finish, after run_first.
  void finish();

  std::uint64_t result();                  // after finish(): the element type's bit pattern
  std::uint64_t sequential_adds() const;   // for the float error bound (check_result)
  const std::vector<Pass>& passes() const { return passes_; }

 private:
  struct Copy {
    void* dst;
    const void* src;
    std::size_t bytes;
    std::size_t before_launch;
  };
  Device& dev_;
  const KernelInfo& k_;
  Scenario s_;
  std::size_t es_;
  std::uint64_t id_ = 0;
  bool host_finish_ = false;
  std::uint64_t host_result_ = 0;
  DeviceBuffer input_, pristine_;                   // the input, or the padded original of an in-place scratch
  std::vector<DeviceBuffer> scratch_, buffers_;     // in-place scratches; partials, ticket, pass outputs
  std::vector<LaunchArgs> launches_;                // [0] the first launch, then the relaunches
  std::vector<Copy> copies_;                        // partials into an in-place pass's scratch
  std::vector<Pass> passes_;
  void* result_ = nullptr;
  std::size_t pristine_bytes_ = 0;
};

}  // namespace redlab
