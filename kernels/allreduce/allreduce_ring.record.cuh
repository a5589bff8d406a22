// allreduce_ring: its record in the catalog (kernels/kernel_record.h). The schedule is app/core/allreduce.cpp's
// ring; every transfer of it is one launch of kernels/allreduce/peer_range.cuh on the receiving GPU.
#pragma once
#include <string>

#include "allreduce_kernel.cuh"

namespace redlab::kernels {

struct allreduce_ring_record : allreduce_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "allreduce_ring",
                   .title = "Ring: reduce-scatter, then all-gather",
                   .group = "9 across GPUs",
                   .sources = "nccl-tests; Patarasuk and Yuan 2009",
                   .teaches = "each GPU sends 2(G-1)/G of its buffer, the least any all-reduce can, in 2(G-1) steps",
                   .source_file = "kernels/allreduce/peer_range.cuh",
                   .slots = {.global_load = 2, .global_store = 1}};
    r.algorithm = 1;
    return r;
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(allreduce_ring_record)
