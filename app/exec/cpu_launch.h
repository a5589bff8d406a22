#pragma once
#include "device.h"

namespace redlab {
void cpu_launch_int32(const LaunchArgs&, const rec::Layout*, const rec::Buffers*);
void cpu_launch_float32(const LaunchArgs&, const rec::Layout*, const rec::Buffers*);
void cpu_launch_float64(const LaunchArgs&, const rec::Layout*, const rec::Buffers*);
}  // namespace redlab
