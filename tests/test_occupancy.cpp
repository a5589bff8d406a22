// Occupancy: NVIDIA's calculator (cuda_occupancy.h) for the reference card's SM, every limit worked out by hand from
// the CUDA C++ Programming Guide's rules for compute capability 9.0 (registers in units of 256 a warp, in four
// quarters of the SM; shared memory with 1 KB reserved a block, in units of 128 bytes), the emulator's runs, and the
// figures as files keep them.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/occupancy.h"
#include "core/scenario.h"
#include "core/stats_json.h"
#include "core/trace.h"
#include "exec/executor.h"
#include "exec/occupancy_calc.h"

namespace redlab {
namespace {

SmLimits h200() {
  std::string why;
  const std::optional<SmLimits> sm = reference_sm(&why);
  if (!sm) throw std::runtime_error(why);
  return *sm;
}

Occupancy computed(const std::optional<KernelResources>& k, unsigned block, std::uint64_t dynamic = 0) {
  std::string why;
  const std::optional<Occupancy> o = compute_occupancy(h200(), k, block, dynamic, &why);
  if (!o) throw std::runtime_error(why);
  return *o;
}

TEST(Occupancy, TheReferenceCardIsAnH200sSm) {
  const SmLimits sm = h200();
  EXPECT_EQ(sm.card, "NVIDIA H200");
  EXPECT_EQ(sm.major, 9);
  EXPECT_EQ(sm.minor, 0);
  EXPECT_EQ(sm.sms, 132);
  EXPECT_EQ(sm.max_threads_per_sm, 2048);
  EXPECT_EQ(sm.max_blocks_per_sm, 32);
  EXPECT_EQ(sm.regs_per_sm, 65536);
  EXPECT_EQ(sm.smem_per_sm, 233472u);
}

#if REDLAB_HAVE_OCCUPANCY
TEST(Occupancy, WarpsLimitABlockOf256WithFewRegisters) {
  // 16 registers a thread: 512 a warp, 32 warps a quarter, 128 an SM: 16 blocks by registers; 64 warps: 8 blocks.
  const Occupancy o = computed(KernelResources{16, 1024, 1024}, 256);
  EXPECT_EQ(o.by_warps, 8);
  EXPECT_EQ(o.by_registers, 16);
  EXPECT_EQ(o.by_blocks, 32);
  EXPECT_EQ(o.by_shared, 114);  // 1,024 static + 1,024 reserved a block, of 233,472
  EXPECT_EQ(o.shared_allocated, 2048u);
  EXPECT_EQ(o.blocks, 8);
  EXPECT_EQ(o.limiting, std::vector<OccupancyLimit>{OccupancyLimit::warps});
  EXPECT_EQ(o.active_warps(), 64);
  EXPECT_DOUBLE_EQ(o.fraction(), 1.0);
}

TEST(Occupancy, TheBlockLimitHalvesABlockOf32) {
  // 32 blocks of one warp: 32 of 64 warps
  const Occupancy o = computed(KernelResources{16, 128, 1024}, 32);
  EXPECT_EQ(o.by_warps, 64);
  EXPECT_EQ(o.blocks, 32);
  EXPECT_EQ(o.limiting, std::vector<OccupancyLimit>{OccupancyLimit::blocks});
  EXPECT_DOUBLE_EQ(o.fraction(), 0.5);
}

TEST(Occupancy, RegistersLimitAHungryKernel) {
  // 128 registers a thread: 4,096 a warp, 4 warps a quarter, 16 an SM: 2 blocks of 8 warps
  const Occupancy o = computed(KernelResources{128, 0, 512}, 256);
  EXPECT_EQ(o.by_registers, 2);
  EXPECT_EQ(o.blocks, 2);
  EXPECT_EQ(o.limiting, std::vector<OccupancyLimit>{OccupancyLimit::registers});
  EXPECT_DOUBLE_EQ(o.fraction(), 0.25);
}

TEST(Occupancy, SharedMemoryLimitsABigTile) {
  // 40,000 + 1,024 bytes, 41,088 in units of 128: 5 of 233,472
  const Occupancy o = computed(KernelResources{16, 40000, 1024}, 128);
  EXPECT_EQ(o.shared_allocated, 41088u);
  EXPECT_EQ(o.by_shared, 5);
  EXPECT_EQ(o.blocks, 5);
  EXPECT_EQ(o.limiting, std::vector<OccupancyLimit>{OccupancyLimit::shared_memory});
  // more than the 48 KB a block has unless its kernel opts in (cudaFuncSetAttribute): none fits
  EXPECT_EQ(computed(KernelResources{16, 50000, 1024}, 128).blocks, 0);
}

TEST(Occupancy, DynamicSharedMemoryCountsAsStaticDoes) {
  EXPECT_EQ(computed(KernelResources{16, 0, 1024}, 128, 40000).blocks, 5);
}

TEST(Occupancy, TheEmulatorsRunHasTheReferenceCardsBound) {
  const std::unique_ptr<Executor> cpu = make_cpu_executor();
  Scenario s;
  s.kernel = "interleaved";
  s.n = 1 << 14;
  s.block = 256;
  Trace t = cpu->run(s);
  ASSERT_TRUE(t.occupancy.has_value());
  EXPECT_FALSE(t.occupancy->sm_is_device);
  EXPECT_FALSE(t.occupancy->kernel.has_value());  // registers: a GPU's to read
  EXPECT_FALSE(t.occupancy->by_registers.has_value());
  EXPECT_EQ(t.occupancy->blocks, 8);
  EXPECT_EQ(t.occupancy->dynamic_smem, 0u);
  EXPECT_NE(stats_text(t).find("occupancy for NVIDIA H200 (sm_90, the reference card"), std::string::npos);
  EXPECT_EQ(stats_json(t)["occupancy"]["blocks_per_sm"], 8);
  s.block = 32;
  s.dynamic_smem = true;
  t = cpu->run(s);
  ASSERT_TRUE(t.occupancy.has_value());
  EXPECT_EQ(t.occupancy->blocks, 32);
  EXPECT_EQ(t.occupancy->dynamic_smem, 32u * 4u);  // one int32 a thread
  EXPECT_EQ(t.occupancy->limiting, std::vector<OccupancyLimit>{OccupancyLimit::blocks});
  // the host loop launches no kernel
  s = Scenario{};
  s.kernel = "cpu_sequential";
  s.n = 1000;
  EXPECT_FALSE(cpu->run(s).occupancy.has_value());
}

TEST(Occupancy, TheEmulatorCountsTheSharedArraysAKernelDeclares) {
  // tile[32][32] and tile[32][33] of doubles: 8,192 and 8,448 bytes, 1 KB reserved beside each
  const std::unique_ptr<Executor> cpu = make_cpu_executor();
  auto occupancy = [&](const char* kernel) {
    Scenario s;
    s.kernel = kernel;
    s.type = ElemType::float64;
    s.rows = s.cols = 64;
    resolve_shape(s);
    return *cpu->run(s).occupancy;
  };
  const Occupancy tiled = occupancy("transpose_tiled"), padded = occupancy("transpose_padded");
  EXPECT_EQ(tiled.declared_smem, 8192u);
  EXPECT_EQ(tiled.by_shared, 25);  // 233,472 / 9,216
  EXPECT_EQ(padded.declared_smem, 8448u);
  EXPECT_EQ(padded.by_shared, 24);  // 233,472 / 9,472
  EXPECT_EQ(padded.blocks, 8);  // the warps still: padding costs no block
  EXPECT_NE(occupancy_text(padded).find("static shared memory 8448 bytes as the kernel declares"), std::string::npos);
  EXPECT_FALSE(occupancy("copy").declared_smem.has_value());  // no shared array
}

TEST(Occupancy, ATraceFileKeepsIt) {
  const std::unique_ptr<Executor> cpu = make_cpu_executor();
  Scenario s;
  s.kernel = "transpose_padded";
  s.type = ElemType::float32;
  s.rows = s.cols = 64;
  s.block_rows = 8;
  resolve_shape(s);
  const Trace t = cpu->run(s);
  ASSERT_TRUE(t.occupancy.has_value());
  EXPECT_EQ(t.occupancy->block, 256u);
  const std::string path = ::testing::TempDir() + std::to_string(getpid()) + "_occupancy.rltrace";
  save_trace(t, path);
  const Trace back = load_trace(path);
  std::remove(path.c_str());
  ASSERT_TRUE(back.occupancy.has_value());
  EXPECT_EQ(*back.occupancy, *t.occupancy);
}

// A cluster kernel's occupancy counts whole clusters: on the reference card's 132 SMs, 8 blocks of 256 an SM, clusters
// of 4 are at most 132 x 8 / 4 = 264 at once, of 8 at most 132; a kernel without clusters says nothing of them.
TEST(Occupancy, AClusterKernelIsHeldInWholeClusters) {
  const std::unique_ptr<Executor> cpu = make_cpu_executor();
  auto run = [&](const char* kernel, unsigned cluster) {
    Scenario s;
    s.kernel = kernel;
    s.n = 1 << 14;
    s.block = 256;
    s.cluster = cluster;
    return cpu->run(s);
  };
  for (const char* kernel : {"cluster_reduce", "cluster_tree"}) {
    const Trace t = run(kernel, 4);
    ASSERT_TRUE(t.occupancy.has_value()) << kernel;
    EXPECT_EQ(t.occupancy->blocks, 8) << kernel;
    EXPECT_EQ(t.occupancy->cluster, 4u) << kernel;
    EXPECT_EQ(t.occupancy->clusters_at_most(), 132 * 8 / 4) << kernel;
    EXPECT_FALSE(t.occupancy->runtime_clusters.has_value());  // the runtime's count: a GPU's
    EXPECT_NE(stats_text(t).find("clusters of 4 blocks: at most 264 at once on the card (132 SMs x 8 blocks / 4"),
              std::string::npos)
        << stats_text(t);
    const nlohmann::json j = stats_json(t)["occupancy"];
    EXPECT_EQ(j["cluster"], 4);
    EXPECT_EQ(j["clusters_at_most"], 264);
    EXPECT_TRUE(j["runtime_clusters"].is_null());
  }
  EXPECT_EQ(run("cluster_reduce", 8).occupancy->clusters_at_most(), 132);
  const Trace plain = run("interleaved", 0);  // (0: no --cluster)
  ASSERT_TRUE(plain.occupancy.has_value());
  EXPECT_EQ(plain.occupancy->cluster, 1u);
  EXPECT_EQ(plain.occupancy->clusters_at_most(), 0);
  EXPECT_FALSE(stats_json(plain)["occupancy"].contains("cluster"));
  EXPECT_EQ(stats_text(plain).find("clusters of"), std::string::npos);
}
#endif

TEST(Occupancy, ClustersRoundTripAndOldFilesHaveNone) {
  Occupancy o;
  o.sm = h200();
  o.block = 128;
  o.by_warps = 16;
  o.by_blocks = 32;
  o.blocks = 16;
  o.limiting = {OccupancyLimit::warps};
  nlohmann::json j = occupancy_json(o);
  EXPECT_FALSE(j.contains("cluster"));
  EXPECT_EQ(occupancy_from_json(j).cluster, 1u);
  o.cluster = 16;
  o.runtime_clusters = 120;
  o.sm_is_device = true;
  j = occupancy_json(o);
  EXPECT_EQ(j["clusters_at_most"], 132 * 16 / 16);
  EXPECT_EQ(occupancy_from_json(j), o);
  for (const nlohmann::json& bad : {nlohmann::json(1), nlohmann::json(17), nlohmann::json(-4), nlohmann::json("8")}) {
    nlohmann::json k = j;
    k["cluster"] = bad;
    EXPECT_THROW(occupancy_from_json(k), std::exception) << bad.dump();
  }
  j["runtime_clusters"] = -1;
  EXPECT_THROW(occupancy_from_json(j), std::exception);
  // SMs and blocks at their files' largest: the bound is counted in 64 bits
  o.sm.sms = 1 << 24;
  o.blocks = 1 << 24;
  o.cluster = 2;
  EXPECT_EQ(o.clusters_at_most(), (std::int64_t(1) << 47));
}

TEST(Occupancy, JsonRoundTripsAndRefusesWhatNoSmHas) {
  Occupancy o;
  o.sm = h200();
  o.kernel = KernelResources{32, 1024, 1024};
  o.block = 256;
  o.by_warps = 8;
  o.by_registers = 8;
  o.by_shared = 114;
  o.by_blocks = 32;
  o.blocks = 8;
  o.shared_allocated = 2048;
  o.limiting = {OccupancyLimit::warps, OccupancyLimit::registers};
  o.runtime_blocks = 8;
  o.sm_is_device = true;
  EXPECT_EQ(occupancy_from_json(occupancy_json(o)), o);
  o.declared_smem = 8448;
  EXPECT_EQ(occupancy_from_json(occupancy_json(o)), o);
  auto refused = [&](const char* pointer, const nlohmann::json& value) {
    nlohmann::json j = occupancy_json(o);
    j[nlohmann::json::json_pointer(pointer)] = value;
    EXPECT_THROW(occupancy_from_json(j), std::exception) << pointer << " = " << value.dump();
  };
  refused("/sm/card", std::string(200, 'x'));
  refused("/sm/warp_size", 31);
  refused("/sm/max_threads_per_sm", -2048);
  refused("/sm/compute_capability", "nine");
  refused("/block", 0);
  refused("/blocks_per_sm", 1e30);
  refused("/kernel/registers", 100000);
  refused("/limiting", nlohmann::json::array({"warps", "patience"}));
  refused("/by_shared", "many");
}

}  // namespace
}  // namespace redlab
