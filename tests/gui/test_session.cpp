// The window's session without a window (app/gui/session.h): runs in the background, their progress and
// cancel, the measurements a view requests, the files it reads. What the views show comes from here.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "core/catalog.h"
#include "gui/i18n.h"
#include "gui/session.h"

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
