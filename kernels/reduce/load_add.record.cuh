// load_add: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
#pragma once
#include <cstdint>
#include <string>

#include "../register.cuh"
#include "load_add.cuh"

namespace redlab::kernels {

struct load_add_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "load_add",
                   .title = "First add during load",
                   .group = "4 more work per thread",
                   .sources = "003 PMPP §10.5, Harris 4, samples reduce3",
                   .teaches = "each thread adds two elements as it loads: half the blocks, no idle first level",
                   .slots = {.shared_load = 2, .shared_store = 1, .global_load = 2, .global_store = 1,
                             .global_atomic = 1}};
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.block; }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = load_add<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(load_add_record)
