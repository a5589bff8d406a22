// Which inputs reached each block's result (app/core/input_reach.h), on real runs of the emulator: every traced
// catalog kernel loses nothing, and the inputs of its blocks are exactly the elements 0..n-1, each in one block; the
// gallery's stride_below_block (assets/gallery, compiled into this test by tests/CMakeLists.txt) loses exactly the
// second half of every block. The gallery's other files end in the emulator's reports (app/emu/shared_check.h and
// the deadlock diagnosis), through the run pipeline as `stats --source` meets them.
#include <gtest/gtest.h>

#include <algorithm>

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
  unsigned kernels = 0;
  for (const KernelRecord* k : catalog()) {
    if (!k->traceable || k->gpu_only || k->host_only || in_gallery(k->id)) continue;
    ++kernels;
    Scenario s;
    s.kernel = k->id;
    if (family_record(k->family).takes_matrix) {
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
    // Awkward sizes and both element widths (float64: two words an element), partial last blocks included.
    for (auto [n, block, type] : {std::tuple{1000ull, 64u, ElemType::int32}, std::tuple{4097ull, 128u, ElemType::float64},
                                  std::tuple{(1ull << 14) + 3, 256u, ElemType::int32}}) {
      s.n = n;
      s.block = block;
      s.type = type;
      const Trace t = run_all_in_focus(s);
      EXPECT_TRUE(t.correct) << k->id << " n=" << n;
      expect_every_input_reached(t, k->id + " n=" + std::to_string(n) + " block " + std::to_string(block) + " " +
                                        to_string(type));
    }
  }
  EXPECT_EQ(kernels, 21u) << "every traced catalog kernel (reductions and transposes)";
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
  for (auto [n, block, type] : {std::tuple{4096ull, 128u, ElemType::int32}, std::tuple{1000ull, 128u, ElemType::float64},
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
      const std::uint64_t first = 2ull * block * r.block, half = first + block, end = std::min<std::uint64_t>(first + 2 * block, n);
      EXPECT_EQ(r.inputs, end - first) << "block " << r.block;
      ASSERT_EQ(r.input_ranges.size(), 1u);
      EXPECT_EQ(r.input_ranges[0], (ElementRange{first, end - 1}));
      if (half >= end) {   // the partial last block may have no second half
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
  EXPECT_EQ(describe_reach(r), "block 3: inputs 770, 900-901 (3 of 256) never reached its result (it wrote no "
                               "result to the output or the partials)");
}

// The gallery's other entries stop with the emulator's report, which the command line prints with exit code 2.
TEST(Gallery, EachFailingEntryEndsInItsReport) {
  emu::set_workers(1);   // as the second redlab of `stats --source` runs: the first report is block 0's
  unsigned checked = 0;
  for (const GalleryEntry& g : load_gallery().entries) {
    Scenario s;
    s.kernel = g.id;
    s.n = g.scenario.n;
    s.block = g.scenario.block;
    s.backend = BackendChoice::cpu;
    if (g.expect == "wrong_result") {
      EXPECT_FALSE(make_cpu_executor()->run(s).correct) << g.id;
      ++checked;
      continue;
    }
    const std::string start = g.expect == "deadlock" ? "emulator: deadlock in block 0: __shfl_down_sync"
                              : g.expect == "race"   ? "emulator: race in block 0 on shared s["
                                                     : "emulator: out-of-bounds shared index in block 0: thread ";
    try {
      make_cpu_executor()->run(s);
      ADD_FAILURE() << g.id << " ran to its end; expected " << g.expect;
    } catch (const KernelFault& e) {
      EXPECT_EQ(std::string(e.what()).rfind(start, 0), 0u) << g.id << ": " << e.what();
    }
    ++checked;
  }
  emu::set_workers(0);
  EXPECT_EQ(checked, 4u);
}
