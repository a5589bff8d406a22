#pragma once
#include "exec/device.h"
#include "emu/simt.h"

// The emulator side of a kernel record's launch (kernels/register.cuh): every CUDA thread calls the kernel
// with its own argument copies; the launch runs to completion.
#define REDLAB_LAUNCH(fn, grid, block, smem, ...) ::redlab::emu::launch(grid, block, smem, [&] { fn(__VA_ARGS__); })
