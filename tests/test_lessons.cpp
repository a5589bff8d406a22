// The lessons (app/model/lesson.h): the shipped ones read and check against their runs; a lecturer's file is read
// with bounds and every mistake named by its line; a question's answer is the trace's figure, and a student's
// answer is judged against it.
#include <gtest/gtest.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli/arguments.h"
#include "core/stats_json.h"
#include "exec/executor.h"
#include "model/lesson.h"
#include "model/lesson_player.h"
#include "model/lesson_progress.h"
#include "model/settings.h"

using namespace redlab;
using namespace redlab::model;

namespace {
std::string write_file(const std::string& name, const std::string& text) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("redlab_lesson_" + std::to_string(getpid()) + "_" + name)).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}
std::string read(const std::string& text, Lesson& l) {
  return read_lesson(write_file("case.lesson", text), cli::parse_scenario_words, l);
}
const char* kHead = "lesson: mine\nnote: 001\ntitle.en: Mine\ntitle.zh: 我的\n";
const char* kSay = "say.en: Look.\nsay.zh: 看。\n";

// The emulator's traces, each scenario once.
struct Traces {
  std::map<std::string, std::unique_ptr<Trace>> traces;
  const Trace* get(const Scenario& s, std::string* why) {
    const std::string key = describe(s) + " " + std::to_string(s.seed);
    if (auto it = traces.find(key); it != traces.end()) return it->second.get();
    try {
      return traces.emplace(key, std::make_unique<Trace>(make_cpu_executor()->run(s))).first->second.get();
    } catch (const std::exception& e) {
      *why = e.what();
      return nullptr;
    }
  }
};
}  // namespace

// `lesson check memory` beside a file called memory (a lecturer's draft) reads that file, not the shipped lesson
// (which needed ./memory); the commands print the path they read.
TEST(Lesson, AFileOfTheNameHereIsPreferredToTheShippedLesson) {
  namespace fs = std::filesystem;
  const fs::path was = fs::current_path();
  const fs::path dir = fs::temp_directory_path() / ("redlab-lesson-here-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::current_path(dir);
  const std::string shipped = find_lesson("memory");
  std::ofstream("memory") << "lesson memory\n";
  EXPECT_EQ(find_lesson("memory"), "memory");
  fs::remove("memory");
  EXPECT_EQ(find_lesson("memory"), shipped);
  EXPECT_NE(shipped.find("002_memory.lesson"), std::string::npos) << shipped;
  fs::current_path(was);
  fs::remove_all(dir);
}

TEST(Lesson, EveryShippedLessonReadsAndEveryBeatRunsWithItsAnswer) {
  const std::vector<std::string> files = shipped_lessons();
  ASSERT_FALSE(files.empty());
  Traces traces;
  for (const std::string& f : files) {
    Lesson l;
    ASSERT_EQ(read_lesson(f, cli::parse_scenario_words, l), "") << f;
    EXPECT_EQ(find_lesson(l.name), f);
    for (const LessonBeat& b : l.beats) EXPECT_FALSE(b.say.en.empty() || b.say.zh.empty()) << f << " line " << b.line;
    // On the emulator here (every kernel a lesson shows has a traced build).
    const auto problems = check_lesson_runs(l, [&](const Scenario& s, std::string* why) {
      Scenario cpu = s;
      cpu.backend = BackendChoice::cpu;
      return traces.get(cpu, why);
    });
    EXPECT_TRUE(problems.empty()) << f << ": " << (problems.empty() ? "" : problems.front());
  }
}

// The answer is the figure `stats --json` gives at the beat's step: the same code, the same trace.
TEST(Lesson, AnAnswerIsTheFigureStatsGivesAtTheBeatsStep) {
  Lesson l;
  ASSERT_EQ(
      read(std::string(kHead) + "beat\na: --kernel neighbored_strided --n 2048 --block 256\nstep: stride 2\n" + kSay +
               "ask: smem_load_wavefronts\nask.en: ?\nask.zh: ？\nexplain.en: .\nexplain.zh: 。\n"
               "beat\nb: --kernel interleaved --n 2048 --block 256\nstep: 2\n" +
               kSay +
               "ask: more smem_load_wavefronts\nask.en: ?\nask.zh: ？\nexplain.en: .\nexplain.zh: 。\n"
               "beat\na: --kernel interleaved --n 2048 --block 256 --input ones\nb: none\n" +
               kSay +
               "ask: result\nask.en: ?\nask.zh: ？\nexplain.en: .\nexplain.zh: 。\n"
               "beat\nstep: offset 16\n" +
               kSay + "ask: tree_simd_efficiency\nask.en: ?\nask.zh: ？\nexplain.en: .\nexplain.zh: 。\n",
           l),
      "");
  ASSERT_EQ(l.beats.size(), 4u);
  EXPECT_TRUE(l.beats[1].b);  // B comes in ...
  EXPECT_EQ(l.beats[1].a_words, l.beats[0].a_words);  // ... beside the A the beat before showed
  EXPECT_FALSE(l.beats[2].b);  // b: none
  Traces traces;
  std::string why;
  auto cpu = [](Scenario s) {
    s.backend = BackendChoice::cpu;
    return s;
  };
  const Trace* strided = traces.get(cpu(*l.beats[0].a), &why);
  const Trace* interleaved = traces.get(cpu(*l.beats[1].b), &why);
  const Trace* ones = traces.get(cpu(*l.beats[2].a), &why);
  ASSERT_TRUE(strided && interleaved && ones) << why;
  EXPECT_EQ(lesson_step(l.beats[0], *strided), 2);
  const auto stats = stats_json(*strided);
  EXPECT_EQ(lesson_answer(l.beats[0], *strided, nullptr), stats["steps"][2]["smem_load_wavefronts"].dump());
  EXPECT_EQ(lesson_answer(l.beats[0], *strided, nullptr), "128");  // 32 requests, 4-way conflict
  EXPECT_EQ(lesson_answer(l.beats[1], *strided, interleaved), "A");
  EXPECT_EQ(lesson_answer(l.beats[1], *interleaved, strided), "B");
  EXPECT_EQ(lesson_answer(l.beats[1], *strided, strided), "same");
  EXPECT_EQ(lesson_answer(l.beats[2], *ones, nullptr), "2048");  // 2048 ones
  EXPECT_EQ(lesson_answer(l.beats[3], *ones, nullptr), stats_json(*ones)["summary"]["tree_simd_efficiency"].dump());
  // A comparison's own figures, for the panel once it is answered; a question that compares nothing has none.
  const auto istats = stats_json(*interleaved);
  EXPECT_EQ(lesson_compared_figures(l.beats[1], *strided, interleaved),
            "A " + stats["steps"][2]["smem_load_wavefronts"].dump() + " \u00b7 B " +
                istats["steps"][2]["smem_load_wavefronts"].dump());
  EXPECT_EQ(lesson_compared_figures(l.beats[1], *strided, nullptr), "");
  EXPECT_EQ(lesson_compared_figures(l.beats[0], *strided, interleaved), "");
  LessonBeat simd = l.beats[1];
  simd.question->figure = "tree_simd_efficiency";
  char pct[64];
  std::snprintf(pct, sizeof pct, "A %.1f %% \u00b7 B %.1f %%",
                100 * stats["summary"]["tree_simd_efficiency"].get<double>(),
                100 * istats["summary"]["tree_simd_efficiency"].get<double>());
  EXPECT_EQ(lesson_compared_figures(simd, *strided, interleaved), pct);
  // A step the trace does not have: no answer, and why.
  LessonBeat far = l.beats[0];
  far.step = "stride 512";
  EXPECT_EQ(lesson_answer(far, *strided, nullptr, &why), "");
  EXPECT_NE(why.find("stride 512"), std::string::npos) << why;
  EXPECT_NE(why.find("stride 128"), std::string::npos) << why;  // the steps it has
}

TEST(Lesson, AStudentsAnswerIsJudgedAgainstTheFigure) {
  EXPECT_TRUE(lesson_answer_right("128", "128"));
  EXPECT_TRUE(lesson_answer_right("128", " 128 "));
  EXPECT_FALSE(lesson_answer_right("128", "127"));
  EXPECT_FALSE(lesson_answer_right("128", "128%"));
  EXPECT_FALSE(lesson_answer_right("128", "lots"));
  EXPECT_FALSE(lesson_answer_right("128", ""));
  EXPECT_TRUE(lesson_answer_right("0.6640625", "0.664"));
  EXPECT_TRUE(lesson_answer_right("0.6640625", "66.4%"));
  EXPECT_FALSE(lesson_answer_right("0.6640625", "0.6"));
  EXPECT_TRUE(lesson_answer_right("A", "a"));
  EXPECT_FALSE(lesson_answer_right("A", "B"));
  EXPECT_TRUE(lesson_answer_right("same", "Same"));
  EXPECT_TRUE(lesson_answer_right("same", "相同"));
  EXPECT_FALSE(lesson_answer_right("B", "same"));
}

// A lecturer's mistakes, each named by its line, and nothing taken from a file that has one.
TEST(Lesson, EachMistakeInAFileIsNamedByItsLine) {
  const std::string head = kHead;  // 4 lines
  const std::string a = "a: --kernel interleaved --n 2048 --block 256\n";
  struct Case {
    std::string text, why;
  };
  const std::vector<Case> cases = {
      {head + "beat\n" + kSay, "line 6: the first beat starts with `a:`"},
      {head + "beat\n" + a + "say.en: Look.\n", "line 5: the beat needs say.en and say.zh"},
      {head + "beat\n" + a + kSay + "layout: sideways\n", "line 9: layout: study, present or compare"},
      {head + "beat\n" + a + kSay + "look: gallery\n", "line 9: look: tree, banks"},
      {head + "beat\n" + a + kSay + "warp: 32\n", "line 9: warp: a warp of the block (0 to 31)"},
      {head + "beat\n" + a + kSay + "bank: -1\n", "line 9: bank: a bank column (0 to 31)"},
      {head + "beat\n" + a + kSay + "colour: red\n", "line 9: 'colour' is not a beat's key"},
      {head + "beat\n" + a + kSay + "say.en: Again.\n", "line 9: a second 'say.en' in this beat"},
      {head + "beat\na: --kernel interleaved --n abc\n" + kSay, "line 6: a: --n: 'abc'"},
      {head + "beat\na: --kernel no_such_kernel\n" + kSay, "line 6: a: "},
      {head + "beat\n" + a + kSay + "ask: wavefront\nask.en: ?\nask.zh: ？\nexplain.en: .\nexplain.zh: 。\n",
       "line 9: ask: no figure 'wavefront' (one of: active_threads"},
      {head + "beat\n" + a + kSay + "ask: more divergent_warps\nask.en: ?\nask.zh: ？\nexplain.en: .\nexplain.zh: 。\n",
       "line 9: ask: 'more' compares A and B, and this beat shows no B"},
      {head + "beat\n" + a + kSay + "ask: result\nask.en: ?\nask.zh: ？\nexplain.en: .\n",
       "line 9: ask: the question needs explain.zh"},
      {head + "beat\n" + a + kSay + "ask.en: ?\n",
       "line 5: the beat has a question's text (ask.en, explain.en ...) but no `ask:`"},
      {head + "beat\n" + a + kSay + "b: none\nno colon here\n", "line 10: `key: value` expected"},
      {head + "beat\n" + a + kSay + "gallery: Full Mask\n", "line 9: gallery: a gallery entry's id"},
      {head + "beat\n" + a + "gallery: full_mask_shuffle\n" + kSay +
           "ask: result\nask.en: ?\nask.zh: ？\nexplain.en: .\n"
           "explain.zh: 。\n",
       "line 5: the beat shows a gallery entry: it asks nothing"},
      {head + "beat\n" + a + "gallery: full_mask_shuffle\nsay.en: It has {a.n} inputs.\nsay.zh: 看。\n",
       "line 5: the beat shows a gallery entry: its narration writes no {figure}"},
      {"beat\n" + a + kSay, "line 1: a beat before the lesson's name"},
      {"lesson: Mine!\n", "line 1: lesson: a name of lower-case letters"},
      {"lesson: mine\ntitle.en: Mine\n" + std::string("beat\n") + a + kSay, "needs title.en and title.zh"},
      {head, "has no beat"},
      {head + "beat\n" + a + "say.en: " + std::string(5000, 'x') + "\n", "line 7: longer than 4096 bytes"},
      {head + "exercise mine\nfrom: no_such_kernel\n",
       "line 6: from: 'no_such_kernel' is not a catalog kernel with a traced build"},
      {head + "exercise mine\nfrom: cub_device\n",
       "line 6: from: 'cub_device' is not a catalog kernel with a traced build"},
      {head +
           "exercise mine\nfrom: interleaved\na: --kernel interleaved --n 256\ntitle.en: T\ntitle.zh: 题\ntask.en: T\n"
           "task.zh: 题\ncheck: correct\n",
       "line 7: a: the kernel is the student's file"},
      {head + "exercise mine\nfrom: interleaved\na: --n 256\ntitle.en: T\ntitle.zh: 题\ntask.en: T\ntask.zh: 题\n",
       "line 5: the exercise needs a check"},
      {head + "exercise mine\nfrom: interleaved\na: --n 256\ncheck: fast\n", "line 8: check: correct, no_fault"},
      {head + "exercise mine\nfrom: interleaved\na: --n 256\ncheck: sectors_per_request 99\n",
       "line 8: check: correct"},
      {head + "exercise Mine\n", "line 5: exercise: a name of lower-case letters"},
      {head + "exercise mine\nsay.en: x\n", "line 6: 'say.en' is not an exercise's key"},
  };
  for (const Case& c : cases) {
    Lesson l;
    l.name = "untouched";
    const std::string why = read(c.text, l);
    EXPECT_NE(why.find(c.why), std::string::npos) << "expected '" << c.why << "', got '" << why << "'";
    EXPECT_EQ(l.name, "untouched");
  }
  // Not a file, or too large: refused before it is read.
  Lesson l;
  EXPECT_NE(
      read_lesson(std::filesystem::temp_directory_path().string(), cli::parse_scenario_words, l).find("is not a file"),
      std::string::npos);
  EXPECT_NE(read(std::string(kLessonMaxBytes + 1, '#'), l).find("a lesson has at most"), std::string::npos);
  // A comment, CRLF line ends and a '#' inside the narration are all fine.
  ASSERT_EQ(read(head + "# the first beat\r\nbeat\r\n" + a + "say.en: Count the # of warps.\nsay.zh: 数一数。\n", l),
            "");
  EXPECT_EQ(l.beats.at(0).say.en, "Count the # of warps.");
  EXPECT_EQ(l.beats.at(0).line, 6);
}

// The checks that need the runs: a step, warp or line the trace or the kernel's file does not have.
TEST(Lesson, TheRunsCheckStepsWarpsAndLines) {
  Lesson l;
  ASSERT_EQ(read(std::string(kHead) +
                     "beat\na: --kernel interleaved --n 512 --block 128\nstep: offset 512\nwarp: 5\n"
                     "line: 900\n" +
                     kSay + "beat\nstep: 3\nlook: tile\n" + kSay,
                 l),
            "");
  Traces traces;
  const auto problems = check_lesson_runs(l, [&](const Scenario& s, std::string* why) {
    Scenario cpu = s;
    cpu.backend = BackendChoice::cpu;
    return traces.get(cpu, why);
  });
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_NE(problems[0].find("line 5: A: step 'offset 512': the trace's steps are load, offset 64"), std::string::npos)
      << problems[0];
  EXPECT_NE(problems[1].find("line 5: warp 5: a block of 128 threads has warps 0 to 3"), std::string::npos)
      << problems[1];
  EXPECT_NE(problems[2].find("line 5: line 900: interleaved's file has"), std::string::npos) << problems[2];
  EXPECT_NE(problems[3].find("line 12: look: tile: interleaved is not a transpose"), std::string::npos) << problems[3];
}

// A gallery beat names an entry of redlab's gallery, made from a catalog kernel: the runs' check finds a name the
// gallery does not have, and runs no compiler for one it has.
TEST(Lesson, AGalleryBeatNamesAnEntryOfTheGallery) {
  Lesson l;
  ASSERT_EQ(
      read(std::string(kHead) + "beat\na: --kernel interleaved --n 512 --block 128\n" + kSay +
               "beat\ngallery: full_mask_shuffle\nlook: code\n" + kSay + "beat\ngallery: no_such_mistake\n" + kSay,
           l),
      "");
  ASSERT_EQ(l.beats.size(), 3u);
  EXPECT_EQ(l.beats[1].gallery, "full_mask_shuffle");
  EXPECT_TRUE(l.beats[0].gallery.empty());
  Traces traces;
  int runs = 0;
  const auto problems = check_lesson_runs(l, [&](const Scenario& s, std::string* why) {
    ++runs;
    Scenario cpu = s;
    cpu.backend = BackendChoice::cpu;
    return traces.get(cpu, why);
  });
  EXPECT_EQ(runs, 1);  // the first beat's scenario only
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("line 14: gallery: no entry 'no_such_mistake' in the gallery"), std::string::npos)
      << problems[0];
}

// The all-reduce's view is the ring, and the ring is no one-GPU kernel's; its byte figures are the summary's: the
// busiest GPU's bytes and the lower bound, the figures the ring lesson asks for.
TEST(Lesson, TheRingIsAnAllReducesViewAndItsBytesAreFigures) {
  Lesson l;
  ASSERT_EQ(
      read(std::string(kHead) + "beat\na: --kernel interleaved --n 512 --block 128\nlook: ring\n" + kSay +
               "beat\na: --kernel allreduce_ring --gpus 4 --n 1024 --input ones\nlook: tree\n" + kSay +
               "beat\nlook: ring\nask: most_bytes_sent_per_gpu\nask.en: Bytes?\nask.zh: 字节？\nexplain.en: {answer}.\n"
               "explain.zh: {answer}。\n" +
               kSay +
               "beat\na: --kernel allreduce_naive --gpus 4 --n 1024 --input ones\nask: lower_bound_bytes_per_gpu\n"
               "ask.en: Bound?\nask.zh: 下界？\nexplain.en: {answer}.\nexplain.zh: {answer}。\n" +
               kSay,
           l),
      "");
  Traces traces;
  auto tracer = [&](const Scenario& s, std::string* why) {
    Scenario cpu = s;
    cpu.backend = BackendChoice::cpu;
    return traces.get(cpu, why);
  };
  const auto problems = check_lesson_runs(l, tracer);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("line 5: look: ring: interleaved runs on one GPU"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("line 10: look: tree: allreduce_ring is an all-reduce"), std::string::npos) << problems[1];
  std::string why;
  const Trace* ring = tracer(*l.beats[1].a, &why);
  const Trace* naive = tracer(*l.beats[3].a, &why);
  ASSERT_TRUE(ring && naive) << why;
  EXPECT_EQ(lesson_answer(l.beats[2], *ring, nullptr, &why), "6144") << why;  // 2 (G-1)/G x 4096 bytes
  EXPECT_EQ(lesson_answer(l.beats[3], *naive, nullptr, &why), "6144.0") << why;
}

// The occupancy's figures are a question's too: the blocks one SM holds and, for a cluster kernel, the clusters the
// card holds at once; the texts name the card's limits they follow from. On the emulator the card is the reference
// one (132 SMs, 2048 threads and 32 blocks an SM): blocks of 128 threads are 16 an SM (by threads), so clusters of
// 8 are at most 132 x 16 / 8 = 264 at once, and clusters of 4 at most 528.
TEST(Lesson, OccupancyFiguresAreTheFirstLaunchsAndTheirTextsNameTheCardsLimits) {
  Lesson l;
  const std::string ask =
      "ask.en: How many?\nask.zh: 多少？\nexplain.en: {answer}: {a.blocks_per_sm} x {a.sms} / "
      "{a.cluster} ({a.max_threads_per_sm} / {a.block}, {a.max_blocks_per_sm}).\n"
      "explain.zh: {answer}：{a.blocks_per_sm} x {a.sms} / {a.cluster}（{a.max_threads_per_sm} / "
      "{a.block}，{a.max_blocks_per_sm}）。\n";
  ASSERT_EQ(
      read(std::string(kHead) + "beat\na: --kernel cluster_reduce --cluster 8 --n 8192 --block 128 --input ones\n" +
               kSay + "ask: clusters_at_most\n" + ask +
               "beat\na: --kernel cluster_tree --cluster 4 --n 8192 --block 128 --input ones\n" + kSay +
               "ask: clusters_at_most\n" + ask + "beat\na: --kernel interleaved --n 8192 --block 256\n" + kSay +
               "ask: blocks_per_sm\n" + ask,
           l),
      "");
  Traces traces;
  std::string why;
  std::vector<const Trace*> t;
  for (const LessonBeat& b : l.beats) {
    Scenario cpu = *b.a;
    cpu.backend = BackendChoice::cpu;
    t.push_back(traces.get(cpu, &why));
    ASSERT_TRUE(t.back()) << why;
  }
  EXPECT_EQ(lesson_answer(l.beats[0], *t[0], nullptr, &why), "264") << why;
  EXPECT_EQ(lesson_answer(l.beats[1], *t[1], nullptr, &why), "528") << why;
  EXPECT_EQ(lesson_answer(l.beats[2], *t[2], nullptr, &why), "8") << why;  // 2048 / 256 threads
  EXPECT_EQ(fill_beat_texts(l.beats[0], *t[0], nullptr).explain.en, "264: 16 x 132 / 8 (2048 / 128, 32).");
  EXPECT_EQ(fill_beat_texts(l.beats[2], *t[2], nullptr).explain.en, "8: 8 x 132 / 1 (2048 / 256, 32).");
  // The card's limits are the GPU's: written by hand, the reference card's 132 SMs is refused ({a.sms}); the blocks a
  // cluster (8) is the scenario's, and may be written.
  Lesson by_hand;
  ASSERT_EQ(
      read(std::string(kHead) + "beat\na: --kernel cluster_reduce --cluster 8 --n 8192 --block 128 --input ones\n" +
               "say.en: 132 SMs, clusters of 8.\nsay.zh: 132 个 SM，每簇 8 个。\n",
           by_hand),
      "");
  auto tracer = [&](const Scenario& s, std::string* w) {
    Scenario cpu = s;
    cpu.backend = BackendChoice::cpu;
    return traces.get(cpu, w);
  };
  const auto problems = check_lesson_runs(by_hand, tracer);
  ASSERT_EQ(problems.size(), 2u);  // (say.en and say.zh)
  EXPECT_NE(problems[0].find("{a.sms}"), std::string::npos) << problems[0];
  EXPECT_EQ(problems[0].find("{a.cluster}"), std::string::npos) << problems[0];
  EXPECT_TRUE(check_lesson_runs(l, tracer).empty());
  // A kernel without clusters has no clusters to count.
  Lesson none;
  ASSERT_EQ(read(std::string(kHead) + "beat\na: --kernel interleaved --n 8192 --block 256\n" + kSay +
                     "ask: clusters_at_most\n" + ask,
                 none),
            "");
  EXPECT_EQ(lesson_answer(none.beats[0], *t[2], nullptr, &why), "");
  EXPECT_NE(why.find("clusters_at_most"), std::string::npos) << why;
  // The Scenario pane keeps both back while either is asked: one gives the other with the SM count.
  EXPECT_EQ(figure_kind("clusters_at_most"), FigureKind::occupancy);
  EXPECT_EQ(figure_kind("blocks_per_sm"), FigureKind::occupancy);
}

// A lesson's texts name the trace's figures ({a.FIGURE}, {b.FIGURE@STEP}, {X / Y}, {answer}): each reference is read
// and checked with the file, the same ones in both languages, nothing that gives the answer away before it is given.
TEST(Lesson, ATextsReferencesAreCheckedWhereTheyAreWritten) {
  const std::string head = kHead;
  const std::string a = "a: --kernel interleaved --n 512 --block 128 --input ones\n";
  const std::string ab = a + "b: --kernel neighbored_modulo --n 512 --block 128 --input ones\n";
  auto question = [](const std::string& ask, const std::string& en, const std::string& zh, const std::string& explain) {
    return "ask: " + ask + "\nask.en: " + en + "\nask.zh: " + zh + "\nexplain.en: " + explain +
           "\nexplain.zh: " + explain + "\n";
  };
  struct Case {
    std::string text, why;
  };
  const std::vector<Case> cases = {
      {head + "beat\n" + a + "say.en: {a.wavefront}\nsay.zh: {a.wavefront}\n",
       "line 7: say.en: 'a.wavefront': no figure 'wavefront'"},
      {head + "beat\n" + a + "say.en: {a.active_threads\nsay.zh: 看\n", "line 7: say.en: a '{' without its '}'"},
      {head + "beat\n" + a + "say.en: {c.active_threads}\nsay.zh: 看\n",
       "line 7: say.en: 'c.active_threads': a reference is"},
      {head + "beat\n" + a + "say.en: {a.n@load}\nsay.zh: {a.n@load}\n", "the scenario's n has no step"},
      {head + "beat\n" + a + "say.en: {a.active_threads}\nsay.zh: 看\n",
       "line 8: say.zh: names other figures than say.en (en: {a.active_threads}; zh: none)"},
      {head + "beat\n" + a + "say.en: {b.active_threads}\nsay.zh: {b.active_threads}\n",
       "{b.active_threads}: this beat shows no B"},
      {head + "beat\n" + a + kSay + question("divergent_warps", "How many? {answer}", "多少？{answer}", "{answer}"),
       "line 10: ask.en: {answer} is read before the student answers"},
      {head + "beat\n" + a +
           "step: offset 64\nsay.en: {a.divergent_warps} of them.\nsay.zh: {a.divergent_warps} 个。\n" +
           question("divergent_warps", "How many?", "多少？", "{answer}"),
       "line 8: say.en: {a.divergent_warps} is the figure the question asks for"},
      {head + "beat\n" + ab + kSay +
           question("more smem_load_wavefronts", "B has {b.smem_load_wavefronts}; more?",
                    "B 有 {b.smem_load_wavefronts}；谁多？", "{answer}"),
       "ask.en: {b.smem_load_wavefronts} is the figure the question asks for"},
  };
  for (const Case& c : cases) {
    Lesson l;
    const std::string why = read(c.text, l);
    EXPECT_NE(why.find(c.why), std::string::npos) << "expected '" << c.why << "', got '" << why << "'";
  }
  // The same figure at another step, or another figure, may be named before the answer.
  Lesson l;
  EXPECT_EQ(
      read(head + "beat\n" + a +
               "step: offset 64\nsay.en: {a.divergent_warps@offset 32} then.\n"
               "say.zh: 然后 {a.divergent_warps@offset 32}。\n" +
               question("divergent_warps", "Of {a.active_warps} warps, how many?",
                        "{a.active_warps} 个线程束中有多少？", "{answer}: {a.active_threads / a.active_warps} a warp."),
           l),
      "");
}

// A reference reads what `stats --json` gives for the trace, the answer what lesson_answer gives; a number written
// by hand where the trace gives it, or a question about the second pass whose figure counts the first launch, is a
// problem of `lesson check`.
TEST(Lesson, TextsReadTheTracesFiguresAndWriteNoneByHand) {
  const std::string a = "a: --kernel interleaved --n 512 --block 128 --input ones\n";
  const std::string b = "b: --kernel neighbored_strided --n 512 --block 128 --input ones\n";
  Lesson l;
  ASSERT_EQ(read(std::string(kHead) + "beat\n" + a + b +
                     "layout: compare\nstep: 1\n"
                     "say.en: A has {a.active_threads} of {a.n}; B makes {b.smem_load_requests} requests.\n"
                     "say.zh: A 有 {a.active_threads} / {a.n}；B 发出 {b.smem_load_requests} 次请求。\n"
                     "ask: more smem_load_wavefronts\nask.en: Which?\nask.zh: 哪个？\n"
                     "explain.en: {answer}: {b.smem_load_wavefronts} against {a.smem_load_wavefronts}, "
                     "{b.smem_load_wavefronts / b.smem_load_requests} a request; {a.active_warps@load} at load.\n"
                     "explain.zh: {answer}：{b.smem_load_wavefronts} 对 {a.smem_load_wavefronts}，每次请求 "
                     "{b.smem_load_wavefronts / b.smem_load_requests} 个；加载时 {a.active_warps@load}。\n",
                 l),
            "");
  Traces traces;
  auto tracer = [&](const Scenario& s, std::string* why) {
    Scenario cpu = s;
    cpu.backend = BackendChoice::cpu;
    return traces.get(cpu, why);
  };
  std::string why;
  const Trace* ta = tracer(*l.beats[0].a, &why);
  const Trace* tb = tracer(*l.beats[0].b, &why);
  ASSERT_TRUE(ta && tb) << why;
  const nlohmann::json ja = stats_json(*ta), jb = stats_json(*tb);
  auto num = [](const nlohmann::json& v) { return std::to_string(v.get<long long>()); };
  // (stride 1 of the strided index: lanes read s[2k] and s[2k + 1], a 2-way conflict, whole wavefronts a request)
  const long long wavefronts = jb["steps"][1]["smem_load_wavefronts"].get<long long>();
  const long long requests = jb["steps"][1]["smem_load_requests"].get<long long>();
  ASSERT_TRUE(requests > 0 && wavefronts % requests == 0) << wavefronts << " / " << requests;
  const std::string ratio = std::to_string(wavefronts / requests);
  why.clear();
  const LessonBeatTexts texts = fill_beat_texts(l.beats[0], *ta, tb, &why);
  EXPECT_EQ(why, "");
  EXPECT_EQ(texts.say.en, "A has " + num(ja["steps"][1]["active_threads"]) + " of 512; B makes " +
                              num(jb["steps"][1]["smem_load_requests"]) + " requests.");
  EXPECT_EQ(texts.explain.en, lesson_answer(l.beats[0], *ta, tb) + ": " + num(jb["steps"][1]["smem_load_wavefronts"]) +
                                  " against " + num(ja["steps"][1]["smem_load_wavefronts"]) + ", " + ratio +
                                  " a request; " + num(ja["steps"][0]["active_warps"]) + " at load.");
  EXPECT_NE(texts.explain.zh.find("加载时 " + num(ja["steps"][0]["active_warps"])), std::string::npos)
      << texts.explain.zh;
  EXPECT_TRUE(check_lesson_runs(l, tracer).empty());
  EXPECT_EQ(unfilled_lesson_text("A has {a.active_threads}."), "A has \u2026.");

  // The same beat with B's wavefronts written by hand, and a question about the second pass that counts the first
  // launch only (the global-memory lesson's first question, as it was).
  const std::string written = num(jb["steps"][1]["smem_load_wavefronts"]);
  ASSERT_EQ(
      read(std::string(kHead) + "beat\n" + a + b + "layout: compare\nstep: 1\n" + kSay +
               "ask: more smem_load_wavefronts\nask.en: Which?\nask.zh: 哪个？\n"
               "explain.en: {answer}: " +
               written +
               " against {a.smem_load_wavefronts}.\n"
               "explain.zh: {answer}：" +
               written +
               " 对 {a.smem_load_wavefronts}。\n"
               "beat\na: --kernel global_inplace --n 2048 --block 256 --input ones\nb: none\n" +
               kSay +
               "ask: gmem_requests\nask.en: How many global requests does the launch and its second pass make?\n"
               "ask.zh: 这次启动加上第二遍一共发出多少次全局请求？\nexplain.en: {answer}.\nexplain.zh: {answer}。\n",
           l),
      "");
  const auto problems = check_lesson_runs(l, tracer);
  ASSERT_EQ(problems.size(), 3u) << (problems.empty() ? "" : problems.front());
  EXPECT_NE(problems[0].find("line 5: the beat's explain.en writes " + written + ", which is {b.smem_load_wavefronts}"),
            std::string::npos)
      << problems[0];
  EXPECT_NE(problems[1].find("explain.zh writes " + written), std::string::npos) << problems[1];
  EXPECT_NE(
      problems[2].find("ask: gmem_requests counts the first launch only, and the question speaks of the second pass"),
      std::string::npos)
      << problems[2];
}

namespace {
// A lesson of four beats, questions at beats 1 and 3 (what the progress reader checks answers against).
Lesson four_beats() {
  Lesson l;
  l.name = "mine";
  l.beats.resize(4);
  l.beats[1].question.emplace();
  l.beats[3].question.emplace();
  return l;
}
std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }
}  // namespace

// What the window saves is what it reads back, beside the other lessons' progress, which stays as it was.
TEST(LessonProgress, WhatIsSavedIsReadBackAndOtherLessonsAreKept) {
  const Lesson l = four_beats();
  LessonProgress p;
  p.beat = 2;
  p.answers = {{1, "32"}, {3, "二十"}};
  p.revealed = {0, 1, 3};
  const std::string other = R"({"lessons": {"harris": {"beat": 5, "answers": {}, "revealed": [1]}}})";
  const std::string saved = progress_text_with(other, l.name, p);
  EXPECT_EQ(progress_from_text(saved, l), p);
  Lesson harris = four_beats();
  harris.name = "harris";
  ASSERT_TRUE(progress_from_text(saved, harris));
  EXPECT_EQ(progress_from_text(saved, harris)->beat, 3);  // clamped to the lesson's last beat
  std::size_t forgotten = 0;
  const std::string without = progress_text_without(saved, "mine", &forgotten);
  EXPECT_EQ(forgotten, 1u);
  EXPECT_FALSE(progress_from_text(without, l));
  EXPECT_TRUE(progress_from_text(without, harris));
  const std::string none = progress_text_without(saved, "", &forgotten);
  EXPECT_EQ(forgotten, 2u);
  EXPECT_FALSE(progress_from_text(none, harris));
  (void)progress_text_without(none, "", &forgotten);
  EXPECT_EQ(forgotten, 0u);
}

// Answers to beats the lesson does not have or that ask nothing, beat numbers the writer never writes ("99999999999"
// ended the whole reading with std::stoi's out_of_range), text with control characters: left out, the rest kept.
TEST(LessonProgress, WhatTheLessonCannotHaveIsLeftOut) {
  const Lesson l = four_beats();
  const std::string text =
      R"({"lessons": {"mine": {"beat": -7, "answers": {"1": "ok", "0": "no question", "3": "\u001b]0;x\u0007",
      "99999999999": "x", "-1": "x", " 1": "x", "7": "x"}, "revealed": [2, -1, 4, 1e300, "3", 99999999999]}}})";
  const std::optional<LessonProgress> p = progress_from_text(text, l);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->beat, 0);
  EXPECT_EQ(p->answers, (std::map<int, std::string>{{1, "ok"}}));
  EXPECT_EQ(p->revealed, (std::set<int>{1, 2}));
}

// An answer longer than the field is cut at a character, so that the file stays UTF-8 the writer accepts (cut at
// byte 64, the save threw and the progress was silently not kept).
TEST(LessonProgress, ALongAnswerIsCutAtACharacterAndStillSaves) {
  const Lesson l = four_beats();
  std::string long_answer;
  for (int i = 0; i < 30; ++i) long_answer += "三";  // 90 bytes
  const std::string text = "{\"lessons\": {\"mine\": {\"beat\": 1, \"answers\": {\"1\": \"" + long_answer + "\"}}}}";
  const std::optional<LessonProgress> p = progress_from_text(text, l);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->answers.at(1), long_answer.substr(0, 63));
  const std::string saved = progress_text_with(text, l.name, *p);
  EXPECT_EQ(progress_from_text(saved, l), p);
}

// A progress file nested 60,000 deep (120 KB) ended every `gui --lesson` (a recursive copy): not progress, and
// replaced by the next save; a file of too many lessons is started again.
TEST(LessonProgress, ADeepOrCrowdedFileIsNotProgressAndIsReplaced) {
  const Lesson l = four_beats();
  LessonProgress p;
  p.beat = 1;
  for (const char* before : {R"({"lessons": {"mine": )", R"({"lessons": {"mine": {"beat": 2}, "harris": )"}) {
    std::string deep = before;
    deep += nested(60000) + "}}";
    EXPECT_FALSE(progress_from_text(deep, l));
    EXPECT_EQ(progress_from_text(progress_text_with(deep, l.name, p), l), p);
  }
  nlohmann::json many = nlohmann::json::object();
  for (std::size_t i = 0; i < kProgressMaxLessons; ++i) many["lessons"][std::to_string(i)] = {{"beat", 1}};
  const std::string crowded = progress_text_with(many.dump(), l.name, p);
  std::size_t forgotten = 0;
  (void)progress_text_without(crowded, "", &forgotten);
  EXPECT_EQ(forgotten, 1u);
}

// settings.json: each field taken only when it is one redlab has (a language or layout it does not know kept the
// window in an unknown language, written back at exit); a file that is not settings changes nothing.
TEST(Settings, OnlyWhatRedlabKnowsIsTakenFromTheFile) {
  Settings d;
  d.lang = "zh_CN";
  const Settings s = settings_from_text(
      R"({"ui_scale": 1e300, "colorblind": "yes", "lang": "../../etc/passwd", "layout": "compare", "hint_seen": true})",
      d);
  EXPECT_EQ(s.ui_scale, 3.0f);
  EXPECT_FALSE(s.colorblind);
  EXPECT_EQ(s.lang, "zh_CN");
  EXPECT_EQ(s.layout, "compare");
  EXPECT_TRUE(s.hint_seen);
  EXPECT_EQ(settings_from_text(R"({"layout": "nowhere", "lang": "en", "ui_scale": -4})", d).layout, "study");
  EXPECT_EQ(settings_from_text(R"({"layout": "nowhere", "lang": "en", "ui_scale": -4})", d).lang, "en");
  EXPECT_EQ(settings_from_text(R"({"layout": "nowhere", "lang": "en", "ui_scale": -4})", d).ui_scale, 0.75f);
  const Settings back = settings_from_text(settings_text(s), Settings{});
  EXPECT_EQ(back.ui_scale, s.ui_scale);
  EXPECT_EQ(back.lang, s.lang);
  EXPECT_EQ(back.layout, s.layout);
  EXPECT_EQ(back.hint_seen, s.hint_seen);
  EXPECT_THROW(settings_from_text("[1, 2]", d), std::runtime_error);
  std::string deep = R"({"lang": )";
  deep += nested(100000) + "}";
  EXPECT_THROW(settings_from_text(deep, d), std::runtime_error);
}
