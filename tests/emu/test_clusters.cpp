// Thread block clusters on the emulator: a cluster's blocks run together, cluster.sync() is a barrier over all of
// them, and cluster.map_shared_rank reaches another block's shared memory (distributed shared memory); the mistakes
// a student makes with them are reported.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <dirent.h>

#include "emu/cluster.h"
#include "emu_test_util.h"

using namespace emu_test;
namespace cg = cooperative_groups;

namespace redlab::kernels {
extern __shared__ unsigned char dynamic_smem[];
}

namespace {

// The textbook cluster reduction: each block sums its part in shared memory; after cluster.sync, rank 0 adds the
// other blocks' partials, read from their shared memory, and writes one value per cluster. The second cluster.sync
// keeps every block (and its shared memory) alive until rank 0 has read it.
void cluster_sum(const std::vector<int>& in, std::vector<int>& out, unsigned block, unsigned grid, unsigned cluster) {
  launch(
      dim3(grid), dim3(block), 0,
      [&] {
        __shared__ int s[1024];
        cg::cluster_group c = cg::this_cluster();
        const unsigned t = threadIdx.x;
        const unsigned i = blockIdx.x * blockDim.x + t;
        s[t] = i < in.size() ? in[i] : 0;
        __syncthreads();
        for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
          if (t < stride) s[t] += s[t + stride];
          __syncthreads();
        }
        c.sync();
        if (c.block_rank() == 0 && t == 0) {
          int sum = s[0];
          for (unsigned r = 1; r < c.num_blocks(); ++r) sum += *c.map_shared_rank(&s[0], int(r));
          out[blockIdx.x / c.num_blocks()] = sum;
        }
        c.sync();
      },
      dim3(cluster));
}

}  // namespace

TEST(Clusters, ReductionThroughDistributedSharedMemory) {
  for (unsigned workers : {1u, 2u, 0u})
    for (unsigned cluster : {1u, 2u, 4u, 8u, 16u}) {
      redlab::emu::set_workers(workers);
      const unsigned block = 128, grid = 4 * cluster;
      std::vector<int> in(block * grid - 5);
      for (std::size_t i = 0; i < in.size(); ++i) in[i] = int(i % 97) - 40;
      std::vector<int> out(grid / cluster, -1);
      cluster_sum(in, out, block, grid, cluster);
      for (unsigned k = 0; k < out.size(); ++k) {
        int expect = 0;
        for (std::size_t i = std::size_t(k) * cluster * block;
             i < std::min(in.size(), std::size_t(k + 1) * cluster * block); ++i)
          expect += in[i];
        EXPECT_EQ(out[k], expect) << "cluster " << k << " of size " << cluster << ", workers " << workers;
      }
    }
  redlab::emu::set_workers(0);
}

TEST(Clusters, RanksAndShapeOfTwoDimensionalClusters) {
  // A 4 x 4 grid of 2 x 2 clusters: rank x + 2y inside each, block_index the position in the cluster.
  std::vector<unsigned> rank(16), blocks(16), bx(16), by(16), threads(16), thread_rank(16);
  launch(
      dim3(4, 4), dim3(8, 2), 0,
      [&] {
        cg::cluster_group c = cg::this_cluster();
        if (threadIdx.x == 3 && threadIdx.y == 1) {
          const unsigned b = blockIdx.x + 4 * blockIdx.y;
          rank[b] = c.block_rank();
          blocks[b] = c.num_blocks();
          bx[b] = c.block_index().x;
          by[b] = c.block_index().y;
          threads[b] = c.num_threads();
          thread_rank[b] = c.thread_rank();
        }
      },
      dim3(2, 2));
  for (unsigned b = 0; b < 16; ++b) {
    const unsigned x = b % 4, y = b / 4;
    EXPECT_EQ(rank[b], x % 2 + 2 * (y % 2)) << "block " << b;
    EXPECT_EQ(blocks[b], 4u);
    EXPECT_EQ(bx[b], x % 2);
    EXPECT_EQ(by[b], y % 2);
    EXPECT_EQ(threads[b], 64u);
    EXPECT_EQ(thread_rank[b], rank[b] * 16 + 3 + 8);
  }
}

TEST(Clusters, EveryBlockOfAClusterWaitsAtItsBarrier) {
  // Each block counts in after the first barrier only once every block of its cluster counted in before it.
  redlab::emu::set_workers(2);
  const unsigned grid = 32, cluster = 8;
  std::vector<std::atomic<int>> before(grid / cluster), seen(grid);
  launch(
      dim3(grid), dim3(64), 0,
      [&] {
        cg::cluster_group c = cg::this_cluster();
        if (threadIdx.x == 0) before[blockIdx.x / cluster].fetch_add(1);
        c.sync();
        if (threadIdx.x == 63) seen[blockIdx.x] = before[blockIdx.x / cluster].load();
      },
      dim3(cluster));
  redlab::emu::set_workers(0);
  for (unsigned b = 0; b < grid; ++b) EXPECT_EQ(seen[b].load(), int(cluster)) << "block " << b;
}

TEST(Clusters, DynamicSharedMemoryOfAnotherBlock) {
  std::vector<int> got(8, -1);
  launch(
      dim3(8), dim3(32), 32 * sizeof(int),
      [&] {
        int* s = reinterpret_cast<int*>(redlab::kernels::dynamic_smem);
        cg::cluster_group c = cg::this_cluster();
        s[threadIdx.x] = int(100 * blockIdx.x + threadIdx.x);
        c.sync();
        // Each block reads lane 5 of the next block in its cluster (a ring).
        const int next = int((c.block_rank() + 1) % c.num_blocks());
        if (threadIdx.x == 0) got[blockIdx.x] = c.map_shared_rank(s, next)[5];
        c.sync();
      },
      dim3(4));
  for (unsigned b = 0; b < 8; ++b) EXPECT_EQ(got[b], int(100 * (b / 4 * 4 + (b + 1) % 4) + 5)) << "block " << b;
}

TEST(Clusters, AloneABlockIsAClusterOfOne) {
  std::vector<int> out(4, -1);
  launch(dim3(4), dim3(64), 0, [&] {
    __shared__ int s[64];
    cg::cluster_group c = cg::this_cluster();
    s[threadIdx.x] = int(threadIdx.x);
    c.sync();  // a barrier over the block's threads
    if (threadIdx.x == 0) out[blockIdx.x] = int(c.num_blocks() * 1000 + c.block_rank()) + *c.map_shared_rank(&s[63], 0);
  });
  for (int v : out) EXPECT_EQ(v, 1000 + 63);
}

namespace {
std::string launch_error(const std::function<void()>& body, dim3 grid, dim3 cluster, unsigned block = 64) {
  try {
    launch(grid, dim3(block), 0, body, cluster);
  } catch (const LaunchError& e) { return e.what(); }
  return "no error";
}
}  // namespace

TEST(Clusters, ARankOutsideTheClusterIsNamed) {
  const std::string e = launch_error(
      [] {
        __shared__ int s[64];
        cg::cluster_group c = cg::this_cluster();
        s[threadIdx.x] = 1;
        c.sync();
        if (threadIdx.x == 7) (void)c.map_shared_rank(s, int(c.num_blocks()));
        c.sync();
      },
      dim3(8), dim3(4));
  EXPECT_NE(e.find("rank 4 is outside the cluster, whose 4 blocks have ranks 0 to 3"), std::string::npos) << e;
  EXPECT_NE(e.find("thread 7"), std::string::npos) << e;
  expect_healthy();
}

TEST(Clusters, AnotherBlocksMemoryBeforeTheFirstClusterSync) {
  // Rank 0 reads rank 1 before any barrier: rank 1 may not have started.
  const std::string e = launch_error(
      [] {
        __shared__ int s[64];
        cg::cluster_group c = cg::this_cluster();
        s[threadIdx.x] = 1;
        if (c.block_rank() == 0 && threadIdx.x == 0) (void)*c.map_shared_rank(s, 1);
        c.sync();
      },
      dim3(2), dim3(2));
  EXPECT_NE(e.find("block rank 1 of the cluster has not reached a cluster.sync() yet"), std::string::npos) << e;
  expect_healthy();
}

TEST(Clusters, AnotherBlocksMemoryAfterItExited) {
  // Rank 1 leaves after the first barrier without waiting at the second; rank 0 reads it after the second.
  const std::string e = launch_error(
      [] {
        __shared__ int s[64];
        cg::cluster_group c = cg::this_cluster();
        s[threadIdx.x] = 1;
        c.sync();
        if (c.block_rank() == 1) return;
        c.sync();
        if (threadIdx.x == 0) (void)*c.map_shared_rank(s, 1);
      },
      dim3(2), dim3(2));
  EXPECT_NE(e.find("block rank 1 of the cluster has already exited"), std::string::npos) << e;
  expect_healthy();
}

TEST(Clusters, AnAddressThatIsNotSharedMemory) {
  int on_the_host = 0;
  const std::string e = launch_error(
      [&] {
        cg::cluster_group c = cg::this_cluster();
        c.sync();
        if (threadIdx.x == 0) (void)c.map_shared_rank(&on_the_host, 1);
      },
      dim3(2), dim3(2));
  EXPECT_NE(e.find("is not in the block's shared memory"), std::string::npos) << e;
}

TEST(Clusters, BadShapesAreRefused) {
  auto body = [] {};
  EXPECT_NE(launch_error(body, dim3(6), dim3(4)).find("grid (6,1,1) is not a multiple of the cluster (4,1,1)"),
            std::string::npos);
  EXPECT_NE(launch_error(body, dim3(32), dim3(32)).find("has 32 blocks; at most 16"), std::string::npos);
  EXPECT_NE(launch_error(body, dim3(4), dim3(0)).find("has a zero dimension"), std::string::npos);
  EXPECT_EQ(launch_error(body, dim3(32), dim3(16)), "no error");
}

TEST(Clusters, HalfTheBlockAtClusterSyncIsADeadlock) {
  const std::string e = launch_error(
      [] {
        cg::cluster_group c = cg::this_cluster();
        if (threadIdx.x < 32)
          c.sync();
        else
          __syncthreads();
      },
      dim3(2), dim3(2));
  EXPECT_NE(e.find("deadlock in block"), std::string::npos) << e;
  EXPECT_NE(e.find("32 of those wait at cluster.sync (kernel line"), std::string::npos) << e;
  expect_healthy();
}

TEST(Clusters, ExitedThreadsDoNotHoldTheClusterBarrier) {
  // As __syncthreads on the hardware: threads that exited are not waited for, in the block or in the cluster.
  std::vector<int> out(4, -1);
  launch(
      dim3(4), dim3(64), 0,
      [&] {
        __shared__ int s[64];
        cg::cluster_group c = cg::this_cluster();
        if (threadIdx.x >= 32) return;
        s[threadIdx.x] = int(blockIdx.x);
        c.sync();
        if (threadIdx.x == 0) out[blockIdx.x] = *c.map_shared_rank(&s[31], int(c.block_rank() ^ 1u));
        c.sync();
      },
      dim3(2));
  EXPECT_EQ(out, (std::vector<int>{1, 0, 3, 2}));
}

TEST(Clusters, StrictModeNamesABlockThatLeftTheClusterBarrier) {
  redlab::emu::set_barrier_mode(redlab::emu::BarrierMode::strict);
  const std::string e = launch_error(
      [] {
        cg::cluster_group c = cg::this_cluster();
        if (c.block_rank() == 1) return;
        c.sync();
      },
      dim3(2), dim3(2));
  redlab::emu::set_barrier_mode(redlab::emu::BarrierMode::hardware);
  EXPECT_NE(e.find("divergent cluster barrier"), std::string::npos) << e;
  expect_healthy();
}

TEST(Clusters, AnErrorInOneBlockEndsTheOthersWaitingAtTheBarrier) {
  // Rank 1 fails before the barrier: the other blocks, waiting there, end with the launch.
  const std::string e = launch_error(
      [] {
        cg::cluster_group c = cg::this_cluster();
        if (c.block_rank() == 1 && threadIdx.x == 0) throw LaunchError("rank 1 failed");
        c.sync();
      },
      dim3(64), dim3(8));
  EXPECT_EQ(e, "rank 1 failed");
  expect_healthy();
}

// The worker pool keeps a cluster's workers while cluster and plain launches alternate (making and ending them at
// every change cost more than the launches), and lets them go once eight launches in a row want fewer.
namespace {
int process_threads() {
  int n = 0;
  DIR* d = opendir("/proc/self/task");
  if (d == nullptr) return -1;
  while (const dirent* e = readdir(d)) n += e->d_name[0] != '.';
  closedir(d);
  return n;
}
}  // namespace

TEST(Clusters, TheWorkerPoolKeepsAClustersWorkersOnlyWhileTheyAreWanted) {
  redlab::emu::set_workers(2);
  redlab::emu::launch(dim3(4), dim3(32), 0, [] {});
  const int plain = process_threads();
  ASSERT_GT(plain, 0);
  redlab::emu::launch(
      dim3(16), dim3(32), 0, [] {}, dim3(16));
  EXPECT_EQ(process_threads(), plain + 14);  // 16 workers instead of 2
  for (int i = 0; i < 7; ++i) {
    redlab::emu::launch(dim3(4), dim3(32), 0, [] {});
    redlab::emu::launch(
        dim3(16), dim3(32), 0, [] {}, dim3(16));
  }
  EXPECT_EQ(process_threads(), plain + 14);  // alternating: kept
  for (int i = 0; i < 7; ++i) redlab::emu::launch(dim3(4), dim3(32), 0, [] {});
  EXPECT_EQ(process_threads(), plain + 14);
  redlab::emu::launch(dim3(4), dim3(32), 0, [] {});
  EXPECT_EQ(process_threads(), plain);  // the eighth plain launch in a row: back to 2
  redlab::emu::set_workers(0);
}
