// neighbored_strided: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <string>

#include "../register.cuh"
#include "neighbored_strided.cuh"

namespace redlab::kernels {

struct neighbored_strided_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "neighbored_strided",
                   .title = "Neighbored pairs, strided index",
                   .group = "2 shared-memory tree",
                   .sources = "001 reduce2, Harris 2, samples reduce1",
                   .teaches = "no divergence, but lanes 2*stride words apart collide in the same banks",
                   .slots = kSharedTree};
    return r;
  }
  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = neighbored_strided<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(neighbored_strided_record)
