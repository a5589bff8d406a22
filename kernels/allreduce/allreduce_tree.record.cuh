// allreduce_tree: its record in the catalog (kernels/kernel_record.h). The schedule is app/core/allreduce.cpp's
// tree; every transfer of it is one launch of kernels/allreduce/peer_range.cuh on the receiving GPU.
#pragma once
#include <string>

#include "allreduce_kernel.cuh"

namespace redlab::kernels {

struct allreduce_tree_record : allreduce_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "allreduce_tree",
                   .title = "Binary tree: reduce up, broadcast down",
                   .group = "9 across GPUs",
                   .sources = "nccl-tests; Patarasuk and Yuan 2009",
                   .teaches = "2 log2(G) steps, the whole buffer on every link it uses: fewer steps than the ring, more bytes",
                   .source_file = "kernels/allreduce/peer_range.cuh",
                   .slots = {.global_load = 2, .global_store = 1}};
    r.algorithm = 2;
    return r;
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(allreduce_tree_record)
