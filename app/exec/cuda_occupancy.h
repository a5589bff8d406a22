// Occupancy on the GPU in use (cuda_occupancy.cpp): the card's limits (cudaGetDeviceProperties), the timed build's
// registers and shared memory (cudaFuncGetAttributes) and the runtime's own answer
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor) beside the calculator's. CUDA builds only (runtime calls alone: a
// C++ file, not a CUDA one).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/occupancy.h"
#include "kernels/kernel_record.h"

namespace redlab {

// For the first kernel the record's launch `a` starts (its launcher walked without launching); none with `why`
// for a kernel that does not launch through the catalog's launch (a library's, a kernel file's).
std::optional<Occupancy> cuda_occupancy(const KernelRecord&, ElemType, const LaunchArgs& a, std::uint64_t dynamic_smem,
                                        std::string* why);

}  // namespace redlab
