// first_warp_sums: its record in the catalog (kernels/kernel_record.h): what it is, its shape, its launch.
// A test-only kernel: built into redlab_test_cli, never into redlab.
#pragma once
#include <cstdint>
#include <string>

#include "kernels/register.cuh"
#include "first_warp_sums.cuh"

namespace redlab::kernels {

struct first_warp_sums_record : reduction_kernel {
  static KernelRecord record() {
    // Slots per (step, warp): 32 shared loads (lane 0's serial sum, or thread 0's over up to 32 warp sums),
    // one shared store, one global load, one global store.
    KernelRecord r{.id = "first_warp_sums",
                   .title = "Lane 0 sums its warp (test kernel)",
                   .group = "9 tests",
                   .seed = "tests/kernels",   // the field's old name, which a record still takes for `sources`
                   .teaches = "a kernel added from its two files alone",
                   .slots = {.shared_load = 32, .shared_store = 1, .global_load = 1, .global_store = 1}};
    r.source_file = "tests/kernels/first_warp_sums.cuh";
    return r;
  }
  // load, the warps' serial sums, thread 0's sum of them, store.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape&, std::uint32_t) { return with_slots(r, 4); }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = first_warp_sums<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(first_warp_sums_record)
