// The all-reduce view's model (app/model/ring_model.h) on real traces from the emulator's virtual GPUs: which GPUs'
// values each GPU's chunk holds after each step, the bytes sent so far against the lower bound, a step's links.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/allreduce.h"
#include "exec/executor.h"
#include "model/ring_model.h"

using namespace redlab;
using namespace redlab::model;

namespace {
Trace run(const char* kernel, unsigned gpus, std::uint64_t n) {
  Scenario s;
  s.kernel = kernel;
  s.backend = BackendChoice::cpu;
  s.gpus = gpus;
  s.n = n;
  s.block = 32;
  return make_cpu_executor()->run(s);
}
}  // namespace

// The ring on 4 GPUs: after reduce-scatter (3 steps) GPU g holds chunk g+1 reduced (all four bits) and nothing else
// whole; after all-gather every cell is whole; each GPU has then sent exactly the lower bound, 2(G-1)/G x S.
TEST(RingModel, TheRingReducesOneChunkPerGpuThenGathersThemAll) {
  const Trace t = run("allreduce_ring", 4, 400);
  ASSERT_TRUE(t.correct);
  RingPicture before = ring_picture(t, -1);
  ASSERT_EQ(before.gpus, 4u);
  for (unsigned g = 0; g < 4; ++g)
    for (unsigned c = 0; c < 4; ++c) EXPECT_EQ(before.holds[g][c], 1u << g);
  const RingPicture scattered = ring_picture(t, 2);
  for (unsigned g = 0; g < 4; ++g)
    for (unsigned c = 0; c < 4; ++c) EXPECT_EQ(holders(scattered.holds[g][c]) == 4, c == (g + 1) % 4) << g << " " << c;
  EXPECT_EQ(scattered.moving.size(), 4u);
  EXPECT_EQ(scattered.link[0][1], 400u);  // chunk of 100 int32
  EXPECT_EQ(scattered.link[1][0], 0u);  // the ring goes one way
  const RingPicture done = ring_picture(t, 99);  // past the last: the last
  EXPECT_EQ(done.step, 5);
  for (unsigned g = 0; g < 4; ++g) {
    for (unsigned c = 0; c < 4; ++c) EXPECT_EQ(done.holds[g][c], 0xfu);
    EXPECT_EQ(double(done.sent[g]), done.lower_bound_bytes);
    EXPECT_EQ(done.received[g], done.sent[g]);
  }
}

// The naive all-reduce: after its first step GPU 0 holds everything and has received (G-1) buffers; after the
// second every GPU does, and GPU 0 has sent (G-1) buffers, more than the lower bound of 2(G-1)/G of one.
TEST(RingModel, TheNaiveGatherPutsEverythingOnGpuZeroFirst) {
  const Trace t = run("allreduce_naive", 3, 30);
  const RingPicture gathered = ring_picture(t, 0);
  for (unsigned c = 0; c < 3; ++c) {
    EXPECT_EQ(gathered.holds[0][c], 0x7u);
    EXPECT_EQ(gathered.holds[1][c], 0x2u);
  }
  EXPECT_EQ(gathered.received[0], 2u * 120);
  const RingPicture spread = ring_picture(t, 1);
  for (unsigned g = 0; g < 3; ++g)
    for (unsigned c = 0; c < 3; ++c) EXPECT_EQ(spread.holds[g][c], 0x7u);
  EXPECT_EQ(spread.sent[0], 2u * 120);
  EXPECT_GT(double(spread.sent[0]), spread.lower_bound_bytes);  // 240 > 2 x 2/3 x 120 = 160
  // n smaller than G: the ring's empty chunks move with no bytes and every cell still ends whole.
  const Trace tiny = run("allreduce_ring", 8, 3);
  const RingPicture end = ring_picture(tiny, 99);
  for (unsigned g = 0; g < 8; ++g)
    for (unsigned c = 0; c < 8; ++c) EXPECT_EQ(end.holds[g][c], 0xffu);
  // Not an all-reduce: nothing to draw.
  Scenario one;
  one.backend = BackendChoice::cpu;
  one.n = 100;
  EXPECT_EQ(ring_picture(make_cpu_executor()->run(one), 0).gpus, 0u);
}

// The links a run uses are the same list at every step; each carries its bytes through the step: the ring's G links
// (g -> g+1) each 2(G-1) chunks, the naive's 2(G-1) links into and out of GPU 0 each one buffer.
TEST(RingModel, EachLinkCarriesItsBytesAndTheLinksStayTheSameFromStepToStep) {
  const Trace ring = run("allreduce_ring", 4, 400);
  const RingPicture first = ring_picture(ring, 0), last = ring_picture(ring, 99);
  ASSERT_EQ(first.links_used.size(), 4u);
  EXPECT_EQ(first.links_used, last.links_used);
  for (const auto& [from, to] : last.links_used) {
    EXPECT_EQ(to, (from + 1) % 4);
    EXPECT_EQ(first.link_so_far[from][to], 400u);  // one chunk of 100 int32
    EXPECT_EQ(last.link_so_far[from][to], 6u * 400);  // 2 (G-1) chunks
  }
  EXPECT_EQ(first.links_used_bytes, std::vector<std::uint64_t>(4, 6u * 400));  // the whole run's, at any step
  const Trace naive = run("allreduce_naive", 3, 30);
  const RingPicture n0 = ring_picture(naive, 0), n1 = ring_picture(naive, 1);
  ASSERT_EQ(n1.links_used.size(), 4u);  // 1 -> 0, 2 -> 0, 0 -> 1, 0 -> 2
  EXPECT_EQ(n0.link_so_far[1][0], 120u);
  EXPECT_EQ(n0.link_so_far[0][1], 0u);  // the broadcast has not started
  EXPECT_EQ(n1.link_so_far[0][1], 120u);
  EXPECT_EQ(ring_picture(naive, -1).links_used.size(), 4u);  // before the first step: the rows, empty
}
