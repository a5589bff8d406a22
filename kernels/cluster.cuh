// Thread block clusters (Hopper, sm_90): cooperative_groups::this_cluster() and its cluster_group, from CUDA's
// cooperative groups under nvcc and from the emulator's (app/emu/cluster.h) under a host compiler.
#pragma once
#include "cuda_compat.cuh"

#if REDLAB_ON_GPU
#include <cooperative_groups.h>
#else
#include "emu/cluster.h"
#endif
