// `redlab lesson list|show|check`: the lessons (model/lesson.h) on the command line. A question's answer is computed
// here as the window computes it: the figure `stats --json` gives for the beat's scenario and step.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <list>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <optional>
#include <sstream>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/arguments.h"
#include "cli/command.h"
#include "core/child_process.h"
#include "core/json_read.h"
#include "core/kernel_source.h"
#include "core/printable.h"
#include "core/scenario.h"
#include "core/catalog.h"
#include "exec/executor.h"
#include "exec/job.h"
#include "exec/user_kernel.h"
#include "model/layout.h"
#include "model/i18n.h"
#include "model/lesson.h"
#include "model/lesson_player.h"

namespace redlab::cli {

namespace {

using model::Lesson;
using model::LessonBeat;

// Each scenario traced once (a lesson's beats share them), quietly: the emulator where the scenario names no
// backend and no GPU is there.
// The traces of a lesson's beats, run once per scenario. Only the last few are kept (a beat reads its A and B, the
// next beats mostly the same ones): a lesson of many large scenarios grew to gigabytes when every trace was kept.
class LessonTraces {
 public:
  // `deadline` (optional): a run still going then is cancelled, and get() throws RunPastDeadline.
  struct RunPastDeadline {};
  const Trace* get(const Scenario& s, std::string* why,
                   std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt) {
    const std::string key = describe(s) + " seed " + std::to_string(s.seed) + " backend " +
                            std::to_string(int(s.backend)) + (s.dynamic_smem ? " dynamic" : "");
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if (it->first == key) {  // to the front: the last used go last
        kept_.splice(kept_.begin(), kept_, it);
        return kept_.front().second.get();
      }
    try {
      std::string notice;
      auto ex = make_executor(s.backend, &notice);
      Job<Trace> run;
      run.start([&](RunControl& control) {
        RunOptions options;
        options.control = &control;
        return ex->run(s, options);
      });
      if (deadline && !run.finished_by(*deadline)) {
        run.cancel();  // (the emulator stops between blocks, a GPU between chunks)
        run.wait();
        throw RunPastDeadline{};
      }
      auto t = std::make_unique<Trace>(run.get());
      if (kept_.size() == kKept) kept_.pop_back();
      kept_.emplace_front(key, std::move(t));
      return kept_.front().second.get();
    } catch (const std::exception& e) {
      if (why) *why = e.what();
      return nullptr;
    }
  }

 private:
  static constexpr std::size_t kKept = 4;  // at least a beat's A and B
  std::list<std::pair<std::string, std::unique_ptr<Trace>>> kept_;
};

bool read(const std::string& name, Lesson& l) {
  const std::string path = model::find_lesson(name);
  if (path.empty()) {
    print_message(stderr, "redlab: lesson: no lesson '%s' (redlab lesson list)\n", printable(name).c_str());
    return false;
  }
  if (const std::string why = model::read_lesson(path, parse_scenario_words, l); !why.empty()) {
    print_message(stderr, "redlab: %s: %s\n", printable(path).c_str(), why.c_str());
    return false;
  }
  return true;
}

nlohmann::json text_json(const model::LessonText& t) { return {{"en", t.en}, {"zh_CN", t.zh}}; }

int cmd_lesson_list(bool json) {
  nlohmann::json out = nlohmann::json::array();
  int bad = 0;
  for (const std::string& path : model::shipped_lessons()) {
    Lesson l;
    if (const std::string why = model::read_lesson(path, parse_scenario_words, l); !why.empty()) {
      print_message(stderr, "redlab: %s: %s\n", printable(path).c_str(), why.c_str());
      ++bad;
      continue;
    }
    if (json)
      out.push_back({{"lesson", l.name},
                     {"note", l.note},
                     {"title", text_json(l.title)},
                     {"beats", l.beats.size()},
                     {"questions", l.questions()},
                     {"file", path}});
    else
      print_message(stdout, "%-12s note %-4s %2zu beats, %zu questions  %s\n", l.name.c_str(), l.note.c_str(),
                    l.beats.size(), l.questions(), l.title.en.c_str());
  }
  if (json) std::cout << out.dump(2) << "\n";
  return bad ? 2 : 0;
}

int cmd_lesson_show(const std::string& name, bool json) {
  Lesson l;
  if (!read(name, l)) return 2;
  LessonTraces traces;
  nlohmann::json beats = nlohmann::json::array();
  int failed = 0;
  for (std::size_t i = 0; i < l.beats.size(); ++i) {
    const LessonBeat& b = l.beats[i];
    std::string why;
    // (A gallery beat's kernel is compiled in the window only: no trace here, nothing of it to fill.)
    const Trace* a = b.gallery.empty() ? traces.get(*b.a, &why) : nullptr;
    if (!b.gallery.empty()) why = "a gallery entry, compiled in the window";
    const Trace* bt = b.b && a ? traces.get(*b.b, &why) : nullptr;
    const int step = a ? model::lesson_step(b, *a, &why) : -1;
    // The texts as the student reads them: each reference ({a.smem_load_wavefronts}) filled from the traces.
    model::LessonBeatTexts texts{b.say, b.question ? b.question->text : model::LessonText{},
                                 b.question ? b.question->explain : model::LessonText{}};
    if (a && (!b.b || bt)) texts = model::fill_beat_texts(b, *a, bt);
    nlohmann::json beat = {
        {"beat", i + 1},
        {"line", b.line},
        {"a", b.a_words},
        {"b", b.b ? nlohmann::json(b.b_words) : nlohmann::json(nullptr)},
        {"layout", b.layout ? nlohmann::json(model::to_string(*b.layout)) : nlohmann::json(nullptr)},
        {"step", step >= 0 ? nlohmann::json(step) : nlohmann::json(nullptr)},
        {"step_label", step >= 0 ? nlohmann::json(a->steps[std::size_t(step)].label) : nlohmann::json(nullptr)},
        {"look", b.look ? nlohmann::json(model::view_key(*b.look)) : nlohmann::json(nullptr)},
        {"warp", b.warp >= 0 ? nlohmann::json(b.warp) : nlohmann::json(nullptr)},
        {"bank", b.bank >= 0 ? nlohmann::json(b.bank) : nlohmann::json(nullptr)},
        {"line_in_kernel", b.source_line > 0 ? nlohmann::json(b.source_line) : nlohmann::json(nullptr)},
        {"say", text_json(texts.say)},
        {"gallery", b.gallery.empty() ? nlohmann::json(nullptr) : nlohmann::json(b.gallery)}};
    if (b.question) {
      const std::string answer = a && (!b.b || bt) ? model::lesson_answer(b, *a, bt, &why) : std::string();
      if (answer.empty()) ++failed;
      beat["question"] = {{"figure", b.question->figure},
                          {"compare", b.question->compare},
                          {"ask", text_json(texts.ask)},
                          {"explain", text_json(texts.explain)},
                          {"answer", answer.empty() ? nlohmann::json(nullptr) : nlohmann::json(answer)}};
      if (answer.empty()) beat["question"]["why"] = why;
    }
    if (!a) beat["why"] = why;
    beats.push_back(beat);
    if (!json) {
      if (!b.gallery.empty())
        print_message(stdout, "beat %zu  (line %d)  gallery: %s (its file in A, the kernel it was made from in B)\n",
                      i + 1, b.line, b.gallery.c_str());
      else
        print_message(stdout, "beat %zu  (line %d)  A: %s%s%s\n", i + 1, b.line, b.a_words.c_str(), b.b ? "  B: " : "",
                      b.b ? b.b_words.c_str() : "");
      // (Counted from 1, as the window's step counter and the exercises count them; --json keeps --step's index.)
      if (step >= 0) print_message(stdout, "  step %d '%s'", step + 1, a->steps[std::size_t(step)].label.c_str());
      if (b.look) print_message(stdout, "  look: %s", model::view_key(*b.look));
      print_message(stdout, "\n  %s\n", texts.say.en.c_str());
      if (b.question)
        print_message(stdout, "  ? %s  -> %s\n", texts.ask.en.c_str(),
                      beat["question"]["answer"].is_null() ? ("cannot answer: " + why).c_str()
                                                           : beat["question"]["answer"].get<std::string>().c_str());
    }
  }
  nlohmann::json exercises = nlohmann::json::array();
  for (const model::LessonExercise& e : l.exercises) {
    nlohmann::json checks = nlohmann::json::array();
    for (const model::ExerciseCheck& c : e.checks)
      checks.push_back(c.kind == model::ExerciseCheck::Kind::time_vs_cub
                           ? nlohmann::json{{"check", model::to_string(c.kind)}, {"limit", c.limit}, {"n", c.n}}
                       : c.kind == model::ExerciseCheck::Kind::sectors_per_request
                           ? nlohmann::json{{"check", model::to_string(c.kind)}, {"limit", c.limit}}
                           : nlohmann::json{{"check", model::to_string(c.kind)}});
    exercises.push_back({{"exercise", e.name},
                         {"line", e.line},
                         {"from", e.from},
                         {"a", e.a_words},
                         {"title", text_json(e.title)},
                         {"task", text_json(e.task)},
                         {"checks", checks}});
    if (!json)
      print_message(stdout,
                    "exercise %s (line %d): %s\n  start: redlab new-kernel mine.cu --from %s\n  check: redlab lesson "
                    "exercise %s %s --source mine.cu\n",
                    e.name.c_str(), e.line, e.task.en.c_str(), e.from.c_str(), l.name.c_str(), e.name.c_str());
  }
  if (json)
    std::cout << nlohmann::json{{"lesson", l.name},
                                {"note", l.note},
                                {"title", text_json(l.title)},
                                {"beats", beats},
                                {"exercises", exercises}}
                     .dump(2)
              << "\n";
  return failed ? 1 : 0;
}

int cmd_lesson_check(const std::string& file, double time_limit) {
  Lesson l;
  const std::string path = model::find_lesson(file).empty() ? file : model::find_lesson(file);
  if (const std::string why = model::read_lesson(path, parse_scenario_words, l); !why.empty()) {
    print_message(stderr, "redlab: %s: %s\n", printable(path).c_str(), why.c_str());
    return 2;
  }
  // Each beat's runs, with progress on a terminal, within the time limit for the whole lesson: a run still going then
  // is stopped, and the check ends with the beat's line. (A run larger than the memory free is refused by the
  // executor, a problem of its beat; only the last few traces are kept.)
  struct Stopped {
    std::string why;
  };
  LessonTraces traces;
  const auto started = std::chrono::steady_clock::now();
  const bool terminal = isatty(2);
  auto beat_of = [&](const Scenario& s) {  // (the beat whose A or B this is: check_lesson_runs passes them as they are)
    for (std::size_t i = 0; i < l.beats.size(); ++i)
      if ((l.beats[i].a && &*l.beats[i].a == &s) || (l.beats[i].b && &*l.beats[i].b == &s)) return i;
    return l.beats.size();
  };
  auto trace = [&](const Scenario& s, std::string* why) -> const Trace* {
    const std::size_t i = beat_of(s);
    const std::string beat = i < l.beats.size()
                                 ? "beat " + std::to_string(i + 1) + " of " + std::to_string(l.beats.size()) +
                                       " (line " + std::to_string(l.beats[i].line) + ")"
                                 : "a beat";
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (spent > time_limit) {
      char text[160];
      std::snprintf(text, sizeof text, "the check ran for %.0f s, past its limit of %g s (--time-limit)", spent,
                    time_limit);
      throw Stopped{"stopped before " + beat + ": " + text};
    }
    if (terminal) print_message(stderr, "\rredlab: lesson check: %s, %.0f s so far ", beat.c_str(), spent);
    try {
      return traces.get(s, why,
                        started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>(time_limit)));
    } catch (const LessonTraces::RunPastDeadline&) {
      char text[160];
      std::snprintf(text, sizeof text, "its run was stopped at the check's limit of %g s (--time-limit)", time_limit);
      throw Stopped{"stopped at " + beat + ": " + text};
    }
  };
  std::vector<std::string> problems;
  try {
    problems = model::check_lesson_runs(l, trace);
  } catch (const Stopped& s) {
    if (terminal) print_message(stderr, "\n");
    print_message(stderr, "redlab: %s: %s\n", printable(path).c_str(), s.why.c_str());
    return 2;
  }
  if (terminal) print_message(stderr, "\n");
  for (const std::string& p : problems) print_message(stderr, "redlab: %s: %s\n", printable(path).c_str(), p.c_str());
  if (!problems.empty()) return 1;
  print_message(
      stdout,
      "%s: lesson %s, %zu beats, %zu questions: every scenario runs, every step, warp, line and answer exists\n",
      printable(path).c_str(), l.name.c_str(), l.beats.size(), l.questions());
  return 0;
}

int cmd_lesson_reset(const std::string& name) {
  std::string lesson;  // the lesson's name as its progress is kept ("" : every lesson)
  if (!name.empty()) {
    Lesson l;
    if (!read(name, l)) return 2;
    lesson = l.name;
  }
  std::size_t forgotten = 0;
  std::string why;
  if (!model::reset_lesson_progress(lesson, &forgotten, &why)) {
    print_message(stderr, "redlab: lesson reset: %s\n", printable(why).c_str());
    return 2;
  }
  if (lesson.empty())
    print_message(stdout, "every lesson starts again at its first beat (%zu lesson%s had answers or a beat kept)\n",
                  forgotten, forgotten == 1 ? "" : "s");
  else
    print_message(stdout, "lesson %s starts again at its first beat%s\n", lesson.c_str(),
                  forgotten ? "" : " (it had nothing kept)");
  return 0;
}

int cmd_lesson_exercise(const std::string& name, const std::string& exercise, const std::string& file,
                        double time_limit) {
  Lesson l;
  if (!read(name, l)) return 2;
  const model::LessonExercise* e = l.exercise(exercise);
  if (!e) {
    std::string names;
    for (const model::LessonExercise& x : l.exercises) names += (names.empty() ? "" : ", ") + x.name;
    print_message(stderr, "redlab: lesson %s has no exercise '%s'%s\n", l.name.c_str(), printable(exercise).c_str(),
                  names.empty() ? " (it has none)" : (" (it has " + names + ")").c_str());
    return 2;
  }
  // The student's file runs as `redlab trace --source` runs it: compiled, in a second redlab, on the exercise's
  // scenario; its trace (up to a fault, where there is one) is what the checks read.
  // Its trace goes to a folder made fresh and private for this run (mkdtemp: never one that exists, as a folder
  // planted at a predictable name would be), removed however the command ends.
  std::string dir = (std::filesystem::temp_directory_path() / "redlab-exercise-XXXXXX").string();
  if (!mkdtemp(dir.data())) {
    print_message(stderr, "redlab: lesson exercise: cannot make a temporary folder in %s: %s\n",
                  printable(std::filesystem::temp_directory_path().string()).c_str(), std::strerror(errno));
    return 2;
  }
  struct RemovedAtEnd {
    std::string path;
    ~RemovedAtEnd() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  } const removed{dir};
  const std::string trace_path = dir + "/exercise.rltrace";
  std::vector<std::string> args = {"trace",    "--source", file,           "-o",
                                   trace_path, "--force",  "--time-limit", std::to_string(time_limit)};
  for (std::istringstream words(e->a_words); !words.eof();)
    if (std::string w; words >> w) args.push_back(w);
  ChildOptions options;
  options.timeout_s = time_limit + 600;  // the compile, then the run's own limit
  options.max_output = 1 << 16;
  const ChildResult r = run_child(self_executable(), args, options);
  std::optional<Trace> t;
  std::string unreadable;
  if (std::filesystem::exists(trace_path)) try {
      // The trace carries the file's record as data (the second redlab wrote it), as the window takes it: the file's
      // library is never loaded here, so a constructor or destructor of the student's cannot end this command.
      t = load_trace(trace_path);
      if (!t->kernel_record) throw std::runtime_error("the run wrote a trace without the kernel file's record");
      if (const std::string why = register_file_record(*t->kernel_record); !why.empty()) throw std::runtime_error(why);
      set_kernel_source_file(t->kernel_record->id, std::filesystem::absolute(file).lexically_normal().string());
    } catch (const std::exception& x) {
      t.reset();
      unreadable = x.what();
    }
  // The file's process failed after its run had ended (a global's destructor): the checks read the trace it wrote,
  // and the line says what happened after.
  if (const std::string after = failed_after_the_run(r.err); t && !after.empty())
    print_message(stderr, "%s\n", after.c_str());
  if (!t) {  // it did not compile, or stopped before its first step: what the run said
    print_message(stderr, "%s", r.err.c_str());
    print_message(stderr, "redlab: lesson exercise: %s gave no trace (%s)\n", printable(file).c_str(),
                  !unreadable.empty() ? unreadable.c_str()
                  : r.why.empty()     ? ("exit " + std::to_string(r.exit_code)).c_str()
                                      : r.why.c_str());
    return 2;
  }
  model::i18n_load("en");
  const KernelSources sources = load_kernel_sources(std::filesystem::absolute(file).string());
  // A time check: the file timed beside cub_device on the GPU (`redlab bench --source`, its ratio to CUB).
  std::optional<double> time_vs_cub;
  std::string no_time;
  for (const model::ExerciseCheck& c : e->checks) {
    if (c.kind != model::ExerciseCheck::Kind::time_vs_cub) continue;
    const Scenario& s = e->scenario;
    const ChildResult b = run_child(self_executable(),
                                    {"bench", "--source", file, "--kernels", "cub_device", "--n", std::to_string(c.n),
                                     "--type", to_string(s.type), "--op", to_string(s.op), "--block",
                                     std::to_string(s.block), "--json", "--time-limit", std::to_string(time_limit)},
                                    options);
    try {
      const nlohmann::json j = parse_json(b.out);
      for (const nlohmann::json& row : j.at("rows"))
        if (row.at("kernel") == t->scenario.kernel && row.at("ratio_cub").get<double>() > 0)
          time_vs_cub = 1.0 / row.at("ratio_cub").get<double>();
    } catch (const std::exception&) {}
    if (!time_vs_cub) {  // no GPU, or the timing failed: the bench's own last line says why
      std::string why = b.err;
      while (!why.empty() && why.back() == '\n') why.pop_back();
      why = why.substr(why.rfind('\n') == std::string::npos ? 0 : why.rfind('\n') + 1);
      no_time = why.empty() ? "no GPU timing" : why;
    }
    break;
  }
  int failed = 0;
  print_message(stdout, "%s (lesson %s): %s\n", e->name.c_str(), l.name.c_str(), e->title.en.c_str());
  for (const model::ExerciseOutcome& o : model::check_exercise(*e, *t, sources, time_vs_cub, no_time)) {
    print_message(stdout, "%s %s: %s\n",
                  o.skipped ? "skip"
                  : o.pass  ? "pass"
                            : "FAIL",
                  model::to_string(o.check.kind), o.text.c_str());
    failed += o.pass || o.skipped ? 0 : 1;
  }
  return failed ? 1 : 0;
}

// The lessons' subcommands: list, show, check, reset, exercise.
class LessonCommand : public Command {
  CLI::App *list_ = nullptr, *show_ = nullptr, *check_ = nullptr, *reset_ = nullptr, *exercise_ = nullptr;
  bool json_ = false;
  std::string lesson_, file_, reset_name_, exercise_name_, exercise_file_;
  double check_limit_ = 600, exercise_limit_ = 60;

 public:
  CLI::App* declare(CLI::App& parent) override {
    CLI::App* lesson =
        parent.add_subcommand("lesson", "the course's lessons: list them, show one's beats and answers, check a file");
    lesson->require_subcommand(1);
    list_ = lesson->add_subcommand("list", "the lessons redlab ships (assets/lessons), in the notes' order");
    list_->add_flag("--json", json_, "JSON output");
    show_ = lesson->add_subcommand("show",
                                   "a lesson's beats: each scenario, step, view, narration and question, "
                                   "with the answer computed from the trace");
    show_->add_option("lesson", lesson_, "a lesson's name (redlab lesson list) or file")->required();
    show_->add_flag("--json", json_, "JSON output");
    check_ = lesson->add_subcommand("check",
                                    "check a lesson file: its syntax, both languages, and every "
                                    "beat's scenario run (steps, warps, lines, answers exist)");
    check_->add_option("file", file_, "the lesson file (or a shipped lesson's name)")->required();
    check_->add_option("--time-limit", check_limit_, "seconds the whole check may take (default 600)")
        ->check(number_in(1, 86400, "the seconds"));
    reset_ = lesson->add_subcommand("reset",
                                    "forget the answers and the beat a lesson kept (every lesson's "
                                    "without a name), so that it starts again at its first beat");
    reset_->add_option("lesson", reset_name_, "a lesson's name (redlab lesson list) or file; none: every lesson");
    exercise_ = lesson->add_subcommand("exercise",
                                       "check a kernel file of yours against a lesson's exercise "
                                       "(exit 0 pass, 1 fail naming the step and line, 2 error)");
    exercise_->add_option("lesson", lesson_, "the lesson (redlab lesson list)")->required();
    exercise_->add_option("exercise", exercise_name_, "the exercise's name (redlab lesson show LESSON)")->required();
    exercise_->add_option("--source", exercise_file_, "your kernel file (redlab new-kernel)")
        ->required()
        ->check(CLI::ExistingFile);
    exercise_->add_option("--time-limit", exercise_limit_, "seconds the kernel may run")
        ->check(number_in(1, 3600, "the seconds"));
    return lesson;
  }
  int run(const Invocation&) override {
    if (*list_) return cmd_lesson_list(json_);
    if (*show_) return cmd_lesson_show(lesson_, json_);
    if (*check_) return cmd_lesson_check(file_, check_limit_);
    if (*reset_) return cmd_lesson_reset(reset_name_);
    return cmd_lesson_exercise(lesson_, exercise_name_, exercise_file_, exercise_limit_);
  }
};

const CommandRegistration lesson_command{Order::lesson, [] { return std::unique_ptr<Command>(new LessonCommand); }};

}  // namespace
}  // namespace redlab::cli
