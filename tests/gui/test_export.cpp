// Slide-ready exports (app/model/export.h) without a window: a GIF's finished steps held long enough to read, and the
// caption that names what a view's PNG or GIF shows.
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "model/export.h"
#include "model/i18n.h"

using namespace redlab;
using namespace redlab::model;

// Each finished step stays `hold` seconds (default 1.5); before, a step at 1.5 steps per second stayed 0.19 s after
// its 0.48 s move.
TEST(Export, EachFinishedStepOfAGifIsHeldLongEnoughToRead) {
  for (float speed : {0.5f, 1.5f, 6.0f, 20.0f})
    for (float hold : {kDefaultHold, 0.2f, 3.0f}) {
      const std::vector<GifFrame> frames = gif_schedule(9, speed, hold);
      const int hold_cs = int(hold * 100 + 0.5f);
      ASSERT_FALSE(frames.empty());
      EXPECT_EQ(frames.front().step, 0);
      EXPECT_EQ(frames.front().delay_cs, hold_cs);
      for (int s = 1; s <= 9; ++s) {
        int moves = 0, last = -1;
        for (std::size_t i = 0; i < frames.size(); ++i)
          if (frames[i].step == s) {
            ++moves;
            last = int(i);
          }
        ASSERT_GE(moves, 2) << "step " << s;  // its move's start and end
        EXPECT_EQ(frames[std::size_t(last)].anim, 1.0f);  // it ends finished
        EXPECT_EQ(frames[std::size_t(last)].delay_cs, hold_cs)
            << "speed " << speed << " hold " << hold << " step " << s;
        for (std::size_t i = std::size_t(last - moves + 1); i < std::size_t(last); ++i)
          EXPECT_LE(frames[i].delay_cs, 10) << "a move's frame is short";
      }
    }
  // Out of range: held within 0.2 .. 10 s.
  EXPECT_EQ(gif_schedule(1, 1.5f, 100.0f).back().delay_cs, 1000);
  EXPECT_EQ(gif_schedule(1, 1.5f, 0.0f).back().delay_cs, 20);
}

TEST(Export, TheCaptionNamesTheKernelItsShapeAndTheStepWithItsFigures) {
  i18n_load("en");
  Trace t;
  t.scenario.kernel = "neighbored_strided";
  t.scenario.n = 256;
  t.scenario.block = 256;
  Step load, tree;
  load.phase = Phase::load;
  tree.phase = Phase::tree;
  tree.label_kind = rec::Label::stride;
  tree.param = 8;
  tree.stats.active_threads = 16;
  tree.stats.active_warps = 1;
  tree.stats.divergent_warps = 1;
  tree.stats.smem_load_wavefronts = 16;
  tree.stats.smem_store_wavefronts = 8;
  tree.stats.smem_load_ideal = 2;
  tree.stats.smem_store_ideal = 1;
  t.steps = {load, tree};
  std::vector<std::string> lines = export_caption(t, 1);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "neighbored_strided  ·  n 256  ·  block 256  ·  int32 sum");
  EXPECT_EQ(
      lines[1].rfind(
          "step 2 / 2  tree: stride 8  ·  threads 16  |  warps 1, divergent 1  |  shared wavefronts 24 (ideal 3)", 0),
      0u)
      << lines[1];
  i18n_load("zh_CN");
  lines = export_caption(t, 1);
  EXPECT_NE(lines[0].find("线程块 256"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].rfind("步 2 / 2", 0), 0u) << lines[1];
  i18n_load("en");
  t.scenario.kernel = "transpose_padded";
  t.scenario.rows = 512;
  t.scenario.cols = 256;
  t.scenario.block_rows = 8;
  t.scenario.type = ElemType::float32;
  EXPECT_EQ(export_caption(t, 0)[0], "transpose_padded  ·  512 x 256 matrix  ·  blocks of 32 x 8  ·  float32");
  EXPECT_EQ(export_caption(t, 5).size(), 1u);  // a step the trace does not have: the scenario alone
}

TEST(Export, APictureSaysWhichBackendAndDeviceDrewItInPrintableText) {
  Trace gpu, cpu;
  gpu.backend = Backend::cuda;
  gpu.device = "NVIDIA H200";
  cpu.backend = Backend::emulator;
  cpu.device = "CPU SIMT emulator (2 threads, AMD EPYC)";
  EXPECT_EQ(picture_source(&gpu), "backend: cuda | device: NVIDIA H200");
  EXPECT_EQ(picture_source(nullptr), "no trace");
  EXPECT_EQ(
      picture_source(&gpu, true, &cpu),
      "A: backend: cuda | device: NVIDIA H200; B: backend: cpu | device: CPU SIMT emulator (2 threads, AMD EPYC)");
  EXPECT_EQ(picture_source(&gpu, true, nullptr), "A: backend: cuda | device: NVIDIA H200; B: no trace");
  // A trace file's device name is anybody's text: a PNG's text is Latin-1, one line, bounded.
  gpu.device = "evil\n\x1b]0;\xe4\xb8\xad" + std::string(1000, 'x');
  const std::string s = picture_source(&gpu);
  EXPECT_EQ(s.rfind("backend: cuda | device: evil??]0;???xxx", 0), 0u) << s;
  EXPECT_EQ(s.size(), 300u);
}
