// The bench report's JSON (assets/reference/timings.json, read by the GUI) survives a round trip, and
// bench refuses to run without a GPU with a message that says where recorded figures are.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "exec/bench.h"
#include "exec/nccl.h"

#if __has_include(<nccl.h>)
#include <nccl.h>
#endif
#include "exec/executor.h"

using namespace redlab;

TEST(BenchJson, RoundTripsEveryField) {
  BenchReport r;
  r.device = "NVIDIA H200 (sm_90, 132 SMs)";
  r.driver = "CUDA driver API 13.0";
  r.date = "2026-11-23T01:37:43Z";
  r.host = "vm";
  r.request.type = ElemType::float64;
  r.request.op = OpKind::max;
  r.request.block = 512;
  r.request.rows = 8192;
  r.request.cols = 4096;
  r.request.block_rows = 4;
  r.ceilings.push_back({1u << 22, 2217.5, 1403.25, true});
  BenchRow row;
  row.kernel = "vectorized";
  row.n = 1u << 22;
  row.median_ms = 0.0125;
  row.min_ms = 0.0120;
  row.max_ms = 0.0131;
  row.reps = 30;
  row.gbps = 1346.1;
  row.pct_copy = 60.7;
  row.pct_read = 95.9;
  row.speedup = 2.44;
  row.step_speedup = 1.36;
  row.ratio_cub = 1.31;
  row.correct = true;
  r.rows = {row, row};
  r.rows[1].kernel = "cub_device";
  const BenchReport u = bench_from_json(nlohmann::json::parse(bench_json(r).dump()));
  EXPECT_EQ(u.device, r.device);
  EXPECT_EQ(u.driver, r.driver);
  EXPECT_EQ(u.date, r.date);
  EXPECT_EQ(u.request.type, ElemType::float64);
  EXPECT_EQ(u.request.op, OpKind::max);
  EXPECT_EQ(u.request.block, 512u);
  EXPECT_EQ(u.request.rows, 8192u);
  EXPECT_EQ(u.request.cols, 4096u);
  EXPECT_EQ(u.request.block_rows, 4u);
  ASSERT_EQ(u.ceilings.size(), 1u);
  EXPECT_DOUBLE_EQ(u.ceilings[0].copy_gbps, 2217.5);
  EXPECT_TRUE(u.ceilings[0].fits_l2);
  ASSERT_EQ(u.rows.size(), 2u);
  EXPECT_EQ(u.rows[0].kernel, "vectorized");
  EXPECT_EQ(u.rows[1].kernel, "cub_device");
  EXPECT_DOUBLE_EQ(u.rows[0].median_ms, 0.0125);
  EXPECT_DOUBLE_EQ(u.rows[0].ratio_cub, 1.31);
  EXPECT_EQ(u.rows[0].reps, 30);
  EXPECT_TRUE(u.rows[0].correct);
}

// A block-size sweep (bench --blocks): the blocks and each row's block survive the file; a file written before
// sweeps reads every row at its block; a sweep's text has a block column, CUB's own launch shown as "-".
TEST(BenchJson, ASweepKeepsEachRowsBlock) {
  BenchReport r;
  r.device = "NVIDIA H100";
  r.driver = "CUDA driver API 13.0";
  r.date = "2026-11-30T00:00:00Z";
  r.request.block = 64;
  r.request.blocks = {64, 256};
  r.request.reps = 30;
  r.ceilings.push_back({1u << 20, 2000, 3000, true});
  BenchRow cub;
  cub.kernel = "cub_device";
  cub.n = 1u << 20;
  cub.block = 0;
  cub.median_ms = 0.01;
  cub.correct = true;
  BenchRow a = cub, b = cub;
  a.kernel = b.kernel = "interleaved";
  a.block = 64;
  a.median_ms = 0.02;
  b.block = 256;
  b.median_ms = 0.015;
  r.rows = {cub, a, b};
  const nlohmann::json j = bench_json(r);
  EXPECT_EQ(j.at("blocks"), nlohmann::json::parse("[64, 256]"));
  const BenchReport u = bench_from_json(nlohmann::json::parse(j.dump()));
  ASSERT_TRUE(u.sweep());
  EXPECT_EQ(u.request.blocks, (std::vector<unsigned>{64, 256}));
  ASSERT_EQ(u.rows.size(), 3u);
  EXPECT_EQ(u.rows[0].block, 0u);
  EXPECT_EQ(u.rows[1].block, 64u);
  EXPECT_EQ(u.rows[2].block, 256u);
  const std::string text = bench_text(u);
  EXPECT_NE(text.find("blocks 64, 256"), std::string::npos) << text;
  EXPECT_NE(text.find("  block "), std::string::npos) << text;
  EXPECT_NE(text.find("cub_device                -"), std::string::npos) << text;
  EXPECT_NE(text.find("interleaved             256"), std::string::npos) << text;

  // Not a sweep: no "blocks" key, no block column, and a file without row blocks reads them as the file's.
  BenchReport one = r;
  one.request.blocks.clear();
  nlohmann::json k = bench_json(one);
  EXPECT_FALSE(k.contains("blocks"));
  EXPECT_EQ(bench_text(one).find("  block "), std::string::npos);
  for (auto& row : k.at("rows")) row.erase("block");
  const BenchReport old = bench_from_json(k);
  EXPECT_FALSE(old.sweep());
  for (const BenchRow& row : old.rows) EXPECT_EQ(row.block, 64u) << row.kernel;
}

TEST(BenchJson, RefusesASweepOfBlocksNoKernelTakes) {
  for (const char* blocks : {"[48]", "[64, 64]", "[2048]", "[16]"}) {
    nlohmann::json j = bench_json(BenchReport{});
    j["blocks"] = nlohmann::json::parse(blocks);
    EXPECT_THROW(bench_from_json(j), std::runtime_error) << blocks;
  }
  EXPECT_EQ(all_block_sizes(), (std::vector<unsigned>{32, 64, 128, 256, 512, 1024}));
}

// A transpose's block is 32 x --block-rows: a sweep of --block is refused before any GPU is asked for.
TEST(Bench, RefusesToSweepTheBlockOfATranspose) {
  BenchRequest r;
  r.kernels = {"copy", "transpose_tiled"};
  r.sizes = {1024};
  r.rows = r.cols = 32;
  r.blocks = {64, 128};
  try {
    run_bench(r);
    ADD_FAILURE() << "a transpose's block was swept";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("--block-rows"), std::string::npos) << e.what();
  }
}

TEST(BenchJson, ShippedReferenceFilesParse) {
  for (const char* name : {"timings.json", "shmoo_sum_int32.json", "transpose_float32.json"}) {
    std::ifstream f(std::string(REDLAB_SOURCE_DIR) + "/assets/reference/" + name);
    ASSERT_TRUE(f) << name << " is missing from assets/reference/";
    const BenchReport r = bench_from_json(nlohmann::json::parse(f));
    EXPECT_FALSE(r.rows.empty()) << name;
    EXPECT_NE(r.device.find("H200"), std::string::npos) << name;
    for (const auto& row : r.rows) EXPECT_TRUE(row.correct) << name << " " << row.kernel;
  }
}

TEST(BenchJson, RefusesAForeignFile) {
  EXPECT_THROW(bench_from_json(nlohmann::json::parse(R"({"device": "x"})")), std::runtime_error);
}

TEST(Bench, RefusesWithoutAGpuAndSaysWhereTheFiguresAre) {
  std::string why;
  if (make_cuda_executor(&why)) GTEST_SKIP() << "a CUDA device is present";
  BenchRequest r;
  r.kernels = {"vectorized"};
  r.sizes = {1024};
  try {
    run_bench(r);
    ADD_FAILURE() << "bench ran without a GPU";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("assets/reference/timings.json"), std::string::npos) << e.what();
  }
}

// NCCL is opened at run time: without it, one sentence saying what to install or set; NVLink multicast is switched
// off before any communicator exists (a value the user set is kept); NCCL's numbers for types and operators.
TEST(Nccl, WithoutTheLibraryItSaysWhatToInstallAndMulticastIsOff) {
  unsetenv("NCCL_NVLS_ENABLE");
  no_nvlink_multicast();
  EXPECT_STREQ(getenv("NCCL_NVLS_ENABLE"), "0");
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  no_nvlink_multicast();
  EXPECT_STREQ(getenv("NCCL_NVLS_ENABLE"), "0");
  EXPECT_EQ(nccl_data_type(ElemType::int32), 2);
  EXPECT_EQ(nccl_data_type(ElemType::float32), 7);
  EXPECT_EQ(nccl_data_type(ElemType::float64), 8);
  EXPECT_EQ(nccl_op(OpKind::sum), 0);
  EXPECT_EQ(nccl_op(OpKind::max), 2);
  EXPECT_EQ(nccl_op(OpKind::min), 3);
  setenv("REDLAB_NCCL", "/no/such/libnccl.so.2", 1);
  std::string why;
  const Nccl* n = nccl(&why);
  if (n) GTEST_SKIP() << "NCCL is installed here: " << n->path;
  EXPECT_NE(why.find("/no/such/libnccl.so.2"), std::string::npos) << why;
  EXPECT_NE(why.find("REDLAB_NCCL"), std::string::npos) << why;
  EXPECT_EQ(nccl_version(&why), "");
  EXPECT_STREQ(getenv("NCCL_NVLS_ENABLE"), "0");
}

// Where NCCL and its header are both here, the declarations redlab writes for itself agree with them.
TEST(Nccl, WhereItIsInstalledItsVersionIsReadAndItsNumbersAreRedlabs) {
  std::string why;
  const Nccl* n = nccl(&why);
  if (!n) GTEST_SKIP() << why;
  const std::string v = nccl_version(&why);
  EXPECT_EQ(std::count(v.begin(), v.end(), '.'), 2) << v;
  EXPECT_EQ(v.rfind("2.", 0), 0u) << v;
#if __has_include(<nccl.h>)
  EXPECT_EQ(nccl_data_type(ElemType::int32), int(ncclInt32));
  EXPECT_EQ(nccl_data_type(ElemType::float32), int(ncclFloat32));
  EXPECT_EQ(nccl_data_type(ElemType::float64), int(ncclFloat64));
  EXPECT_EQ(nccl_op(OpKind::sum), int(ncclSum));
  EXPECT_EQ(nccl_op(OpKind::min), int(ncclMin));
  EXPECT_EQ(nccl_op(OpKind::max), int(ncclMax));
  EXPECT_EQ(int(ncclSuccess), 0);
  EXPECT_NE(std::string(n->GetErrorString(ncclInvalidArgument)), "");
#endif
}
