// Gallery of mistakes: cluster_sync_once (expect: race). A tree over a thread block cluster's blocks (redlab's
// cluster_tree, Hopper's distributed shared memory) with the cluster.sync() of each level moved before the loop.
//
// The mistake. At rank stride s, block r (r < s) reads block r + s's s[0] through distributed shared memory and adds
// it into its own s[0]. That s[0] of block r + s was written at the level before, by block r + s itself. Only
// cluster.sync() orders one block's access with another block's (__syncthreads() orders a block's own threads), so
// one cluster.sync() before all the levels leaves each level's reads unordered with the writes of the level before.
//
// What redlab says (`redlab stats --source cluster_sync_once.cu --n 1024 --block 128 --cluster 4 --backend cpu`, exit code 2):
//   redlab: emulator: race across the cluster on shared s[0] of block 1 (rank 1 in its cluster): thread 0 (warp 0, lane
//   0) of block 1 (rank 1 in its cluster) wrote it at kernel line 85 of cluster_sync_once.cu in step 'rank stride 2'
//   and thread 0 (warp 0, lane 0) of block 0 (rank 0 in its cluster) read it through distributed shared memory at
//   kernel line 85 of cluster_sync_once.cu in step 'rank stride 1', with no cluster.sync() between them: one belongs
//   after the write at line 85 in step 'rank stride 2' and before the read at line 85 in step 'rank stride 1' (s[0]:
//   byte 0 of that block's shared memory, s_mem, probe.shared at kernel line 48 of cluster_sync_once.cu)
//
// Why. The blocks of a cluster run at the same time on neighbouring SMs, and nothing makes block 1 finish its level
// (rank stride 2: it adds block 3's partial into its s[0]) before block 0 reads block 1's s[0] at the next level: block
// 0 may read the partial without block 3's part in it. The emulator runs a cluster's blocks in turns, each until it
// waits at a cluster.sync() or ends (a schedule a GPU may choose too), so on its own it could give a right sum; its
// race detector keeps, per shared element, the accesses other blocks made through distributed shared memory with the
// cluster barrier interval they fell in, beside the block's own, and two of them by different blocks in one interval,
// one a write, end the run. Here the n = 1024 elements make one cluster of four blocks, and the one pair is block 1's
// write of its s[0] at rank stride 2 and block 0's read of it at rank stride 1, whichever of the two blocks ran first.
// This file has not been run on a GPU by the project yet.
//
// The fix. cluster.sync() at the top of the loop body, before each level, as redlab's cluster_tree has it (the last
// cluster.sync() after the loop stays: it keeps every block, and its shared memory, until the reads are done).
//
// Below: what `redlab new-kernel cluster_sync_once.cu --from cluster_tree` writes, with the mistake made in it (marked
// THE MISTAKE). `redlab new-kernel mine.cu --from gallery/cluster_sync_once` copies it to start from.

#include "cluster.cuh"
#include "reduce/common.cuh"
#include <cstdint>
#include <string>
#include "register.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void cluster_sync_once(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  namespace cg = cooperative_groups;
  __shared__ T s_mem[BLOCK];
  // probe.shared: the shared array through the probe, which records each read and write of its elements; the
  // emulator also checks every index and watches for races. An access that bypasses the probe is not seen.
  // probe.global: global memory likewise (Buffer::input, output, scratch, ticket).
  auto s = probe.shared(s_mem);
  auto input = probe.global(in, Buffer::input);
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned blocks = cluster.num_blocks();
  const unsigned rank = cluster.block_rank();
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned j = 2 * BLOCK * blockIdx.x + tid;

  // probe.step: a new step (a row of the per-step table), by every thread of the block in the same order (a
  // kernel without any gets one step per barrier interval).
  // probe.active: this thread does the step's work (without it: every lane that makes an access in the step).
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

  // THE MISTAKE: one cluster.sync() before the levels, where each level needs its own: the partial a block reads at a
  // level was written at the level before, by another block, with no barrier of the cluster between the two
  cluster.sync();
  for (unsigned stride = blocks / 2; stride > 0; stride /= 2) {
    probe.step(Phase::cluster, Label::rank_stride, stride);
    if (rank < stride && tid == 0) {
      // probe.remote_shared: block `rank`'s shared array in this cluster (cluster.map_shared_rank) through the probe,
      // which records each access as distributed shared memory; the emulator checks the rank and the index.
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
  // probe.finish: the kernel's last call, by every thread.
  probe.finish();
}

// The record (kernels/kernel_record.h): the kernel's name and place in the window, the room its trace starts
// with (redlab counts the steps and accesses the kernel makes, and adds room) and its launch.
struct cluster_sync_once_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "cluster_sync_once",
                   .title = "A tree over a cluster's blocks with one cluster.sync() for all its levels",
                   .group = "10 clusters (Hopper)",
                   .sources = "cluster_tree",
                   .teaches = "a missing cluster barrier: a race between blocks through distributed shared memory",
                   .slots = {.shared_load = 2, .shared_store = 1, .global_load = 2, .global_store = 1,
                             .global_atomic = 1, .remote_shared_load = 1}};
    r.clustered = true;
    r.compare_with = "cluster_reduce";
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.block; }
  // load, the block's tree, one level per halving of the cluster, store.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t) {
    return with_slots(r, 1 + tree_levels(s) + cluster_levels(s) + 1);
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = cluster_sync_once<B, T, Op, Probe>;
    REDLAB_LAUNCH_CLUSTER(fn, dim3(a.grid), dim3(a.block), 0, a.cluster, input_of<T>(a), output_of<T>(a),
                          unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(cluster_sync_once_record)
