#pragma once
#include "device.h"

// The emulator side of launch_table.inc: every CUDA thread calls the kernel with its own argument copies.
#define REDLAB_LAUNCH(fn, grid, block, smem, ...) \
  ::redlab::emu::launch(grid, block, smem, [&] { fn(__VA_ARGS__); })

namespace redlab {
void cpu_launch_int32(const LaunchArgs&, const rec::Layout*, const rec::Buffers*);
void cpu_launch_float32(const LaunchArgs&, const rec::Layout*, const rec::Buffers*);
void cpu_launch_float64(const LaunchArgs&, const rec::Layout*, const rec::Buffers*);
}  // namespace redlab
