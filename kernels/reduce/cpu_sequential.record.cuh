// cpu_sequential's record in the catalog (kernels/kernel_record.h): the sequential host loop (PMPP 10.1)
// every kernel replaces. It runs on the host CPU whatever the backend (app/exec/family_run.cpp), so it has
// no launch and no kernel source.
#pragma once
#include <string>

#include "../register.cuh"

namespace redlab::kernels {

struct cpu_sequential_record : reduction_kernel {
  static constexpr bool traceable = false, host_only = true;
  static KernelRecord record() {
    KernelRecord r{.id = "cpu_sequential",
                   .title = "Sequential host loop",
                   .group = "7 libraries",
                   .sources = "003 PMPP §10.1",
                   .teaches = "the loop everything starts from, timed on the CPU"};
    r.source_file.clear();
    return r;
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(cpu_sequential_record)
