// What every reduction kernel shares: the probe, the operators, and how a block's result leaves the kernel.
#pragma once
#include "../ops.cuh"
#include "../probe.cuh"

namespace redlab::kernels {

// Thread 0 writes its block's result: one partial per block (finished by a relaunch or on the host), or
// combined atomically into out[0] (--finish atomic; out[0] starts as the identity).
template <class Op, class Probe, class T>
REDLAB_DEVICE void write_block_result(Probe& probe, T* out, bool atomic_finish, T v) {
  if (atomic_finish) {
    atomic_combine(Op{}, out, v);
    probe.atomic_result(v);
  } else {
    auto partials = probe.global(out, Buffer::output);
    partials[blockIdx.x] = v;
  }
}

}  // namespace redlab::kernels
