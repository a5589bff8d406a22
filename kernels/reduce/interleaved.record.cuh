// interleaved: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <string>

#include "../register.cuh"
#include "interleaved.cuh"

namespace redlab::kernels {

struct interleaved_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "interleaved",
                   .title = "Interleaved pairs (sequential addressing)",
                   .group = "2 shared-memory tree",
                   .sources = "000 交错归约, 001 reduce3, 002 reduce_shared, Harris 3, samples reduce2",
                   .teaches = "contiguous active threads and consecutive words: no divergence, no bank conflicts",
                   .slots = kSharedTree};
    r.has_dynamic_smem = true;
    return r;
  }
  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    if (a.dynamic_smem) {  // one instantiation for every block size, shared array sized at launch
      auto fn = interleaved_dynamic<T, Op, Probe>;
      REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), a.block * sizeof(T), input_of<T>(a), output_of<T>(a),
                    unsigned(a.n), a.atomic, probe);
    } else {
      auto fn = interleaved<B, T, Op, Probe>;
      REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic,
                    probe);
    }
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(interleaved_record)
