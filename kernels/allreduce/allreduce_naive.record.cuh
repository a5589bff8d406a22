// allreduce_naive: its record in the catalog (kernels/kernel_record.h). The schedule is app/core/allreduce.cpp's
// naive; every transfer of it is one launch of kernels/allreduce/peer_range.cuh on the receiving GPU.
#pragma once
#include <string>

#include "allreduce_kernel.cuh"

namespace redlab::kernels {

struct allreduce_naive_record : allreduce_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "allreduce_naive",
                   .title = "Naive: gather to GPU 0, then broadcast",
                   .group = "9 across GPUs",
                   .sources = "nccl-tests; Patarasuk and Yuan 2009",
                   .teaches = "GPU 0 receives (G-1) buffers and sends (G-1): its link is the bottleneck, and the others wait",
                   .source_file = "kernels/allreduce/peer_range.cuh",
                   .slots = {.global_load = 2, .global_store = 1}};
    r.algorithm = 0;
    return r;
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(allreduce_naive_record)
