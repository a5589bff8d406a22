// Occupancy computed: NVIDIA's calculator (cuda_occupancy.h, a header of the CUDA toolkit that runs on the host
// alone) for an SM's limits, a compiled kernel's registers and shared memory, a block size and the dynamic shared
// memory of the launch. On a GPU every input is the runtime's (exec/cuda_device.cu); on the emulator the SM is the
// reference card's and the kernel's own resources are not known.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/occupancy.h"
#include "core/plan.h"
#include "exec/device.h"

namespace redlab {

// The blocks per SM every resource allows and the least of them; none with `why` where the calculator is not in
// this build (no CUDA toolkit headers) or refuses the input. Without `kernel`, registers and static shared memory
// count as none: the figure is an upper bound, and says so.
std::optional<Occupancy> compute_occupancy(const SmLimits&, const std::optional<KernelResources>& kernel,
                                           std::uint32_t block, std::uint64_t dynamic_smem, std::string* why);

// The reference card's SM, the one the reference figures come from (assets/reference/sm_limits.json); none with
// `why` where the file is missing or malformed.
std::optional<SmLimits> reference_sm(std::string* why);

// The occupancy of the plan's first launch on `dev`: on a GPU the card's and the compiled kernel's (and the runtime's
// answer beside the calculator's); on the emulator the reference card's SM, the kernel's registers and static shared
// memory unknown. None with `why` for a launch with no kernel of the catalog's (the host loop, a library's kernel,
// an all-reduce).
// `declared_smem`: on the emulator, the static shared memory of the kernel's arrays as the traced run saw them
// declared (declared_static_smem), counted in place of the compiled kernel's.
std::optional<Occupancy> occupancy_of(const Device& dev, const Plan&, std::string* why,
                                      std::optional<std::uint64_t> declared_smem = std::nullopt);

}  // namespace redlab
