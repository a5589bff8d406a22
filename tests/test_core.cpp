// Scenario validation, the CPU reference, trace files (round trip, damaged and foreign files).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/catalog.h"
#include "core/gallery.h"
#include "core/kernel_file.h"
#include "core/reference.h"
#include "core/stats_json.h"
#include "core/trace.h"
#include "exec/executor.h"
#include "hostile_traces.h"

using namespace redlab;

TEST(Scenario, ValidatesAndNamesTheOption) {
  Scenario s;
  EXPECT_EQ(validate(s), "");
  s.block = 96;
  EXPECT_NE(validate(s).find("--block"), std::string::npos);
  EXPECT_NE(validate(s).find("power of two from 32 to 1024"), std::string::npos);
  s.block = 2048;
  EXPECT_NE(validate(s).find("--block"), std::string::npos);
  s.block = 256;
  s.n = 0;
  EXPECT_NE(validate(s).find("--n"), std::string::npos);
  s.n = kMaxN + 1;
  EXPECT_NE(validate(s).find("--n"), std::string::npos);
  s.n = 100;
  s.kernel = "nope";
  EXPECT_NE(validate(s).find("--kernel"), std::string::npos);
  EXPECT_NE(validate(s).find("interleaved"), std::string::npos);
  s.kernel = "pmpp_simple";
  s.dynamic_smem = true;
  EXPECT_NE(validate(s).find("--dynamic-smem"), std::string::npos);
  s.dynamic_smem = false;
  s.focus_blocks = {5};
  EXPECT_NE(validate(s).find("--focus"), std::string::npos);
  std::string err;
  EXPECT_FALSE(parse_type("int64", &err));
  EXPECT_EQ(err, "--type: 'int64' is not accepted; use int32|float32|float64");
  EXPECT_FALSE(parse_op("mul", &err));
  EXPECT_NE(err.find("sum|min|max"), std::string::npos);
}

TEST(Scenario, SizesAsSpecWritesThem) {
  std::uint64_t v = 0;
  EXPECT_TRUE(parse_size("4097", v));
  EXPECT_EQ(v, 4097u);
  EXPECT_TRUE(parse_size("2^20+3", v));
  EXPECT_EQ(v, (1u << 20) + 3);
  EXPECT_TRUE(parse_size("2^16", v));
  EXPECT_EQ(v, 65536u);
  EXPECT_TRUE(parse_size("2^10-1", v));
  EXPECT_EQ(v, 1023u);
  EXPECT_FALSE(parse_size("-5", v));
  EXPECT_FALSE(parse_size("12abc", v));
  EXPECT_FALSE(parse_size("", v));
  // Digit groups, as the window's n field takes them too; 2^40 parses (the caller says "out of range").
  EXPECT_TRUE(parse_size("1,048,576", v));
  EXPECT_EQ(v, 1u << 20);
  EXPECT_TRUE(parse_size("1_048_576", v));
  EXPECT_EQ(v, 1u << 20);
  EXPECT_TRUE(parse_size("2^40", v));
  EXPECT_GT(v, kMaxN);
  EXPECT_FALSE(parse_size("2^41", v));
  // No wrap and no signs: these are refused, not run at some other n.
  EXPECT_FALSE(parse_size("2^10+18446744073709551000", v));
  EXPECT_FALSE(parse_size("2^3+-1", v));
  EXPECT_FALSE(parse_size("99999999999999999999", v));
  EXPECT_FALSE(parse_size("0x10", v));
  EXPECT_FALSE(parse_size("2^", v));
  EXPECT_FALSE(parse_size("2^10+", v));
}

TEST(Scenario, RampInputIsAsSpecified) {
  Scenario s;
  s.n = 600;
  s.input = InputKind::ramp;
  std::vector<std::int32_t> x(s.n);
  fill_input(s, x.data());
  for (std::uint64_t i = 0; i < s.n; ++i) ASSERT_EQ(x[i], std::int32_t(i % 251) - 125);
  s.type = ElemType::float64;
  std::vector<double> d(s.n);
  fill_input(s, d.data());
  EXPECT_EQ(d[251], -125.0);
}

TEST(Reference, IntSumWrapsLikeTheGpu) {
  Scenario s;
  s.n = 3;
  std::int32_t x[3] = {INT32_MAX, 1, 5};
  const Check c = check_result(s, x, std::uint32_t(INT32_MIN + 5), 0);
  EXPECT_TRUE(c.correct);
  EXPECT_EQ(c.reference_text, std::to_string(INT32_MIN + 5));
}

TEST(Reference, FloatBoundGrowsWithLog2N) {
  Scenario s;
  s.type = ElemType::float32;
  s.n = 1024;
  std::vector<float> x(s.n, 0.1f);
  float naive = 0;
  for (float v : x) naive += v;  // sequential float sum: error well above the tree bound
  const Check seq = check_result(s, x.data(), std::uint32_t(0), 0);
  EXPECT_FALSE(seq.correct);
  std::uint32_t bits;
  const float exact = 102.4f;
  std::memcpy(&bits, &exact, 4);
  EXPECT_TRUE(check_result(s, x.data(), bits, 0).correct);
  EXPECT_GT(check_result(s, x.data(), bits, 0).bound, 0);
  (void)naive;
}

namespace {
std::string temp_path(const char* name) { return ::testing::TempDir() + name; }
}  // namespace

TEST(TraceFile, RoundTripsExactly) {
  Scenario s;
  s.kernel = "neighbored_strided";
  s.n = 1000;
  s.block = 64;
  s.type = ElemType::float32;
  s.backend = BackendChoice::cpu;
  s.focus_blocks = {0, 15};
  const Trace t = make_cpu_executor()->run(s);
  ASSERT_TRUE(t.correct);
  const std::string path = temp_path("rt.rltrace");
  save_trace(t, path);
  const Trace u = load_trace(path);
  EXPECT_EQ(u.scenario.kernel, t.scenario.kernel);
  EXPECT_EQ(u.scenario.focus_blocks, t.scenario.focus_blocks);
  EXPECT_EQ(u.digest, t.digest);
  EXPECT_EQ(u.result, t.result);
  ASSERT_EQ(u.steps.size(), t.steps.size());
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    EXPECT_EQ(u.steps[i].stats, t.steps[i].stats);
    EXPECT_EQ(u.steps[i].label, t.steps[i].label);
    EXPECT_EQ(u.steps[i].line, t.steps[i].line);
  }
  ASSERT_EQ(u.focus.size(), 2u);
  for (std::size_t f = 0; f < 2; ++f)
    for (std::size_t s2 = 0; s2 < t.steps.size(); ++s2)
      for (std::size_t w = 0; w < t.focus[f].steps[s2].size(); ++w) {
        const auto& a = t.focus[f].steps[s2][w];
        const auto& b = u.focus[f].steps[s2][w];
        ASSERT_EQ(a.active, b.active);
        ASSERT_EQ(a.accesses.size(), b.accesses.size());
        for (std::size_t k = 0; k < a.accesses.size(); ++k) {
          EXPECT_EQ(a.accesses[k].mask, b.accesses[k].mask);
          EXPECT_EQ(a.accesses[k].addr, b.accesses[k].addr);
          EXPECT_EQ(a.accesses[k].bits, b.accesses[k].bits);
          EXPECT_EQ(a.accesses[k].wavefronts, b.accesses[k].wavefronts);
        }
      }
  EXPECT_EQ(u.host, t.host);
  EXPECT_EQ(u.device, t.device);
}

TEST(TraceFile, RefusesDamagedAndForeignFiles) {
  Scenario s;
  s.n = 100;
  s.block = 32;
  s.backend = BackendChoice::cpu;
  const std::string path = temp_path("dmg.rltrace");
  save_trace(make_cpu_executor()->run(s), path);
  std::string bytes;
  {
    std::ifstream f(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(f), {});
  }
  auto expect_refused = [&](const std::string& content, const char* why) {
    const std::string p = temp_path("bad.rltrace");
    std::ofstream(p, std::ios::binary) << content;
    try {
      load_trace(p);
      ADD_FAILURE() << "accepted a file that is " << why;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  expect_refused(flipped, "damaged");
  expect_refused(bytes.substr(0, bytes.size() - 7), "damaged");
  expect_refused("P6\n1 1\n255\nabc", "not a redlab trace");
  expect_refused("", "not a redlab trace");
  std::string future = bytes;
  future[8] = 99;
  expect_refused(future, "format version 99");
  try {
    load_trace(temp_path("does-not-exist"));
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
  }
}

TEST(Executor, AutoFallsBackToTheEmulatorWithANotice) {
  std::string notice;
  auto ex = make_executor(BackendChoice::auto_, &notice);
  if (ex->backend() == Backend::cuda) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_NE(notice.find("no CUDA device"), std::string::npos) << notice;
  EXPECT_NE(notice.find("using the CPU emulator"), std::string::npos) << notice;
  EXPECT_THROW(make_executor(BackendChoice::cuda, &notice), ScenarioError);
}

// Hostile trace files: valid header and checksum around a tampered body. Each is refused
// with a message naming what is wrong, before anything is sized from it; none crashes or exhausts memory.
namespace {
// A trace file with `body` as its CBOR body, header and checksum right.
void write_trace_body(const std::string& path, const std::vector<std::uint8_t>& body) {
  std::ofstream(path, std::ios::binary) << trace_file_with_body(body.data(), body.size());
}
nlohmann::json body_of(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return nlohmann::json::from_cbor(data.begin() + 28, data.end());
}
std::string load_error(const std::string& path) {
  try {
    load_trace(path);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(TraceFile, HostileFilesAreRefusedWithTheReason) {
  Scenario s;
  s.kernel = "interleaved";
  s.n = 512;
  s.block = 128;
  s.backend = BackendChoice::cpu;
  s.focus_blocks = {0, 1};
  const std::string good = temp_path("good.rltrace"), bad = temp_path("bad.rltrace");
  save_trace(make_cpu_executor()->run(s), good);
  const nlohmann::json j = body_of(good);
  ASSERT_EQ(load_error(good), "");
  for (const auto& h : redlab::testdata::hostile_bodies(j)) {
    write_trace_body(bad, h.cbor);
    const std::string why = load_error(bad);
    EXPECT_NE(why.find(h.refused_with), std::string::npos) << h.name << ": wanted '" << h.refused_with << "', got: " << why;
  }
  EXPECT_GE(redlab::testdata::hostile_bodies(j).size(), 8u);
}

// A kernel the probe cannot see (cub_device: library code) reports no counts, not zeros:
// "traced": false and a summary without count fields; the text says why instead of printing a table.
TEST(StatsJson, AKernelWithoutATracedBuildHasNoCountsNotZeros) {
  Trace untraced;
  untraced.scenario.kernel = "cub_device";
  untraced.backend = Backend::cuda;
  untraced.result = untraced.reference = "42";
  untraced.correct = true;
  untraced.passes.push_back({.kernel = "cub_device", .n = 4096});
  const nlohmann::json j = stats_json(untraced);
  EXPECT_EQ(j.at("traced"), false);
  EXPECT_TRUE(j.at("steps").empty());
  for (const char* count : {"tree_simd_efficiency", "tree_active_threads", "smem_wavefronts", "smem_requests",
                            "gmem_requests", "gmem_sectors", "trace_digest", "trace_chunks"})
    EXPECT_FALSE(j.at("summary").contains(count)) << count;
  EXPECT_TRUE(j.at("summary").contains("abs_error"));
  const std::string text = stats_text(untraced);
  EXPECT_NE(text.find("has no traced build"), std::string::npos) << text;
  EXPECT_EQ(text.find("tree SIMD efficiency"), std::string::npos) << text;

  Scenario s;
  s.kernel = "interleaved";
  s.n = 1024;
  s.block = 128;
  s.backend = BackendChoice::cpu;
  const nlohmann::json traced = stats_json(make_cpu_executor()->run(s));
  EXPECT_EQ(traced.at("traced"), true);
  EXPECT_GT(traced.at("summary").at("smem_wavefronts").get<std::uint64_t>(), 0u);
  EXPECT_TRUE(traced.at("summary").contains("tree_simd_efficiency"));
}

// Steps where a kernel names none: one per barrier interval, added on the lines they follow.
TEST(KernelFile, AKernelThatNamesNoStepsGetsOnePerBarrierInterval) {
  const std::string file =
      "// a comment that says __syncthreads(); is not code\n"
      "template <unsigned B, class T, class Op, class Probe>\n"
      "__global__ void mine(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {\n"
      "  auto s = probe.shared(s_mem);\n"
      "  s[tid] = in[i];\n"
      "  __syncthreads();\n"
      "  for (unsigned o = B / 2; o > 0; o /= 2) {\n"
      "    if (tid < o) s[tid] = op(s[tid], s[tid + o]);\n"
      "    __syncthreads ( ) ;\n"
      "  }\n"
      "  const char* text = \"__syncthreads();\";\n"
      "}\n"
      "template <class T, class Probe>\n"
      "__global__ void named(T* x, Probe probe) { probe.step(Phase::load); probe.active(); __syncthreads(); }\n"
      "__global__ void no_probe(int* x) { __syncthreads(); }\n";
  const BarrierSteps b = add_barrier_steps(file);
  ASSERT_EQ(b.kernels, std::vector<std::string>{"mine"});   // `named` names its steps; `no_probe` takes no probe
  EXPECT_EQ(b.lines, (std::vector<int>{6, 9}));
  // Every line keeps its number: the calls go on the lines they follow.
  EXPECT_EQ(std::count(b.text.begin(), b.text.end(), '\n'), std::count(file.begin(), file.end(), '\n'));
  std::istringstream lines(b.text);
  std::vector<std::string> l(1);
  for (std::string x; std::getline(lines, x);) l.push_back(x);
  EXPECT_NE(l[3].find("{ unsigned redlab_barriers_ = 0; probe.active_when_accessing(); probe.step(Phase::load);"),
            std::string::npos) << l[3];
  EXPECT_NE(l[6].find("__syncthreads(); probe.step(Phase::tree, Label::barrier, int(++redlab_barriers_));"),
            std::string::npos) << l[6];
  EXPECT_NE(l[9].find("probe.step(Phase::tree, Label::barrier"), std::string::npos) << l[9];
  EXPECT_EQ(l[1], "// a comment that says __syncthreads(); is not code");   // comments and strings are not code
  EXPECT_EQ(l[11], "  const char* text = \"__syncthreads();\";");
  EXPECT_EQ(l[14], "__global__ void named(T* x, Probe probe) { probe.step(Phase::load); probe.active(); __syncthreads(); }");
  // A kernel that says where its threads are active keeps that; a transpose file's steps are the tile's.
  const std::string tile =
      "struct x_record : transpose_kernel {};\n"
      "__global__ void t(const T* in, T* out, Probe probe) {\n  probe.active();\n  __syncthreads();\n}\n";
  const BarrierSteps t = add_barrier_steps(tile);
  EXPECT_NE(t.text.find("{ probe.step(Phase::tile_load);"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("__syncthreads(); probe.step(Phase::tile_store);"), std::string::npos) << t.text;
  EXPECT_EQ(t.text.find("active_when_accessing"), std::string::npos);
  // Every kernel names its steps: nothing changes.
  EXPECT_EQ(add_barrier_steps(std::string(tile).replace(tile.find("probe.active();"), 15, "probe.step(Phase::tile_load);")).text,
            std::string(tile).replace(tile.find("probe.active();"), 15, "probe.step(Phase::tile_load);"));
}

// Where a kernel stands is the catalog's list: a record carries no place of its own, so records the list does
// not name (kernel files of the student's own) never collide; they come after the catalog, by id.
TEST(Catalog, KernelFilesComeAfterTheCatalogByIdAndNeverCollide) {
  register_kernel_record({.id = "zz_file_b", .title = "a kernel file", .source_file = "/home/student/b.cu"});
  register_kernel_record({.id = "zz_file_a", .title = "a kernel file", .source_file = "/home/student/a.cu"});
  const std::vector<const KernelRecord*>& c = catalog();
  ASSERT_GE(c.size(), 27u);
  EXPECT_EQ(c.front()->id, "global_inplace");
  EXPECT_EQ(c[c.size() - 2]->id, "zz_file_a");
  EXPECT_EQ(c.back()->id, "zz_file_b");
  auto at = [&](const std::string& id) {
    return std::find_if(c.begin(), c.end(), [&](const KernelRecord* k) { return k->id == id; }) - c.begin();
  };
  EXPECT_LT(at("neighbored_modulo"), at("interleaved"));
  EXPECT_LT(at("interleaved"), at("warp_shuffle"));
  EXPECT_LT(at("cub_device"), at("copy"));
  EXPECT_LT(at("transpose_padded"), at("transpose_swizzled"));
  // A record's source file is found from its record's file, not written in it.
  EXPECT_EQ(find_kernel("interleaved")->source_file, "kernels/reduce/interleaved.cuh");
  EXPECT_EQ(find_kernel("transpose_padded")->source_file, "kernels/transpose/transpose_padded.cuh");
  EXPECT_EQ(find_kernel("cg_reduce")->source_file, "kernels/library/cg_reduce.cuh");
}

// A suggested command is pasted into a shell: every word reads back as itself.
TEST(Gallery, SuggestedCommandsAreQuotedForTheShell) {
  EXPECT_EQ(shell_quoted("--block-rows"), "--block-rows");
  EXPECT_EQ(shell_quoted("/home/student/gallery/missing_sync.cu"), "/home/student/gallery/missing_sync.cu");
  EXPECT_EQ(shell_quoted("2^20+3"), "2^20+3");
  EXPECT_EQ(shell_quoted("my file.cu"), "'my file.cu'");
  EXPECT_EQ(shell_quoted("4096; rm -rf ~"), "'4096; rm -rf ~'");
  EXPECT_EQ(shell_quoted("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quoted("$(id)"), "'$(id)'");
  EXPECT_EQ(shell_quoted(""), "''");
}

