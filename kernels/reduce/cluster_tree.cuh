// Thread block clusters (Hopper, sm_90), the partials combined as a tree over the cluster's blocks: each block
// reduces its 2B elements in shared memory as cluster_reduce does; then, with ranks `stride` apart, block r (r <
// stride) adds block r + stride's partial, read from that block's shared memory (distributed shared memory), into
// its own: stride C/2, C/4, ..., 1, as interleaved's tree over threads, one cluster.sync() before each level so that
// the partial it reads is final. Rank 0 ends with the cluster's value and writes it: one value per cluster.
#pragma once
#include "../cluster.cuh"
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void cluster_tree(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  namespace cg = cooperative_groups;
  __shared__ T s_mem[BLOCK];
  auto s = probe.shared(s_mem);
  auto input = probe.global(in, Buffer::input);
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned blocks = cluster.num_blocks();
  const unsigned rank = cluster.block_rank();
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned j = 2 * BLOCK * blockIdx.x + tid;

  probe.step(Phase::load);
  probe.active();
  const T a = j < n ? input[j] : Op::identity();
  const T b = j + BLOCK < n ? input[j + BLOCK] : Op::identity();
  s[tid] = op(a, b);
  __syncthreads();

  for (unsigned stride = BLOCK / 2; stride > 0; stride /= 2) {
    probe.step(Phase::tree, Label::stride, stride);
    if (tid < stride) {
      probe.active();
      s[tid] = op(s[tid], s[tid + stride]);
    }
    __syncthreads();
  }

  for (unsigned stride = blocks / 2; stride > 0; stride /= 2) {
    cluster.sync();  // the partials of this level are final
    probe.step(Phase::cluster, Label::rank_stride, stride);
    if (rank < stride && tid == 0) {
      probe.active();
      s[0] = op(s[0], probe.remote_shared(cluster, s_mem, rank + stride)[0]);
    }
  }
  cluster.sync();  // the last level's reads are done: the blocks may end

  probe.step(Phase::store);
  if (rank == 0 && tid == 0) {
    probe.active();
    write_block_result_at<Op>(probe, out, atomic_finish, blockIdx.x / blocks, T(s[0]));
  }
  probe.finish();
}

}  // namespace redlab::kernels
