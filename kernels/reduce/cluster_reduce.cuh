// Thread block clusters (Hopper, sm_90): the blocks of a cluster finish their partials on chip. Each block reduces
// its 2B elements in shared memory (load_add's load, interleaved's tree); after cluster.sync() the first warp of the
// cluster's block rank 0 reads every block's partial straight from that block's shared memory (distributed shared
// memory, one lane per block), combines them with shuffles and writes one value per cluster: grid / C partials (or
// atomics) leave the chip instead of grid. The second cluster.sync() keeps every block, and its shared memory, until
// rank 0 has read it: a block's shared memory ends with the block.
#pragma once
#include "../cluster.cuh"
#include "common.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void cluster_reduce(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  namespace cg = cooperative_groups;
  __shared__ T s_mem[BLOCK];
  auto s = probe.shared(s_mem);
  auto input = probe.global(in, Buffer::input);
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned blocks = cluster.num_blocks();
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

  cluster.sync();  // every block's partial is in its s[0]
  probe.step(Phase::cluster, Label::cluster_gather);
  T v = Op::identity();
  if (cluster.block_rank() == 0 && tid < blocks) {
    probe.active();
    v = probe.remote_shared(cluster, s_mem, tid)[0];
  }
  cluster.sync();  // rank 0 has read them: the blocks may end

  for (unsigned offset = blocks / 2; offset > 0; offset /= 2) {
    probe.step(Phase::warp, Label::offset, offset);
    if (cluster.block_rank() == 0 && tid < kWarpSize) {
      probe.active();
      v = op(v, __shfl_down_sync(kFullMask, v, offset));
      probe.shuffled(v, offset);
    }
  }

  probe.step(Phase::store);
  if (cluster.block_rank() == 0 && tid == 0) {
    probe.active();
    write_block_result_at<Op>(probe, out, atomic_finish, blockIdx.x / blocks, v);
  }
  probe.finish();
}

}  // namespace redlab::kernels
