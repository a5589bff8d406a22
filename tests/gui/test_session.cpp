// The window's session without a window (app/gui/session.h): runs in the background, their progress and
// cancel, the measurements a view requests, the files it reads. What the views show comes from here.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/catalog.h"
#include "gui/i18n.h"
#include "exec/executor.h"
#include "gui/session.h"
#include "gui/tree_model.h"

using namespace redlab;
using namespace redlab::gui;

namespace {

GuiOptions headless_options() {
  GuiOptions o;
  o.screenshot = "unused.png";   // headless: the session settles work when asked to wait
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

TEST(Session, RunsAScenarioInTheBackgroundAndAdoptsItsTrace) {
  i18n_load("en");
  Session st(headless_options());
  st.a.scenario = cpu_scenario("interleaved", 4096);
  st.request_run(st.a);
  EXPECT_TRUE(st.a.running);
  EXPECT_TRUE(st.busy());
  EXPECT_TRUE(st.poll(true));   // a trace arrived in slot A
  EXPECT_FALSE(st.a.running);
  ASSERT_TRUE(st.a.trace);
  EXPECT_TRUE(st.a.trace->correct);
  EXPECT_EQ(st.a.trace->result, "4096");
  EXPECT_TRUE(st.a.tree.valid);
  EXPECT_EQ(st.max_step(), int(st.a.trace->steps.size()) - 1);
  EXPECT_NE(st.window_title().find("interleaved int32 sum n=4096"), std::string::npos);
  EXPECT_TRUE(st.title_dirty);
}

TEST(Session, RefusesABadScenarioWithTheReasonAndStartsNothing) {
  Session st(headless_options());
  st.a.scenario = cpu_scenario("interleaved", 4096);
  st.a.scenario.block = 48;
  st.request_run(st.a);
  EXPECT_FALSE(st.a.running);
  EXPECT_NE(st.a.error.find("--block"), std::string::npos);
  EXPECT_FALSE(st.busy());
}

TEST(Session, CancelsALongEmulatorRunWithinASecondAndKeepsWhatItShowed) {
  i18n_load("en");
  Session st(headless_options());
  st.a.scenario = cpu_scenario("interleaved", 4096);
  st.request_run(st.a);
  st.poll(true);
  ASSERT_TRUE(st.a.trace);
  // 2^26 elements on the emulator take minutes; the run reports its progress, and a cancel ends it between
  // blocks.
  st.a.scenario = cpu_scenario("interleaved", std::uint64_t(1) << 26);
  st.request_run(st.a);
  ASSERT_TRUE(st.a.running);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto t0 = std::chrono::steady_clock::now();
  st.cancel_run(st.a);
  st.poll(true);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 1.0) << "the run took " << secs << " s to stop";
  EXPECT_FALSE(st.a.running);
  EXPECT_EQ(st.a.error, tr("sc.cancelled"));
  ASSERT_TRUE(st.a.trace);   // the old trace stays
  EXPECT_EQ(st.a.trace->scenario.n, 4096u);
}

TEST(Session, ReportsProgressOfATracedRun) {
  Session st(headless_options());
  st.a.scenario = cpu_scenario("interleaved", std::uint64_t(1) << 26);
  st.request_run(st.a);
  double seen = 0;
  for (int i = 0; i < 200 && seen == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    seen = st.progress(st.a);
  }
  st.cancel_run(st.a);
  st.poll(true);
  EXPECT_GT(seen, 0.0);
  EXPECT_LT(seen, 1.0);
}

TEST(Session, DestroyingItStopsWhatRuns) {
  const auto t0 = std::chrono::steady_clock::now();
  {
    Session st(headless_options());
    st.a.scenario = cpu_scenario("neighbored_modulo", std::uint64_t(1) << 26);
    st.request_run(st.a);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }  // a window that quits mid-run
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 1.2);   // 0.2 s of it the run had
}

TEST(Session, MeasurementsWithoutAGpuSayWhy) {
  Session st(headless_options());
  Scenario s = cpu_scenario("interleaved", 4096);
  st.request_timings(s);
  EXPECT_TRUE(st.live_timings().running);
  st.poll(true);
  EXPECT_FALSE(st.live_timings().running);
  if (!st.live_timings().rep) {
    EXPECT_NE(st.live_timings().error.find("GPU"), std::string::npos) << st.live_timings().error;
  }

  WarpAddresses wa;
  wa.mask = 0xffffffffu;
  for (unsigned l = 0; l < 32; ++l) wa.addr[l] = l * 128;
  wa.width = 4;
  st.request_access_measure(wa, "lane*32", 32);
  st.poll(true);
  const AccessMeasure& m = st.access_measure();
  EXPECT_TRUE(m.have);
  EXPECT_EQ(m.key, "lane*32");
  EXPECT_EQ(m.model_wavefronts, 32u);
  if (std::isnan(m.cycles)) {
    EXPECT_FALSE(m.why.empty());
  }
}

TEST(Session, ReadsTheFilesTheViewsShowOnce) {
  Session st(headless_options());
  const ReferenceTimings& r = st.reference_timings();
  ASSERT_TRUE(r.present) << r.path;
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.rep.rows.empty());
  EXPECT_EQ(&st.reference_timings(), &r);   // read once
  const ReferenceTimings& t = st.transpose_reference(ElemType::float64);
  ASSERT_TRUE(t.present) << t.path;
  EXPECT_EQ(t.rep.mat_rows, 8192u);
  const SourceFile& src = st.source(find_kernel("interleaved")->source_file);
  ASSERT_FALSE(src.lines.empty());
  EXPECT_NE(src.lines[0].find("Interleaved"), std::string::npos);
  EXPECT_TRUE(st.source("kernels/no_such_kernel.cuh").lines.empty());
}

TEST(Session, OpeningADamagedTraceSaysWhyAndKeepsTheSlot) {
  Session st(headless_options());
  EXPECT_FALSE(st.open_trace("/nonexistent/trace.rltrace"));
  EXPECT_NE(st.open_error.find("/nonexistent/trace.rltrace"), std::string::npos);
  EXPECT_FALSE(st.a.trace);
}

TEST(Session, StepClockPlaysToTheLastStepAndStops) {
  Session st(headless_options());
  st.a.scenario = cpu_scenario("interleaved", 256);
  st.request_run(st.a);
  st.poll(true);
  ASSERT_TRUE(st.a.trace);
  st.step = 0;
  st.playing = true;
  st.speed = 4.0f;
  for (int i = 0; i < 100; ++i) st.tick(0.1f);
  EXPECT_EQ(st.step, st.max_step());
  EXPECT_FALSE(st.playing);
  EXPECT_FLOAT_EQ(st.anim, 1.0f);
}

// The code view lights the statements a step runs, not its probe.step(...) line (warp_shuffle's source).
TEST(Session, AStepLightsItsStatementsNotItsProbeLine) {
  GuiOptions o;
  Session st(o);
  const KernelRecord* k = find_kernel("warp_shuffle");
  ASSERT_NE(k, nullptr);
  const auto& src = st.source(k->source_file).lines;
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
TEST(Session, WarpShuffleTreeLightsTheWarpSumsAndTheStoredResult) {
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
  for (std::uint32_t c = 0; c < m.per_block; ++c) {   // the first focus block
    if (m.wstep[m.at(unsigned(sums) + 1, c)] == sums) lit_sums.push_back(c);
    if (m.wstep[m.at(unsigned(store) + 1, c)] == store) lit_store.push_back(c);
  }
  EXPECT_EQ(lit_sums, (std::vector<std::uint32_t>{0, 32, 64, 96}));
  EXPECT_EQ(lit_store, (std::vector<std::uint32_t>{0}));
  // The stored result is the block's sum: thread 0's value after the store step.
  EXPECT_TRUE(m.known[m.at(unsigned(store) + 1, 0)]);
}

// While the first run is under way the views say so (with its progress), not "press Run".
TEST(Session, ViewsWithoutATraceSayARunIsUnderWay) {
  i18n_load("en");
  GuiOptions o;
  Session st(o);
  EXPECT_EQ(no_trace_text(st.a), tr("common.no_trace"));
  st.a.scenario.kernel = "interleaved";
  st.a.scenario.n = std::uint64_t(1) << 26;
  st.a.scenario.block = 256;
  st.a.scenario.backend = BackendChoice::cpu;
  st.request_run(st.a);
  ASSERT_TRUE(st.a.running);
  const std::string text = no_trace_text(st.a);
  EXPECT_NE(text, tr("common.no_trace"));
  EXPECT_NE(text.find("interleaved"), std::string::npos) << text;
  st.cancel_run(st.a);
  st.poll(true);
  // After a cancel, or with a scenario that cannot run, the views say why there is no trace.
  EXPECT_EQ(no_trace_text(st.a), trf("common.no_trace_because", {tr("sc.cancelled")}));
  st.a.error = "--block: 100 is not a power of two";
  EXPECT_NE(no_trace_text(st.a).find("--block: 100"), std::string::npos) << no_trace_text(st.a);
}

// The estimate before Run: a small run is not asked about; n = 2^26 on the emulator is (minutes of work,
// many chunks); memory counts the input at least; on the GPU no emulator time is estimated.
TEST(Session, EstimatesARunBeforeItStarts) {
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
  // The host-only loop runs no emulated threads: 2^26 elements take seconds (3.9 s measured), not minutes.
  Scenario host = sc;
  host.kernel = "cpu_sequential";
  const RunEstimate loop = estimate_run(host, true);
  EXPECT_EQ(loop.threads, 0u);
  EXPECT_EQ(loop.chunks, 1u);
  EXPECT_GT(loop.seconds, 1.0);
  EXPECT_LT(loop.seconds, 10.0);
  // The window's estimate goes through the slot and refuses what cannot run, as Run would.
  GuiOptions o;
  Session st(o);
  st.a.scenario = sc;
  st.a.scenario.backend = BackendChoice::cpu;
  EXPECT_TRUE(st.estimate(st.a).ask());
  st.a.scenario.block = 100;
  EXPECT_THROW(st.estimate(st.a), ScenarioError);
}

// The views' hardware counts come from a second redlab (`stats --hw --json`): without a GPU it answers why, and
// the session shows that reason; counts recorded on a GPU (REDLAB_GUI_HW_FROM) are read for their own scenario
// only; a step inside block_reduce.cuh is shown in that file.
TEST(Session, HardwareCountsComeFromAChildRedlabOrARecordedFile) {
  i18n_load("en");
  std::string why;
  if (make_cuda_executor(&why)) GTEST_SKIP() << "a GPU is present (the GPU selftest checks the collected counts)";
  GuiOptions o = headless_options();
  o.debug.self_exe = REDLAB_TEST_CLI;
  {
    Session st(o);
    st.a.scenario = cpu_scenario("interleaved", 4096);
    st.request_hw_counts();
    EXPECT_TRUE(st.hw_busy());
    st.poll(true);
    const HwState* hw = st.hw_counts();
    ASSERT_NE(hw, nullptr);
    EXPECT_FALSE(hw->counts.collected);
    EXPECT_NE(hw->counts.why.find("need a CUDA GPU"), std::string::npos) << hw->counts.why;
    st.a.scenario.n = 8192;   // another scenario: those counts are not its own
    EXPECT_EQ(st.hw_counts(), nullptr);
  }
  o.debug.hw_from = std::string(REDLAB_SOURCE_DIR) + "/tests/data/hw/vectorized_h100.json";
  Session st(o);
  st.a.scenario = cpu_scenario("vectorized", std::uint64_t(1) << 20);
  st.a.scenario.input = InputKind::random;
  st.request_run(st.a);
  st.request_hw_counts();
  st.poll(true);
  const HwState* hw = st.hw_counts();
  ASSERT_NE(hw, nullptr);
  ASSERT_TRUE(hw->counts.collected) << hw->counts.why;
  ASSERT_TRUE(st.a.trace);
  const HwComparison c = compare_hw(*st.a.trace, hw->counts, &st.kernel_sources(hw->counts.source_file));
  for (const HwKindFigures& f : c.total) EXPECT_EQ(f.cause, "") << f.why;
  const KernelRecord* k = find_kernel("vectorized");
  for (const Step& s : st.a.trace->steps)
    if (s.label_kind == rec::Label::warp_sums_store) EXPECT_EQ(st.step_file(*k, s), "kernels/block/block_reduce.cuh");
  // A recorded file of another scenario is refused with the reason.
  st.a.scenario.n = 4096;
  st.request_hw_counts();
  st.poll(true);
  ASSERT_NE(st.hw_counts(), nullptr);
  EXPECT_FALSE(st.hw_counts()->counts.collected);
  EXPECT_NE(st.hw_counts()->counts.why.find("run the same scenario"), std::string::npos) << st.hw_counts()->counts.why;
}

// A kernel file of the student's own (issue 14, item 4): compiled and traced by a second redlab, its record loaded
// into the window's process, its trace adopted with the same figures as the catalog kernel it came from. Saving a
// syntax error marks its line and keeps the last good trace; a crash is reported by the second redlab while this
// process goes on; saving a good file again runs it again.
TEST(Session, AKernelFileRunsInASecondRedlabAndAgainOnEverySave) {
  i18n_load("en");
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("redlab-session-source-" + std::to_string(getpid()));
  fs::create_directories(dir);
  setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
  const std::string file = (dir / "my_modulo.cu").string();
  ASSERT_EQ(std::system((std::string(REDLAB_TEST_CLI) + " new-kernel " + file + " --from neighbored_modulo >/dev/null").c_str()), 0);
  GuiOptions o = headless_options();
  o.debug.self_exe = REDLAB_TEST_CLI;
  Session st(o);
  st.a.scenario = cpu_scenario("neighbored_modulo", 2048);
  st.open_kernel_source(file);
  EXPECT_TRUE(st.busy());
  st.poll(true);
  ASSERT_TRUE(st.a.trace) << st.user_source().errors;
  EXPECT_EQ(st.a.trace->scenario.kernel, "my_modulo");
  EXPECT_EQ(st.user_source().errors, "");
  const Trace catalog = make_cpu_executor()->run(cpu_scenario("neighbored_modulo", 2048));
  ASSERT_EQ(st.a.trace->steps.size(), catalog.steps.size());
  for (std::size_t i = 0; i < catalog.steps.size(); ++i) EXPECT_EQ(st.a.trace->steps[i].stats, catalog.steps[i].stats);
  EXPECT_TRUE(fs::path(find_kernel("my_modulo")->source_file).is_absolute());

  auto save = [&](const std::string& from, const std::string& to) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));   // a new modification time
    std::ofstream(file) << text;
    fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(1));
    // the watch looks twice a second
    for (int i = 0; i < 40 && !st.busy(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      st.poll();
    }
    st.poll(true);
  };
  save("probe.finish();\n", "probe.finish() oops;\n");
  EXPECT_NE(st.user_source().errors.find("error"), std::string::npos);
  ASSERT_FALSE(st.user_source().marks.empty());
  EXPECT_NE(st.user_source().marks.begin()->second.find("oops"), std::string::npos) << st.user_source().marks.begin()->second;
  EXPECT_TRUE(st.a.trace);   // the last good trace stays
  save("probe.finish() oops;\n", "probe.finish();\n");
  EXPECT_EQ(st.user_source().errors, "");
  EXPECT_EQ(st.user_source().runs, 3u);
  fs::remove_all(dir);
}
