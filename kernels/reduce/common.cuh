// What every reduction kernel shares: the probe, the operators, and how a block's result leaves the kernel.
#pragma once
#include "../ops.cuh"
#include "../probe.cuh"

namespace redlab::kernels {

// Thread 0 writes its block's result: one partial per block (finished by a relaunch or on the host), or
// combined atomically into out[0] (--finish atomic; out[0] starts as the identity). A cluster kernel writes one per
// cluster, at the cluster's index.
template <class Op, class Probe, class T>
REDLAB_DEVICE void write_block_result_at(Probe& probe, T* out, bool atomic_finish, unsigned index, T v) {
  if (atomic_finish) {
    probe.atomic(Op{}, out, v, Buffer::output);
  } else {
    auto partials = probe.global(out, Buffer::output);
    partials[index] = v;
  }
}
template <class Op, class Probe, class T>
REDLAB_DEVICE void write_block_result(Probe& probe, T* out, bool atomic_finish, T v) {
  write_block_result_at<Op>(probe, out, atomic_finish, blockIdx.x, v);
}

}  // namespace redlab::kernels
