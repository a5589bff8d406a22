// One transfer of an all-reduce, as the receiving GPU runs it: the range comes from the sending GPU's buffer over
// the link (peer access: `theirs` is the other GPU's memory) and is combined into this GPU's own, or copied over
// it. Every algorithm (app/core/allreduce.h: naive, ring, tree) is a schedule of these two; which GPU pulls which
// range from which, step by step, is the algorithm. `phase` is the schedule's step (reduce-scatter, all-gather,
// reduce, broadcast), recorded as the launch's one step.
//
// Grid-stride, one element per thread per stride: neighbouring lanes read neighbouring words of the peer's buffer,
// so a warp's request is whole 32-byte sectors, the link's transactions as full as the kernel can make them.
#pragma once
#include "../ops.cuh"
#include "../probe.cuh"

namespace redlab::kernels {

template <class T, class Op, class Probe>
__global__ void combine_from_peer(T* mine, const T* theirs, unsigned count, Phase phase, Probe probe) {
  auto own = probe.global(mine, Buffer::output);
  auto peer = probe.global(theirs, Buffer::input);
  const Op op;
  probe.step(phase);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    probe.active();
    own[i] = op(own[i], peer[i]);
  }
  probe.finish();
}

template <class T, class Probe>
__global__ void copy_from_peer(T* mine, const T* theirs, unsigned count, Phase phase, Probe probe) {
  auto own = probe.global(mine, Buffer::output);
  auto peer = probe.global(theirs, Buffer::input);
  probe.step(phase);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    probe.active();
    own[i] = peer[i];
  }
  probe.finish();
}

}  // namespace redlab::kernels
