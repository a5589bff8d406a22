// Which kernels a launcher starts, seen without launching them (exec/cuda_occupancy.cpp reads their attributes).
#pragma once
#include <vector>

namespace redlab {

// While set (on this thread) with cuda_load_only, each kernel a launcher would start is added here (exec/cuda_load,
// cuda_launch.cu) and nothing is loaded or launched.
inline thread_local std::vector<const void*>* cuda_kernels_seen = nullptr;

}  // namespace redlab
