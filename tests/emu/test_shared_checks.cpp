// The traced build's shared-memory checks on the emulator (app/emu/shared_check.h): races between warps and indices
// past an array's end, through the probe's views (kernels/probe.cuh) as a traced kernel makes them. The probe here
// records nothing (no trace layout); its checks run all the same.
// Laid out by hand: an access and `g_access_line = __LINE__` share a line, which the reports name.
// clang-format off
#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "emu/cluster.h"
#include "emu/shared_check.h"
#include "emu_test_util.h"
#include "kernels/probe.cuh"

using namespace emu_test;
using redlab::kernels::TraceProbe;
using redlab::rec::Label;
using redlab::rec::Phase;
namespace cg = cooperative_groups;

namespace {

// Where the last launch_error's report placed the fault (the block, the step, the accesses with their lines).
redlab::emu::FaultSite g_site;

template <class F>
std::string launch_error(dim3 grid, dim3 block, F&& body, std::size_t dynamic_smem = 0, dim3 cluster = dim3(1)) {
  g_site = {};
  try {
    launch(grid, block, dynamic_smem, body, cluster);
  } catch (const LaunchError& e) {
    g_site = e.site;
    return e.what();
  }
  ADD_FAILURE() << "expected LaunchError";
  return {};
}

// The line of the probe.shared call a kernel made, and of an access (the reports name them).
std::atomic<unsigned> g_line{0}, g_access_line{0};

// Interleaved pairs over 256 threads (redlab's `interleaved`), with or without the barrier between levels.
void tree_sum(bool barrier, std::vector<int>& out) {
  __shared__ int s_mem[256];
  const unsigned tid = threadIdx.x;
  TraceProbe probe{};
  auto s = probe.shared(s_mem); g_line = __LINE__;
  probe.step(Phase::load);
  s[tid] = int(tid);
  __syncthreads();
  for (unsigned offset = 128; offset > 0; offset /= 2) {
    probe.step(Phase::tree, Label::offset, int(offset));
    if (tid < offset) s[tid] = s[tid] + s[tid + offset]; g_access_line = __LINE__;
    if (barrier) __syncthreads();
  }
  probe.step(Phase::store);
  if (tid == 0) out[blockIdx.x] = s[0];
  probe.finish();
}

std::string line_of_test_file() {
  return "kernel line " + std::to_string(g_line.load()) + " of test_shared_checks.cpp";
}
std::string at_test_line(unsigned line) { return "at kernel line " + std::to_string(line) + " of test_shared_checks.cpp"; }

}  // namespace

TEST(SharedRace, NoneWithABarrierBetweenLevels) {
  std::vector<int> out(8, 0);
  launch(8, 256, 0, [&] { tree_sum(true, out); });
  for (int v : out) EXPECT_EQ(v, 255 * 256 / 2);
}

TEST(SharedRace, MissingBarrierNamesBothThreadsTheElementAndTheSteps) {
  std::vector<int> out(1, 0);
  const std::string m = launch_error(1, 256, [&] { tree_sum(false, out); });
  // The emulator's schedule is fixed: after the load's barrier thread 0 runs all its levels first (reading s[32] at
  // offset 32), and thread 32, the first of another warp to write, writes s[32] at offset 128.
  // Each access at its line (the statement of the loop, not the probe.shared call), and the barrier's place in the
  // kernel's order: after the write of step 'offset 128', before the read of step 'offset 32', though the schedule
  // ran the read first.
  const std::string at = at_test_line(g_access_line), line = std::to_string(g_access_line.load());
  EXPECT_EQ(m, "race in block 0 on shared s[32]: thread 32 (warp 1, lane 0) wrote it " + at + " in step 'offset 128' "
                   "and thread 0 (warp 0, lane 0) read it " + at + " in step 'offset 32', with no __syncthreads between "
                   "them: one belongs after the write at line " + line + " in step 'offset 128' and before the read at "
                   "line " + line + " in step 'offset 32' (s[32]: byte 128 of s_mem, probe.shared at " +
                   line_of_test_file() + ")");
  // The same, for a trace kept up to the fault: steps load, offset 128, 64, 32.
  EXPECT_EQ(g_site.kind, redlab::emu::FaultSite::Kind::race);
  EXPECT_EQ(g_site.block, 0u);
  EXPECT_EQ(g_site.step, 3);
  ASSERT_EQ(g_site.access_count, 2u);
  EXPECT_EQ(g_site.accesses[0].thread, 32u);
  EXPECT_EQ(g_site.accesses[0].step, 1);
  EXPECT_TRUE(g_site.accesses[0].write);
  EXPECT_EQ(g_site.accesses[0].line, g_access_line.load());
  EXPECT_EQ(g_site.accesses[1].thread, 0u);
  EXPECT_EQ(g_site.accesses[1].step, 3);
  EXPECT_FALSE(g_site.accesses[1].write);
  EXPECT_EQ(g_site.accesses[1].line, g_access_line.load());
  expect_healthy();
}

// Every block races: the report is block 0's, the first block handed out, at every launch and whatever the number of
// workers (the first block to get there is not always block 0: blocks run side by side).
TEST(SharedRace, TheFirstBlockThatRacesIsTheOneReported) {
  std::vector<int> out(1, 0);
  const std::string alone = launch_error(1, 256, [&] { tree_sum(false, out); });
  out.assign(16, 0);
  for (unsigned workers : {0u, 2u, 3u, 8u})
    for (int repeat = 0; repeat < 8; ++repeat) {
      redlab::emu::set_workers(workers);
      SCOPED_TRACE("workers " + std::to_string(workers) + ", launch " + std::to_string(repeat));
      EXPECT_EQ(launch_error(16, 256, [&] { tree_sum(false, out); }), alone);
      EXPECT_EQ(g_site.block, 0u);
    }
  redlab::emu::set_workers(0);
  expect_healthy();
}

TEST(SharedRace, LanesOfOneWarpAreOrdered) {
  // One warp passes values through shared memory with no barrier: every access is of warp 0.
  std::vector<int> out(32, 0);
  launch(1, 32, 0, [&] {
    __shared__ int s_mem[32];
    TraceProbe probe{};
    auto s = probe.shared(s_mem);
    probe.step(Phase::load);
    s[threadIdx.x] = int(threadIdx.x);
    out[threadIdx.x] = s[(threadIdx.x + 1) % 32];
    s[(threadIdx.x + 1) % 32] = 0;
  });
  EXPECT_EQ(out[31], 0);   // lane 31 read lane 0's element after lane 0's own write of it
}

TEST(SharedRace, TwoWarpsWritingOneElement) {
  const std::string m = launch_error(1, 64, [&] {
    __shared__ int s_mem[64];
    TraceProbe probe{};
    auto s = probe.shared(s_mem);
    probe.step(Phase::load);
    if (threadIdx.x % 32 == 0) s[5] = int(threadIdx.x); g_access_line = __LINE__;
  });
  const std::string at = at_test_line(g_access_line);
  EXPECT_NE(m.find("race in block 0 on shared s[5]: "), std::string::npos) << m;
  EXPECT_NE(m.find("(s[5]: byte 20 of s_mem"), std::string::npos) << m;
  EXPECT_NE(m.find("thread 0 (warp 0, lane 0) wrote it " + at + " in step 'load' and thread 32 (warp 1, lane 0) wrote "
                   "it " + at + " in step 'load'"), std::string::npos) << m;
  // One statement of one step: no barrier can come between the two, and the report says so.
  EXPECT_NE(m.find("both are at line " + std::to_string(g_access_line.load()) + " in step 'load', where no barrier can "
                   "come between them"), std::string::npos) << m;
}

TEST(SharedRace, AWriteAfterAnotherWarpsReadNamesTheWriterFirst) {
  const std::string m = launch_error(1, 64, [&] {
    __shared__ int s_mem[64];
    TraceProbe probe{};
    auto s = probe.shared(s_mem);
    probe.step(Phase::load);
    if (threadIdx.x == 0) (void)int(s[40]); g_line = __LINE__;
    if (threadIdx.x == 40) s[40] = 1; g_access_line = __LINE__;
  });
  EXPECT_NE(m.find("thread 40 (warp 1, lane 8) wrote it " + at_test_line(g_access_line) + " in step 'load' and thread 0 "
                   "(warp 0, lane 0) read it " + at_test_line(g_line) + " in step 'load'"), std::string::npos) << m;
  // In the kernel's order the read (the line before) comes first: the barrier goes between the lines.
  EXPECT_NE(m.find("one belongs after the read at line " + std::to_string(g_line.load()) + " in step 'load' and before "
                   "the write at line " + std::to_string(g_access_line.load()) + " in step 'load'"), std::string::npos) << m;
}

TEST(SharedRace, AWriterMeetsTheReaderOfTheOtherWarp) {
  // Read first by thread 0 (warp 0), then by thread 32 (warp 1), then written by thread 1 (warp 0): the conflict is
  // with warp 1's read. Warp 0's lanes meet at __syncwarp, so warp 1 runs between thread 0's read and thread 1's write.
  const std::string m = launch_error(1, 64, [&] {
    __shared__ int s_mem[64];
    TraceProbe probe{};
    auto s = probe.shared(s_mem);
    probe.step(Phase::load);
    const unsigned tid = threadIdx.x;
    if (tid == 0) (void)int(s[40]);
    if (tid < 32) __syncwarp();
    if (tid == 32) (void)int(s[40]);
    if (tid == 1) s[40] = 1;
  });
  EXPECT_NE(m.find("thread 1 (warp 0, lane 1) wrote it at kernel line "), std::string::npos) << m;
  EXPECT_NE(m.find(" in step 'load' and thread 32 (warp 1, lane 0) read it at kernel line "), std::string::npos) << m;
}

TEST(SharedRace, BarriersAndBlocksSeparateAccesses) {
  // One worker runs both blocks in turn, on the same shared array: block 0's write in its last interval is no
  // business of block 1's first, and a barrier orders warp 1's write before warp 0's read.
  redlab::emu::set_workers(1);
  std::vector<int> out(3, -1);
  launch(2, 64, 0, [&] {
    __shared__ int s_mem[64];
    TraceProbe probe{};
    auto s = probe.shared(s_mem);
    const unsigned tid = threadIdx.x;
    probe.step(Phase::load);
    if (blockIdx.x == 1 && tid == 0) out[2] = s[0];   // what block 0 left there
    if (tid == 32) s[1] = 3;
    __syncthreads();
    probe.step(Phase::store);
    if (tid == 0) out[blockIdx.x] = s[1];
    if (blockIdx.x == 0 && tid == 32) s[0] = 7;
  });
  redlab::emu::set_workers(0);
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], 3);
  EXPECT_EQ(out[2], 7);
}

TEST(SharedRace, TheDetectorCanBeTurnedOff) {
  std::vector<int> out(1, 0);
  redlab::emu::set_race_check(false);
  launch(1, 256, 0, [&] { tree_sum(false, out); });
  redlab::emu::set_race_check(true);
  EXPECT_NE(out[0], 255 * 256 / 2);   // the emulator's schedule gives the racy kernel a wrong sum, and nothing says why
}

TEST(SharedRace, AnExternArrayIsWatchedToo) {
  // A pointer (an extern __shared__ array sized at launch) has no extent, but its accesses are still watched.
  const std::string m = launch_error(1, 64, [&] {
    TraceProbe probe{};
    auto s = probe.shared(reinterpret_cast<int*>(redlab::kernels::dynamic_smem)); g_line = __LINE__;
    probe.step(Phase::load);
    if (threadIdx.x == 0) s[100] = 1;   // past the 64 ints launched: no bounds check for a pointer
    if (threadIdx.x == 33) s[100] = 2; g_access_line = __LINE__;
  }, 64 * sizeof(int));
  const unsigned second = g_access_line, first = second - 1;
  EXPECT_EQ(m, "race in block 0 on shared s[100]: thread 0 (warp 0, lane 0) wrote it " + at_test_line(first) +
                   " in step 'load' and thread 33 (warp 1, lane 1) wrote it " + at_test_line(second) + " in step 'load', "
                   "with no __syncthreads between them: one belongs after the write at line " + std::to_string(first) +
                   " in step 'load' and before the write at line " + std::to_string(second) + " in step 'load' "
                   "(s[100]: byte 400 of the array given to probe.shared at " + line_of_test_file() + ")");
}

// What an unchecked s[31] of `values` would overwrite: `after`. The worker's copy, read by a second launch on it.
struct Guarded {
  int values[31];
  int after;
};
thread_local Guarded g_guarded;

TEST(SharedBounds, AnIndexPastTheEndIsReportedNotPerformed) {
  redlab::emu::set_workers(1);
  const std::string m = launch_error(1, 32, [&] {
    __shared__ int s_mem[31];
    TraceProbe probe{};
    g_guarded.after = 12345;
    auto s = probe.shared(g_guarded.values); g_line = __LINE__;
    auto named = probe.shared(s_mem);
    probe.step(Phase::load);
    probe.step(Phase::tree, Label::stride, 4);
    if (threadIdx.x < 31) named[threadIdx.x] = 0;
    s[threadIdx.x] = -1; g_access_line = __LINE__;
  });
  const unsigned used_at = g_access_line;
  int after = 0;
  launch(1, 1, 0, [&] { after = g_guarded.after; });
  redlab::emu::set_workers(0);
  EXPECT_EQ(after, 12345);
  // The array's name is what the probe.shared call gives it, when it is a name.
  EXPECT_EQ(m, "out-of-bounds shared index in block 0: thread 31 (warp 0, lane 31) used s[31] " + at_test_line(used_at) +
               " in step 'stride 4', but the array given to probe.shared at " + line_of_test_file() +
               " has 31 elements (indices 0 to 30)");
  EXPECT_EQ(g_site.kind, redlab::emu::FaultSite::Kind::out_of_bounds);
  EXPECT_EQ(g_site.step, 1);
  ASSERT_EQ(g_site.access_count, 1u);
  EXPECT_EQ(g_site.accesses[0].thread, 31u);
  EXPECT_EQ(g_site.accesses[0].line, used_at);
  const std::string named = launch_error(1, 32, [&] {
    __shared__ int s_mem[31];
    TraceProbe probe{};
    auto s = probe.shared(s_mem); g_line = __LINE__;
    probe.step(Phase::load);
    s[threadIdx.x] = 1; g_access_line = __LINE__;
  });
  EXPECT_EQ(named, "out-of-bounds shared index in block 0: thread 31 (warp 0, lane 31) used s[31] " +
                   at_test_line(g_access_line) + " in step 'load', but the array (s_mem, probe.shared at " +
                   line_of_test_file() + ") has 31 elements (indices 0 to 30)");
  expect_healthy();
}

TEST(SharedBounds, RowsAndColumnsOfATwoDimensionalArray) {
  // T tile[4][5] in a block of 8 x 2 threads: a column past the row's end, then a row past the last.
  const std::string column = launch_error(1, dim3(8, 2), [&] {
    __shared__ float tile_mem[4][5];
    TraceProbe probe{};
    auto tile = probe.shared(tile_mem);
    probe.step(Phase::tile_load);
    tile[threadIdx.y][threadIdx.x] = 1.0f;
  });
  EXPECT_NE(column.find("thread (5,0,0) (warp 0, lane 5) used tile[0][5] at kernel line "), std::string::npos) << column;
  EXPECT_NE(column.find(" in step 'tile_load', but the array (tile_mem, probe.shared at kernel line "), std::string::npos)
      << column;
  EXPECT_NE(column.find(") has rows of 5 elements (columns 0 to 4)"), std::string::npos) << column;
  const std::string row = launch_error(1, dim3(8, 2), [&] {
    __shared__ float tile_mem[4][5];
    TraceProbe probe{};
    auto tile = probe.shared(tile_mem);
    probe.step(Phase::tile_store);
    if (threadIdx.x < 5) tile[threadIdx.y + 3][threadIdx.x] = 1.0f;
  });
  EXPECT_NE(row.find("thread (0,1,0) (warp 0, lane 8) used tile[4] at kernel line "), std::string::npos) << row;
  EXPECT_NE(row.find(" in step 'tile_store'"), std::string::npos) << row;
  EXPECT_NE(row.find(") has 4 rows (0 to 3) of 5 elements"), std::string::npos) << row;
}

TEST(SharedBounds, AFlagIsOneVariable) {
  const std::string m = launch_error(1, 32, [&] {
    __shared__ bool flag_mem;
    TraceProbe probe{};
    auto flag = probe.shared_flag(&flag_mem, 128);
    g_access_line = __LINE__ + 1;
    if (threadIdx.x == 0) flag[1] = true;
  });
  EXPECT_NE(m.find("thread 0 (warp 0, lane 0) used flag[1] " + at_test_line(g_access_line) + " before the kernel's "
                   "first probe.step, but the array (flag_mem, probe.shared_flag at kernel line "), std::string::npos) << m;
  EXPECT_NE(m.find(") has 1 element (index 0)"), std::string::npos) << m;
}

TEST(SharedBounds, APointerHasNoExtentToCheck) {
  std::vector<int> out(64, 0);
  launch(1, 64, 64 * sizeof(int), [&] {
    TraceProbe probe{};
    auto s = probe.shared(reinterpret_cast<int*>(redlab::kernels::dynamic_smem) + 0);
    probe.step(Phase::load);
    s[threadIdx.x + 1000] = int(threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = s[1000 + (threadIdx.x + 1) % 64];
  });
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[63], 0);
}

// Distributed shared memory: only cluster.sync() orders one block's access with another block's to the same element
// (shared_check.h). The cluster's blocks take turns in an order the operating system's threads set, so the tests
// look for what every order reports.
namespace {

std::atomic<unsigned> g_write_line{0}, g_read_line{0};

// Every block writes s[t] = its rank + 1; rank 0's threads then read the other blocks' s[0] through distributed
// shared memory. `sync_between`: a cluster.sync() between the writes and the reads (the cluster_reduce kernel's).
void cluster_partials(bool sync_between, unsigned cluster, std::vector<int>& out) {
  launch(
      dim3(2 * cluster), dim3(64), 0,
      [&] {
        __shared__ int s_mem[64];
        cg::cluster_group c = cg::this_cluster();
        TraceProbe probe{};
        auto s = probe.shared(s_mem);
        const unsigned t = threadIdx.x;
        c.sync();   // every block's shared memory exists
        probe.step(Phase::load);
        s[t] = int(c.block_rank() + 1); g_write_line = __LINE__;
        __syncthreads();
        if (sync_between) c.sync();
        probe.step(Phase::cluster, Label::cluster_gather);
        if (c.block_rank() == 0 && t < c.num_blocks()) {
          out[blockIdx.x / cluster * cluster + t] = probe.remote_shared(c, s_mem, t)[0]; g_read_line = __LINE__;
        }
        c.sync();   // rank 0 has read them: the blocks may end
      },
      dim3(cluster));
}

std::string line_text(unsigned line) { return std::to_string(line); }

}  // namespace

TEST(ClusterRace, NoneWhenClusterSyncSeparatesTheWritesFromTheReads) {
  for (unsigned workers : {1u, 2u, 0u})
    for (unsigned cluster : {2u, 4u, 8u, 16u}) {
      redlab::emu::set_workers(workers);
      std::vector<int> out(2 * cluster, -1);
      cluster_partials(true, cluster, out);
      for (unsigned i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], int(i % cluster + 1)) << "cluster " << cluster;
    }
  redlab::emu::set_workers(0);
}

TEST(ClusterRace, AReadOfAnotherBlocksPartialBeforeClusterSyncNamesBothBlocks) {
  // Whichever block of the cluster runs first, the pair is block 1's write of its s[0] and block 0's read of it.
  for (unsigned workers : {1u, 2u, 0u}) {
    redlab::emu::set_workers(workers);
    std::vector<int> out(4, -1);
    g_site = {};
    std::string report;
    try {
      cluster_partials(false, 2, out);
      ADD_FAILURE() << "expected a race (workers " << workers << ")";
    } catch (const LaunchError& e) {
      report = e.what();
      g_site = e.site;
    }
    EXPECT_NE(report.find("race across the cluster on shared s[0] of block 1 (rank 1 in its cluster): "),
              std::string::npos) << report;
    EXPECT_NE(report.find("thread 0 (warp 0, lane 0) of block 1 (rank 1 in its cluster) wrote it " +
                          at_test_line(g_write_line) + " in step 'load' and thread 1 (warp 0, lane 1) of block 0 (rank "
                          "0 in its cluster) read it through distributed shared memory " + at_test_line(g_read_line)),
              std::string::npos) << report;
    EXPECT_NE(report.find("with no cluster.sync() between them: one belongs after the write at line " +
                          line_text(g_write_line) + " in step 'load' and before the read at line " +
                          line_text(g_read_line)), std::string::npos) << report;
    EXPECT_NE(report.find("(s[0]: byte 0 of that block's shared memory, s_mem, probe.shared at kernel line "),
              std::string::npos) << report;
    // The accesses in the kernel's order, each with its block; the element in block 1's shared memory.
    EXPECT_EQ(g_site.kind, redlab::emu::FaultSite::Kind::race);
    EXPECT_EQ(g_site.element_block, 1);
    EXPECT_EQ(g_site.accesses[0].block, 1);
    EXPECT_TRUE(g_site.accesses[0].write);
    EXPECT_EQ(g_site.accesses[0].line, g_write_line.load());
    EXPECT_EQ(g_site.accesses[1].block, 0);
    EXPECT_EQ(g_site.accesses[1].thread, 1u);
    EXPECT_FALSE(g_site.accesses[1].write);
    EXPECT_EQ(g_site.accesses[1].line, g_read_line.load());
  }
  redlab::emu::set_workers(0);
  expect_healthy();
}

TEST(ClusterRace, TwoBlocksWritingOneElementOfAThird) {
  const std::string m = launch_error(
      4, 32,
      [&] {
        __shared__ int s_mem[32];
        cg::cluster_group c = cg::this_cluster();
        TraceProbe probe{};
        auto s = probe.shared(s_mem);
        s[threadIdx.x] = 0;
        c.sync();
        probe.step(Phase::cluster, Label::cluster_gather);
        if (threadIdx.x == 0 && c.block_rank() != 0) probe.remote_shared(c, s_mem, 0)[1] = int(c.block_rank()); g_access_line = __LINE__;
        c.sync();
      },
      0, dim3(4));
  EXPECT_NE(m.find("race across the cluster on shared s[1] of block 0 (rank 0 in its cluster): "), std::string::npos) << m;
  // Both through distributed shared memory, in one statement: no cluster.sync() can come between them.
  std::size_t writes = 0;
  for (std::size_t at = m.find("wrote it through distributed shared memory"); at != std::string::npos;
       at = m.find("wrote it through distributed shared memory", at + 1))
    ++writes;
  EXPECT_EQ(writes, 2u) << m;
  EXPECT_NE(m.find("both are at line " + line_text(g_access_line) + " in step 'rank 0 gathers partials', where no "
                   "cluster.sync() can come between them"), std::string::npos) << m;
  EXPECT_EQ(g_site.element_block, 0);
  EXPECT_NE(g_site.accesses[0].block, g_site.accesses[1].block);
}

// The blocks of a cluster take turns in rank order, so a cluster reports the same race at every launch, whatever the
// workers' timing: ranks 1, 2 and 3 each write s[1] of rank 0, and rank 1's write meets rank 2's (not rank 3's, not in
// the other order). With four clusters side by side, the first cluster's (the first block that faults is reported).
TEST(ClusterRace, AClusterReportsTheSameRaceAtEveryLaunch) {
  for (unsigned grid : {4u, 16u}) {
    std::string first;
    for (unsigned workers : {0u, 4u, 5u, 8u})
      for (int repeat = 0; repeat < 6; ++repeat) {
        redlab::emu::set_workers(workers);
        const std::string m = launch_error(
            grid, 32,
            [&] {
              __shared__ int s_mem[32];
              cg::cluster_group c = cg::this_cluster();
              TraceProbe probe{};
              auto s = probe.shared(s_mem);
              s[threadIdx.x] = 0;
              c.sync();
              probe.step(Phase::cluster, Label::cluster_gather);
              if (threadIdx.x == 0 && c.block_rank() != 0) probe.remote_shared(c, s_mem, 0)[1] = int(c.block_rank());
              c.sync();
            },
            0, dim3(4));
        SCOPED_TRACE("grid " + std::to_string(grid) + ", workers " + std::to_string(workers) + ", launch " +
                     std::to_string(repeat));
        EXPECT_EQ(g_site.element_block, 0);
        EXPECT_EQ(g_site.accesses[0].block, 1);
        EXPECT_EQ(g_site.accesses[1].block, 2);
        if (first.empty()) first = m;
        EXPECT_EQ(m, first);
      }
  }
  redlab::emu::set_workers(0);
  expect_healthy();
}

TEST(ClusterRace, TwoWarpsOfOneBlockNeedABarrierBetweenTheirRemoteAccesses) {
  for (bool barrier : {false, true}) {
    std::vector<int> out(1, -1);
    auto kernel = [&] {
      __shared__ int s_mem[64];
      cg::cluster_group c = cg::this_cluster();
      TraceProbe probe{};
      auto s = probe.shared(s_mem);
      s[threadIdx.x] = 0;
      c.sync();
      probe.step(Phase::cluster, Label::cluster_gather);
      if (c.block_rank() == 1) {
        auto other = probe.remote_shared(c, s_mem, 0);
        if (threadIdx.x == 0) other[2] = 5; g_write_line = __LINE__;
        if (threadIdx.x == 1) other[2] = 6;   // the same warp: ordered
        if (barrier) __syncthreads();
        if (threadIdx.x == 32) out[0] = other[2]; g_read_line = __LINE__;
      }
      c.sync();
    };
    if (barrier) {
      launch(dim3(2), dim3(64), 0, kernel, dim3(2));
      EXPECT_EQ(out[0], 6);
      continue;
    }
    const std::string m = launch_error(2, 64, kernel, 0, dim3(2));
    EXPECT_NE(m.find("race across the cluster on shared s[2] of block 0 (rank 0 in its cluster): thread 1 (warp 0, "
                     "lane 1) of block 1 (rank 1 in its cluster) wrote it through distributed shared memory"),
              std::string::npos) << m;
    EXPECT_NE(m.find("thread 32 (warp 1, lane 0) of block 1 (rank 1 in its cluster) read it through distributed shared "
                     "memory " + at_test_line(g_read_line)), std::string::npos) << m;
  }
}

TEST(ClusterRace, ItsOwnRankThroughDistributedSharedMemoryIsALocalAccess) {
  for (bool barrier : {false, true}) {
    std::vector<int> out(2, -1);
    auto kernel = [&] {
      __shared__ int s_mem[64];
      cg::cluster_group c = cg::this_cluster();
      TraceProbe probe{};
      auto s = probe.shared(s_mem);
      c.sync();
      probe.step(Phase::load);
      if (threadIdx.x == 0) probe.remote_shared(c, s_mem, c.block_rank())[3] = int(c.block_rank()) + 10; g_write_line = __LINE__;
      if (barrier) __syncthreads();   // orders the block's own warps: no cluster.sync needed
      if (threadIdx.x == 32) out[blockIdx.x] = s[3]; g_read_line = __LINE__;
      c.sync();
    };
    if (barrier) {
      launch(dim3(2), dim3(64), 0, kernel, dim3(2));
      EXPECT_EQ(out[0], 10);
      EXPECT_EQ(out[1], 11);
      continue;
    }
    const std::string m = launch_error(2, 64, kernel, 0, dim3(2));
    EXPECT_NE(m.find("on shared s[3]: thread 0 (warp 0, lane 0) wrote it " + at_test_line(g_write_line)),
              std::string::npos) << m;
    EXPECT_NE(m.find("with no __syncthreads between them"), std::string::npos) << m;
  }
}

TEST(ClusterRace, TheOwnersLaterAccessMeetsAnotherBlocksWrite) {
  // Block 1 writes block 0's s[4]; block 0 reads its own s[4] with no cluster.sync between: whichever ran first, the
  // read and the write are named, the write through distributed shared memory.
  const std::string m = launch_error(
      2, 32,
      [&] {
        __shared__ int s_mem[32];
        cg::cluster_group c = cg::this_cluster();
        TraceProbe probe{};
        auto s = probe.shared(s_mem);
        c.sync();
        probe.step(Phase::load);
        if (c.block_rank() == 1 && threadIdx.x == 7) probe.remote_shared(c, s_mem, 0)[4] = 1; g_write_line = __LINE__;
        if (c.block_rank() == 0 && threadIdx.x == 9) (void)int(s[4]); g_read_line = __LINE__;
        c.sync();
      },
      0, dim3(2));
  EXPECT_NE(m.find("race across the cluster on shared s[4] of block 0 (rank 0 in its cluster): thread 7 (warp 0, lane "
                   "7) of block 1 (rank 1 in its cluster) wrote it through distributed shared memory " +
                   at_test_line(g_write_line) + " in step 'load' and thread 9 (warp 0, lane 9) of block 0 (rank 0 in "
                   "its cluster) read it " + at_test_line(g_read_line)), std::string::npos) << m;
}
