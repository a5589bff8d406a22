// Which kernels a launcher starts, seen without launching them (exec/cuda_occupancy.cpp reads their attributes).
#pragma once
#include <vector>

#include "kernels/kernel_record.h"

namespace redlab {

// While set (on this thread) with cuda_load_only, each kernel a launcher would start is added here (exec/cuda_load,
// cuda_launch.cu) and nothing is loaded or launched.
inline thread_local std::vector<const void*>* cuda_kernels_seen = nullptr;

// Calls `launcher` with cuda_load_only set: each kernel it would start is loaded into the context (Device::load), or,
// with `seen`, only added there; nothing is launched. Both flags are cleared after, whatever the launcher throws.
void walk_launcher(LaunchFn launcher, const LaunchArgs&, const rec::Layout*, const rec::Buffers*,
                   std::vector<const void*>* seen = nullptr);

}  // namespace redlab
