// Scenario validation, the CPU reference, trace files (round trip, damaged and foreign files).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/catalog.h"
#include "core/child_process.h"
#include "core/gallery.h"
#include "core/kernel_file.h"
#include "core/kernel_source.h"
#include "core/hw_counts.h"
#include "core/file_write.h"
#include "core/json_read.h"
#include "core/reference.h"
#include "core/stats_json.h"
#include "core/trace.h"
#include "core/trace_builder.h"
#include "core/user_dirs.h"
#include "exec/executor.h"
#include "exec/kernel_cache.h"
#include "exec/user_kernel.h"
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

// An all-reduce's expected buffer, computed by typed loops over slices (bench --gpus checks GiB buffers with it),
// is bit for bit the fold of combine_bits from the identity, slice 0 first: every type and operator, int32 sums
// wrapping.
TEST(Reference, CombinedSlicesAreTheFoldOfEachElement) {
  for (ElemType t : {ElemType::int32, ElemType::float32, ElemType::float64})
    for (OpKind op : {OpKind::sum, OpKind::min, OpKind::max}) {
      Scenario s;
      s.type = t;
      s.op = op;
      s.input = InputKind::random;
      const unsigned gpus = 5;
      const std::uint64_t count = 1001;
      s.n = count * gpus;
      const std::size_t es = elem_size(t);
      std::vector<std::uint8_t> in(s.n * es), out(count * es);
      fill_input(s, in.data());
      if (t == ElemType::int32) {  // sums that wrap
        const std::int32_t big = INT32_MAX - 3;
        std::memcpy(in.data(), &big, 4);
        std::memcpy(in.data() + count * 4, &big, 4);
      }
      combine_slices(t, op, in.data(), count, gpus, out.data());
      for (std::uint64_t i = 0; i < count; ++i) {
        std::uint64_t want = identity_bits(t, op), v = 0, got = 0;
        for (unsigned h = 0; h < gpus; ++h) {
          std::memcpy(&v, in.data() + (h * count + i) * es, es);
          want = combine_bits(t, op, want, v);
        }
        std::memcpy(&got, out.data() + i * es, es);
        ASSERT_EQ(got, want) << to_string(t) << " " << to_string(op) << " element " << i;
      }
    }
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
// Each test runs as its own process beside others (ctest -j): a name of its own keeps one test from reading another's
// file. Every file named here is removed when the test's process ends, passed or failed: nothing is left in /tmp.
std::string temp_path(const char* name) {
  struct Files {
    std::vector<std::string> paths;
    ~Files() {
      for (const std::string& p : paths) std::remove(p.c_str());
    }
  };
  static Files files;
  files.paths.push_back(::testing::TempDir() + std::to_string(getpid()) + "_" + name);
  return files.paths.back();
}
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
          EXPECT_EQ(a.accesses[k].line, b.accesses[k].line);
          EXPECT_EQ(a.accesses[k].column, b.accesses[k].column);
          EXPECT_EQ(a.accesses[k].file, b.accesses[k].file);
        }
      }
  EXPECT_EQ(u.host, t.host);
  EXPECT_EQ(u.device, t.device);
  EXPECT_EQ(u.access_files, t.access_files);
  EXPECT_FALSE(u.access_files.empty());
}

// The expression an access was made with, as the bank grid names it: the emulator's trace says where (file, line,
// column of the closing bracket); the GPU's only the line, which names the file and the statement.
TEST(AccessSource, TheEmulatorsTraceNamesEachAccessByItsExpression) {
  Scenario s;
  s.kernel = "interleaved";
  s.n = 512;
  s.block = 128;
  s.backend = BackendChoice::cpu;
  const Trace t = make_cpu_executor()->run(s);
  const KernelSources sources = load_kernel_sources(find_kernel("interleaved")->source_file);
  auto named = [&](unsigned step, std::size_t k) {
    const WarpAccess& a = t.focus.at(0).steps.at(step).at(0).accesses.at(k);
    const std::optional<AccessSource> src = access_source(t, a, sources);
    return src ? src->file + ":" + std::to_string(src->line) + " " + src->expression : std::string("none");
  };
  auto start = [&](unsigned step, std::size_t k) {
    return access_source(t, t.focus.at(0).steps.at(step).at(0).accesses.at(k), sources)->start;
  };
  // Step 0 (load): s[tid] = i < n ? input[i] : ...; the canonical order is shared loads, shared stores, global loads.
  EXPECT_EQ(named(0, 0), "kernels/reduce/interleaved.cuh:21 s[tid]");
  EXPECT_EQ(named(0, 1), "kernels/reduce/interleaved.cuh:21 input[i]");
  // Step 1 (offset 64): s[tid] = op(s[tid], s[tid + offset]): two loads (by the first lane's address), one store.
  EXPECT_EQ(named(1, 0), "kernels/reduce/interleaved.cuh:28 s[tid]");
  EXPECT_EQ(named(1, 1), "kernels/reduce/interleaved.cuh:28 s[tid + offset]");
  EXPECT_EQ(named(1, 2), "kernels/reduce/interleaved.cuh:28 s[tid]");
  // Which s[tid] of "      s[tid] = op(s[tid], s[tid + offset]);": the load the second, the store the first.
  EXPECT_EQ(start(1, 0), 18u);
  EXPECT_EQ(start(1, 2), 6u);
  // The last step: thread 0 reads s[0] in the kernel's file and writes out[...] in common.cuh's helper.
  const auto& last = t.focus.at(0).steps.back().at(0).accesses;
  ASSERT_EQ(last.size(), 2u);
  EXPECT_EQ(named(unsigned(t.steps.size() - 1), 0), "kernels/reduce/interleaved.cuh:36 s[0]");
  EXPECT_EQ(named(unsigned(t.steps.size() - 1), 1).rfind("kernels/reduce/common.cuh:", 0), 0u);

  // As the GPU records it: the line alone names the kernel's file, and the statement where it has several.
  WarpAccess gpu = t.focus.at(0).steps.at(1).at(0).accesses.at(1);
  gpu.column = 0;
  gpu.file = 0;
  const std::optional<AccessSource> src = access_source(t, gpu, sources);
  ASSERT_TRUE(src);
  EXPECT_EQ(src->file, "kernels/reduce/interleaved.cuh");
  EXPECT_EQ(src->expression, "s[tid] = op(s[tid], s[tid + offset]);");
  EXPECT_EQ(src->start, std::string::npos);
  gpu.line = 0;
  EXPECT_FALSE(access_source(t, gpu, sources));
}

TEST(AccessSource, AnIndexingExpressionIsReadBackFromItsClosingBracket) {
  const std::string line = "  tile[threadIdx.y][threadIdx.x] = in[(y0 + j) * cols + x];  // s[not this]";
  EXPECT_EQ(indexing_expression(line, unsigned(line.find("x] =") + 2)), "tile[threadIdx.y][threadIdx.x]");
  EXPECT_EQ(indexing_expression(line, unsigned(line.find("x];") + 2)), "in[(y0 + j) * cols + x]");
  EXPECT_EQ(indexing_expression(line, 3), "");  // not a closing bracket
  EXPECT_EQ(indexing_expression(line, unsigned(line.size())), "");  // in the comment
  EXPECT_EQ(indexing_expression(line, 0), "");  // two on the line: no single one
  EXPECT_EQ(indexing_expression("  v = s[s[i]];", 0), "s[s[i]]");
  EXPECT_EQ(indexing_expression("  v = s[s[i]];", 13), "s[s[i]]");
  EXPECT_EQ(indexing_expression("  v = s[s[i]];", 12), "s[i]");
  // The compiler may name the opening bracket instead (g++ 12 does for a template's operator[]).
  EXPECT_EQ(indexing_expression(line, unsigned(line.find("[threadIdx.x]") + 1)), "tile[threadIdx.y][threadIdx.x]");
  EXPECT_EQ(indexing_expression("  v = s[s[i]];", 8), "s[s[i]]");
  EXPECT_EQ(indexing_expression("  v = s[s[i]", 8), "");  // never closed
  const std::string longer = "  x = s[" + std::string(80, 'a') + "];";
  EXPECT_EQ(indexing_expression(longer, unsigned(longer.size() - 1)).size(), AccessSource::kMaxExpression);
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
    } catch (const std::runtime_error& e) { EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what(); }
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
  } catch (const std::runtime_error& e) { EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos); }
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
  } catch (const std::exception& e) { return e.what(); }
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
    EXPECT_NE(why.find(h.refused_with), std::string::npos)
        << h.name << ": wanted '" << h.refused_with << "', got: " << why;
  }
  EXPECT_GE(redlab::testdata::hostile_bodies(j).size(), 8u);
}

// A race across a cluster keeps the block of each access and of the element through a file, and says them in `stats`;
// a file from before they were written reads each as the fault's block; a block past the grid is refused.
TEST(TraceFile, AClusterRaceKeepsTheBlockOfEachAccess) {
  Scenario s;
  s.kernel = "interleaved";
  s.n = 512;
  s.block = 128;
  s.backend = BackendChoice::cpu;
  Trace t = make_cpu_executor()->run(s);
  ASSERT_EQ(t.grid, 4u);
  t.steps.resize(3);
  t.focus.resize(1);
  t.focus[0].steps.resize(3);
  t.result = t.reference = "";
  t.correct = false;
  Fault f;
  f.kind = FaultKind::race;
  f.message = "emulator: race across the cluster on shared s[0] of block 1 ...";
  f.block = 0;
  f.step = 2;
  f.element = "s[0]";
  f.byte = 0;
  f.element_block = 1;
  f.accesses = {{0, 1, "/tmp/mine.cu", 55, true, 1}, {0, 2, "/tmp/mine.cu", 55, false, 0}};
  t.fault = f;
  const std::string path = temp_path("cluster-fault.rltrace");
  save_trace(t, path);
  const Trace u = load_trace(path);
  ASSERT_TRUE(u.fault);
  EXPECT_EQ(u.fault->element_block, 1u);
  ASSERT_EQ(u.fault->accesses.size(), 2u);
  EXPECT_EQ(u.fault->accesses[0].block, 1u);
  EXPECT_EQ(u.fault->accesses[1].block, 0u);
  EXPECT_TRUE(u.fault->across_cluster());
  const nlohmann::json j = stats_json(u);
  EXPECT_EQ(j.at("fault").at("element_block"), 1);
  EXPECT_EQ(j.at("fault").at("accesses").at(0).at("block"), 1);
  const std::string text = stats_text(u);
  EXPECT_NE(text.find("<- thread 0 of block 1 wrote s[0] of block 1 at line 55\n"), std::string::npos) << text;
  EXPECT_NE(text.find("<- race: thread 0 read s[0] of block 1 at line 55\n"), std::string::npos) << text;

  // Written without the blocks (as before they were kept): the fault's own block for each.
  nlohmann::json body = body_of(path);
  body.at("fault").erase("element_block");
  for (nlohmann::json& a : body.at("fault").at("accesses")) a.erase("block");
  write_trace_body(path, nlohmann::json::to_cbor(body));
  const Trace old = load_trace(path);
  ASSERT_TRUE(old.fault);
  EXPECT_EQ(old.fault->element_block, 0u);
  EXPECT_EQ(old.fault->accesses[0].block, 0u);
  EXPECT_FALSE(old.fault->across_cluster());
  // A block the grid does not have.
  body.at("fault")["element_block"] = 4;
  write_trace_body(path, nlohmann::json::to_cbor(body));
  EXPECT_NE(load_error(path).find("element_block"), std::string::npos) << load_error(path);
  body.at("fault").erase("element_block");
  body.at("fault").at("accesses").at(1)["block"] = 7;
  write_trace_body(path, nlohmann::json::to_cbor(body));
  EXPECT_NE(load_error(path).find("block"), std::string::npos) << load_error(path);
}

// A kernel file's record travels in its trace as data: what the views read (names, flags, tile, slots) comes back
// equal, without a launcher or formula; the trace's scenario is checked by the family's rules against it (the catalog
// does not know the id); its text is bounded; and registering it never replaces a catalog kernel's record.
TEST(TraceFile, AKernelFilesRecordTravelsAsDataAndNeverReplacesTheCatalogs) {
  Scenario s;
  s.kernel = "interleaved";
  s.n = 512;
  s.block = 128;
  s.backend = BackendChoice::cpu;
  Trace t = make_cpu_executor()->run(s);
  KernelRecord k = *find_kernel("transpose_padded");
  k.id = "my_file_kernel";
  k.family = Family::reduction;
  k.title = "my file's kernel";
  k.source_file = "/home/student/my_file_kernel.cu";
  k.tile.decl = "tile[32][33]";
  k.slots.shared_load = 7;
  k.slots.remote_shared_load = 3;  // a cluster kernel's file: its distributed shared memory's room, and the flag
  k.clustered = true;
  t.scenario.kernel = k.id;
  t.kernel_record = k;
  const std::string path = temp_path("file_kernel.rltrace"), bad = temp_path("file_kernel_bad.rltrace");
  save_trace(t, path);
  const Trace back = load_trace(path);
  ASSERT_TRUE(back.kernel_record);
  const KernelRecord& r = *back.kernel_record;
  EXPECT_EQ(r.id, k.id);
  EXPECT_EQ(r.title, k.title);
  EXPECT_EQ(r.source_file, k.source_file);
  EXPECT_EQ(r.tile.dim, k.tile.dim);
  EXPECT_EQ(r.tile.pitch, k.tile.pitch);
  EXPECT_STREQ(r.tile.decl, "tile[32][33]");
  EXPECT_EQ(r.slots.shared_load, 7u);
  EXPECT_EQ(r.slots.remote_shared_load, 3u);
  EXPECT_TRUE(r.clustered);
  EXPECT_EQ(r.elems_per_block, nullptr);
  EXPECT_EQ(r.trace_shape, nullptr);
  EXPECT_EQ(r.launcher(Backend::emulator, ElemType::int32), nullptr);
  // Registered, it is found and is a file's; make_plan refuses to plan it here (no formula: its second redlab does).
  EXPECT_EQ(register_file_record(r), "");
  ASSERT_NE(find_kernel(k.id), nullptr);
  EXPECT_TRUE(is_file_record(*find_kernel(k.id)));
  // Its source path came from the file: new-kernel refuses to copy it (it would read a path the trace chose).
  EXPECT_NE(kernel_file_refusal(*find_kernel(k.id)).find("came from a kernel file's trace"), std::string::npos);
  EXPECT_NE(validate(back.scenario).find("second redlab"), std::string::npos) << validate(back.scenario);
  // The source file a record read from a trace names is read as a regular file only, never waited on: a FIFO there
  // (or /dev/zero) gives no lines at once (it held the reading for ever).
  const std::string fifo = temp_path("record_source.cu");
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const auto t0 = std::chrono::steady_clock::now();
  for (const std::string& named : {fifo, std::string("/dev/zero")}) {
    const KernelSources src = load_kernel_sources(named);
    EXPECT_TRUE(src.lines.at(named).empty()) << named;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  std::filesystem::remove(fifo);
  // A record under a catalog id is refused, and the catalog's record stays as it was.
  KernelRecord catalogs = r;
  catalogs.id = "interleaved";
  EXPECT_NE(register_file_record(catalogs).find("catalog kernel"), std::string::npos);
  EXPECT_NE(find_kernel("interleaved")->elems_per_block, nullptr);
  EXPECT_FALSE(is_file_record(*find_kernel("interleaved")));
  // Hostile records: refused with the field named.
  const nlohmann::json j = body_of(path);
  const std::vector<std::pair<std::function<void(nlohmann::json&)>, std::string>> hostile = {
      {[](nlohmann::json& b) { b["kernel_record"]["id"] = "../../etc"; }, "is not a name"},
      {[](nlohmann::json& b) { b["kernel_record"]["title"] = std::string(5000, 'x'); }, "title is longer than"},
      {[](nlohmann::json& b) { b["kernel_record"]["tile"]["decl"] = std::string(200, 'x'); }, "tile.decl"},
      {[](nlohmann::json& b) {
         b["kernel_record"]["slots"] = {1, 2};
       },
       "slots"},
      {[](nlohmann::json& b) { b["kernel_record"]["family"] = 9; }, "family"},
      {[](nlohmann::json& b) { b["kernel_record"]["clustered"] = 1; }, "clustered is not true or false"},
      {[](nlohmann::json& b) { b["kernel_record"] = 5; }, "kernel_record is not an object"},
  };
  for (const auto& [change, refused_with] : hostile) {
    nlohmann::json h = j;
    change(h);
    write_trace_body(bad, nlohmann::json::to_cbor(h));
    const std::string why = load_error(bad);
    EXPECT_NE(why.find(refused_with), std::string::npos) << "wanted '" << refused_with << "', got: " << why;
  }
}

// A trace that ends at a fault keeps it through a file, and says it in `stats` and its JSON: no result, the steps of
// the faulting block, the accesses beside their steps.
TEST(TraceFile, AFaultRoundTripsAndStatsSayIt) {
  Scenario s;
  s.kernel = "interleaved";
  s.n = 512;
  s.block = 128;
  s.backend = BackendChoice::cpu;
  Trace t = make_cpu_executor()->run(s);
  t.steps.resize(3);
  t.focus.resize(1);
  t.focus[0].steps.resize(3);
  t.result = t.reference = "";
  t.correct = false;
  Fault f;
  f.kind = FaultKind::race;
  f.message = "emulator: race in block 0 on shared s[32]: ...";
  f.block = 0;
  f.step = 2;
  f.element = "s[32]";
  f.accesses = {{32, 1, "/tmp/mine.cu", 57, true}, {0, 2, "/tmp/mine.cu", 57, false}};
  t.fault = f;
  const std::string path = temp_path("fault.rltrace");
  save_trace(t, path);
  const Trace u = load_trace(path);
  ASSERT_TRUE(u.fault);
  EXPECT_EQ(u.fault->kind, FaultKind::race);
  EXPECT_EQ(u.fault->message, f.message);
  EXPECT_EQ(u.fault->step, 2u);
  EXPECT_EQ(u.fault->element, "s[32]");
  ASSERT_EQ(u.fault->accesses.size(), 2u);
  EXPECT_EQ(u.fault->accesses[0].line, 57u);
  EXPECT_EQ(u.fault->accesses[0].file, "/tmp/mine.cu");
  EXPECT_TRUE(u.fault->accesses[0].write);
  EXPECT_EQ(u.fault->accesses[1].step, 2);
  const nlohmann::json j = stats_json(u);
  EXPECT_TRUE(j.at("result").is_null());
  EXPECT_EQ(j.at("fault").at("kind"), "race");
  EXPECT_EQ(j.at("fault").at("accesses").at(1).at("line"), 57);
  EXPECT_FALSE(j.contains("lost_inputs"));  // no result, nothing to have lost
  const std::string text = stats_text(u);
  EXPECT_NE(text.find("no result: the kernel stopped at its fault, race in block 0, step 3 'offset 32'"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("<- thread 32 wrote s[32] at line 57\n"), std::string::npos) << text;
  EXPECT_NE(text.find("<- race: thread 0 read s[32] at line 57\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("figures summed over all blocks"), std::string::npos) << text;
  // A trace without a fault has none after the round trip.
  t.fault.reset();
  save_trace(t, path);
  EXPECT_FALSE(load_trace(path).fault);
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

// JSON from a user's files and a child's output: nesting bounded (the parser and every copy recursed once per level),
// messages quoting a short excerpt, files read only when regular and never waited on.
TEST(UntrustedFiles, JsonNestingIsBoundedAndMessagesQuoteAnExcerpt) {
  const std::string deep = "{\"lessons\": " + std::string(60000, '[') + std::string(60000, ']') + "}";
  try {
    parse_json(deep);
    ADD_FAILURE() << "a JSON nested 60,000 deep was parsed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("deeper than 64"), std::string::npos) << e.what();
  }
  EXPECT_EQ(parse_json("[[[1]]]")[0][0][0], 1);
  EXPECT_THROW(parse_json("{\"a\": "), std::runtime_error);
  const std::string huge(20u << 20, 'x');
  EXPECT_LE(json_excerpt(nlohmann::json(huge)).size(), 60u);
  EXPECT_EQ(json_excerpt(nlohmann::json("\x1b]0;pwned\x07")).find('\x1b'), std::string::npos);
  // A recorded-counts file whose kernel is a 20 MB string: refused in a short sentence.
  const std::string path = ::testing::TempDir() + "hw-huge.json";
  std::ofstream(path) << "{\"kernel\": \"" << huge << "\", \"hw\": {}}";
  Scenario s;
  s.kernel = "interleaved";
  try {
    read_hw_counts(path, s);
    ADD_FAILURE() << "a recording of another kernel was read";
  } catch (const std::exception& e) {
    EXPECT_LT(std::string(e.what()).size(), 400u) << std::string(e.what()).substr(0, 200);
  }
  std::ofstream(path) << "{\"kernel\": " << std::string(100000, '[') << std::string(100000, ']') << "}";
  EXPECT_THROW(read_hw_counts(path, s), std::runtime_error);
  std::remove(path.c_str());
}

TEST(UntrustedFiles, OnlyRegularFilesAreReadAndWritten) {
  const std::string dir = ::testing::TempDir() + "untrusted-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string text, why;
  const auto t0 = std::chrono::steady_clock::now();
  why = read_regular_file(fifo, 1024, &text);  // returns at once: no writer is waited for
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  EXPECT_NE(why.find("not a regular file"), std::string::npos) << why;
  EXPECT_NE(read_regular_file(dir, 1024, &text).find("a folder"), std::string::npos);
  std::ofstream(dir + "/big") << std::string(2000, 'x');
  EXPECT_NE(read_regular_file(dir + "/big", 1024, &text).find("more than the 1024"), std::string::npos);
  EXPECT_EQ(read_regular_file(dir + "/big", 4096, &text), "");
  EXPECT_EQ(text.size(), 2000u);
  // A trace opened from a FIFO or /dev/zero: refused at once (it was read for ever, or until the memory ran out).
  const auto t1 = std::chrono::steady_clock::now();
  EXPECT_THROW(load_trace(fifo), std::runtime_error);
  EXPECT_THROW(load_trace("/dev/zero"), std::runtime_error);
  EXPECT_LT(std::chrono::steady_clock::now() - t1, std::chrono::seconds(2));
  // Writing: a FIFO (or a device) in the file's place is left as it is, --force or not.
  EXPECT_THROW(write_file_atomically(fifo, "trace"), std::runtime_error);
  struct stat st {};
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  // redlab's own files replace a symlink in their place, never the file it names.
  std::ofstream(dir + "/notes") << "mine";
  ASSERT_EQ(symlink((dir + "/notes").c_str(), (dir + "/settings.json").c_str()), 0);
  write_file_atomically(dir + "/settings.json", "{}", SymlinkPolicy::replace);
  std::ifstream notes(dir + "/notes");
  std::string kept;
  std::getline(notes, kept);
  EXPECT_EQ(kept, "mine");
  ASSERT_EQ(lstat((dir + "/settings.json").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  std::filesystem::remove_all(dir);
}

// A student's file is read token by token: white space and names of any length between a pattern's tokens. With
// std::regex's `\s*`, 50,000 spaces between `.id =` and the name (or a million newlines inside
// REDLAB_KERNEL_RECORD( ... )) recursed once per character and ended the first redlab with a stack overflow.
TEST(KernelFileScan, LongRunsOfWhiteSpaceOrLongNamesAreReadInOnePass) {
  const std::string spaces(50000, ' '), newlines(1000000, '\n'), long_name(200000, 'a');
  std::string why;
  EXPECT_EQ(user_kernel_id("struct mine_record {\n  KernelRecord r{.id =" + spaces +
                               "\"mine\"};\n};\n"
                               "REDLAB_KERNEL_RECORD(" +
                               newlines + "mine_record" + newlines + ")\n",
                           &why),
            "mine")
      << why;
  EXPECT_EQ(user_kernel_id("r{.id = \"" + long_name + "\"};", &why), long_name);
  EXPECT_EQ(user_kernel_id("r{.id = \"" + long_name, &why), "");  // no closing quote: no record
  const std::string kernel = "__global__" + spaces + "void" + newlines + "k" + spaces + "(int* x, Probe" + spaces +
                             "probe) {\n  __syncthreads" + spaces + "(" + newlines + ")" + spaces + ";\n}\n";
  const BarrierSteps b = add_barrier_steps(kernel);
  EXPECT_EQ(b.kernels, std::vector<std::string>{"k"});
  EXPECT_EQ(b.lines.size(), 1u);
  // Words are whole words; runs do not overlap.
  EXPECT_TRUE(find_token_runs("__global__ voids k(", {"__global__", "void", kIdentifier, "("}).empty());
  EXPECT_TRUE(find_token_runs("x__global__ void k(", {"__global__", "void", kIdentifier, "("}).empty());
  const std::vector<TokenRun> runs = find_token_runs("f ( a ) f(b)", {"f", "(", kIdentifier, ")"});
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].captured[0], "a");
  EXPECT_EQ(runs[1].captured[0], "b");
  EXPECT_EQ(runs[1].begin, 8u);
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
  ASSERT_EQ(b.kernels, std::vector<std::string>{"mine"});  // `named` names its steps; `no_probe` takes no probe
  EXPECT_EQ(b.left, (std::vector<std::string>{"named (line 14): names its own steps (probe.step)",
                                              "no_probe (line 15): its last parameter is not `probe`"}));
  EXPECT_EQ(b.lines, (std::vector<int>{6, 9}));
  // Every line keeps its number: the calls go on the lines they follow.
  EXPECT_EQ(std::count(b.text.begin(), b.text.end(), '\n'), std::count(file.begin(), file.end(), '\n'));
  std::istringstream lines(b.text);
  std::vector<std::string> l(1);
  for (std::string x; std::getline(lines, x);) l.push_back(x);
  EXPECT_NE(l[3].find("{ unsigned redlab_barriers_ = 0; probe.active_when_accessing(); probe.step(Phase::load);"),
            std::string::npos)
      << l[3];
  EXPECT_NE(l[6].find("__syncthreads(); probe.step(Phase::tree, Label::barrier, int(++redlab_barriers_));"),
            std::string::npos)
      << l[6];
  EXPECT_NE(l[9].find("probe.step(Phase::tree, Label::barrier"), std::string::npos) << l[9];
  EXPECT_EQ(l[1], "// a comment that says __syncthreads(); is not code");  // comments and strings are not code
  EXPECT_EQ(l[11], "  const char* text = \"__syncthreads();\";");
  EXPECT_EQ(l[14],
            "__global__ void named(T* x, Probe probe) { probe.step(Phase::load); probe.active(); __syncthreads(); }");
  // A kernel that says where its threads are active keeps that; a transpose file's steps are the tile's.
  const std::string tile =
      "struct x_record : transpose_kernel {};\n"
      "__global__ void t(const T* in, T* out, Probe probe) {\n  probe.active();\n  __syncthreads();\n}\n";
  const BarrierSteps t = add_barrier_steps(tile);
  EXPECT_NE(t.text.find("{ probe.step(Phase::tile_load);"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("__syncthreads(); probe.step(Phase::tile_store);"), std::string::npos) << t.text;
  EXPECT_EQ(t.text.find("active_when_accessing"), std::string::npos);
  // Every kernel names its steps: nothing changes.
  EXPECT_EQ(
      add_barrier_steps(std::string(tile).replace(tile.find("probe.active();"), 15, "probe.step(Phase::tile_load);"))
          .text,
      std::string(tile).replace(tile.find("probe.active();"), 15, "probe.step(Phase::tile_load);"));
}

// Which kernels a kernel file can start from is said once (kernel_file_refusal): make_kernel_file refuses exactly
// those, with that reason, and `list --json` reads the same answer.
TEST(KernelFile, OneRuleSaysWhichKernelsAFileStartsFrom) {
  unsigned files = 0;
  for (const KernelRecord* k : catalog()) {
    const std::string why = kernel_file_refusal(*k);
    files += why.empty();
    if (k->family == Family::allreduce || !k->traceable) EXPECT_NE(why, "") << k->id;
    if (why.empty()) {
      EXPECT_NO_THROW(make_kernel_file(*k, "mine", {}, read_catalog_source)) << k->id;
    } else {
      try {
        make_kernel_file(*k, "mine", {}, read_catalog_source);
        ADD_FAILURE() << k->id << " made a file";
      } catch (const std::invalid_argument& e) { EXPECT_EQ(e.what(), why); }
    }
  }
  EXPECT_NE(kernel_file_refusal(*find_kernel("allreduce_ring")).find("schedule of transfers"), std::string::npos);
  EXPECT_EQ(kernel_file_refusal(*find_kernel("interleaved")), "");
  EXPECT_GT(files, 20u);
}

// The instance a kernel file launches first, named from its text (for NVRTC to compile beside the host compiler):
// every catalog kernel's file names one, with the scenario's values put in; a launch whose arguments are
// expressions, or that names two kernels, names none (the library names it once built).
TEST(KernelFile, TheLaunchedInstanceIsReadFromTheFilesText) {
  const KernelRecord* interleaved = find_kernel("interleaved");
  const KernelRecord* transpose = find_kernel("transpose_padded");
  const KernelRecord* inplace = find_kernel("global_inplace");
  ASSERT_TRUE(interleaved && transpose && inplace);
  const std::string reduction = make_kernel_file(*interleaved, "mine", {}, read_catalog_source);
  EXPECT_EQ(launched_instance(reduction, {ElemType::float32, 128, 8, OpKind::max, true}),
            "&redlab::kernels::mine<128u, float, redlab::kernels::Max<float>, redlab::kernels::TraceProbe>");
  EXPECT_EQ(launched_instance(reduction, {ElemType::int32, 1024, 8, OpKind::sum, false}),
            "&redlab::kernels::mine<1024u, int, redlab::kernels::Sum<int>, redlab::kernels::NoProbe>");
  EXPECT_EQ(launched_instance(make_kernel_file(*transpose, "mytile", {}, read_catalog_source),
                              {ElemType::float64, 256, 16, OpKind::sum, true}),
            "&redlab::kernels::mytile<16u, double, redlab::kernels::TraceProbe>");
  EXPECT_EQ(launched_instance(make_kernel_file(*inplace, "inplace", {}, read_catalog_source),
                              {ElemType::int32, 64, 8, OpKind::min, true}),
            "&redlab::kernels::inplace<int, redlab::kernels::Min<int>, redlab::kernels::TraceProbe>");
  for (const KernelRecord* k : catalog()) {
    std::string file;
    try {
      file = make_kernel_file(*k, "mine", {}, read_catalog_source);
    } catch (const std::invalid_argument&) {
      continue;  // no traced build: no file
    }
    EXPECT_EQ(launched_instance(file, {}).rfind("&redlab::kernels::mine<", 0), 0u) << k->id;
  }
  auto edited = [&](const std::string& from, const std::string& to) {
    std::string t = reduction;
    const std::size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? t : t.replace(at, from.size(), to);
  };
  // Each scan that finds nothing says what it looked for, and where.
  std::string why;
  const std::string doubled = edited("auto fn = mine<B, T, Op, Probe>;", "auto fn = mine<B * 2, T, Op, Probe>;");
  EXPECT_EQ(launched_instance(doubled, {}, &why), "");
  const std::size_t line = 1 + std::count(doubled.begin(), doubled.begin() + doubled.find("mine<B * 2"), '\n');
  EXPECT_EQ(why, "line " + std::to_string(line) +
                     ": `mine` gets `B * 2`, not one of the launch's parameters (its value is the compiler's)");
  EXPECT_EQ(
      launched_instance(edited("auto fn = mine<B, T, Op, Probe>;",
                               "auto fn = a.atomic ? mine<B, T, Op, Probe> : other<B, T, Op, Probe>;") +
                            "\nnamespace redlab::kernels { template <unsigned B, class T, class Op, class Probe>\n"
                            "__global__ void other(const T*, T*, unsigned, bool, Probe) {} }\n",
                        {}, &why),
      "");
  EXPECT_NE(why.find("names two kernels"), std::string::npos) << why;
  // Comments are not code: a launch written in one names nothing.
  EXPECT_EQ(launched_instance(edited("static void launch", "// static void launch"), {}, &why), "");
  EXPECT_EQ(why, "no `static void launch` (the record's launch)");
  EXPECT_EQ(launched_instance(edited("template <unsigned B, class T, class Op, class Probe>\n  static void launch",
                                     "template <unsigned B, class T, class Probe>\n  static void launch"),
                              {}, &why),
            "");
  EXPECT_NE(why.find("takes 3 template parameters, not 4"), std::string::npos) << why;
  EXPECT_EQ(launched_instance("int main() {}", {}, &why), "");
  EXPECT_EQ(why, "no namespace redlab::kernels");
}

// Where a kernel stands is the catalog's list: a record carries no place of its own, so records the list does
// not name (kernel files of the student's own) never collide; they come after the catalog, by id.
// The names a student brings from the course notes and the books find the kernel that teaches it.
TEST(Catalog, ASearchFindsKernelsByTheNotesAndBooksNames) {
  auto found = [](const std::string& q) {
    std::vector<std::string> ids;
    for (const KernelRecord* k : catalog())
      if (kernel_matches(*k, q)) ids.push_back(k->id);
    return ids;
  };
  using V = std::vector<std::string>;
  // The CUDA samples' reduce0..reduce3 (the book's order: divergent, strided index, sequential, first add on load).
  EXPECT_EQ(found("reduce1"), V{"neighbored_strided"});
  EXPECT_EQ(found("samples reduce0"), V{"neighbored_modulo"});
  EXPECT_EQ(found("SAMPLES  Reduce2"), V{"interleaved"});  // case and spaces aside
  EXPECT_EQ(found("samples reduce3"), V{"load_add"});
  // Seed 001's own names: its reduce2 is the strided kernel, its reduce3 the sequential one.
  EXPECT_EQ(found("001 reduce2"), V{"neighbored_strided"});
  // "reduce2" alone: the note's and the samples' (two kernels, each found).
  EXPECT_EQ(found("reduce2"), (V{"neighbored_strided", "interleaved"}));
  EXPECT_EQ(found("Harris 3"), V{"interleaved"});
  EXPECT_EQ(found("harris 7"), V{"multi_element"});
  const V pmpp = found("PMPP");
  for (const char* id : {"pmpp_simple", "pmpp_convergent", "load_add", "atomic_segmented", "coarsened"})
    EXPECT_NE(std::find(pmpp.begin(), pmpp.end(), id), pmpp.end()) << id;
  EXPECT_EQ(found("交错归约"), V{"interleaved"});
  EXPECT_EQ(found("§10.4"), V{"pmpp_convergent"});
  EXPECT_TRUE(found("no such kernel").empty());
  EXPECT_EQ(found("  ").size(), catalog().size());  // nothing asked: every kernel
  EXPECT_EQ(found("reduce").size() > 3, true);
}

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
  EXPECT_LT(at("transpose_swizzled"), at("transpose_vectorized"));
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

// A child stopped at its time limit takes what it started with it (its process group): the shell's background
// sleep is gone when run_child returns, and the output it printed before is kept.
TEST(ChildProcess, ATimeLimitEndsTheChildAndEverythingItStarted) {
  const std::string pid_file = ::testing::TempDir() + "redlab-child-" + std::to_string(getpid());
  const auto t0 = std::chrono::steady_clock::now();
  const ChildResult r = run_child("/bin/sh", {"-c", "sleep 30 & echo $! > " + pid_file + "; echo started; wait"}, 1.0);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_EQ(r.out, "started\n");
  std::ifstream f(pid_file);
  pid_t sleeper = 0;
  ASSERT_TRUE(f >> sleeper);
  std::remove(pid_file.c_str());
  usleep(200000);
  // Gone, or a zombie waiting for whoever adopted it to collect its status.
  std::ifstream stat_file("/proc/" + std::to_string(sleeper) + "/stat");
  std::string pid_text, name, state;
  const bool running = bool(stat_file >> pid_text >> name >> state) && state != "Z";
  EXPECT_FALSE(running) << "the child's own child " << sleeper << " outlived it (state " << state << ")";
}

TEST(ChildProcess, OutputPastTheCapIsCountedNotKeptAndTheExitStatusAndSignalAreReported) {
  ChildOptions o;
  o.max_output = 1000;
  const ChildResult r = run_child("/bin/sh", {"-c", "head -c 100000 /dev/zero; exit 3"}, o);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out.size(), 1000u);
  EXPECT_EQ(r.dropped, 99000u);
  const ChildResult killed = run_child("/bin/sh", {"-c", "kill -SEGV $$"}, 10.0);
  EXPECT_EQ(killed.exit_code, -1);
  EXPECT_EQ(killed.signal, SIGSEGV);
  const ChildResult missing = run_child("/no/such/program", {}, 10.0);
  EXPECT_NE(missing.why.find("cannot start /no/such/program"), std::string::npos) << missing.why;
}

TEST(ChildProcess, LimitsOnMemoryAndCpuTimeApplyToTheChild) {
  ChildOptions o;
  o.address_space = 256ull << 20;
  // A shell that asks for a 1 GiB variable cannot have it.
  const ChildResult r = run_child("/usr/bin/python3", {"-c", "x = bytearray(1 << 30)"}, o);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("MemoryError"), std::string::npos) << r.err;
  ChildOptions c;
  c.cpu_seconds = 1;
  const ChildResult spin = run_child("/bin/sh", {"-c", "while :; do :; done"}, c);
  EXPECT_EQ(spin.signal, SIGXCPU) << spin.why;
}

// The private folder: made 0700, a wider mode of this user's narrowed, and refused where another user could
// change it (a folder above that anyone may write to without the sticky bit, or one that is not this user's).
TEST(UserDirs, APrivateFolderIsOnlyThisUsersOrRefusedWithASentence) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(::testing::TempDir()) / ("redlab-private-" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  std::string why;
  ASSERT_TRUE(make_private_dir((root / "a" / "b").string(), &why)) << why;
  struct stat st {};
  stat((root / "a" / "b").c_str(), &st);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  chmod((root / "a" / "b").c_str(), 0755);
  ASSERT_TRUE(make_private_dir((root / "a" / "b").string(), &why)) << why;
  stat((root / "a" / "b").c_str(), &st);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  fs::create_directories(root / "open");
  chmod((root / "open").c_str(), 0777);
  EXPECT_FALSE(make_private_dir((root / "open" / "cache").string(), &why));
  EXPECT_NE(why.find("can be changed by other users (mode 0777)"), std::string::npos) << why;
  chmod((root / "open").c_str(), 01777);  // as /tmp: the sticky bit keeps others from renaming what is in it
  EXPECT_TRUE(make_private_dir((root / "open" / "cache").string(), &why)) << why;
  fs::create_directory_symlink(root / "a", root / "link");
  EXPECT_FALSE(make_private_dir((root / "link").string(), &why));
  EXPECT_NE(why.find("symbolic link"), std::string::npos) << why;
  if (getuid() == 0) {  // another user's folder, as one made first in /tmp by someone else
    fs::create_directories(root / "open" / "theirs");
    ASSERT_EQ(chown((root / "open" / "theirs").c_str(), 12345, 12345), 0);
    EXPECT_FALSE(make_private_dir((root / "open" / "theirs").string(), &why));
    EXPECT_NE(why.find("belongs to another user (uid 12345)"), std::string::npos) << why;
    EXPECT_FALSE(make_private_dir((root / "open" / "theirs" / "cache").string(), &why));
  }
  EXPECT_FALSE(make_private_dir("relative/path", &why));
  fs::remove_all(root);
}

// A sealed folder: every file's SHA-256 recorded; one byte changed, a file removed or a damaged record is found.
TEST(KernelCache, ASealedFolderIsCheckedByteForByte) {
  namespace fs = std::filesystem;
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const fs::path cache = fs::path(::testing::TempDir()) / ("redlab-seal-" + std::to_string(getpid()));
  fs::remove_all(cache);
  fs::create_directories(cache);
  std::string why;
  const std::string build = make_build_dir(cache.string(), &why);
  ASSERT_FALSE(build.empty()) << why;
  std::ofstream(fs::path(build) / "lib.so") << "library bytes";
  std::ofstream(fs::path(build) / "source.cu") << "text";
  const std::string sealed = (cache / "k-1").string();
  ASSERT_EQ(publish_build(build, sealed, {"lib.so", "source.cu"}), "");
  EXPECT_TRUE(verify_sealed(sealed, &why)) << why;
  // A second build of the same key finds the first in place and keeps it.
  const std::string again = make_build_dir(cache.string(), &why);
  std::ofstream(fs::path(again) / "lib.so") << "library bytes";
  std::ofstream(fs::path(again) / "source.cu") << "text";
  EXPECT_EQ(publish_build(again, sealed, {"lib.so", "source.cu"}), "");
  EXPECT_FALSE(fs::exists(again));
  std::ofstream(fs::path(sealed) / "lib.so") << "library bytez";
  EXPECT_FALSE(verify_sealed(sealed, &why));
  EXPECT_NE(why.find("lib.so differs"), std::string::npos) << why;
  std::string bytes;
  EXPECT_TRUE(read_sealed(sealed, "source.cu", &bytes, &why));
  EXPECT_EQ(bytes, "text");
  EXPECT_FALSE(read_sealed(sealed, "lib.so", &bytes, &why));
  EXPECT_FALSE(read_sealed(sealed, "other", &bytes, &why));
  std::ofstream(fs::path(sealed) / "sums") << "not a digest  ../../etc/passwd\n";
  EXPECT_FALSE(verify_sealed(sealed, &why));
  // Added files (GPU images) carry their own digest.
  write_added(sealed, "gpu.image", "cubin");
  EXPECT_TRUE(read_added(sealed, "gpu.image", &bytes));
  std::ofstream(fs::path(sealed) / "gpu.image") << "cubiN";
  EXPECT_FALSE(read_added(sealed, "gpu.image", &bytes));
  fs::remove_all(cache);
}

// A step's cycles are the median of every warp's clock delta, now kept as counts: the same median as sorting them,
// for odd and even numbers of deltas, deltas past the counted range, and none at all.
TEST(CycleCounts, TheMedianOfEveryDelta) {
  auto sorted_median = [](std::vector<std::uint64_t> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? double(v[n / 2]) : (double(v[n / 2 - 1]) + double(v[n / 2])) / 2;
  };
  EXPECT_FALSE(CycleCounts().median().has_value());
  std::mt19937_64 rng(7);
  for (const std::uint64_t longest :
       {std::uint64_t(100), std::uint64_t(CycleCounts::kCounted) + 50, std::uint64_t(1) << 40})
    for (const std::size_t n :
         {std::size_t(1), std::size_t(2), std::size_t(999), std::size_t(1000), std::size_t(40001)}) {
      CycleCounts counts;
      std::vector<std::uint64_t> deltas;
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t d = rng() % longest;
        counts.add(d);
        deltas.push_back(d);
      }
      EXPECT_EQ(counts.size(), n);
      EXPECT_EQ(*counts.median(), sorted_median(deltas)) << n << " deltas below " << longest;
    }
  // Most deltas past the counted range: the median is one of the longer ones.
  CycleCounts counts;
  for (std::uint64_t d : {5u, 70000u, 80000u, 90000u}) counts.add(d);
  EXPECT_EQ(*counts.median(), 75000.0);
}
