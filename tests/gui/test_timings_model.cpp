// The Timings window's figures (app/model/timings_model.cpp), checked against the shipped reference files, and
// the live measurement's request; the window's text keys in both languages.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/catalog.h"
#include "model/i18n.h"
#include "model/timings_model.h"

using namespace redlab;
using namespace redlab::model;

namespace {
nlohmann::json read_json(const std::string& relative) {
  std::ifstream f(std::string(REDLAB_SOURCE_DIR) + "/" + relative);
  EXPECT_TRUE(f.good()) << relative;
  return nlohmann::json::parse(f);
}

// The file's own rows, by kernel.
std::map<std::string, nlohmann::json> file_rows(const nlohmann::json& j) {
  std::map<std::string, nlohmann::json> m;
  for (const auto& r : j.at("rows")) m[r.at("kernel")] = r;
  return m;
}

const std::vector<std::string> kTransposes = {
    "copy", "copy_shared", "transpose_naive", "transpose_tiled", "transpose_padded", "transpose_swizzled"};
}  // namespace

TEST(TimingsModel, TransposeReferenceFilesGiveEveryKernelAsPercentOfCopy) {
  for (ElemType t : {ElemType::float32, ElemType::float64}) {
    SCOPED_TRACE(to_string(t));
    EXPECT_EQ(transpose_reference_name(t), std::string("assets/reference/transpose_") + to_string(t) + ".json");
    const nlohmann::json j = read_json(transpose_reference_name(t));
    const TimReport r = parse_timings(j);
    EXPECT_TRUE(r.transpose());
    EXPECT_EQ(r.type, to_string(t));
    EXPECT_EQ(r.mat_rows, 8192u);
    EXPECT_EQ(r.mat_cols, 8192u);
    EXPECT_EQ(r.mat_block_rows, 8u);
    EXPECT_NE(r.device.find("H200"), std::string::npos) << r.device;
    const std::vector<TransposeLine> lines = transpose_lines(r);
    ASSERT_EQ(lines.size(), kTransposes.size());
    const auto rows = file_rows(j);
    const double copy_ms = rows.at("copy").at("median_ms");
    for (size_t i = 0; i < lines.size(); ++i) {
      const TransposeLine& l = lines[i];
      EXPECT_EQ(l.kernel, kTransposes[i]);
      const auto& x = rows.at(l.kernel);
      EXPECT_DOUBLE_EQ(l.median_ms, x.at("median_ms").get<double>());
      EXPECT_DOUBLE_EQ(l.gbps, x.at("gbps").get<double>());
      EXPECT_NEAR(l.pct_of_copy, 100.0 * copy_ms / x.at("median_ms").get<double>(), 1e-9);
      // copy is the file's first kernel, so bench's speedup column is the same fraction
      EXPECT_NEAR(l.pct_of_copy, 100.0 * x.at("speedup").get<double>(), 1e-6) << l.kernel;
    }
    EXPECT_DOUBLE_EQ(lines[0].pct_of_copy, 100.0);
  }
  // The figures the window shows (one decimal), as in the files.
  const auto f32 = transpose_lines(parse_timings(read_json(transpose_reference_name(ElemType::float32))));
  EXPECT_NEAR(f32[4].pct_of_copy, 87.95, 0.005);  // transpose_padded
  EXPECT_NEAR(f32[4].gbps, 3550.36, 0.005);
  EXPECT_NEAR(f32[2].pct_of_copy, 13.76, 0.005);  // transpose_naive
  const auto f64 = transpose_lines(parse_timings(read_json(transpose_reference_name(ElemType::float64))));
  EXPECT_NEAR(f64[5].pct_of_copy, 95.79, 0.005);  // transpose_swizzled
  EXPECT_NEAR(f64[3].pct_of_copy, 72.11, 0.005);  // transpose_tiled
}

TEST(TimingsModel, ReductionFileIsNotATransposeFile) {
  const TimReport r = parse_timings(read_json("assets/reference/timings.json"));
  EXPECT_FALSE(r.transpose());
  EXPECT_FALSE(r.rows.empty());
}

TEST(TimingsModel, PercentOfCopyComesFromTheCopyRowWhereverItIs) {
  TimReport r;
  r.mat_rows = r.mat_cols = 64;
  r.mat_block_rows = 8;
  r.rows = {{"transpose_naive", 4096, 0.4, 10}, {"copy", 4096, 0.1, 40}, {"transpose_tiled", 1024, 9, 1}};
  auto lines = transpose_lines(r);
  ASSERT_EQ(lines.size(), 2u);  // the row at another n is not this matrix's
  EXPECT_EQ(lines[0].kernel, "transpose_naive");
  EXPECT_NEAR(lines[0].pct_of_copy, 25.0, 1e-12);
  EXPECT_NEAR(lines[1].pct_of_copy, 100.0, 1e-12);
  r.rows.erase(r.rows.begin() + 1);
  lines = transpose_lines(r);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_LT(lines[0].pct_of_copy, 0);  // no copy in the run: nothing to compare with
}

TEST(TimingsModel, MeasureRequestTimesCopyBesideATranspose) {
  Scenario s;
  s.kernel = "transpose_padded";
  s.type = ElemType::float64;
  s.rows = 512;
  s.cols = 256;
  s.block_rows = 4;
  resolve_shape(s);
  BenchRequest q = measure_request(s);
  EXPECT_EQ(q.kernels, (std::vector<std::string>{"copy", "transpose_padded"}));
  EXPECT_EQ(q.rows, 512u);
  EXPECT_EQ(q.cols, 256u);
  EXPECT_EQ(q.block_rows, 4u);
  EXPECT_EQ(q.type, ElemType::float64);
  EXPECT_EQ(q.sizes, (std::vector<std::uint64_t>{512u * 256u}));
  s.kernel = "copy";
  q = measure_request(s);
  EXPECT_EQ(q.kernels, (std::vector<std::string>{"copy"}));

  Scenario red;
  red.kernel = "interleaved";
  red.n = 4097;
  red.block = 512;
  red.type = ElemType::float32;
  red.op = OpKind::max;
  q = measure_request(red);
  EXPECT_EQ(q.kernels, (std::vector<std::string>{"interleaved"}));
  EXPECT_EQ(q.sizes, (std::vector<std::uint64_t>{4097}));
  EXPECT_EQ(q.block, 512u);
  EXPECT_EQ(q.op, OpKind::max);
  EXPECT_EQ(q.rows, 0u);
}

// The block-size sweep the Timings window draws (tests/gui/sample_blocks.json: synthetic figures in bench's format):
// the kernel's points at the scenario's n, by block, CUB's level beside them; the nearest size where n was not swept.
TEST(TimingsModel, ABlockSweepAtTheScenariosSizeOrTheNearest) {
  const TimReport r = parse_timings(read_json("tests/gui/sample_blocks.json"));
  EXPECT_EQ(r.blocks, (std::vector<unsigned>{32, 64, 128, 256, 512, 1024}));
  std::optional<BlockSweep> s = block_sweep(r, "interleaved", 1u << 20);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->own_n);
  EXPECT_EQ(s->n, 1u << 20);
  ASSERT_EQ(s->points.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(s->points[i].block, 32u << i);
  EXPECT_DOUBLE_EQ(s->points[3].median_ms, 0.014);  // the file's row at block 256
  ASSERT_TRUE(s->fastest());
  EXPECT_EQ(s->fastest()->block, 256u);
  ASSERT_TRUE(s->at(128));
  EXPECT_DOUBLE_EQ(s->at(128)->median_ms, 0.016);
  EXPECT_FALSE(s->at(48));
  EXPECT_EQ(s->reference, "cub_device");
  EXPECT_DOUBLE_EQ(s->reference_ms, 0.01);
  EXPECT_NEAR(s->points[3].ratio_cub, 0.01 / 0.014, 1e-4);
  EXPECT_NEAR(s->points[3].pct_read, 100.0 * (4.0 * (1 << 20) / 0.014e6) / 2000, 1e-3);
  // 2^21 is nearer 2^20 than 2^24 by ratio; 2^23 is nearer 2^24.
  s = block_sweep(r, "interleaved", 1u << 21);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->own_n);
  EXPECT_EQ(s->n, 1u << 20);
  s = block_sweep(r, "interleaved", 1u << 23);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->n, 1u << 24);
  EXPECT_DOUBLE_EQ(s->reference_ms, 0.12);
  EXPECT_FALSE(s->points.back().correct);  // the file's wrong row stays wrong
  // A kernel the file did not sweep; a file that is no sweep; CUB itself (one launch of its own).
  EXPECT_FALSE(block_sweep(r, "vectorized", 1u << 20));
  EXPECT_FALSE(block_sweep(parse_timings(read_json("tests/gui/sample_timings.json")), "interleaved", 256));
  s = block_sweep(r, "cub_device", 1u << 20);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->points.size(), 1u);
  EXPECT_EQ(s->points[0].block, 0u);
  EXPECT_TRUE(s->reference.empty());
  EXPECT_EQ(block_sweep_prefix(ElemType::float32), "assets/reference/blocks_float32_");
}

TEST(TimingsModel, SweepRequestTimesEveryBlockBesideCub) {
  Scenario s;
  s.kernel = "unroll_last_warp";
  s.n = 1u << 22;
  s.block = 128;
  s.type = ElemType::float32;
  const BenchRequest q = sweep_request(s);
  EXPECT_EQ(q.kernels, (std::vector<std::string>{"unroll_last_warp", "cub_device"}));
  EXPECT_EQ(q.blocks, (std::vector<unsigned>{32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(q.sizes, (std::vector<std::uint64_t>{1u << 22}));
  EXPECT_EQ(q.type, ElemType::float32);
  s.kernel = "cub_device";
  EXPECT_EQ(sweep_request(s).kernels, (std::vector<std::string>{"cub_device"}));
}

// The window offers a sweep for a catalog reduction only: a kernel file (its record's source is an absolute path) is
// compiled for one block size, a transpose's block is 32 x its block rows.
TEST(TimingsModel, ASweepIsOfferedForACatalogReduction) {
  Scenario s;
  s.kernel = "interleaved";
  EXPECT_EQ(sweep_offer(s), SweepOffer::sweep);
  s.kernel = "cluster_tree";
  EXPECT_EQ(sweep_offer(s), SweepOffer::sweep);
  s.kernel = "transpose_padded";
  EXPECT_EQ(sweep_offer(s), SweepOffer::transpose);
  s.kernel = "no_such_kernel";
  EXPECT_EQ(sweep_offer(s), SweepOffer::kernel_file);
  KernelRecord mine = *find_kernel("interleaved");
  mine.id = "timings_test_mine";
  mine.source_file = "/home/student/mine.cu";
  register_kernel_record(mine);
  s.kernel = mine.id;
  EXPECT_EQ(sweep_offer(s), SweepOffer::kernel_file);
}

// On a CUDA device: what the Measure button does for a transpose, through run_bench; skipped elsewhere.
TEST(TimingsModel, LiveTransposeMeasurementOnAGpu) {
  Scenario s;
  s.kernel = "transpose_padded";
  s.type = ElemType::float32;
  s.rows = 2048;
  s.cols = 1024;
  s.block_rows = 8;
  resolve_shape(s);
  BenchReport b;
  try {
    b = run_bench(measure_request(s));
  } catch (const ScenarioError& e) {
    if (std::string(e.what()).find("no CUDA device") != std::string::npos ||
        std::string(e.what()).find("no usable CUDA device") != std::string::npos)
      GTEST_SKIP() << e.what();
    throw;
  }
  const TimReport r = from_bench(b);
  EXPECT_TRUE(r.transpose());
  EXPECT_EQ(r.mat_rows, 2048u);
  EXPECT_EQ(r.mat_cols, 1024u);
  EXPECT_EQ(r.mat_block_rows, 8u);
  EXPECT_EQ(r.type, "float32");
  const auto lines = transpose_lines(r);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].kernel, "copy");
  EXPECT_DOUBLE_EQ(lines[0].pct_of_copy, 100.0);
  EXPECT_EQ(lines[1].kernel, "transpose_padded");
  EXPECT_GT(lines[1].median_ms, 0);
  EXPECT_GT(lines[1].pct_of_copy, 10.0);
  EXPECT_LT(lines[1].pct_of_copy, 200.0);
  for (const TransposeLine& l : lines)
    std::printf("  %-18s %.4f ms  %.0f GB/s (read + write)  %.1f %% of copy  on %s\n", l.kernel.c_str(), l.median_ms,
                l.gbps, l.pct_of_copy, r.device.c_str());
}

TEST(TimingsText, BothLanguagesHaveEveryKeyAndTheTimingsDefinitions) {
  const nlohmann::json en = read_json("assets/i18n/en.json"), zh = read_json("assets/i18n/zh_CN.json");
  std::set<std::string> ke, kz;
  for (auto& [k, v] : en.items()) ke.insert(k);
  for (auto& [k, v] : zh.items()) kz.insert(k);
  EXPECT_EQ(ke, kz);
  for (const char* k :
       {"def.t.kernel", "def.t.median_ms", "def.t.gbps", "def.t.pct_copy", "tim.t.gbps", "tim.t.pct_copy", "tim.t.at",
        "tim.t.shape", "tim.t.other_shape", "tim.t.measure.tip", "tim.t.live", "def.sweep.fastest", "def.sweep.yours",
        "def.sweep.reference", "tim.sweep.header", "tim.sweep.none", "tim.sweep.measure.tip"}) {
    ASSERT_TRUE(en.contains(k)) << k;
    ASSERT_TRUE(zh.contains(k)) << k;
    EXPECT_FALSE(en.at(k).get<std::string>().empty()) << k;
    EXPECT_NE(en.at(k), zh.at(k)) << k << ": not translated";
  }
}

// The reports' driver field is the device's English ("CUDA driver API 13.0"): the window says it in its language.
TEST(TimingsText, TheDriverInTheUiLanguage) {
  ASSERT_TRUE(i18n_load("zh_CN"));
  EXPECT_EQ(driver_text("CUDA driver API 13.0"), "CUDA 驱动程序 API 13.0");
  EXPECT_EQ(driver_text("0.0"), "驱动程序 0.0");
  ASSERT_TRUE(i18n_load("en"));
  EXPECT_EQ(driver_text("CUDA driver API 13.0"), "CUDA driver API 13.0");
}
