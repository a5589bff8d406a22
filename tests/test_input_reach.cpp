// Which inputs reached each block's result (app/core/input_reach.h), on real runs of the emulator: every traced
// catalog kernel loses nothing, and the inputs of its blocks are exactly the elements 0..n-1, each in one block; the
// gallery's stride_below_block (assets/gallery, compiled into this test by tests/CMakeLists.txt) loses exactly the
// second half of every block. The gallery's other files end in the emulator's reports (app/emu/shared_check.h and
// the deadlock diagnosis), through the run pipeline as `stats --source` meets them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/catalog.h"
#include "core/family.h"
#include "core/gallery.h"
#include "core/input_reach.h"
#include "core/plan.h"
#include "exec/device.h"
#include "emu/simt.h"
#include "exec/executor.h"

using namespace redlab;

namespace {

bool in_gallery(const std::string& id) {
  for (const GalleryEntry& g : load_gallery().entries)
    if (g.id == id) return true;
  return false;
}

// Runs `s` on the emulator with every block of its first launch in focus.
Trace run_all_in_focus(Scenario s) {
  s.backend = BackendChoice::cpu;
  const Plan p = make_plan(s);
  EXPECT_LE(p.grid, 256u) << "choose a smaller n: every block is put in focus";
  s.focus_blocks.clear();
  for (std::uint32_t b = 0; b < p.grid && b < 256; ++b) s.focus_blocks.push_back(b);
  return make_cpu_executor()->run(s);
}

// Nothing lost, a result from every block, and the blocks' inputs cover 0..n-1 once.
void expect_every_input_reached(const Trace& t, const std::string& what) {
  const std::vector<BlockReach> reach = input_reach(t);
  ASSERT_EQ(reach.size(), t.grid) << what;
  std::vector<ElementRange> all;
  for (const BlockReach& r : reach) {
    EXPECT_EQ(r.lost, 0u) << what << ": " << describe_reach(r);
    EXPECT_TRUE(r.wrote_result) << what << ": block " << r.block;
    // A cluster kernel's grid is whole clusters: the last cluster's blocks past n have nothing to load.
    const KernelRecord* k = find_kernel(t.scenario.kernel);
    const std::uint64_t per_block = k->elems_per_block(kernel_shape(t.scenario));
    if (!k->clustered || r.block < (t.scenario.n + per_block - 1) / per_block)
      EXPECT_GT(r.inputs, 0u) << what << ": block " << r.block;
    all.insert(all.end(), r.input_ranges.begin(), r.input_ranges.end());
  }
  std::sort(all.begin(), all.end(), [](const ElementRange& a, const ElementRange& b) { return a.first < b.first; });
  std::uint64_t next = 0;
  for (const ElementRange& r : all) {
    ASSERT_EQ(r.first, next) << what << ": inputs must cover 0..n-1 once, in no more than one block each";
    next = r.last + 1;
  }
  EXPECT_EQ(next, t.scenario.n) << what;
}

}  // namespace

TEST(InputReach, EveryTracedCatalogKernelLosesNothing) {
  unsigned vectors = 0, matrices = 0;  // kernels checked of each shape
  std::string checked;  // their ids (scripts/check-extension-points looks for a new one)
  for (const KernelRecord* k : catalog()) {
    if (!k->traceable || k->gpu_only || k->host_only || in_gallery(k->id) || k->family == Family::allreduce) continue;
    checked += " " + k->id;
    Scenario s;
    s.kernel = k->id;
    if (family_record(k->family).takes_matrix) {
      ++matrices;
      for (auto [rows, cols] : {std::pair{64u, 96u}, std::pair{33u, 65u}}) {
        s.rows = rows;
        s.cols = cols;
        s.type = ElemType::float32;
        resolve_shape(s);
        const Trace t = run_all_in_focus(s);
        EXPECT_TRUE(t.correct) << k->id;
        expect_every_input_reached(t, k->id + " " + std::to_string(rows) + "x" + std::to_string(cols));
      }
      continue;
    }
    ++vectors;
    // Awkward sizes and both element widths (float64: two words an element), partial last blocks included.
    for (auto [n, block, type] :
         {std::tuple{1000ull, 64u, ElemType::int32}, std::tuple{4097ull, 128u, ElemType::float64},
          std::tuple{(1ull << 14) + 3, 256u, ElemType::int32}}) {
      s.n = n;
      s.block = block;
      s.type = type;
      const Trace t = run_all_in_focus(s);
      EXPECT_TRUE(t.correct) << k->id << " n=" << n;
      expect_every_input_reached(
          t, k->id + " n=" + std::to_string(n) + " block " + std::to_string(block) + " " + to_string(type));
    }
  }
  std::cout << "every input reached its result in:" << checked << "\n";
  // Every traced kernel the catalog has, whatever their number: the reductions' and the transposes' among them.
  EXPECT_GT(vectors, 1u) << "reductions checked";
  EXPECT_GT(matrices, 1u) << "transposes checked";
}

TEST(InputReach, FinishesAndTheExternArrayLoseNothing) {
  for (const std::string& id : {std::string("interleaved"), std::string("load_add"), std::string("global_inplace")}) {
    Scenario s;
    s.kernel = id;
    s.n = 3000;
    s.block = 128;
    s.finish = Finish::atomic;
    expect_every_input_reached(run_all_in_focus(s), id + " --finish atomic");
  }
  Scenario s;
  s.kernel = "interleaved";
  s.n = 3000;
  s.block = 128;
  s.dynamic_smem = true;
  expect_every_input_reached(run_all_in_focus(s), "interleaved --dynamic-smem");
}

TEST(InputReach, TheBooksLoopLosesEachBlocksSecondHalf) {
  // stride < blockDim.x: block b covers 2B elements from 2Bb, and its last B never reach x[2Bb].
  for (auto [n, block, type] :
       {std::tuple{4096ull, 128u, ElemType::int32}, std::tuple{1000ull, 128u, ElemType::float64},
        std::tuple{2048ull, 64u, ElemType::int32}}) {
    Scenario s;
    s.kernel = "stride_below_block";
    s.n = n;
    s.block = block;
    s.type = type;
    const Trace t = run_all_in_focus(s);
    EXPECT_FALSE(t.correct);
    const std::vector<BlockReach> reach = input_reach(t);
    ASSERT_EQ(reach.size(), t.grid);
    for (const BlockReach& r : reach) {
      const std::uint64_t first = 2ull * block * r.block, half = first + block,
                          end = std::min<std::uint64_t>(first + 2 * block, n);
      EXPECT_EQ(r.inputs, end - first) << "block " << r.block;
      ASSERT_EQ(r.input_ranges.size(), 1u);
      EXPECT_EQ(r.input_ranges[0], (ElementRange{first, end - 1}));
      if (half >= end) {  // the partial last block may have no second half
        EXPECT_EQ(r.lost, 0u) << describe_reach(r);
        continue;
      }
      EXPECT_EQ(r.lost, end - half) << describe_reach(r);
      ASSERT_EQ(r.lost_ranges.size(), 1u) << describe_reach(r);
      EXPECT_EQ(r.lost_ranges[0], (ElementRange{half, end - 1}));
    }
    if (n == 4096 && block == 128) {
      EXPECT_EQ(describe_reach(reach[0]), "block 0: inputs 128-255 (128 of 256) never reached its result");
    }
  }
}

TEST(InputReach, Descriptions) {
  BlockReach r;
  r.block = 3;
  r.inputs = 256;
  r.input_ranges = {{768, 1023}};
  r.wrote_result = true;
  EXPECT_EQ(describe_reach(r), "block 3: all 256 inputs (768-1023) reached its result");
  r.lost = 3;
  r.lost_ranges = {{770, 770}, {900, 901}};
  EXPECT_EQ(describe_reach(r), "block 3: inputs 770, 900-901 (3 of 256) never reached its result");
  EXPECT_EQ(describe_reach(r, 1), "block 3: inputs 770 and 1 more ranges (3 of 256) never reached its result");
  r.wrote_result = false;
  EXPECT_EQ(describe_reach(r),
            "block 3: inputs 770, 900-901 (3 of 256) never reached its result (it wrote no "
            "result to the output or the partials)");
}

// The line of `file` that holds `text` first after `after` (1-based; 0: none).
static unsigned line_holding(const std::string& file, const std::string& text, const std::string& after = "") {
  std::ifstream in(file);
  std::string line;
  bool past = after.empty();
  for (unsigned n = 1; std::getline(in, line); ++n) {
    if (!past)
      past = line.find(after) != std::string::npos;
    else if (line.find(text) != std::string::npos)
      return n;
  }
  return 0;
}

// The gallery's other entries stop with the emulator's report, which the command line prints with exit code 2, and
// keep the faulting block's trace up to the fault: its steps, the step marked, the accesses at their lines.
TEST(Gallery, EachFailingEntryKeepsItsTraceUpToTheFault) {
  emu::set_workers(1);  // as the second redlab of `stats --source` runs: the first report is block 0's
  unsigned checked = 0;
  for (const GalleryEntry& g : load_gallery().entries) {
    Scenario s;
    s.kernel = g.id;
    s.n = g.scenario.n;
    s.block = g.scenario.block;
    s.cluster = g.scenario.cluster;
    s.backend = BackendChoice::cpu;
    const Trace t = make_cpu_executor()->run(s);
    ++checked;
    if (g.expect == "wrong_result") {
      EXPECT_FALSE(t.correct) << g.id;
      EXPECT_FALSE(t.fault) << g.id;
      continue;
    }
    const bool cluster = g.id == "cluster_sync_once";
    const std::string start =
        g.expect == "deadlock" ? "emulator: deadlock in block 0: __shfl_down_sync"
        : cluster              ? "emulator: race across the cluster on shared s[0] of block 1 (rank 1 in its cluster): "
        : g.expect == "race"   ? "emulator: race in block 0 on shared s["
                               : "emulator: out-of-bounds shared index in block 0: thread ";
    ASSERT_TRUE(t.fault) << g.id << " ran to its end; expected " << g.expect;
    const Fault& f = *t.fault;
    EXPECT_EQ(f.message.rfind(start, 0), 0u) << g.id << ": " << f.message;
    EXPECT_FALSE(t.correct) << g.id;
    EXPECT_TRUE(t.result.empty()) << g.id;
    if (cluster) {
      // Block 1 writes its s[0] at rank stride 2 and block 0 reads it through distributed shared memory at rank
      // stride 1 (the tree's statement, both). The cluster's blocks take turns in an order the operating system
      // sets: the one that came second reports it, and its trace is kept.
      EXPECT_EQ(f.kind, FaultKind::race);
      EXPECT_TRUE(f.across_cluster());
      EXPECT_EQ(f.element, "s[0]");
      EXPECT_EQ(f.element_block, 1u);
      EXPECT_TRUE(f.block == 0 || f.block == 1) << f.block;
      ASSERT_EQ(t.focus.size(), 1u);
      EXPECT_EQ(t.focus[0].block, f.block);
      const unsigned line = line_holding(
          g.source, "s[0] = op(s[0], probe.remote_shared(cluster, s_mem, rank + stride)[0]);", "__global__");
      ASSERT_EQ(f.accesses.size(), 2u);
      EXPECT_EQ(f.accesses[0].block, 1u);
      EXPECT_TRUE(f.accesses[0].write);
      EXPECT_EQ(f.accesses[0].line, line);
      EXPECT_EQ(t.steps[std::size_t(f.accesses[0].step)].label, "rank stride 2");
      EXPECT_EQ(f.accesses[1].block, 0u);
      EXPECT_FALSE(f.accesses[1].write);
      EXPECT_EQ(f.accesses[1].line, line);
      EXPECT_EQ(t.steps[std::size_t(f.accesses[1].step)].label, "rank stride 1");
      continue;
    }
    // One block, the faulting one, from its first step to the fault's.
    EXPECT_EQ(f.block, 0u);
    ASSERT_EQ(t.focus.size(), 1u) << g.id;
    EXPECT_EQ(t.focus[0].block, 0u);
    EXPECT_EQ(t.steps.size(), f.step + 1) << g.id;
    EXPECT_EQ(t.focus[0].steps.size(), t.steps.size()) << g.id;
    EXPECT_EQ(t.traced_blocks, 1u) << g.id;
    if (g.expect == "race") {
      // missing_sync: thread 32 writes s[32] at offset 128 (step 1), thread 0 reads it at offset 32 (step 3), both in
      // the tree's statement; the trace ends at offset 32, its load's and tree's figures counted up to there.
      EXPECT_EQ(f.kind, FaultKind::race);
      EXPECT_EQ(f.element, "s[32]");
      const unsigned tree_line = line_holding(g.source, "s[tid] = op(s[tid], s[tid + offset]);", "__global__");
      ASSERT_GT(tree_line, 0u);
      ASSERT_EQ(f.accesses.size(), 2u);
      EXPECT_EQ(f.accesses[0].thread, 32u);
      EXPECT_TRUE(f.accesses[0].write);
      EXPECT_EQ(f.accesses[0].step, 1);
      EXPECT_EQ(f.accesses[0].line, tree_line);
      EXPECT_EQ(f.accesses[1].thread, 0u);
      EXPECT_FALSE(f.accesses[1].write);
      EXPECT_EQ(f.accesses[1].step, 3);
      EXPECT_EQ(f.accesses[1].line, tree_line);
      EXPECT_EQ(f.step, 3u);
      EXPECT_EQ(t.steps[3].label, "offset 32");
      EXPECT_EQ(t.steps[0].stats.active_threads, 256u);  // the load, whole: every thread passed it
      EXPECT_EQ(t.steps[0].stats.gmem_load_requests, 8u);
    } else if (g.expect == "out_of_bounds") {
      // shared_one_short: thread 255's store of its element, in the load (step 0).
      EXPECT_EQ(f.kind, FaultKind::out_of_bounds);
      EXPECT_EQ(f.element, "s[255]");
      ASSERT_EQ(f.accesses.size(), 1u);
      EXPECT_EQ(f.accesses[0].thread, 255u);
      EXPECT_EQ(f.accesses[0].line,
                line_holding(g.source, "s[tid] = i < n ? input[i] : Op::identity();", "__global__"));
      EXPECT_EQ(f.step, 0u);
    } else {
      EXPECT_EQ(f.kind, FaultKind::other);
      EXPECT_TRUE(f.accesses.empty());
    }
  }
  emu::set_workers(0);
  EXPECT_EQ(checked, 5u);
}
