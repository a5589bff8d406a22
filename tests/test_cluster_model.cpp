// The cluster view's model (app/model/cluster_model.h) on real traces of the cluster kernels from the emulator: which
// block reads which block's shared memory at each step, the partials the arrows carry, and the cluster's value.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/plan.h"
#include "exec/executor.h"
#include "model/cluster_model.h"

using namespace redlab;
using namespace redlab::model;

namespace {
Trace run(const char* kernel, unsigned cluster, std::uint32_t focus) {
  Scenario s;
  s.kernel = kernel;
  s.backend = BackendChoice::cpu;
  s.n = 10000;
  s.block = 64;
  s.input = InputKind::ramp;
  s.cluster = cluster;
  s.focus_blocks = {focus};
  return make_cpu_executor()->run(s);
}
int step_of(const Trace& t, rec::Label label, int param) {
  for (std::size_t s = 0; s < t.steps.size(); ++s)
    if (t.steps[s].label_kind == label && t.steps[s].param == param) return int(s);
  return -1;
}
}  // namespace

// A focus block brings its whole cluster into focus; rank 0's gather reads s[0] of every block (its own included)
// in one request, each arrow carrying that block's partial; the cluster's value is written in the store step.
TEST(ClusterModel, RankZeroGathersEveryBlocksPartial) {
  const Trace t = run("cluster_reduce", 4, 5);  // block 5: cluster 1 (blocks 4..7)
  ASSERT_TRUE(t.correct);
  ASSERT_EQ(t.focus.size(), 4u);
  const int gather = step_of(t, rec::Label::cluster_gather, 0);
  ASSERT_GE(gather, 0);
  const ClusterPicture before = cluster_picture(t, gather - 1, 1);
  ASSERT_EQ(before.size, 4u);
  EXPECT_EQ(before.index, 1u);
  EXPECT_TRUE(before.arrows.empty());
  EXPECT_EQ(before.remote_requests, 0u);
  const ClusterPicture p = cluster_picture(t, gather, 1);
  ASSERT_EQ(p.arrows.size(), 4u);
  for (unsigned r = 0; r < 4; ++r) {
    EXPECT_EQ(p.blocks[r].block, 4 + r);
    EXPECT_TRUE(p.blocks[r].recorded);
    ASSERT_TRUE(p.blocks[r].partial) << r;
    EXPECT_EQ(p.arrows[r].from, r);
    EXPECT_EQ(p.arrows[r].to, 0u);
    EXPECT_FALSE(p.arrows[r].store);
    EXPECT_EQ(p.arrows[r].bits, *p.blocks[r].partial) << "rank " << r << " hands rank 0 its s[0]";
  }
  EXPECT_EQ(p.remote_requests, 1u);
  EXPECT_EQ(p.remote_bytes, 16u);  // 4 lanes x 4 bytes
  EXPECT_FALSE(p.result);
  const ClusterPicture end = cluster_picture(t, int(t.steps.size()) - 1, 1);
  ASSERT_TRUE(end.result);
  std::int64_t sum = 0;
  for (const ClusterBlock& b : end.blocks) sum += std::int32_t(*b.partial);
  EXPECT_EQ(std::int32_t(*end.result), std::int32_t(sum));
}

// The tree over blocks: at rank stride 2, ranks 2 and 3 are read by 0 and 1; at stride 1, rank 1 by rank 0, whose s[0]
// then holds the cluster's value.
TEST(ClusterModel, TheTreeOverBlocksHalvesTheReadersEachLevel) {
  const Trace t = run("cluster_tree", 4, 0);
  ASSERT_TRUE(t.correct);
  const int two = step_of(t, rec::Label::rank_stride, 2), one = step_of(t, rec::Label::rank_stride, 1);
  ASSERT_GE(two, 0);
  ASSERT_EQ(one, two + 1);
  const ClusterPicture a = cluster_picture(t, two, 0);
  ASSERT_EQ(a.arrows.size(), 2u);
  EXPECT_EQ(a.arrows[0].from, 2u);
  EXPECT_EQ(a.arrows[0].to, 0u);
  EXPECT_EQ(a.arrows[1].from, 3u);
  EXPECT_EQ(a.arrows[1].to, 1u);
  EXPECT_EQ(a.remote_requests, 2u);
  const ClusterPicture b = cluster_picture(t, one, 0);
  ASSERT_EQ(b.arrows.size(), 1u);
  EXPECT_EQ(b.arrows[0].from, 1u);
  EXPECT_EQ(b.arrows[0].bits, *a.blocks[1].partial);
  const ClusterPicture end = cluster_picture(t, int(t.steps.size()) - 1, 0);
  ASSERT_TRUE(end.result);
  EXPECT_EQ(*end.result, *end.blocks[0].partial);
}

// Not a cluster kernel's trace: an empty picture.
TEST(ClusterModel, OtherKernelsHaveNoCluster) {
  Scenario s;
  s.kernel = "interleaved";
  s.backend = BackendChoice::cpu;
  s.n = 1000;
  const Trace t = make_cpu_executor()->run(s);
  EXPECT_EQ(cluster_picture(t, 0, 0).size, 0u);
}
