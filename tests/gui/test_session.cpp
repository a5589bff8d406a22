// The window's session without a window (app/model/model.h): runs in the background, their progress and
// cancel, the measurements a view requests, the files it reads. What the views show comes from here.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include "core/catalog.h"
#include "core/file_write.h"
#include "model/i18n.h"
#include "exec/executor.h"
#include "exec/user_kernel.h"
#include "model/model.h"
#include "model/startup.h"
#include "model/tree_model.h"
#include "cli/arguments.h"

using namespace redlab;
using namespace redlab::model;

namespace {

GuiOptions headless_options() {
  GuiOptions o;
  o.screenshot = "unused.png";  // headless: the session settles work when asked to wait
  return o;
}

Scenario cpu_scenario(const std::string& kernel, std::uint64_t n) {
  Scenario s;
  s.kernel = kernel;
  s.n = n;
  s.block = 256;
  s.backend = BackendChoice::cpu;
  s.input = InputKind::ones;
  return s;
}

}  // namespace

// The tile view's request slider: one shared request per tile row a thread moves, tile side / K: a 32-row tile at
// K = 8 gives 4, the 64-row tile of transpose_vectorized 8 (and 2 at K = 32); never fewer than 1.
TEST(Model, TheTileViewCountsEachTilesRequestsPerWarp) {
  Trace t;
  t.scenario.kernel = "transpose_padded";
  t.scenario.block_rows = 8;
  EXPECT_EQ(tile_requests(t), 4u);
  t.scenario.kernel = "transpose_vectorized";
  EXPECT_EQ(tile_requests(t), 8u);
  t.scenario.block_rows = 32;
  EXPECT_EQ(tile_requests(t), 2u);
  t.scenario.kernel = "transpose_tiled";
  EXPECT_EQ(tile_requests(t), 1u);
  t.scenario.block_rows = 0;
  EXPECT_EQ(tile_requests(t), 32u);
}

// A trace that is not of what its side now shows is marked: the scenario changed and not run (picking
// transpose_tiled over interleaved's trace), a run under way, a kernel file that no longer compiles.
TEST(Model, ATraceNotOfTheScenarioShownSaysWhy) {
  i18n_load("en");
  Model model(headless_options());
  model.open_scenario(SideId::a, cpu_scenario("interleaved", 256));
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace);
  EXPECT_EQ(stale_reason(model.work.a), "");
  model.work.a.scenario.kernel = "transpose_tiled";
  EXPECT_EQ(stale_reason(model.work.a), tr("stale.changed"));
  model.work.a.scenario.kernel = "interleaved";
  model.work.a.scenario.n = 512;
  EXPECT_EQ(stale_reason(model.work.a), tr("stale.changed"));
  model.work.a.scenario.n = 256;
  model.work.a.scenario.focus_blocks = {0, 1};  // which blocks are shown in detail is not a different run
  EXPECT_EQ(stale_reason(model.work.a), "");
  model.work.a.scenario.n = 1 << 20;
  model.work.request_run(model.work.a);
  model.poll(false);
  if (side_running(model.work.a)) { EXPECT_EQ(stale_reason(model.work.a), tr("stale.running")); }
  model.poll(true);
  EXPECT_EQ(stale_reason(model.work.a), "");
}

// The step counter counts each trace's own steps from 1: a transpose's two steps read "2 / 2" at its last (not
// "1 / 1"), and in compare each side says its own step ("4 / 9" for A at its second step read as A's).
TEST(Model, TheStepCounterCountsEachTracesOwnStepsFromOne) {
  i18n_load("en");
  Model model(headless_options());
  Scenario tile = cpu_scenario("transpose_tiled", 0);
  tile.rows = tile.cols = 64;
  tile.type = ElemType::float32;
  resolve_shape(tile);
  model.open_scenario(SideId::a, tile);
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace) << model.work.a.error;
  ASSERT_EQ(model.work.a.trace->steps.size(), 2u);
  model.go_to_step(1);
  EXPECT_EQ(model.step_counter(), "step 2 / 2");
  model.open_scenario(SideId::b, cpu_scenario("interleaved", 256));
  model.poll(true);
  ASSERT_TRUE(model.work.b.trace) << model.work.b.error;
  const std::size_t b_steps = model.work.b.trace->steps.size();
  model.go_to_step(4);
  EXPECT_EQ(model.step_counter(), "step A 2/2 \u00b7 B 5/" + std::to_string(b_steps));
  model.go_to_step(0);
  EXPECT_EQ(model.step_counter(), "step A 1/2 \u00b7 B 1/" + std::to_string(b_steps));
}

TEST(Model, RunsAScenarioInTheBackgroundAndAdoptsItsTrace) {
  i18n_load("en");
  Model model(headless_options());
  model.work.a.scenario = cpu_scenario("interleaved", 4096);
  model.work.request_run(model.work.a);
  EXPECT_TRUE(model.work.a.running());
  EXPECT_TRUE(model.work.busy());
  EXPECT_TRUE(model.poll(true));  // a trace arrived in side A
  EXPECT_FALSE(model.work.a.running());
  ASSERT_TRUE(model.work.a.trace);
  EXPECT_TRUE(model.work.a.trace->correct);
  EXPECT_EQ(model.work.a.trace->result, "4096");
  EXPECT_TRUE(model.work.a.tree.valid);
  EXPECT_EQ(model.max_step(), int(model.work.a.trace->steps.size()) - 1);
  EXPECT_NE(model.work.window_title().find("interleaved int32 sum n=4096"), std::string::npos);
  EXPECT_TRUE(model.work.title_dirty);
}

// The bank grid's list of a warp's accesses names each by the expression that made it, in both languages.
TEST(Model, TheBankGridNamesEachAccessByItsExpressionAndLine) {
  Model model(headless_options());
  model.work.a.scenario = cpu_scenario("interleaved", 4096);
  model.work.request_run(model.work.a);
  ASSERT_TRUE(model.poll(true));
  ASSERT_TRUE(model.work.a.trace);
  const Trace& t = *model.work.a.trace;
  const KernelSources& sources = model.work.kernel_sources(find_kernel("interleaved")->source_file);
  const WarpAccess& far = t.focus.at(0).steps.at(1).at(0).accesses.at(1);  // offset 128: s[tid + offset]
  i18n_load("en");
  EXPECT_EQ(access_label(t, far, 1, sources), "1: s[tid + offset], line 28 · shared load 4B, 32 lanes");
  i18n_load("zh_CN");
  EXPECT_EQ(access_label(t, far, 1, sources), "1: s[tid + offset]，第 28 行 · 共享加载 4B，32 条通道");
  i18n_load("en");
  WarpAccess unknown = far;  // a trace that does not say where (an older file)
  unknown.line = 0;
  EXPECT_EQ(access_label(t, unknown, 1, sources), "1: shared load 4B, 32 lanes");
}

// The one shape of background work: a value, an error or a cancel, collected once; one at a time; progress
// through its control; no thread outlives its job.
TEST(Job, CarriesAValueAnErrorOrACancelAndNoThreadOutlivesIt) {
  Job<int> j;
  EXPECT_FALSE(j.running());
  EXPECT_FALSE(j.collect());
  ASSERT_TRUE(j.start([](RunControl& c) {
    c.blocks_expected = 4;
    c.blocks_run = 1;
    return 42;
  }));
  std::optional<JobOutcome<int>> got = j.collect(true);
  ASSERT_TRUE(got && got->value);
  EXPECT_EQ(*got->value, 42);
  EXPECT_FALSE(j.running());
  EXPECT_FALSE(j.collect());  // collected once
  EXPECT_DOUBLE_EQ(j.progress(), 0.25);
  ASSERT_TRUE(j.start([](RunControl&) -> int { throw std::runtime_error("boom"); }));
  got = j.collect(true);
  ASSERT_TRUE(got);
  EXPECT_FALSE(got->value);
  EXPECT_EQ(got->error, "boom");
  EXPECT_FALSE(got->cancelled);
  auto until_cancelled = [](RunControl& c) -> int {
    while (!c.cancel) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    throw RunCancelled();
  };
  ASSERT_TRUE(j.start(until_cancelled));
  EXPECT_FALSE(j.start([](RunControl&) { return 1; }));  // one at a time
  EXPECT_FALSE(j.finished());
  j.cancel();
  got = j.collect(true);
  ASSERT_TRUE(got);
  EXPECT_TRUE(got->cancelled);
  std::atomic<bool> stopped{false};
  {
    Job<int> k;
    k.start([&stopped](RunControl& c) {
      while (!c.cancel) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      stopped = true;
      return 0;
    });
  }
  EXPECT_TRUE(stopped);
}

// What a click does is a plain call a lesson can make: open a scenario in A or B, go to a step, select a warp
// and a bank column; each lands in the view state, clamped to the traces shown.
TEST(Model, ALessonDrivesItWithPlainCalls) {
  i18n_load("en");
  Model model(headless_options());
  model.open_scenario(SideId::a, cpu_scenario("neighbored_strided", 256));
  model.open_scenario(SideId::b, cpu_scenario("interleaved", 256));
  EXPECT_TRUE(model.work.compare);
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace && model.work.b.trace);
  EXPECT_EQ(model.work.a.trace->scenario.kernel, "neighbored_strided");
  EXPECT_EQ(model.work.b.trace->scenario.kernel, "interleaved");
  EXPECT_EQ(model.work.b.n_text, "256");
  model.view.playing = true;
  model.go_to_step(3);
  EXPECT_EQ(model.view.step, 3);
  EXPECT_FALSE(model.view.playing);
  EXPECT_FLOAT_EQ(model.view.anim, 1.0f);  // a jump, not the move into the next step
  model.go_to_step(1000);
  EXPECT_EQ(model.view.step, model.max_step());
  model.go_to_step(-5);
  EXPECT_EQ(model.view.step, 0);
  model.select_warp(7);
  EXPECT_EQ(model.view.sel_warp, 7);  // 256 threads: warps 0 to 7
  model.select_warp(99);
  EXPECT_EQ(model.view.sel_warp, 7);
  model.select_bank_column(4);
  EXPECT_EQ(model.view.sel_bank, 4);
  model.select_bank_column(32);
  EXPECT_EQ(model.view.sel_bank, -1);  // 32 banks: 0 to 31
}

TEST(Model, RefusesABadScenarioWithTheReasonAndStartsNothing) {
  Model model(headless_options());
  model.work.a.scenario = cpu_scenario("interleaved", 4096);
  model.work.a.scenario.block = 48;
  model.work.request_run(model.work.a);
  EXPECT_FALSE(model.work.a.running());
  EXPECT_NE(model.work.a.error.find("--block"), std::string::npos);
  EXPECT_FALSE(model.work.busy());
}

TEST(Model, CancelsALongEmulatorRunWithinASecondAndKeepsWhatItShowed) {
  i18n_load("en");
  Model model(headless_options());
  model.work.a.scenario = cpu_scenario("interleaved", 4096);
  model.work.request_run(model.work.a);
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace);
  // 2^26 elements on the emulator take minutes; the run reports its progress, and a cancel ends it between
  // blocks.
  model.work.a.scenario = cpu_scenario("interleaved", std::uint64_t(1) << 26);
  model.work.request_run(model.work.a);
  ASSERT_TRUE(model.work.a.running());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto t0 = std::chrono::steady_clock::now();
  model.work.cancel_run(model.work.a);
  model.poll(true);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 1.0) << "the run took " << secs << " s to stop";
  EXPECT_FALSE(model.work.a.running());
  EXPECT_EQ(model.work.a.error, tr("sc.cancelled"));
  ASSERT_TRUE(model.work.a.trace);  // the old trace stays
  EXPECT_EQ(model.work.a.trace->scenario.n, 4096u);
}

TEST(Model, ReportsProgressOfATracedRun) {
  Model model(headless_options());
  model.work.a.scenario = cpu_scenario("interleaved", std::uint64_t(1) << 26);
  model.work.request_run(model.work.a);
  double seen = 0;
  for (int i = 0; i < 200 && seen == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    seen = model.work.a.run.progress();
  }
  model.work.cancel_run(model.work.a);
  model.poll(true);
  EXPECT_GT(seen, 0.0);
  EXPECT_LT(seen, 1.0);
}

TEST(Model, DestroyingItStopsWhatRuns) {
  const auto t0 = std::chrono::steady_clock::now();
  {
    Model model(headless_options());
    model.work.a.scenario = cpu_scenario("neighbored_modulo", std::uint64_t(1) << 26);
    model.work.request_run(model.work.a);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }  // a window that quits mid-run
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 1.2);  // 0.2 s of it the run had
}

TEST(Model, MeasurementsWithoutAGpuSayWhy) {
  Model model(headless_options());
  Scenario s = cpu_scenario("interleaved", 4096);
  model.work.request_timings(s);
  EXPECT_TRUE(model.work.live_timings().running());
  model.poll(true);
  EXPECT_FALSE(model.work.live_timings().running());
  if (!model.work.live_timings().rep) {
    EXPECT_NE(model.work.live_timings().error.find("GPU"), std::string::npos) << model.work.live_timings().error;
  }

  WarpAddresses wa;
  wa.mask = 0xffffffffu;
  for (unsigned l = 0; l < 32; ++l) wa.addr[l] = l * 128;
  wa.width = 4;
  model.work.request_access_measure(wa, "lane*32", 32);
  model.poll(true);
  const AccessMeasure& m = model.work.access_measure();
  EXPECT_TRUE(m.have);
  EXPECT_EQ(m.key, "lane*32");
  EXPECT_EQ(m.model_wavefronts, 32u);
  if (std::isnan(m.cycles)) { EXPECT_FALSE(m.why.empty()); }
}

// The Timings window's block-size sweeps: the one file REDLAB_REFERENCE_BLOCKS names, else the shipped ones of the
// type (assets/reference/blocks_<type>_<card>.json; a folder holding none gives none); a sweep asked for without a
// GPU says why and is told apart from a single measurement.
TEST(Model, BlockSweepsAreTheFilesOfTheTypeAndASweepWithoutAGpuSaysWhy) {
  {
    GuiOptions o = headless_options();
    o.debug.reference_blocks = std::string(REDLAB_SOURCE_DIR) + "/tests/gui/sample_blocks.json";
    Model model(o);
    const std::vector<ReferenceTimings>& f = model.work.block_sweeps(ElemType::int32);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_TRUE(f[0].error.empty()) << f[0].error;
    EXPECT_EQ(f[0].rep.blocks.size(), 6u);
    EXPECT_EQ(&model.work.block_sweeps(ElemType::int32), &f);  // read once
  }
  {
    Model model(headless_options());
    namespace fs = std::filesystem;
    std::size_t shipped = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(std::string(REDLAB_SOURCE_DIR) + "/assets/reference"))
      shipped += e.path().filename().string().rfind("blocks_float32_", 0) == 0;
    const std::vector<ReferenceTimings>& f = model.work.block_sweeps(ElemType::float32);
    EXPECT_EQ(f.size(), shipped);
    for (const ReferenceTimings& r : f) {
      EXPECT_TRUE(r.error.empty()) << r.path << ": " << r.error;
      EXPECT_EQ(r.rep.type, "float32") << r.path;
      EXPECT_FALSE(r.rep.blocks.empty()) << r.path;
    }
    Scenario s = cpu_scenario("interleaved", 4096);
    model.work.request_block_sweep(s);
    EXPECT_TRUE(model.work.live_timings().running());
    EXPECT_TRUE(model.work.live_timings().sweep);
    model.poll(true);
    if (!model.work.live_timings().rep)
      EXPECT_NE(model.work.live_timings().error.find("GPU"), std::string::npos) << model.work.live_timings().error;
    model.work.request_timings(s);
    EXPECT_FALSE(model.work.live_timings().sweep);
    model.poll(true);
  }
}

TEST(Model, ReadsTheFilesTheViewsShowOnce) {
  Model model(headless_options());
  const ReferenceTimings& r = model.work.reference_timings();
  ASSERT_TRUE(r.present) << r.path;
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.rep.rows.empty());
  EXPECT_EQ(&model.work.reference_timings(), &r);  // read once
  const ReferenceTimings& t = model.work.transpose_reference(ElemType::float64);
  ASSERT_TRUE(t.present) << t.path;
  EXPECT_EQ(t.rep.mat_rows, 8192u);
  const SourceFile& src = model.work.source(find_kernel("interleaved")->source_file);
  ASSERT_FALSE(src.lines.empty());
  EXPECT_NE(src.lines[0].find("Interleaved"), std::string::npos);
  EXPECT_TRUE(model.work.source("kernels/no_such_kernel.cuh").lines.empty());
}

TEST(Model, OpeningADamagedTraceSaysWhyAndKeepsTheSide) {
  Model model(headless_options());
  EXPECT_FALSE(model.open_trace("/nonexistent/trace.rltrace"));
  EXPECT_NE(model.work.open_error.find("/nonexistent/trace.rltrace"), std::string::npos);
  EXPECT_FALSE(model.work.a.trace);
}

TEST(Model, StepClockPlaysToTheLastStepAndStops) {
  Model model(headless_options());
  model.work.a.scenario = cpu_scenario("interleaved", 256);
  model.work.request_run(model.work.a);
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace);
  model.view.step = 0;
  model.view.playing = true;
  model.view.speed = 4.0f;
  for (int i = 0; i < 100; ++i) model.tick(0.1f);
  EXPECT_EQ(model.view.step, model.max_step());
  EXPECT_FALSE(model.view.playing);
  EXPECT_FLOAT_EQ(model.view.anim, 1.0f);
}

// The code view lights the statements a step runs, not its probe.step(...) line (warp_shuffle's source).
TEST(Model, AStepLightsItsStatementsNotItsProbeLine) {
  GuiOptions o;
  Model model(o);
  const KernelRecord* k = find_kernel("warp_shuffle");
  ASSERT_NE(k, nullptr);
  const auto& src = model.work.source(k->source_file).lines;
  ASSERT_FALSE(src.empty());
  auto line_of = [&](const std::string& text, int from = 0) {
    for (int i = from; i < int(src.size()); ++i)
      if (src[std::size_t(i)].find(text) != std::string::npos) return i + 1;
    return -1;
  };
  const int store_probe = line_of("Label::warp_sums_store");
  ASSERT_GT(store_probe, 0);
  const std::vector<int> lit = step_statement_lines(src, store_probe);
  // if (lane == 0) {, warp_sums[warp] = v;, __syncthreads(); and not the probe calls between them.
  ASSERT_FALSE(lit.empty());
  EXPECT_EQ(lit.front(), line_of("if (lane == 0)", store_probe));
  EXPECT_NE(std::find(lit.begin(), lit.end(), line_of("warp_sums[warp] = v;", store_probe)), lit.end());
  for (int l : lit) EXPECT_EQ(src[std::size_t(l - 1)].find("probe."), std::string::npos) << src[std::size_t(l - 1)];
  EXPECT_LT(lit.back(), line_of("Label::warp_sums_load"));
  // A shuffle step inside the loop: the shuffle itself, up to the loop's closing brace.
  const int shuffle_probe = line_of("probe.step(Phase::warp, Label::offset, offset)");
  const std::vector<int> sh = step_statement_lines(src, shuffle_probe);
  ASSERT_EQ(sh.size(), 1u);
  EXPECT_NE(src[std::size_t(sh[0] - 1)].find("__shfl_down_sync"), std::string::npos);
  // No statement after the probe (the end of a block): the probe's own line.
  EXPECT_EQ(step_statement_lines({"  probe.step(Phase::store);", "}"}, 1), std::vector<int>{1});
}

// warp_shuffle's register tree: the step that stores the warp sums lights lane 0 of every warp, and the store
// step lights thread 0 (the block's result), as the values leave the registers there.
TEST(Model, WarpShuffleTreeLightsTheWarpSumsAndTheStoredResult) {
  Scenario sc;
  sc.kernel = "warp_shuffle";
  sc.n = 256;
  sc.block = 128;
  sc.backend = BackendChoice::cpu;
  const Trace t = make_cpu_executor()->run(sc);
  const TreeModel m = build_tree(t);
  ASSERT_TRUE(m.valid);
  ASSERT_TRUE(m.registers);
  int sums = -1, store = -1;
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    if (t.steps[s].label.find("warp sums to shared") != std::string::npos) sums = int(s);
    if (t.steps[s].phase == Phase::store) store = int(s);
  }
  ASSERT_GE(sums, 0);
  ASSERT_GE(store, 0);
  std::vector<std::uint32_t> lit_sums, lit_store;
  for (std::uint32_t c = 0; c < m.per_block; ++c) {  // the first focus block
    if (m.wstep[m.at(unsigned(sums) + 1, c)] == sums) lit_sums.push_back(c);
    if (m.wstep[m.at(unsigned(store) + 1, c)] == store) lit_store.push_back(c);
  }
  EXPECT_EQ(lit_sums, (std::vector<std::uint32_t>{0, 32, 64, 96}));
  EXPECT_EQ(lit_store, (std::vector<std::uint32_t>{0}));
  // The stored result is the block's sum: thread 0's value after the store step.
  EXPECT_TRUE(m.known[m.at(unsigned(store) + 1, 0)]);
}

// While the first run is under way the views say so (with its progress), not "press Run".
TEST(Model, ViewsWithoutATraceSayARunIsUnderWay) {
  i18n_load("en");
  GuiOptions o;
  Model model(o);
  EXPECT_EQ(no_trace_text(model.work.a), tr("common.no_trace"));
  model.work.a.scenario.kernel = "interleaved";
  model.work.a.scenario.n = std::uint64_t(1) << 26;
  model.work.a.scenario.block = 256;
  model.work.a.scenario.backend = BackendChoice::cpu;
  model.work.request_run(model.work.a);
  ASSERT_TRUE(model.work.a.running());
  const std::string text = no_trace_text(model.work.a);
  EXPECT_NE(text, tr("common.no_trace"));
  EXPECT_NE(text.find("interleaved"), std::string::npos) << text;
  model.work.cancel_run(model.work.a);
  model.poll(true);
  // After a cancel, or with a scenario that cannot run, the views say why there is no trace.
  EXPECT_EQ(no_trace_text(model.work.a), trf("common.no_trace_because", {tr("sc.cancelled")}));
  model.work.a.error = "--block: 100 is not a power of two";
  EXPECT_NE(no_trace_text(model.work.a).find("--block: 100"), std::string::npos) << no_trace_text(model.work.a);
}

// The estimate before Run: a small run is not asked about; n = 2^26 on the emulator is (minutes of work,
// many chunks); memory counts the input at least; on the GPU no emulator time is estimated.
TEST(Model, EstimatesARunBeforeItStarts) {
  Scenario sc;
  sc.kernel = "interleaved";
  sc.block = 256;
  sc.n = 256;
  const RunEstimate small = estimate_run(sc, true);
  EXPECT_FALSE(small.ask());
  EXPECT_LT(small.seconds, 1.0);
  EXPECT_EQ(small.chunks, 1u);
  sc.n = std::uint64_t(1) << 26;
  const RunEstimate big = estimate_run(sc, true);
  EXPECT_TRUE(big.ask());
  EXPECT_GT(big.seconds, 10.0);
  EXPECT_GT(big.chunks, 1u);
  EXPECT_GE(big.bytes, double(sc.n) * 4);
  EXPECT_GT(big.free_bytes, 0.0);
  EXPECT_EQ(estimate_run(sc, false).seconds, 0.0);
  // A GPU reruns the whole launch per chunk and takes chunks four times the emulator's where it has room.
  EXPECT_EQ(estimate_run(sc, false).chunks, (big.chunks + 3) / 4);
  // What the emulator took at 2^24 on the 2-core reference machine (2.79 to 2.86 s, three runs): the estimate that
  // the window and `stats` show is near it, not the 3.6 s, 4.5 s or 11 s of older, slower emulators.
  sc.n = std::uint64_t(1) << 24;
  const RunEstimate measured = estimate_run(sc, true);
  const double cores = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_GT(measured.seconds * cores / 2, 2.5);
  EXPECT_LT(measured.seconds * cores / 2, 3.2);
  sc.n = std::uint64_t(1) << 26;
  // The host-only loop runs no emulated threads: 2^26 elements take seconds (3.9 s measured), not minutes.
  Scenario host = sc;
  host.kernel = "cpu_sequential";
  const RunEstimate loop = estimate_run(host, true);
  EXPECT_EQ(loop.threads, 0u);
  EXPECT_EQ(loop.chunks, 1u);
  EXPECT_GT(loop.seconds, 1.0);
  EXPECT_LT(loop.seconds, 10.0);
  // The window's estimate goes through the side and refuses what cannot run, as Run would.
  GuiOptions o;
  Model model(o);
  model.work.a.scenario = sc;
  model.work.a.scenario.backend = BackendChoice::cpu;
  EXPECT_TRUE(model.work.estimate(model.work.a).ask());
  model.work.a.scenario.block = 100;
  EXPECT_THROW(model.work.estimate(model.work.a), ScenarioError);
}

// The views' hardware counts come from a second redlab (`stats --hw --json`): without a GPU it answers why, and
// the session shows that reason; counts recorded on a GPU (REDLAB_GUI_HW_FROM) are read for their own scenario
// only; a step inside block_reduce.cuh is shown in that file.
TEST(Model, HardwareCountsComeFromAChildRedlabOrARecordedFile) {
  i18n_load("en");
  std::string why;
  if (make_cuda_executor(&why)) GTEST_SKIP() << "a GPU is present (the GPU selftest checks the collected counts)";
  GuiOptions o = headless_options();
  o.debug.self_exe = REDLAB_TEST_CLI;
  {
    Model model(o);
    model.work.a.scenario = cpu_scenario("interleaved", 4096);
    model.work.request_hw_counts();
    EXPECT_TRUE(model.work.hw_busy());
    model.poll(true);
    const HwState* hw = model.work.hw_counts();
    ASSERT_NE(hw, nullptr);
    EXPECT_FALSE(hw->counts.collected);
    EXPECT_NE(hw->counts.why.find("need a CUDA GPU"), std::string::npos) << hw->counts.why;
    model.work.a.scenario.n = 8192;  // another scenario: those counts are not its own
    EXPECT_EQ(model.work.hw_counts(), nullptr);
  }
  o.debug.hw_from = std::string(REDLAB_SOURCE_DIR) + "/tests/data/hw/vectorized_h100.json";
  Model model(o);
  model.work.a.scenario = cpu_scenario("vectorized", std::uint64_t(1) << 20);
  model.work.a.scenario.input = InputKind::random;
  model.work.request_run(model.work.a);
  model.work.request_hw_counts();
  model.poll(true);
  const HwState* hw = model.work.hw_counts();
  ASSERT_NE(hw, nullptr);
  ASSERT_TRUE(hw->counts.collected) << hw->counts.why;
  ASSERT_TRUE(model.work.a.trace);
  const HwComparison c =
      compare_hw(*model.work.a.trace, hw->counts, &model.work.kernel_sources(hw->counts.source_file));
  for (const HwKindFigures& f : c.total) EXPECT_EQ(f.cause, HwCause::agree) << f.why;
  const KernelRecord* k = find_kernel("vectorized");
  for (const Step& s : model.work.a.trace->steps)
    if (s.label_kind == rec::Label::warp_sums_store) {
      EXPECT_EQ(model.work.step_file(*k, s), "kernels/block/block_reduce.cuh");
    }
  // A recorded file of another scenario is refused with the reason.
  model.work.a.scenario.n = 4096;
  model.work.request_hw_counts();
  model.poll(true);
  ASSERT_NE(model.work.hw_counts(), nullptr);
  EXPECT_FALSE(model.work.hw_counts()->counts.collected);
  EXPECT_NE(model.work.hw_counts()->counts.why.find("run the same scenario"), std::string::npos)
      << model.work.hw_counts()->counts.why;
}

// A kernel file of the student's own: compiled and traced by a second redlab, its record read from the trace as data
// (the file's library is never loaded into the window's process: no launcher, no formula here), its trace adopted with the same figures as the catalog kernel it came from. Saving a
// syntax error marks its line and keeps the last good trace; a crash is reported by the second redlab while this
// process goes on; saving a good file again runs it again.
// A FIFO (or a file replaced by one after it was checked) as the kernel file: the editor says it cannot read it and
// the window goes on (its reading waited for a writer for ever), and no run starts.
TEST(Model, AFifoAsAKernelFileIsRefusedNotWaitedOn) {
  i18n_load("en");
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("redlab-session-fifo-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string fifo = (dir / "mine.cu").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  GuiOptions o = headless_options();
  o.debug.self_exe = REDLAB_TEST_CLI;
  Model model(o);
  const auto t0 = std::chrono::steady_clock::now();
  model.work.open_kernel_source(model.work.a, fifo);
  model.poll(true);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
  EXPECT_NE(model.work.a.user.editor.error.find("not a regular file"), std::string::npos)
      << model.work.a.user.editor.error;
  EXPECT_FALSE(model.work.a.trace);
  fs::remove_all(dir);
}

// A kernel file whose global's destructor aborts after the run: the window keeps the trace the second redlab wrote,
// and the file's panel says the process failed after its run (the window itself never runs the file's code).
TEST(Model, AKernelFileWhoseDestructorAbortsKeepsItsTraceAndSaysSo) {
  i18n_load("en");
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("redlab-session-atexit-" + std::to_string(getpid()));
  fs::create_directories(dir);
  setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
  const std::string file = (dir / "my_atexit.cu").string();
  ASSERT_EQ(
      std::system((std::string(REDLAB_TEST_CLI) + " new-kernel " + file + " --from interleaved >/dev/null").c_str()),
      0);
  std::string text;
  ASSERT_EQ(read_regular_file(file, 1 << 20, &text), "");
  text.insert(text.find("#include"),
              "#include <cstdlib>\nstruct AbortsAtExit { ~AbortsAtExit() { std::abort(); } } aborts_at_exit;\n");
  std::ofstream(file) << text;
  GuiOptions o = headless_options();
  o.debug.self_exe = REDLAB_TEST_CLI;
  Model model(o);
  model.work.a.scenario = cpu_scenario("interleaved", 2048);
  model.work.open_kernel_source(model.work.a, file);
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace) << model.work.a.user.errors << model.work.a.error;
  EXPECT_TRUE(model.work.a.trace->correct);
  EXPECT_NE(model.work.a.user.errors.find("after the run had ended"), std::string::npos) << model.work.a.user.errors;
  EXPECT_TRUE(model.work.a.notice.empty()) << model.work.a.notice;
  fs::remove_all(dir);
}

TEST(Model, AKernelFileRunsInASecondRedlabAndAgainOnEverySave) {
  i18n_load("en");
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("redlab-session-source-" + std::to_string(getpid()));
  fs::create_directories(dir);
  setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
  const std::string file = (dir / "my_modulo.cu").string();
  ASSERT_EQ(
      std::system(
          (std::string(REDLAB_TEST_CLI) + " new-kernel " + file + " --from neighbored_modulo >/dev/null").c_str()),
      0);
  GuiOptions o = headless_options();
  o.debug.self_exe = REDLAB_TEST_CLI;
  Model model(o);
  model.work.a.scenario = cpu_scenario("neighbored_modulo", 2048);
  model.work.open_kernel_source(model.work.a, file);
  EXPECT_TRUE(model.work.busy());
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace) << model.work.a.user.errors;
  EXPECT_EQ(model.work.a.trace->scenario.kernel, "my_modulo");
  EXPECT_EQ(model.work.a.user.errors, "");
  const Trace catalog = make_cpu_executor()->run(cpu_scenario("neighbored_modulo", 2048));
  ASSERT_EQ(model.work.a.trace->steps.size(), catalog.steps.size());
  for (std::size_t i = 0; i < catalog.steps.size(); ++i)
    EXPECT_EQ(model.work.a.trace->steps[i].stats, catalog.steps[i].stats);
  EXPECT_TRUE(fs::path(find_kernel("my_modulo")->source_file).is_absolute());
  EXPECT_TRUE(is_file_record(*find_kernel("my_modulo")));
  EXPECT_EQ(find_kernel("my_modulo")->elems_per_block, nullptr);
  EXPECT_EQ(find_kernel("my_modulo")->launcher(Backend::emulator, ElemType::int32), nullptr);

  auto save = [&](const std::string& from, const std::string& to) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a new modification time
    std::ofstream(file) << text;
    fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(1));
    // the watch looks twice a second
    for (int i = 0; i < 40 && !model.work.busy(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      model.poll();
    }
    model.poll(true);
  };
  save("probe.finish();\n", "probe.finish() oops;\n");
  EXPECT_NE(model.work.a.user.errors.find("error"), std::string::npos);
  ASSERT_FALSE(model.work.a.user.marks.empty());
  EXPECT_NE(model.work.a.user.marks.begin()->second.find("oops"), std::string::npos)
      << model.work.a.user.marks.begin()->second;
  EXPECT_TRUE(model.work.a.trace);  // the last good trace stays
  save("probe.finish() oops;\n", "probe.finish();\n");
  EXPECT_EQ(model.work.a.user.errors, "");
  EXPECT_EQ(model.work.a.user.runs, 3u);
  fs::remove_all(dir);
}

// ---- Kernel files edited in the window: the editor's model, the session's runs of A's and B's
// files, the gallery of mistakes. The second redlab is the test's own (REDLAB_TEST_CLI).
namespace {
namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A folder of the test's own, with the compiled-kernel cache and the student's data folder inside.
struct Scratch {
  fs::path dir;
  explicit Scratch(const std::string& name) {
    dir = fs::temp_directory_path() / ("redlab-" + name + "-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
    setenv("XDG_DATA_HOME", (dir / "data").c_str(), 1);
  }
  // A compile may have left redlab's headers precompiling into the cache on a thread of their own: that ends first
  // (removing the folder under it threw from here now and then).
  ~Scratch() {
    wait_for_kernel_prelude();
    fs::remove_all(dir);
  }
  // `redlab new-kernel` writes FILE from a catalog kernel, as a student starts one.
  std::string new_kernel(const std::string& file, const std::string& from) const {
    const std::string path = (dir / file).string();
    const std::string cmd =
        std::string(REDLAB_TEST_CLI) + " new-kernel " + path + " --from " + from + " --force >/dev/null";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return path;
  }
};

// Writes a file as another editor would, with a modification time the watch cannot miss.
void write_elsewhere(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  fs::last_write_time(path, fs::last_write_time(path) + std::chrono::seconds(2));
}

// Polls the session until `done` (a window's frames do the same), at most `seconds`.
template <class Pred>
bool poll_until(Model& model, Pred done, double seconds = 60) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    model.poll();
  }
  return true;
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

int line_of(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  return at == std::string::npos ? 0 : 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
}

GuiOptions child_options() {
  GuiOptions o = headless_options();
  o.debug.self_exe = REDLAB_TEST_CLI;
  return o;
}

// Side A follows FILE at n (interleaved's shape), its first run done.
void follow_in_a(Model& model, const std::string& file, std::uint64_t n) {
  model.work.a.scenario = cpu_scenario("interleaved", n);
  ASSERT_TRUE(model.work.open_kernel_source(model.work.a, file));
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace) << model.work.a.user.errors;
}
}  // namespace

// A transpose file's tile view draws the tile its kernel declares, not what the record it was made from said:
// a tiled transpose padded by the student is drawn 33 columns wide under its own name, and the naive transpose's
// file (whose record once carried "no shared tile") declares none and is drawn without one.
TEST(Model, ATransposeFilesTileIsTheOneItsKernelDeclares) {
  i18n_load("en");
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("redlab-session-tile-" + std::to_string(getpid()));
  fs::create_directories(dir);
  setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
  const std::string padded = (dir / "my_padded.cu").string(), naive = (dir / "my_naive.cu").string();
  ASSERT_EQ(
      std::system(
          (std::string(REDLAB_TEST_CLI) + " new-kernel " + padded + " --from transpose_tiled >/dev/null").c_str()),
      0);
  ASSERT_EQ(std::system(
                (std::string(REDLAB_TEST_CLI) + " new-kernel " + naive + " --from transpose_naive >/dev/null").c_str()),
            0);
  auto text_of = [](const std::string& f) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  // new-kernel leaves no record field about the tile for the student to keep true
  EXPECT_EQ(text_of(naive).find("r.tile.shared"), std::string::npos);
  std::string text = text_of(padded);
  const std::string plain = "[TILE_DIM][TILE_DIM]";
  const std::size_t at = text.find(plain);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, plain.size(), "[TILE_DIM][TILE_DIM + 1]");
  std::ofstream(padded) << text;

  GuiOptions o = headless_options();
  o.debug.self_exe = REDLAB_TEST_CLI;
  Model model(o);
  Scenario s = cpu_scenario("transpose_tiled", 0);
  s.rows = s.cols = 64;
  s.block_rows = 8;
  model.work.a.scenario = s;
  model.work.open_kernel_source(model.work.a, padded);
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace) << model.work.a.user.errors;
  EXPECT_EQ(model.work.a.trace->scenario.kernel, "my_padded");
  const TileShape shape = tile_shape(*model.work.a.trace);
  EXPECT_TRUE(shape.shared);
  EXPECT_EQ(shape.dim, 32u);
  EXPECT_EQ(shape.pitch, 33u);
  EXPECT_EQ(shape.decl, "tile_mem[32][33]");
  // and the padded tile reads its column without a conflict
  EXPECT_EQ(model.work.a.trace->steps.at(1).stats.smem_load_wavefronts,
            model.work.a.trace->steps.at(1).stats.smem_load_requests);

  model.work.b.scenario = s;
  model.work.open_kernel_source(model.work.b, naive);
  model.poll(true);
  ASSERT_TRUE(model.work.b.trace) << model.work.b.user.errors;
  EXPECT_FALSE(tile_shape(*model.work.b.trace).shared);
  fs::remove_all(dir);
}

TEST(SourceEditor, EditsAreDirtyUntilSavedAndASaveWritesTheWholeFileInPlace) {
  Scratch s("editor-save");
  const std::string file = (s.dir / "k.cu").string();
  write_elsewhere(file, "int a;\n");
  SourceEditor ed;
  ASSERT_TRUE(ed.load(file)) << ed.error;
  EXPECT_EQ(ed.text, "int a;\n");
  EXPECT_FALSE(ed.dirty());
  ed.text += "int b;\n";
  EXPECT_TRUE(ed.dirty());
  ASSERT_TRUE(ed.save()) << ed.error;
  EXPECT_FALSE(ed.dirty());
  EXPECT_EQ(slurp(file), "int a;\nint b;\n");
  for (const auto& e : fs::directory_iterator(s.dir))  // the temporary file was renamed over it, none left
    EXPECT_EQ(e.path().filename().string().find(".redlab-"), std::string::npos) << e.path();
  // Through a symlink: the file it names gets the text, the link stays a link.
  const std::string link = (s.dir / "link.cu").string();
  fs::create_symlink(file, link);
  SourceEditor via_link;
  ASSERT_TRUE(via_link.load(link));
  via_link.text = "int c;\n";
  ASSERT_TRUE(via_link.save()) << via_link.error;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(slurp(file), "int c;\n");
  // A file that cannot be written (its folder is gone): the reason, the edits kept and still unsaved.
  const std::string lost = (s.dir / "gone" / "k.cu").string();
  fs::create_directories(s.dir / "gone");
  write_elsewhere(lost, "x\n");
  SourceEditor orphan;
  ASSERT_TRUE(orphan.load(lost));
  fs::remove_all(s.dir / "gone");
  orphan.text = "y\n";
  EXPECT_FALSE(orphan.save());
  EXPECT_NE(orphan.error.find(lost), std::string::npos) << orphan.error;
  EXPECT_TRUE(orphan.dirty());
  SourceEditor none;
  EXPECT_FALSE(none.load((s.dir / "missing.cu").string()));
  EXPECT_NE(none.error.find("missing.cu"), std::string::npos) << none.error;
}

TEST(SourceEditor, AChangeOnDiskReloadsACleanBufferAndAsksAboutUnsavedEdits) {
  Scratch s("editor-disk");
  const std::string file = (s.dir / "k.cu").string();
  write_elsewhere(file, "one\n");
  SourceEditor ed;
  ASSERT_TRUE(ed.load(file));
  const unsigned r0 = ed.revision();
  // No edits here: the file's new text is taken at once.
  EXPECT_EQ(ed.disk_changed("two\n"), SourceEditor::DiskChange::reloaded);
  EXPECT_EQ(ed.text, "two\n");
  EXPECT_FALSE(ed.dirty());
  EXPECT_GT(ed.revision(), r0);  // the view starts its text widget afresh
  EXPECT_EQ(ed.disk_changed("two\n"), SourceEditor::DiskChange::same);  // touched, not changed
  // Unsaved edits: the question, the edits kept.
  ed.text = "mine\n";
  EXPECT_EQ(ed.disk_changed("theirs\n"), SourceEditor::DiskChange::conflict);
  EXPECT_TRUE(ed.conflict());
  EXPECT_EQ(ed.text, "mine\n");
  EXPECT_EQ(ed.saved(), "theirs\n");
  ed.keep_mine();
  EXPECT_FALSE(ed.conflict());
  EXPECT_TRUE(ed.dirty());  // still to be saved over theirs
  EXPECT_EQ(ed.disk_changed("theirs again\n"), SourceEditor::DiskChange::conflict);
  ed.take_file();
  EXPECT_EQ(ed.text, "theirs again\n");
  EXPECT_FALSE(ed.dirty());
  EXPECT_FALSE(ed.conflict());
  // The file now holds what the buffer holds (saved elsewhere from the same text): nothing to ask.
  ed.text = "same\n";
  EXPECT_EQ(ed.disk_changed("same\n"), SourceEditor::DiskChange::same);
  EXPECT_FALSE(ed.dirty());
  EXPECT_FALSE(ed.conflict());
}

TEST(Model, MessagesNameTheLinesOfTheFileTheyAreAbout) {
  EXPECT_EQ(message_line("k.cu:53:43: error: expected ';' before 'oops'", "k.cu"), 53);
  EXPECT_EQ(message_line("k.cu:12:1: note: in expansion", "k.cu"), 12);
  EXPECT_EQ(message_line("other.cu:53:43: error: x", "k.cu"), 0);
  EXPECT_EQ(message_line("redlab: emulator: deadlock in block 0: __shfl_down_sync (kernel line 61 of k.cu) in warp 0",
                         "/tmp/x/k.cu"),
            61);
  EXPECT_EQ(message_line("(kernel line 61 of kk.cu)", "k.cu"), 0);
  const auto marks = source_marks("k.cu:5:1: note: here\nk.cu:7:2: error: bad\n", "k.cu");
  ASSERT_EQ(marks.size(), 1u);  // errors are marked, notes are not
  EXPECT_EQ(marks.begin()->first, 7);
  // NVRTC's, for the GPU: "FILE(LINE): error" and "catastrophic error"; its remarks are not marked.
  EXPECT_EQ(message_line("k.cu(31): catastrophic error: cannot open source file \"vector\"", "k.cu"), 31);
  EXPECT_EQ(message_line("kk.cu(31): error: x", "k.cu"), 0);
  const auto gpu = source_marks(
      "k.cu(9): warning #177-D: variable \"x\" was declared but never referenced\n"
      "k.cu(12): error: identifier \"oops\" is undefined\n"
      "k.cu(31): catastrophic error: cannot open source file \"vector\"\n",
      "k.cu");
  ASSERT_EQ(gpu.size(), 2u);
  EXPECT_EQ(gpu.at(12), "error: identifier \"oops\" is undefined");
  EXPECT_EQ(gpu.at(31), "catastrophic error: cannot open source file \"vector\"");
}

// The window's editor through the session: typed text is unsaved and runs nothing; Save writes the file and runs it
// (a syntax error's line marked, the last good trace kept); the fixed text saved runs again and its trace comes.
TEST(Model, SavingTheEditorWritesTheFileAndRunsIt) {
  i18n_load("en");
  Scratch s("session-save");
  const std::string file = s.new_kernel("mine.cu", "interleaved");
  Model model(child_options());
  model.work.a.scenario = cpu_scenario("interleaved", 4096);
  ASSERT_TRUE(model.work.open_kernel_source(model.work.a, file));
  EXPECT_EQ(model.work.a.scenario.kernel, "mine");  // the scenario names the file's kernel at once
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace) << model.work.a.user.errors;
  EXPECT_EQ(model.work.a.trace->scenario.kernel, "mine");
  EXPECT_EQ(model.work.a.trace->scenario.n, 4096u);
  EXPECT_FALSE(model.work.a.user.editor.dirty());
  const unsigned runs = model.work.a.user.runs;
  const std::string good = model.work.a.user.editor.text;

  // Typing: unsaved, nothing runs, the file on disk untouched.
  model.work.a.user.editor.text = replace_once(good, "probe.finish();\n", "probe.finish() oops;\n");
  model.work.edited(model.work.a);
  EXPECT_TRUE(model.work.a.user.editor.dirty());
  EXPECT_NE(model.work.window_title().find("mine.cu *"), std::string::npos) << model.work.window_title();
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  model.poll();
  EXPECT_FALSE(model.work.a.user.running());
  EXPECT_EQ(model.work.a.user.runs, runs);
  EXPECT_EQ(slurp(file), good);

  // Save: the file has the text, it runs at once (not at the watch's next look), its error line is marked.
  ASSERT_TRUE(model.work.save_kernel_source(model.work.a));
  EXPECT_EQ(slurp(file), model.work.a.user.editor.text);
  EXPECT_FALSE(model.work.a.user.editor.dirty());
  EXPECT_TRUE(model.work.a.user.running());
  EXPECT_EQ(model.work.a.user.runs, runs + 1);
  model.poll(true);
  ASSERT_FALSE(model.work.a.user.marks.empty()) << model.work.a.user.errors;
  EXPECT_EQ(model.work.a.user.marks.begin()->first, line_of(model.work.a.user.editor.text, "oops"));
  EXPECT_NE(model.work.a.error.find("oops"), std::string::npos) << model.work.a.error;
  EXPECT_TRUE(model.work.a.trace);  // the last good trace stays

  // The fix saved (text never compiled before): the error goes, a new trace comes; the time from the save to the
  // trace adopted is measured.
  model.work.a.user.editor.text =
      replace_once(model.work.a.user.editor.text, "probe.finish() oops;\n", "probe.finish();\n") + "// fixed by test " +
      std::to_string(getpid()) + "\n";
  model.work.edited(model.work.a);
  const unsigned gen = model.work.a.generation;
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(model.work.save_kernel_source(model.work.a));
  ASSERT_TRUE(poll_until(model, [&] { return model.work.a.generation != gen; }));
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("  save to trace adopted (interleaved n=4096, compiled and traced): %.2f s\n", secs);
  EXPECT_EQ(model.work.a.user.errors, "");
  EXPECT_TRUE(model.work.a.user.marks.empty());
  EXPECT_EQ(model.work.a.user.runs, runs + 2);
  EXPECT_GT(model.work.a.user.last_run_seconds, 0.0);
  EXPECT_NE(model.work.window_title().find("mine.cu"), std::string::npos);
  EXPECT_EQ(model.work.window_title().find("mine.cu *"), std::string::npos) << model.work.window_title();

  // Run (F5) on a side that follows a file runs the file in the second redlab, never in this process.
  model.work.a.scenario.n = 2048;
  model.work.request_run(model.work.a);
  EXPECT_FALSE(model.work.a.running());
  EXPECT_TRUE(model.work.a.user.running());
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace);
  EXPECT_EQ(model.work.a.trace->scenario.n, 2048u);
}

// A file whose kernel stops at a fault (the tree loop's barrier removed, then the shared array one half short): the
// window adopts the trace up to the fault, with no "No trace" anywhere and no error in the side; the source panel marks
// the lines of the accesses the fault names (the tree's statement, for the race's write and read alike) with what
// happened there and where the barrier belongs; nothing calls the trace out of date.
TEST(Model, AKernelFileThatFaultsKeepsItsTraceUpToTheFaultAndMarksItsLines) {
  i18n_load("en");
  Scratch s("session-fault");
  const std::string file = s.new_kernel("mine.cu", "interleaved");
  std::string text = slurp(file);
  const std::string barrier = "    }\n    __syncthreads();\n  }\n";
  ASSERT_NE(text.find(barrier), std::string::npos);
  text = replace_once(text, barrier, "    }\n  }\n");  // the tree loop's barrier
  write_elsewhere(file, text);
  const int tree_line = line_of(text, "s[tid] = op(s[tid], s[tid + offset]);");
  Model model(child_options());
  model.work.a.scenario = cpu_scenario("interleaved", 4096);
  ASSERT_TRUE(model.work.open_kernel_source(model.work.a, file));
  model.poll(true);
  const Side& a = model.work.a;
  ASSERT_TRUE(a.trace) << a.user.errors << a.error;
  ASSERT_TRUE(a.trace->fault);
  EXPECT_EQ(a.trace->fault->kind, FaultKind::race);
  EXPECT_EQ(a.error, "");
  EXPECT_EQ(a.user.errors, "");
  EXPECT_EQ(stale_reason(a), "");
  // Steps load, offset 128, 64, 32: the trace ends where thread 0 read what thread 32 wrote at offset 128.
  EXPECT_EQ(a.trace->steps.size(), 4u);
  EXPECT_TRUE(a.tree.valid);
  EXPECT_EQ(fault_role(*a.trace, 3), FaultRole::fault);
  EXPECT_EQ(fault_role(*a.trace, 1), FaultRole::access);
  EXPECT_EQ(fault_role(*a.trace, 0), FaultRole::none);
  EXPECT_EQ(fault_summary(*a.trace),
            "The kernel stopped (race) in block 0, step 4 'offset 32': there is no result. "
            "The views show that block's steps up to there.");
  ASSERT_EQ(a.user.marks.size(), 1u);
  ASSERT_EQ(a.user.marks.begin()->first, tree_line);
  const std::string& mark = a.user.marks.begin()->second;
  EXPECT_NE(mark.find("thread 32 wrote s[32] here, in step 2 'offset 128'"), std::string::npos) << mark;
  EXPECT_NE(mark.find("thread 0 read s[32] here, in step 4 'offset 32'"), std::string::npos) << mark;
  EXPECT_NE(mark.find("a __syncthreads() belongs after line " + std::to_string(tree_line) +
                      " (step 2) and before line " + std::to_string(tree_line) + " (step 4)"),
            std::string::npos)
      << mark;
  // In Chinese, the same fault from its fields: the summary, the marks and the report name the step's label, the
  // threads, warps and lanes in Chinese; the emulator's English message is not shown for a race.
  i18n_load("zh_CN");
  const std::string zh_summary = fault_summary(*a.trace), zh_report = fault_report(*a.trace);
  const std::string zh_mark = fault_marks(*a.trace, file).begin()->second;
  EXPECT_EQ(zh_summary,
            "核函数因数据竞争停在线程块 0 的第 4 步“偏移 32”，没有结果。各视图显示该线程块到这一步为止的各步骤。");
  EXPECT_NE(zh_mark.find("线程 32 在第 2 步“偏移 128”于此处写入 s[32]"), std::string::npos) << zh_mark;
  EXPECT_NE(zh_report.find("数据竞争：线程块 0 中的共享内存元素 s[32]"), std::string::npos) << zh_report;
  EXPECT_NE(zh_report.find("线程 32（线程束 1，通道 0）在第 2 步“偏移 128”于 mine.cu 第 " + std::to_string(tree_line) +
                           " 行写入它"),
            std::string::npos)
      << zh_report;
  EXPECT_NE(zh_report.find("线程 0（线程束 0，通道 0）在第 4 步“偏移 32”"), std::string::npos) << zh_report;
  for (std::string text : {zh_summary, zh_report, zh_mark}) {
    for (std::size_t at; (at = text.find("__syncthreads()")) != std::string::npos;) text.erase(at, 15);  // code
    for (const char* english : {"race", "thread", "warp", "lane", "step", "offset", "block", "emulator"})
      EXPECT_EQ(text.find(english), std::string::npos) << english << " in " << text;
  }
  i18n_load("en");

  // The shared array half its size: the load's store of thread 128 is out of bounds, at the load's line, in step 1.
  const std::string half = replace_once(slurp(file), "__shared__ T s_mem[BLOCK];", "__shared__ T s_mem[BLOCK / 2];");
  write_elsewhere(file, half);
  const unsigned gen = a.generation;
  ASSERT_TRUE(poll_until(model, [&] { return a.generation != gen && !a.user.running(); }));
  ASSERT_TRUE(a.trace && a.trace->fault);
  EXPECT_EQ(a.trace->fault->kind, FaultKind::out_of_bounds);
  EXPECT_EQ(a.trace->steps.size(), 1u);
  ASSERT_EQ(a.user.marks.size(), 1u);
  EXPECT_EQ(a.user.marks.begin()->first, line_of(half, "s[tid] = i < n ? input[i] : Op::identity();"));
  EXPECT_NE(a.user.marks.begin()->second.find("thread 128 used s[128] here, in step 1 'load': past the end"),
            std::string::npos)
      << a.user.marks.begin()->second;
  i18n_load("zh_CN");
  EXPECT_EQ(
      fault_report(*a.trace).rfind("越界访问：线程块 0 中的 s[128]：线程 128（线程束 4，通道 0）在第 1 步“加载”", 0),
      0u)
      << fault_report(*a.trace);
  i18n_load("en");

  // Fixed (the text new-kernel wrote, under the file's name): the trace runs to its end, no fault, no marks.
  std::string fixed = slurp(s.new_kernel("mine_again.cu", "interleaved"));
  for (std::size_t at; (at = fixed.find("mine_again")) != std::string::npos;) fixed.replace(at, 10, "mine");
  write_elsewhere(file, fixed);
  const unsigned gen2 = a.generation;
  ASSERT_TRUE(poll_until(model, [&] { return a.generation != gen2 && !a.user.running(); }));
  ASSERT_TRUE(a.trace);
  EXPECT_FALSE(a.trace->fault);
  EXPECT_TRUE(a.trace->correct);
  EXPECT_TRUE(a.user.marks.empty());
}

// A cluster kernel file whose blocks read each other's partials with one cluster.sync() too few (cluster_tree's sync
// moved out of its loop of levels): the fault names both blocks, the one whose shared memory holds the element, and
// cluster.sync() (not __syncthreads()) as what belongs between the accesses, in English and Chinese.
TEST(Model, ARaceAcrossTheClusterNamesBothBlocksAndTheClusterSync) {
  i18n_load("en");
  Scratch s("session-cluster-race");
  const std::string file = s.new_kernel("cluster_mine.cu", "cluster_tree");
  std::string text = slurp(file);
  const std::string level =
      "  for (unsigned stride = blocks / 2; stride > 0; stride /= 2) {\n"
      "    cluster.sync();  // the partials of this level are final\n";
  ASSERT_NE(text.find(level), std::string::npos);
  text =
      replace_once(text, level, "  cluster.sync();\n  for (unsigned stride = blocks / 2; stride > 0; stride /= 2) {\n");
  write_elsewhere(file, text);
  const int line = line_of(text, "s[0] = op(s[0], probe.remote_shared(cluster, s_mem, rank + stride)[0]);");
  Model model(child_options());
  Scenario sc = cpu_scenario("cluster_tree", 4096);
  sc.block = 128;
  sc.cluster = 4;
  model.work.a.scenario = sc;
  ASSERT_TRUE(model.work.open_kernel_source(model.work.a, file));
  // A file that launches clusters takes --cluster, before it compiles and after (checked as a catalog cluster
  // kernel is, not as the family's default kernel, which launches none).
  EXPECT_EQ(model.work.validate_side(model.work.a), "");
  model.poll(true);
  const Side& a = model.work.a;
  EXPECT_EQ(model.work.validate_side(a), "");
  ASSERT_TRUE(a.trace) << a.user.errors << a.error;
  ASSERT_TRUE(a.trace->fault);
  const Fault& f = *a.trace->fault;
  EXPECT_EQ(f.kind, FaultKind::race);
  EXPECT_TRUE(f.across_cluster());
  // In the first cluster, rank 1 wrote its s[0] at rank stride 2 and rank 0 read it at rank stride 1; which of the two
  // blocks ran first, and so reported it, is the operating system's choice.
  EXPECT_EQ(f.element_block, 1u);
  ASSERT_EQ(f.accesses.size(), 2u);
  EXPECT_EQ(f.accesses[0].block, 1u);
  EXPECT_TRUE(f.accesses[0].write);
  EXPECT_EQ(f.accesses[1].block, 0u);
  EXPECT_FALSE(f.accesses[1].write);
  ASSERT_EQ(a.user.marks.size(), 1u);
  ASSERT_EQ(a.user.marks.begin()->first, line);
  const std::string& mark = a.user.marks.begin()->second;
  EXPECT_NE(mark.find("thread 0 of block 1 wrote s[0] here, in step 9 'rank stride 2'"), std::string::npos) << mark;
  EXPECT_NE(mark.find("thread 0 of block 0 read s[0] here, in step 10 'rank stride 1'"), std::string::npos) << mark;
  EXPECT_NE(mark.find("a cluster.sync() belongs after line " + std::to_string(line) + " (step 9) and before line " +
                      std::to_string(line) + " (step 10)"),
            std::string::npos)
      << mark;
  const std::string report = fault_report(*a.trace);
  EXPECT_EQ(
      report.rfind("Race across the cluster on shared s[0] of block 1 (byte 0 of that block's shared memory): in "
                   "block 1, thread 0 (warp 0, lane 0) wrote it in step 9 'rank stride 2' at line " +
                       std::to_string(line) +
                       " of cluster_mine.cu, then in block 0, thread 0 (warp 0, lane 0) read it "
                       "in step 10 'rank stride 1' at line " +
                       std::to_string(line) +
                       " of cluster_mine.cu (through distributed shared memory), with no cluster.sync() between them.",
                   0),
      0u)
      << report;
  i18n_load("zh_CN");
  const std::string zh_report = fault_report(*a.trace), zh_mark = fault_marks(*a.trace, file).begin()->second;
  EXPECT_EQ(zh_report.rfind("线程块簇内的数据竞争：线程块 1 的共享内存元素 s[0]", 0), 0u) << zh_report;
  EXPECT_NE(zh_report.find("（经由分布式共享内存）"), std::string::npos) << zh_report;
  EXPECT_NE(zh_mark.find("线程块 1 的线程 0 在第 9 步"), std::string::npos) << zh_mark;
  for (std::string t : {zh_report, zh_mark}) {
    for (const std::string code : {"cluster.sync()", "cluster_mine.cu"})  // code and the file's name
      for (std::size_t at; (at = t.find(code)) != std::string::npos;) t.erase(at, code.size());
    for (const char* english : {"race", "thread", "warp", "lane", "step", "block", "cluster", "emulator"})
      EXPECT_EQ(t.find(english), std::string::npos) << english << " in " << t;
  }
  i18n_load("en");
}

// Saved in another editor: a clean editor takes the new text (and it runs); with unsaved edits here the question is
// raised and both answers do what they say.
TEST(Model, AFileChangedOnDiskReloadsTheEditorOrAsksWhichToKeep) {
  i18n_load("en");
  Scratch s("session-disk");
  const std::string file = s.new_kernel("mine.cu", "interleaved");
  Model model(child_options());
  follow_in_a(model, file, 1024);
  if (HasFatalFailure()) return;
  const unsigned runs = model.work.a.user.runs;
  const std::string theirs = slurp(file) + "// saved elsewhere\n";
  write_elsewhere(file, theirs);
  ASSERT_TRUE(poll_until(
      model, [&] { return model.work.a.user.editor.text == theirs; }, 5));
  EXPECT_FALSE(model.work.a.user.editor.dirty());
  EXPECT_FALSE(model.work.a.user.editor.conflict());
  EXPECT_EQ(model.work.a.user.runs, runs + 1);  // and it runs, as every save does
  model.poll(true);

  // Unsaved edits here, then another save there: the question, the edits kept.
  const std::string mine = theirs + "// typed here\n";
  model.work.a.user.editor.text = mine;
  const std::string theirs2 = theirs + "// saved elsewhere again\n";
  write_elsewhere(file, theirs2);
  ASSERT_TRUE(poll_until(
      model, [&] { return model.work.a.user.editor.conflict(); }, 5));
  EXPECT_EQ(model.work.a.user.editor.text, mine);
  model.poll(true);
  model.work.a.user.editor.keep_mine();  // Keep mine: saving writes them over the file's
  ASSERT_TRUE(model.work.save_kernel_source(model.work.a));
  EXPECT_EQ(slurp(file), mine);
  model.poll(true);
  // And Take the file's.
  model.work.a.user.editor.text = mine + "// more\n";
  write_elsewhere(file, theirs2);
  ASSERT_TRUE(poll_until(
      model, [&] { return model.work.a.user.editor.conflict(); }, 5));
  model.work.a.user.editor.take_file();
  EXPECT_EQ(model.work.a.user.editor.text, theirs2);
  EXPECT_FALSE(model.work.a.user.editor.dirty());
  model.poll(true);
}

// Another file or Close over unsaved edits: nothing is lost without the student's say (the gallery: below).
TEST(Model, UnsavedEditsAreNotDroppedWithoutAsking) {
  i18n_load("en");
  Scratch s("session-unsaved");
  const std::string first = s.new_kernel("first.cu", "interleaved");
  const std::string second = s.new_kernel("second.cu", "neighbored_modulo");
  Model model(child_options());
  follow_in_a(model, first, 1024);
  if (HasFatalFailure()) return;
  model.work.a.user.editor.text += "// unsaved\n";
  EXPECT_FALSE(model.work.open_kernel_source(model.work.a, second));
  ASSERT_TRUE(model.work.a.user.unsaved_question);
  EXPECT_EQ(model.work.a.user.path, first);  // nothing changed yet
  model.work.resolve_unsaved(model.work.a, Work::Unsaved::cancel);
  EXPECT_FALSE(model.work.a.user.unsaved_question);
  EXPECT_EQ(model.work.a.user.path, first);
  EXPECT_TRUE(model.work.a.user.editor.dirty());
  // Save, then the other file.
  EXPECT_FALSE(model.work.open_kernel_source(model.work.a, second));
  model.work.resolve_unsaved(model.work.a, Work::Unsaved::save);
  EXPECT_NE(slurp(first).find("// unsaved\n"), std::string::npos);
  EXPECT_EQ(model.work.a.user.path, second);
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace) << model.work.a.user.errors;
  EXPECT_EQ(model.work.a.trace->scenario.kernel, "second");
  // Close with edits: discard drops them, the file as it was.
  const std::string on_disk = slurp(second);
  model.work.a.user.editor.text += "// dropped\n";
  EXPECT_FALSE(model.work.close_kernel_source(model.work.a));
  model.work.resolve_unsaved(model.work.a, Work::Unsaved::discard);
  EXPECT_FALSE(follows_file(model.work.a));
  EXPECT_EQ(slurp(second), on_disk);
  EXPECT_TRUE(model.work.a.trace);  // the trace stays
}

// Compare A/B with a kernel file on either side: each its own run, errors and watch; a catalog kernel beside one.
// b.cu a copy of a.cu with only its record's id changed, as the duplicate-id message advises: every C++ name in it
// is a's too. Both load into the window; each side runs its own file's code (b has one more step) and the window
// does not abort.
TEST(Model, TwoFilesThatShareEveryNameButTheIdEachRunTheirOwnCode) {
  i18n_load("en");
  Scratch s("session-same-names");
  const std::string fa = s.new_kernel("same_a.cu", "interleaved");
  std::string text;
  ASSERT_TRUE(read_text_file(fa, &text, nullptr));
  const std::string fb = (std::filesystem::path(fa).parent_path() / "same_b.cu").string();
  text = replace_once(text, ".id = \"same_a\"", ".id = \"same_b\"");
  text =
      replace_once(text, "  probe.step(Phase::store);\n",
                   "  probe.step(Phase::tree, Label::offset, 0);\n  __syncthreads();\n  probe.step(Phase::store);\n");
  std::ofstream(fb) << text;
  Model model(child_options());
  model.work.compare = true;
  model.work.a.scenario = cpu_scenario("interleaved", 2048);
  model.work.b.scenario = cpu_scenario("interleaved", 2048);
  model.work.open_kernel_source(model.work.a, fa);
  model.work.open_kernel_source(model.work.b, fb);
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace) << model.work.a.user.errors;
  ASSERT_TRUE(model.work.b.trace) << model.work.b.user.errors;
  EXPECT_EQ(model.work.a.trace->scenario.kernel, "same_a");
  EXPECT_EQ(model.work.b.trace->scenario.kernel, "same_b");
  EXPECT_EQ(model.work.b.trace->steps.size(), model.work.a.trace->steps.size() + 1);
  // Run again in this process's registry (the records both files registered): each still launches its own code.
  const KernelRecord* ra = find_kernel("same_a");
  const KernelRecord* rb = find_kernel("same_b");
  ASSERT_TRUE(ra && rb);
  EXPECT_NE(ra->source_file, rb->source_file);
  // A third file that takes A's id: B says so at the id's line; A keeps its trace and B its editor text.
  const std::string fc = (std::filesystem::path(fa).parent_path() / "same_c.cu").string();
  std::filesystem::copy_file(fa, fc);
  ASSERT_TRUE(model.work.close_kernel_source(model.work.b));
  model.work.open_kernel_source(model.work.b, fc);
  model.poll(true);
  EXPECT_NE(model.work.b.user.errors.find("its record is named 'same_a', as the record of " + fa), std::string::npos)
      << model.work.b.user.errors;
  EXPECT_FALSE(model.work.b.user.marks.empty());
  EXPECT_FALSE(model.work.b.user.editor.text.empty());
  ASSERT_TRUE(model.work.a.trace);
  EXPECT_EQ(model.work.a.trace->scenario.kernel, "same_a");
}

TEST(Model, AAndBEachFollowAFileOfTheirOwn) {
  i18n_load("en");
  Scratch s("session-ab");
  const std::string fa = s.new_kernel("mine_a.cu", "interleaved");
  const std::string fb = s.new_kernel("mine_b.cu", "neighbored_modulo");
  Model model(child_options());
  model.work.compare = true;
  model.work.a.scenario = cpu_scenario("interleaved", 2048);
  model.work.b.scenario = cpu_scenario("interleaved", 2048);
  model.work.open_kernel_source(model.work.a, fa);
  model.work.open_kernel_source(model.work.b, fb);
  EXPECT_TRUE(model.work.a.user.running());
  EXPECT_TRUE(model.work.b.user.running());
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace) << model.work.a.user.errors;
  ASSERT_TRUE(model.work.b.trace) << model.work.b.user.errors;
  EXPECT_EQ(model.work.a.trace->scenario.kernel, "mine_a");
  EXPECT_EQ(model.work.b.trace->scenario.kernel, "mine_b");
  // B's figures are its catalog kernel's (the compare view and the per-step chart read these).
  const Trace modulo = make_cpu_executor()->run(cpu_scenario("neighbored_modulo", 2048));
  ASSERT_EQ(model.work.b.trace->steps.size(), modulo.steps.size());
  for (std::size_t i = 0; i < modulo.steps.size(); ++i)
    EXPECT_EQ(model.work.b.trace->steps[i].stats, modulo.steps[i].stats);
  EXPECT_EQ(model.max_step(), int(std::max(model.work.a.trace->steps.size(), model.work.b.trace->steps.size())) - 1);
  // B saved with a mistake: B's error and mark, A untouched.
  const unsigned a_gen = model.work.a.generation;
  model.work.b.user.editor.text =
      replace_once(model.work.b.user.editor.text, "probe.finish();\n", "probe.finish() oops;\n");
  ASSERT_TRUE(model.work.save_kernel_source(model.work.b));
  model.poll(true);
  EXPECT_FALSE(model.work.b.user.marks.empty());
  EXPECT_TRUE(model.work.a.user.marks.empty());
  EXPECT_EQ(model.work.a.user.errors, "");
  EXPECT_EQ(model.work.a.generation, a_gen);
  EXPECT_EQ(model.work.b.trace->scenario.kernel, "mine_b");  // B's last good trace stays, marked as such
  EXPECT_EQ(stale_reason(model.work.b), tr("stale.compile"));
  EXPECT_EQ(stale_reason(model.work.a), "");
  // Ctrl+S saves the side the code view shows.
  model.view.memory.code_side = 1;
  EXPECT_EQ(&model.code_side(), &model.work.b);
  model.view.memory.code_side = 0;
  EXPECT_EQ(&model.code_side(), &model.work.a);
  // A catalog kernel in A beside B's file: A runs in this process as always.
  ASSERT_TRUE(model.work.close_kernel_source(model.work.a));
  model.work.a.scenario = cpu_scenario("interleaved", 2048);
  model.work.request_run(model.work.a);
  EXPECT_TRUE(model.work.a.running());
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace);
  EXPECT_EQ(model.work.a.trace->scenario.kernel, "interleaved");
  // Two files naming their kernel alike cannot both be loaded: the second says so.
  const std::string twin_dir = (s.dir / "twin").string();
  fs::create_directories(twin_dir);
  const std::string twin = twin_dir + "/mine_b.cu";
  fs::copy_file(fb, twin);
  model.work.b.user.editor.take_file();
  model.work.b.user.editor.text =
      replace_once(model.work.b.user.editor.text, "probe.finish() oops;\n", "probe.finish();\n");
  ASSERT_TRUE(model.work.save_kernel_source(model.work.b));
  model.poll(true);
  ASSERT_TRUE(model.work.open_kernel_source(model.work.a, twin));
  model.poll(true);
  EXPECT_NE(model.work.a.user.errors.find("mine_b"), std::string::npos) << model.work.a.user.errors;
  EXPECT_NE(model.work.a.error.find("twin/mine_b.cu"), std::string::npos) << model.work.a.error;
}

// A lesson's gallery beat (pmpp's second: the note's loop one level short): the entry's copy in A, compiled and run
// here, its wrong sum shown; the catalog kernel it was made from in B; no trace waited for. The next beat closes the
// file and runs its own scenario.
TEST(Model, ALessonsGalleryBeatShowsTheMistakeBesideItsCatalogKernel) {
  i18n_load("en");
  Scratch s("session-lesson-gallery");
  GuiOptions o = child_options();
  o.scenario_words = cli::parse_scenario_words;
  Model model(o);
  ASSERT_TRUE(open_lesson(model, "pmpp", 0, true)) << model.lesson.message;
  model.poll(true);
  ASSERT_EQ(model.lesson.lesson.beats[1].gallery, "stride_below_block");
  ASSERT_TRUE(lesson_go(model, 1));
  EXPECT_FALSE(model.lesson.pending);
  EXPECT_EQ(model.lesson.message, "");
  EXPECT_EQ(model.work.a.user.path, (s.dir / "data" / "redlab" / "kernels" / "stride_below_block.cu").string());
  EXPECT_TRUE(model.work.compare);
  EXPECT_EQ(model.work.b.scenario.kernel, "pmpp_simple");
  model.poll(true);
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace) << model.work.a.user.errors << model.work.a.error;
  EXPECT_FALSE(model.work.a.trace->correct);  // the second half of each block never reaches its sum
  ASSERT_TRUE(model.work.b.trace) << model.work.b.error;
  EXPECT_TRUE(model.work.b.trace->correct);
  EXPECT_EQ(model.work.b.trace->steps.size(),
            model.work.a.trace->steps.size() + 1);  // the level the note's loop leaves out
  ASSERT_TRUE(lesson_go(model, 2));
  EXPECT_FALSE(follows_file(model.work.a));
  EXPECT_EQ(model.work.a.scenario.kernel, "pmpp_simple");
  close_lesson(model);
}

// The gallery of mistakes (a fixture gallery: tests/gui/gallery_fixture/make.sh makes it): the index's entries and
// the ones left out with their reason; an entry opened is a copy in the student's folder, run on its scenario, its
// documented failure shown; a copy the student changed is not replaced without asking.
TEST(Model, TheGalleryOpensACopyOnItsScenarioAndShowsItsFailure) {
  i18n_load("en");
  Scratch s("session-gallery");
  const std::string fixture = (s.dir / "gallery").string();
  const std::string make = "sh " + std::string(REDLAB_SOURCE_DIR) + "/tests/gui/gallery_fixture/make.sh " +
                           REDLAB_TEST_CLI + " " + fixture + " >/dev/null";
  ASSERT_EQ(std::system(make.c_str()), 0) << make;
  setenv("REDLAB_DATA_DIR", fixture.c_str(), 1);
  Model model(child_options());
  const Gallery& g = model.work.gallery();
  unsetenv("REDLAB_DATA_DIR");
  ASSERT_EQ(g.error, "");
  ASSERT_EQ(g.entries.size(), 2u);
  ASSERT_EQ(g.problems.size(), 2u);
  EXPECT_NE(g.problems[0].find("entry 3"), std::string::npos) << g.problems[0];
  EXPECT_NE(g.problems[1].find("accepted: deadlock, wrong_result, race, out_of_bounds"), std::string::npos)
      << g.problems[1];
  const GalleryEntry& hang = g.entries[0];
  EXPECT_EQ(hang.id, "early_shuffle");
  EXPECT_EQ(hang.expect, "deadlock");
  EXPECT_EQ(text_in(hang.title, "zh_CN"), "只有半个线程束到达的全掩码 shuffle");
  EXPECT_EQ(text_in(hang.title, "fr"), "A full-mask shuffle half the warp reaches");
  EXPECT_EQ(hang.scenario.n, 4096u);
  EXPECT_EQ(hang.scenario.input, InputKind::ones);
  const std::string installed = slurp(hang.source);

  model.work.a.scenario = cpu_scenario("neighbored_modulo", 256);
  // B busy with a run of its own scenario (as the start's demo is): stopped, and the entry's kernel runs after.
  model.work.b.scenario = cpu_scenario("neighbored_modulo", 1u << 22);
  model.work.request_run(model.work.b);
  ASSERT_TRUE(model.work.b.running());
  model.work.open_gallery_entry(hang);
  const std::string copy = (s.dir / "data" / "redlab" / "kernels" / "early_shuffle.cu").string();
  EXPECT_EQ(model.work.a.user.path, copy);
  EXPECT_EQ(slurp(copy), installed);
  EXPECT_EQ(model.work.a.scenario.n, 4096u);
  EXPECT_EQ(model.work.a.scenario.kernel, "early_shuffle");
  ASSERT_TRUE(model.work.a.user.gallery);
  // Beside it, compare on: the catalog kernel the mistake was made in, on the entry's scenario.
  EXPECT_TRUE(model.work.compare);
  EXPECT_EQ(model.work.b.scenario.kernel, hang.from);
  EXPECT_EQ(model.work.b.scenario.n, 4096u);
  model.poll(true);
  model.poll(true);  // B's cancelled run collected, the entry's scenario run in its place
  ASSERT_TRUE(model.work.b.trace) << model.work.b.error;
  EXPECT_EQ(model.work.b.trace->scenario.kernel, hang.from);
  EXPECT_EQ(model.work.b.trace->scenario.n, 4096u);
  EXPECT_TRUE(model.work.b.trace->correct);
  // The deadlock, on the shuffle's line: the trace kept up to it, the report's line marked.
  ASSERT_TRUE(model.work.a.trace && model.work.a.trace->fault) << model.work.a.user.errors;
  EXPECT_EQ(model.work.a.trace->fault->message.rfind("emulator: deadlock", 0), 0u)
      << model.work.a.trace->fault->message;
  ASSERT_FALSE(model.work.a.user.marks.empty()) << model.work.a.user.errors;
  EXPECT_EQ(model.work.a.user.marks.begin()->first, line_of(installed, "__shfl_down_sync(0xffffffffu"));

  // The wrong sum: the run ends, the result differs from the reference.
  model.work.open_gallery_entry(g.entries[1]);
  model.poll(true);
  ASSERT_TRUE(model.work.a.trace) << model.work.a.user.errors;
  EXPECT_EQ(model.work.a.trace->scenario.kernel, "half_guard");
  EXPECT_FALSE(model.work.a.trace->correct);

  // The student changes their copy; opening the entry again asks, and each answer does what it says.
  model.work.a.user.editor.text += "// my fix\n";
  ASSERT_TRUE(model.work.save_kernel_source(model.work.a));
  model.poll(true);
  const std::string changed = slurp(model.work.a.user.path);
  model.work.open_gallery_entry(g.entries[1]);
  ASSERT_TRUE(model.work.gallery_question);
  EXPECT_EQ(slurp(model.work.a.user.path), changed);
  model.work.open_gallery_entry(*model.work.gallery_question, Work::ExistingCopy::open_mine);
  EXPECT_FALSE(model.work.gallery_question);
  EXPECT_EQ(model.work.a.user.editor.text, changed);
  model.poll(true);
  model.work.open_gallery_entry(g.entries[1], Work::ExistingCopy::replace);
  EXPECT_EQ(slurp(model.work.a.user.path), slurp(g.entries[1].source));
  EXPECT_EQ(model.work.a.user.editor.text, slurp(g.entries[1].source));
  model.poll(true);
  EXPECT_EQ(slurp(g.entries[1].source).find("// my fix"), std::string::npos);  // the installed file untouched

  // The entry A follows opened again over unsaved edits to its copy: its scenario again, the edits kept.
  model.work.a.user.editor.text += "// still mine\n";
  model.work.a.scenario.n = 1024;
  model.work.open_gallery_entry(g.entries[1]);
  EXPECT_FALSE(model.work.a.user.unsaved_question);
  EXPECT_EQ(model.work.a.scenario.n, 4096u);
  EXPECT_NE(model.work.a.user.editor.text.find("// still mine"), std::string::npos);
  model.poll(true);
  // An entry opened over unsaved edits asks first; the answer goes on to the entry, on its scenario.
  model.work.a.scenario.n = 512;
  model.work.open_gallery_entry(hang);
  ASSERT_TRUE(model.work.a.user.unsaved_question);
  EXPECT_EQ(model.work.a.user.path, (s.dir / "data" / "redlab" / "kernels" / "half_guard.cu").string());
  model.work.resolve_unsaved(model.work.a, Work::Unsaved::discard);
  EXPECT_EQ(model.work.a.user.path, copy);
  EXPECT_EQ(model.work.a.scenario.n, 4096u);
  ASSERT_TRUE(model.work.a.user.gallery);
  EXPECT_EQ(model.work.a.user.gallery->id, "early_shuffle");
  model.poll(true);
}

// A lecture's playlist steps A through its scenarios: each entry's scenario and text fields, nothing past either end
// (the shown scenario is not run again), File > Playlist's reading with the command line's parser given.
TEST(Model, APlaylistStepsThroughItsScenariosAndStopsAtItsEnds) {
  GuiOptions o = headless_options();
  o.scenario_words = [](const std::vector<std::string>& words, Scenario& s) -> std::string {
    if (words.size() != 2 || words[0] != "--kernel") return "one --kernel a line";
    s = cpu_scenario(words[1], 256);
    return "";
  };
  Model model(o);
  const std::string path =
      (std::filesystem::temp_directory_path() / ("redlab_session_playlist_" + std::to_string(getpid()) + ".txt"))
          .string();
  std::ofstream(path) << "--kernel neighbored_modulo\n# a comment\n--kernel interleaved\n";
  ASSERT_TRUE(model.work.load_playlist(path)) << model.work.playlist_message;
  ASSERT_EQ(model.work.playlist.entries.size(), 2u);
  EXPECT_EQ(model.work.playlist.entries[1].line, 3);
  EXPECT_TRUE(model.work.playlist_go(0));
  EXPECT_EQ(model.work.a.scenario.kernel, "neighbored_modulo");
  EXPECT_FALSE(model.work.playlist_go(-1));  // before the first: stays
  EXPECT_TRUE(model.work.playlist_go(1));
  EXPECT_EQ(model.work.a.scenario.kernel, "interleaved");
  EXPECT_EQ(model.work.playlist.current, 1);
  EXPECT_FALSE(model.work.playlist_go(2));  // past the last: stays, not run again
  EXPECT_EQ(model.work.playlist.current, 1);
  std::ofstream(path) << "--kernel interleaved --n 5\n";
  EXPECT_FALSE(model.work.load_playlist(path));
  EXPECT_EQ(model.work.playlist_message, "line 1: one --kernel a line");
  EXPECT_EQ(model.work.playlist.entries.size(), 2u);  // the playlist read before stays
}

// A lesson drives the window through the plain calls: each beat opens its scenarios, and once their traces are there
// goes to its step, warp, bank column and line; the asked figure is hidden until answered (or revealed); the answer
// is the trace's; progress is kept per user and a lesson opens again where it was left.
// The status bar's device in the UI's words where redlab named it, the all-reduce's virtual GPUs too; anything else
// (a GPU's own name, a damaged trace's) as it is.
TEST(Model, TheDeviceANameIsInTheUIsLanguage) {
  ASSERT_TRUE(i18n_load("zh_CN"));
  EXPECT_EQ(device_text("CPU SIMT emulator (2 threads, AMD EPYC)"), "CPU SIMT 模拟器（2 个线程，AMD EPYC）");
  EXPECT_EQ(device_text("CPU SIMT emulator (2 threads, AMD EPYC (r) 7, x), 4 virtual GPUs"),
            "CPU SIMT 模拟器（2 个线程，AMD EPYC (r) 7, x），4 个虚拟 GPU");
  EXPECT_EQ(device_text("NVIDIA H200"), "NVIDIA H200");
  EXPECT_EQ(device_text("4 x NVIDIA H100 80GB HBM3"), "4 x NVIDIA H100 80GB HBM3");
  EXPECT_EQ(device_text("CPU SIMT emulator (x threads, y)"), "CPU SIMT emulator (x threads, y)");
  EXPECT_EQ(device_text("CPU SIMT emulator (2 threads, y), z virtual GPUs"),
            "CPU SIMT emulator (2 threads, y), z virtual GPUs");
  const std::string long_name = "CPU SIMT emulator (2 threads, " + std::string(100000, '(') + ")";
  EXPECT_EQ(device_text(long_name), long_name);  // (no regular expression: a trace's name of any length)
  i18n_load("en");
}

// Every kernel of the catalog has its title and what it teaches in Chinese (the window would show the record's
// English: the all-reduce kernels did).
TEST(Model, EveryCatalogKernelIsNamedInChinese) {
  ASSERT_TRUE(i18n_load("zh_CN"));
  for (const KernelRecord* k : catalog()) {
    if (is_user_kernel(*k)) continue;
    for (const std::string key : {"kernel." + k->id, "teach." + k->id})
      EXPECT_NE(std::string(tr(key.c_str())), key) << k->id;
  }
  i18n_load("en");
}

// The lesson panel names the figure a question asks in the UI's words, never by its key.
TEST(Model, EveryFigureALessonAsksHasANameInBothLanguages) {
  for (const char* lang : {"en", "zh_CN"}) {
    ASSERT_TRUE(i18n_load(lang));
    for (const std::string& f : lesson_figures()) {
      const std::string name = lesson_figure_name(f);
      EXPECT_FALSE(name.empty()) << lang << " " << f;
      EXPECT_EQ(name.find('_'), std::string::npos) << lang << " " << f << ": " << name;
      EXPECT_EQ(name.find("fig."), std::string::npos) << lang << " " << f;
    }
  }
  i18n_load("en");
}

TEST(Model, ALessonStepsThroughItsBeatsAndHidesTheFigureItAsksUntilAnswered) {
  i18n_load("en");
  const std::string data =
      (std::filesystem::temp_directory_path() / ("redlab_lesson_progress_" + std::to_string(getpid()))).string();
  std::filesystem::remove_all(data);
  setenv("XDG_DATA_HOME", data.c_str(), 1);
  GuiOptions o = headless_options();
  o.scenario_words = cli::parse_scenario_words;
  {
    Model model(o);
    EXPECT_FALSE(open_lesson(model, "no_such_lesson"));
    EXPECT_NE(model.lesson.message.find("no_such_lesson"), std::string::npos);
    ASSERT_TRUE(open_lesson(model, "harris")) << model.lesson.message;
    EXPECT_EQ(model.lesson.beat, 0);
    EXPECT_EQ(model.work.a.scenario.kernel, "neighbored_modulo");
    EXPECT_TRUE(model.lesson.pending);  // its trace is on the way
    model.poll(true);
    EXPECT_FALSE(model.lesson.pending);
    EXPECT_EQ(model.view.step, 0);  // step: load
    // Beat 1 asks nothing, but its per-step table would give away beat 2's divergent warps (the same run): kept back.
    EXPECT_EQ(lesson_hidden_figure(model), "");
    // (and beat 5's tree SIMD efficiency, of this kernel as A).
    ASSERT_EQ(lesson_hidden_figures(model).size(), 2u);
    EXPECT_EQ(lesson_hidden_figures(model)[0].figure, "divergent_warps");
    EXPECT_EQ(lesson_hidden_figures(model)[1].figure, "tree_simd_efficiency");
    EXPECT_TRUE(lesson_hides(model, ViewId::metrics));
    EXPECT_TRUE(lesson_hides_kind(model, SideId::a, FigureKind::lanes));
    EXPECT_FALSE(lesson_hides_kind(model, SideId::a, FigureKind::shared));
    // Beat 2: the same scenario (not run again), stride 1, warp 0, line 27, a question on divergent warps.
    ASSERT_TRUE(lesson_go(model, 1));
    EXPECT_FALSE(model.work.a.running());
    EXPECT_EQ(model.view.step, 1);
    EXPECT_EQ(model.view.memory.code_goto, 27);
    EXPECT_NE(std::find(model.view.views_to_open.begin(), model.view.views_to_open.end(), ViewId::warps),
              model.view.views_to_open.end());
    EXPECT_EQ(lesson_hidden_figure(model), "divergent_warps");
    EXPECT_EQ(lesson_figure_name("divergent_warps"), "divergent warps");  // the panel names it in the UI's words
    EXPECT_TRUE(lesson_hides(model, ViewId::metrics));
    EXPECT_FALSE(
        lesson_hides(model, ViewId::warps));  // its lanes stay (the student counts them); its counters read "?"
    EXPECT_TRUE(lesson_hides_kind(model, SideId::a, FigureKind::lanes));
    EXPECT_FALSE(lesson_hides(model, ViewId::tree));
    EXPECT_FALSE(lesson_hides(model, ViewId::scenario));
    EXPECT_EQ(lesson_current_answer(model), "64");
    EXPECT_FALSE(lesson_answer_given(model, "32"));  // wrong: still revealed, with the answer
    EXPECT_EQ(lesson_hidden_figure(model), "");
    EXPECT_TRUE(lesson_hides(model, ViewId::metrics));  // beat 5's SIMD efficiency of this kernel is still to come
    EXPECT_EQ(model.lesson.answers.at(1), "32");
    // Beat 3 runs a new kernel: an answer given (Enter) before its trace is there waits for it, and is judged then.
    ASSERT_TRUE(lesson_go(model, 2));
    EXPECT_TRUE(lesson_current_answer(model).empty());
    EXPECT_FALSE(lesson_submit(model, "128"));
    EXPECT_EQ(model.lesson.submitted, "128");
    EXPECT_FALSE(model.lesson.answers.count(2));
    model.poll(true);
    EXPECT_EQ(model.lesson.answers.at(2), "128");
    EXPECT_TRUE(model.lesson.submitted.empty());
    EXPECT_TRUE(model.lesson.revealed.count(2));
    // Beat 4 compares: B comes in, compare on, the answer from both traces; a lecturer in Present stays there (the
    // beat's layout: compare is a student's).
    model.view.layout = LayoutKind::present;
    ASSERT_TRUE(lesson_go(model, 3));
    model.poll(true);
    EXPECT_EQ(model.view.layout, LayoutKind::present);
    EXPECT_TRUE(model.work.compare);
    EXPECT_EQ(model.work.b.scenario.kernel, "interleaved");
    EXPECT_EQ(model.view.step, 2);
    EXPECT_EQ(lesson_current_answer(model), "A");
    EXPECT_TRUE(lesson_hides_kind(model, SideId::a, FigureKind::shared));  // "more": A's and B's
    EXPECT_TRUE(lesson_hides_kind(model, SideId::b, FigureKind::shared));
    EXPECT_TRUE(lesson_answer_given(model, "a"));
    // Beat 5's SIMD efficiency of interleaved, which B shows here, stays kept back on B only.
    EXPECT_FALSE(lesson_hides_kind(model, SideId::b, FigureKind::shared));
    EXPECT_TRUE(lesson_hides_kind(model, SideId::b, FigureKind::lanes));
    EXPECT_FALSE(lesson_hides_kind(model, SideId::a, FigureKind::lanes));
    // The lecturer reveals beat 6's figure without an answer; b: none ends the compare.
    ASSERT_TRUE(lesson_go(model, 5));
    model.poll(true);
    EXPECT_FALSE(model.work.compare);
    EXPECT_EQ(lesson_hidden_figure(model), "result");
    EXPECT_FALSE(lesson_hides(model, ViewId::scenario));  // it stays; its result reads "?"
    EXPECT_TRUE(lesson_hides_kind(model, SideId::a, FigureKind::result));
    EXPECT_FALSE(lesson_hides(model, ViewId::warps));
    lesson_reveal(model);
    EXPECT_EQ(lesson_hidden_figure(model), "");
    EXPECT_EQ(lesson_current_answer(model), "2048");
    const int last = int(model.lesson.lesson.beats.size()) - 1;
    EXPECT_EQ(model.view.layout, LayoutKind::present);  // beat 6's layout: study did not take Present away either
    model.view.layout = LayoutKind::study;  // a student alone: the last beat's layout: compare is taken
    ASSERT_TRUE(lesson_go(model, last));
    EXPECT_EQ(model.view.layout, LayoutKind::compare);
    model.poll(true);
    EXPECT_FALSE(lesson_go(model, last + 1));  // past the end: it stays
    EXPECT_EQ(model.lesson.beat, last);
    close_lesson(model);
    EXPECT_FALSE(model.lesson.open());
  }
  {
    // Where it was left, with the answers given.
    Model model(o);
    ASSERT_TRUE(open_lesson(model, "harris"));
    EXPECT_EQ(model.lesson.beat, int(model.lesson.lesson.beats.size()) - 1);
    EXPECT_EQ(model.lesson.answers.at(1), "32");
    EXPECT_EQ(model.lesson.answers.at(3), "a");
    EXPECT_TRUE(model.lesson.revealed.count(5));
  }
  // A damaged progress file is ignored: the lesson starts at its first beat.
  std::ofstream(data + "/redlab/lessons.json") << "{\"lessons\": {\"harris\": {\"beat\": \"x\"";
  {
    Model model(o);
    ASSERT_TRUE(open_lesson(model, "harris"));
    EXPECT_EQ(model.lesson.beat, 0);
  }
  unsetenv("XDG_DATA_HOME");
  std::filesystem::remove_all(data);
}

// The all-reduce lesson in the window: its beats open the virtual GPUs' runs, and while a beat asks for a GPU's bytes
// the ring (and compare, which draws it for A and B) keeps its bytes back; the tree's beat asks what it shows.
TEST(Model, TheAllReduceLessonHidesTheRingsBytesUntilAnswered) {
  i18n_load("en");
  const std::string data =
      (std::filesystem::temp_directory_path() / ("redlab_lesson_ring_" + std::to_string(getpid()))).string();
  std::filesystem::remove_all(data);
  setenv("XDG_DATA_HOME", data.c_str(), 1);
  GuiOptions o = headless_options();
  o.scenario_words = cli::parse_scenario_words;
  {
    Model model(o);
    ASSERT_TRUE(open_lesson(model, "allreduce", 1)) << model.lesson.message;  // beat 2: the naive's busiest GPU
    model.poll(true);
    EXPECT_EQ(model.work.a.scenario.kernel, "allreduce_naive");
    EXPECT_EQ(model.work.a.scenario.gpus, 4u);
    EXPECT_EQ(lesson_hidden_figure(model), "most_bytes_sent_per_gpu");
    EXPECT_FALSE(lesson_hides(model, ViewId::ring));  // the ring stays, its bytes read "?"
    EXPECT_TRUE(lesson_hides_kind(model, SideId::a, FigureKind::bytes));
    EXPECT_TRUE(lesson_hides(model, ViewId::metrics));
    EXPECT_FALSE(lesson_hides(model, ViewId::warps));
    EXPECT_EQ(lesson_current_answer(model), "12288");
    EXPECT_TRUE(lesson_answer_given(model, "12288"));
    EXPECT_FALSE(lesson_hides_kind(model, SideId::a, FigureKind::bytes));
    // Beat 3: the ring's first step asks for the elements combined: the ring stays (its arrows carry bytes).
    ASSERT_TRUE(lesson_go(model, 2));
    model.poll(true);
    EXPECT_EQ(model.work.a.scenario.kernel, "allreduce_ring");
    EXPECT_EQ(lesson_hidden_figure(model), "active_threads");
    EXPECT_FALSE(lesson_hides(model, ViewId::ring));
    EXPECT_EQ(lesson_current_answer(model), "1024");
    // Beat 6 compares the busiest GPUs: both rings drawn, A's and B's bytes kept back.
    ASSERT_TRUE(lesson_go(model, 5));
    model.poll(true);
    EXPECT_TRUE(model.work.compare);
    EXPECT_FALSE(lesson_hides(model, ViewId::compare));
    EXPECT_TRUE(lesson_hides_kind(model, SideId::a, FigureKind::bytes));
    EXPECT_TRUE(lesson_hides_kind(model, SideId::b, FigureKind::bytes));
    EXPECT_EQ(lesson_current_answer(model), "A");
    close_lesson(model);
  }
  unsetenv("XDG_DATA_HOME");
  std::filesystem::remove_all(data);
}

// Compare beside an all-reduce: B is the family's other schedule over as many GPUs as A (naive and ring side by
// side on 4 GPUs), and a one-GPU kernel's partner takes no GPUs.
TEST(Model, AnAllReducesPartnerRunsOnAsManyGpus) {
  GuiOptions o = headless_options();
  Model model(o);
  model.work.a.scenario.kernel = "allreduce_ring";
  model.work.a.scenario.gpus = 4;
  const Scenario b = partner_of(model);
  EXPECT_EQ(b.kernel, "allreduce_naive");
  EXPECT_EQ(b.gpus, 4u);
  i18n_load("en");
  const std::string caption = scenario_text(b);  // its GPUs named, no finish (an all-reduce has no tree to finish)
  EXPECT_NE(caption.find("on 4 GPUs"), std::string::npos) << caption;
  EXPECT_EQ(caption.find("finish"), std::string::npos) << caption;
  model.work.a.scenario.kernel = "interleaved";
  model.work.a.scenario.gpus = 0;
  EXPECT_EQ(partner_of(model).gpus, 0u);
}

// An exercise in the window: its file is written once into the student's folder from the exercise's kernel and
// followed in A on the exercise's scenario; each run of it is checked (here reduce1 as it starts: correct, but with
// bank conflicts, the step and the line named); starting again keeps the student's changes.
TEST(Model, AnExerciseStartsTheStudentsFileAndChecksEachRunOfIt) {
  i18n_load("en");
  Scratch s("session-exercise");
  GuiOptions o = headless_options();
  o.scenario_words = cli::parse_scenario_words;
  o.debug.self_exe = REDLAB_TEST_CLI;
  Model model(o);
  ASSERT_TRUE(open_lesson(model, "harris", 5));
  model.poll(true);
  EXPECT_FALSE(start_exercise(model, "no_such_exercise"));
  ASSERT_TRUE(start_exercise(model, "no_conflicts")) << model.lesson.message;
  const std::string file = (s.dir / "data" / "redlab" / "kernels" / "no_conflicts_harris.cu").string();
  EXPECT_EQ(model.lesson.exercise_file, file);
  ASSERT_TRUE(fs::exists(file));
  EXPECT_EQ(model.work.a.scenario.n, 2048u);
  EXPECT_FALSE(exercise_outcomes(model));  // its run is on the way
  ASSERT_TRUE(poll_until(model, [&] {
    return model.work.a.trace && model.work.a.trace->scenario.kernel == "no_conflicts_harris";
  })) << model.work.a.user.errors;
  const auto outcomes = exercise_outcomes(model);
  ASSERT_TRUE(outcomes);
  ASSERT_EQ(outcomes->size(), 4u);
  EXPECT_TRUE((*outcomes)[0].pass) << (*outcomes)[0].text;  // correct
  EXPECT_TRUE((*outcomes)[1].pass) << (*outcomes)[1].text;  // no fault
  EXPECT_FALSE((*outcomes)[2].pass);  // bank conflicts
  EXPECT_NE((*outcomes)[2].text.find("step 2 'stride 1': 192 shared wavefronts where 96 would do; s[a] at line"),
            std::string::npos)
      << (*outcomes)[2].text;
  // The time is measured on a GPU by the command line, never in the window: not checked, neither passed nor failed.
  EXPECT_TRUE((*outcomes)[3].skipped);
  EXPECT_FALSE((*outcomes)[3].pass);
  EXPECT_NE((*outcomes)[3].text.find("not checked here (timed on a GPU by redlab lesson exercise harris no_conflicts"),
            std::string::npos)
      << (*outcomes)[3].text;
  // The student's file is theirs: starting again opens it as it is.
  std::string text = slurp(file);
  write_elsewhere(file, "// my attempt\n" + text);
  close_lesson(model);
  ASSERT_TRUE(open_lesson(model, "harris", 5));
  ASSERT_TRUE(start_exercise(model, "no_conflicts"));
  EXPECT_EQ(slurp(file).rfind("// my attempt\n", 0), 0u);
}
