// nccl: its record in the catalog (kernels/kernel_record.h). ncclAllReduce across the GPUs, the engine multi-GPU
// programs reduce with and the reference the catalog's schedules are measured against. Not a kernel of ours: NCCL
// chooses its algorithm (rings, trees) and protocol by size and runs its own kernels, so it is not traced; the
// all-reduce run (app/exec/allreduce_run.cpp) calls it on every GPU at once through exec/nccl.h.
#pragma once
#include <string>

#include "allreduce_kernel.cuh"

namespace redlab::kernels {

struct nccl_record : allreduce_kernel {
  static constexpr bool traceable = false, gpu_only = true;
  static KernelRecord record() {
    KernelRecord r{.id = "nccl",
                   .title = "NCCL's all-reduce",
                   .group = "9 across GPUs",
                   .sources = "NCCL (ncclAllReduce); nccl-tests",
                   .teaches = "the library all-reduce every schedule is measured against: its own rings and trees"};
    r.source_file.clear();   // NCCL's own code
    r.algorithm = 3;
    r.reference = true;
    return r;
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(nccl_record)
