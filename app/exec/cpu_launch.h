#pragma once
#include "exec/device.h"
#include "emu/simt.h"

// The emulator side of a kernel record's launch (kernels/register.cuh): every CUDA thread calls the kernel
// with its own argument copies; the launch runs to completion.
#define REDLAB_LAUNCH(fn, grid, block, smem, ...) ::redlab::emu::launch(grid, block, smem, [&] { fn(__VA_ARGS__); })
// A launch of thread block clusters of `cluster` blocks along x: the emulator runs each cluster's blocks together.
#define REDLAB_LAUNCH_CLUSTER(fn, grid, block, smem, cluster, ...) \
  ::redlab::emu::launch(                                           \
      grid, block, smem, [&] { fn(__VA_ARGS__); }, dim3(cluster))
