// The all-reduce schedules (app/core/allreduce.h): run on symbolic buffers, where each element is the set of GPUs
// whose values it holds, every GPU ends with every GPU's value exactly once, for G = 2..8 and n that G does not
// divide; no step reads a range another transfer of the same step writes; the bytes are the formulas'.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/allreduce.h"

using namespace redlab::allreduce;

namespace {

// Runs a schedule on G buffers of n sets of GPUs (a bit each); "" or what went wrong.
std::string run_symbolic(const std::vector<Step>& steps, unsigned g, std::uint64_t n) {
  std::vector<std::vector<std::uint32_t>> buf(g, std::vector<std::uint32_t>(n));
  for (unsigned i = 0; i < g; ++i)
    for (auto& e : buf[i]) e = 1u << i;
  for (const Step& s : steps) {
    // Transfers of a step run at once: each reads the sender as the step found it, and none may read a range that
    // another transfer of the step writes on the same GPU.
    for (const Transfer& a : s.transfers)
      for (const Transfer& b : s.transfers)
        if (a.from == b.to && a.lo < b.hi && b.lo < a.hi)
          return s.label + ": GPU " + std::to_string(a.from) + " sends a range it also receives";
    const auto before = buf;
    for (const Transfer& x : s.transfers) {
      if (x.from == x.to || x.from >= g || x.to >= g || x.hi > n || x.lo > x.hi) return s.label + ": a bad transfer";
      for (std::uint64_t e = x.lo; e < x.hi; ++e) {
        const std::uint32_t got = before[x.from][e];
        if (x.combine) {
          if (buf[x.to][e] & got) return s.label + ": a value combined twice at element " + std::to_string(e);
          buf[x.to][e] |= got;
        } else {
          buf[x.to][e] = got;
        }
      }
    }
  }
  for (unsigned i = 0; i < g; ++i)
    for (std::uint64_t e = 0; e < n; ++e)
      if (buf[i][e] != (1u << g) - 1)
        return "GPU " + std::to_string(i) + " element " + std::to_string(e) + " holds " + std::to_string(buf[i][e]);
  return "";
}

}  // namespace

TEST(AllReduce, EveryScheduleLeavesEveryGpuWithEveryValueOnce) {
  for (Algorithm a : {Algorithm::naive, Algorithm::ring, Algorithm::tree})
    for (unsigned g = kMinGpus; g <= kMaxGpus; ++g)
      for (std::uint64_t n : {1ull, 2ull, 7ull, 64ull, 1001ull}) {
        SCOPED_TRACE(std::string(to_string(a)) + " G=" + std::to_string(g) + " n=" + std::to_string(n));
        EXPECT_EQ(run_symbolic(schedule(a, g, n), g, n), "");
      }
}

TEST(AllReduce, StepsAreTheAlgorithmsCount) {
  for (unsigned g = kMinGpus; g <= kMaxGpus; ++g) {
    EXPECT_EQ(schedule(Algorithm::naive, g, 100).size(), 2u);
    EXPECT_EQ(schedule(Algorithm::ring, g, 100).size(), 2u * (g - 1));
    const unsigned levels = unsigned(std::ceil(std::log2(double(g))));
    EXPECT_EQ(schedule(Algorithm::tree, g, 100).size(), 2u * levels);
  }
  const std::vector<Step> r = schedule(Algorithm::ring, 4, 8);
  EXPECT_EQ(r[0].label, "reduce-scatter 1");
  EXPECT_EQ(r[3].phase, "all_gather");
  // Reduce-scatter step 1: GPU 0 sends chunk 0 (elements 0, 1) to GPU 1, which combines it.
  EXPECT_EQ(r[0].transfers[0], (Transfer{.from = 0, .to = 1, .chunk = 0, .lo = 0, .hi = 2, .combine = true}));
  // All-gather step 1: GPU 3 sends its finished chunk 0 to GPU 0, which copies it.
  EXPECT_EQ(r[3].transfers[3], (Transfer{.from = 3, .to = 0, .chunk = 0, .lo = 0, .hi = 2, .combine = false}));
  EXPECT_THROW(schedule(Algorithm::ring, 1, 100), std::invalid_argument);
  EXPECT_THROW(schedule(Algorithm::ring, 9, 100), std::invalid_argument);
  EXPECT_THROW(schedule(Algorithm::ring, 2, 0), std::invalid_argument);
}

// The ring sends 2(G-1)/G of the buffer from every GPU, the lower bound, when G divides n; otherwise GPU i sends
// every chunk but i+1, then every chunk but i+2. The naive gather sends (G-1) buffers from GPU 0.
TEST(AllReduce, BytesPerGpuAndLinkAreTheFormulas) {
  for (unsigned g = kMinGpus; g <= kMaxGpus; ++g) {
    const std::uint64_t n = 840 * 1000;  // 840 = lcm(2..8)
    const Traffic t = traffic(schedule(Algorithm::ring, g, n), g, 4);
    for (unsigned i = 0; i < g; ++i) {
      EXPECT_EQ(double(t.sent[i]), lower_bound_bytes_per_gpu(g, 4.0 * n));
      EXPECT_EQ(t.received[i], t.sent[i]);
      for (unsigned j = 0; j < g; ++j)  // only the link to the right neighbour carries anything
        EXPECT_EQ(t.link[i][j], j == (i + 1) % g ? t.sent[i] : 0u);
    }
    const std::uint64_t ragged = 1001;
    const Traffic r = traffic(schedule(Algorithm::ring, g, ragged), g, 8);
    auto size = [&](unsigned c) { return chunk_begin(ragged, g, c % g + 1) - chunk_begin(ragged, g, c % g); };
    for (unsigned i = 0; i < g; ++i) EXPECT_EQ(r.sent[i], 8 * ((ragged - size(i + 1)) + (ragged - size(i + 2))));
    const Traffic v = traffic(schedule(Algorithm::naive, g, n), g, 4);
    EXPECT_EQ(v.sent[0], (g - 1) * 4 * n);
    EXPECT_EQ(v.received[0], (g - 1) * 4 * n);
    for (unsigned i = 1; i < g; ++i) EXPECT_EQ(v.sent[i], 4 * n);
  }
  // The tree on 8 GPUs: GPU 0 receives from 1, 2 and 4 and sends back to each.
  const Traffic t = traffic(schedule(Algorithm::tree, 8, 10), 8, 4);
  EXPECT_EQ(t.received[0], 3u * 40);
  EXPECT_EQ(t.sent[0], 3u * 40);
  EXPECT_EQ(t.sent[7], 40u);
  EXPECT_EQ(t.link[4][0], 40u);
  EXPECT_EQ(t.link[0][4], 40u);
}

TEST(AllReduce, AlgbwAndBusbwAreNcclTestsDefinitions) {
  const double s = double(1ull << 30);
  EXPECT_DOUBLE_EQ(algbw(s, 0.01), s / 0.01);
  EXPECT_DOUBLE_EQ(busbw(s, 0.01, 2), s / 0.01);  // 2(G-1)/G = 1 on 2 GPUs
  EXPECT_DOUBLE_EQ(busbw(s, 0.01, 8), s / 0.01 * 14 / 8);
  EXPECT_DOUBLE_EQ(lower_bound_bytes_per_gpu(4, 1000), 1500);
  EXPECT_EQ(algbw(s, 0), 0);
}

namespace redlab::allreduce {
// For readable failures: "16 x 0 1 2 3 0".
void PrintTo(const NcclRing& r, std::ostream* os) {
  *os << r.channels << " x";
  for (unsigned g : r.order) *os << ' ' << g;
  if (!r.complete) *os << " (incomplete)";
}
}  // namespace redlab::allreduce

namespace {
// NCCL's lines for one ring on one channel, one per GPU, as its log prints them ("host:pid:tid [dev] NCCL INFO").
std::string nccl_ring_lines(unsigned channel, const std::vector<unsigned>& order) {
  std::string out;
  const std::size_t g = order.size();
  for (std::size_t i = 0; i < g; ++i) {
    char line[160];
    std::snprintf(line, sizeof line, "gpu-host:4242:4242 [%u] NCCL INFO Ring %02u : %u -> %u -> %u\n", order[i],
                  channel, order[(i + g - 1) % g], order[i], order[(i + 1) % g]);
    out += line;
  }
  return out;
}
}  // namespace

TEST(AllReduce, NcclsLogGivesEachRingOnceWithTheChannelsThatTakeIt) {
  // Three communicators on 4 GPUs (NCCL's choice, NCCL_ALGO=Ring, NCCL_ALGO=Tree) print the same 24 channels:
  // 96 lines each. Channels 0..15 go 0 1 2 3, channels 16..23 go 0 2 1 3.
  std::string log =
      "gpu-host:4242:4242 [0] NCCL INFO Channel 00/24 : 0 1 2 3\n"
      "gpu-host:4242:4242 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1 [1] 1/-1/-1->0->-1\n";
  for (int comm = 0; comm < 3; ++comm)
    for (unsigned c = 0; c < 24; ++c)
      log += nccl_ring_lines(c, c < 16 ? std::vector<unsigned>{0, 1, 2, 3} : std::vector<unsigned>{0, 2, 1, 3});
  std::istringstream in(log);
  const std::vector<NcclRing> rings = nccl_rings_from_log(in, 4);
  ASSERT_EQ(rings.size(), 2u);
  EXPECT_EQ(rings[0], (NcclRing{{0, 1, 2, 3, 0}, 16, true}));
  EXPECT_EQ(rings[1], (NcclRing{{0, 2, 1, 3, 0}, 8, true}));

  std::istringstream two(
      "h:1:1 [0] NCCL INFO Ring 00 : 1 -> 0 -> 1\nh:1:1 [1] NCCL INFO Ring 00 : 0 -> 1 -> 0\n"
      "h:1:1 [0] NCCL INFO Ring 01 : 1 -> 0 -> 1\nh:1:1 [1] NCCL INFO Ring 01 : 0 -> 1 -> 0\n");
  EXPECT_EQ(nccl_rings_from_log(two, 2), (std::vector<NcclRing>{{{0, 1, 0}, 2, true}}));
}

TEST(AllReduce, ARingWithAMissingOrContradictingLineIsMarkedIncomplete) {
  // GPU 2's line is missing: the ring is followed as far as GPU 1 knows it.
  std::string missing;
  std::istringstream all(nccl_ring_lines(0, {0, 1, 2, 3}));
  for (std::string line; std::getline(all, line);)
    if (line.find("[2]") == std::string::npos) missing += line + "\n";
  std::istringstream a(missing);
  EXPECT_EQ(nccl_rings_from_log(a, 4), (std::vector<NcclRing>{{{0, 1, 2}, 1, false}}));
  // GPU 1 says its next is 2 on one line and 3 on another.
  std::istringstream b(nccl_ring_lines(0, {0, 1, 2, 3}) + "h:1:1 [1] NCCL INFO Ring 00 : 0 -> 1 -> 3\n");
  const std::vector<NcclRing> contradicted = nccl_rings_from_log(b, 4);
  ASSERT_EQ(contradicted.size(), 1u);
  EXPECT_FALSE(contradicted[0].complete);
  // A GPU past the run's count, a channel past NCCL's 64, and a line cut short are not read.
  std::istringstream c(
      "h:1:1 [5] NCCL INFO Ring 00 : 4 -> 5 -> 6\nh:1:1 [0] NCCL INFO Ring 99 : 1 -> 0 -> 1\n"
      "h:1:1 [0] NCCL INFO Ring 00 : 1 ->\n" +
      std::string(100000, 'x') + "Ring 00 : 1 -> 0 -> 1\n");
  EXPECT_TRUE(nccl_rings_from_log(c, 2).empty());
  std::istringstream none("");
  EXPECT_TRUE(nccl_rings_from_log(none, 0).empty());
}

// NCCL 2.28.3's own log on 4 H100s (NV18 between every pair), as `bench --gpus 4` had it write (NCCL_DEBUG=INFO,
// subsystems INIT and GRAPH; three communicators: NCCL's choice, Ring, Tree): 288 ring lines, one ring.
TEST(AllReduce, NcclsLogFromFourH100sIsOneRingOnTwentyFourChannels) {
  std::ifstream log(std::string(REDLAB_SOURCE_DIR) + "/tests/data/nccl/init_graph_4xh100_nccl2.28.3.log");
  ASSERT_TRUE(log) << "tests/data/nccl/init_graph_4xh100_nccl2.28.3.log";
  EXPECT_EQ(nccl_rings_from_log(log, 4), (std::vector<NcclRing>{{{0, 1, 2, 3, 0}, 24, true}}));
}
