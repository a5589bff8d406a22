// neighbored_modulo: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <string>

#include "../register.cuh"
#include "neighbored_modulo.cuh"

namespace redlab::kernels {

struct neighbored_modulo_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "neighbored_modulo",
                   .title = "Neighbored pairs, tid % (2*stride)",
                   .group = "2 shared-memory tree",
                   .sources = "000 相邻归约, 001 reduce0, Harris 1, samples reduce0",
                   .teaches = "active threads scattered over every warp: divergence at every level",
                   .slots = kSharedTree};
    return r;
  }
  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = neighbored_modulo<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(neighbored_modulo_record)
