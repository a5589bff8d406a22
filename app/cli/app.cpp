// The command line: every subcommand, parsed with CLI11; the window is the default command.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "arguments.h"
#include "commands.h"
#include "core/file_write.h"
#include "exec/device.h"
#include "exec/executor.h"
#include "exec/nvrtc.h"
#include "model/export.h"
#include "model/model.h"
#include "model/startup.h"
#include "core/printable.h"
#include "model/layout.h"
#include "model/lesson.h"
#include "model/playlist.h"

namespace redlab::cli {

int run(int argc, char** argv, GuiEntry run_gui) {
  CLI::App app{"redlab: a lab that makes GPU reductions visible"};
  app.require_subcommand(0, 1);
  app.footer("Exit codes (every command): 0 done; 1 a wrong result or a failed check; 2 bad input or an environment "
             "problem (an option, a file that cannot be read or written, a kernel that stopped at a fault, no display).");

  bool show_version = false, verbose = false;
  app.add_flag("--version", show_version,
               "print redlab's version and exit; with -v also where its files are and the CUDA toolkit, GPU, NVRTC, "
               "CUPTI and NCCL it finds");
  app.add_flag("-v,--verbose", verbose, "with --version: what redlab finds on this machine");

  bool json = false;
  cli::ScenarioArgs gui_args, stats_args, trace_args;

  auto* gui = app.add_subcommand("gui", "open the window (default); with --screenshot render headless and exit");
  gui_args.add_to(*gui);
  std::string screenshot, size = "1600x900", trace_file;
  int frames = 3;
  bool frame_report = false;
  gui->add_option("--screenshot", screenshot, "render, write this PNG and exit");
  gui->add_option("--size", size, "window size WxH (default: 1600x900, no larger than the screen)");
  std::string gui_playlist;
  gui->add_option("--playlist", gui_playlist,
                  "a lecture's scenarios, one per line in these options' words (--kernel interleaved --n 256); "
                  "Page Down and Page Up step through them");
  std::string gui_lesson;
  int gui_beat = 0;
  gui->add_option("--lesson", gui_lesson,
                  "open a lesson (redlab lesson list, or a lesson file): its beats step with Page Down and Page Up");
  gui->add_option("--beat", gui_beat, "with --lesson: the beat to open at, from 1 (default: where you left it)");
  bool gui_fresh = false;
  gui->add_flag("--fresh", gui_fresh,
                "with --lesson: open it without the answers given before, and keep none of this time's (a rehearsal "
                "does not show in class)");
  gui->add_option("--frames", frames, "frames to render before the screenshot");
  gui->add_flag("--frame-report", frame_report, "print frame-time percentiles at exit");
  gui->add_option("--open", trace_file, "open a trace file recorded by `redlab trace`");
  std::string gui_source;
  gui->add_option("--source", gui_source,
                  "run a kernel file of your own (redlab new-kernel) on the scenario given, and again on every save")
      ->check(CLI::ExistingFile);
  std::string gui_source_b;
  gui->add_option("--source-b", gui_source_b,
                  "a kernel file of your own as scenario B, beside A (--source, or the kernel given), run again on every "
                  "save")
      ->check(CLI::ExistingFile);
  std::string gui_step_text;
  std::string gui_lang, gui_scale;
  bool gui_colorblind = false, gui_compare = false;
  gui->add_option("--step", gui_step_text, "the step to show first (0-based)");
  gui->add_option("--lang", gui_lang, "en or zh_CN (default: the system locale)");
  gui->add_option("--scale", gui_scale, "presentation scale: 1, 1.5, 2, 2.5 or 3");
  gui->add_flag("--colorblind", gui_colorblind, "a palette readable with colour-blindness (Okabe-Ito)");
  gui->add_flag("--compare", gui_compare, "open the compare window");
  std::string gui_layout;
  gui->add_option("--layout", gui_layout, "study (every panel), present (the tree and banks large) or compare");
  std::string export_path, export_view;
  bool export_transparent = false;
  float export_speed = 1.5f;
  int export_width = 0;
  gui->add_option("--export", export_path,
                  "render headless, write FILE and exit; the format follows the extension: .png (the window, or "
                  "--export-view), .csv (the per-step table), .gif (the playback, every step and its motion)");
  gui->add_option("--export-view", export_view,
                  "export one view: tree, tile, compare, banks, warps, metrics, code, timings or scenario (default: "
                  "the view the file is named after, as tree.png; else a PNG is the window, a GIF the centre view)");
  gui->add_flag("--transparent", export_transparent, "a PNG export with a transparent background");
  gui->add_option("--speed", export_speed, "a GIF export's steps per second (0.1 to 20; default 1.5)");
  gui->add_option("--export-width", export_width, "scale a PNG or GIF export to this width in pixels");
  float export_hold = model::kDefaultHold;
  gui->add_option("--hold", export_hold, "a GIF export's seconds on each finished step (0.2 to 10; default 1.5)");
  bool export_no_caption = false;
  gui->add_flag("--no-caption", export_no_caption,
                "a view's export without the caption above it (the kernel, n, block, type, the step and its figures)");
  bool export_force = false;
  gui->add_flag("--force", export_force, "let --export replace a file that is not an export redlab wrote");

  auto* list = app.add_subcommand("list", "the kernel catalog");
  list->add_flag("--json", json, "JSON output");
  bool list_gallery = false, list_ids = false;
  list->add_flag("--ids", list_ids, "only the kernels' ids, one per line (for scripts and the shell's completion)");
  std::string list_find;
  list->add_option("--find", list_find,
                   "only the kernels whose id, title, lesson or course-note names hold this text (reduce1, \"Harris 3\", PMPP)");
  list->add_flag("--gallery", list_gallery,
                 "the gallery of mistakes instead: kernel files that are wrong on purpose, each explained (assets/gallery)");

  auto* stats = app.add_subcommand("stats", "run the instrumented kernel and print per-step statistics");
  stats_args.add_to(*stats);
  stats->add_flag("--json", json, "JSON output: per-step statistics");
  cli::SourceArgs stats_source, trace_source;
  stats_source.add_to(*stats);
  bool stats_hw = false, stats_hw_metrics = false;
  stats->add_flag("--hw", stats_hw,
                  "also the GPU's own per-instruction counts of the timed kernel (CUPTI SASS metrics), by source line "
                  "and step, beside the model's; without a GPU, says why and shows the model alone");
  stats->add_flag("--hw-metrics", stats_hw_metrics, "list the SASS metrics CUPTI offers on this GPU, and exit");
  bool stats_hw_only = false;
  stats->add_flag("--hw-only", stats_hw_only,
                  "with --hw --json: the hardware's collection alone, no model run (the window's child process)");
  std::string stats_hw_from;
  stats->add_option("--hw-from", stats_hw_from,
                    "the hardware's counts from a file that `stats --hw --json` wrote on a GPU machine, instead of "
                    "collecting them (the same scenario)")->check(CLI::ExistingFile);

  auto* trace = app.add_subcommand("trace", "record a trace file the GUI opens anywhere");
  trace_args.add_to(*trace);
  std::string trace_out;
  trace->add_option("-o,--output", trace_out, "trace file to write")->required();
  bool trace_force = false;
  trace->add_flag("--force", trace_force, "replace an existing file that is not a redlab trace");
  trace_source.add_to(*trace);

  auto* new_kernel = app.add_subcommand(
      "new-kernel", "write a catalog kernel as a file of your own: its source, each probe call explained before its "
                    "first use, and its record last, renamed after the file");
  std::string nk_file, nk_from, nk_lang = "en";
  bool nk_force = false, nk_dynamic_smem = false;
  new_kernel->add_option("file", nk_file, "the file to write, as mine.cu (its name is the kernel's name)")->required();
  new_kernel->add_option("--from", nk_from,
                         "the catalog kernel to start from (redlab list), or gallery/NAME: a file of the gallery of "
                         "mistakes (redlab list --gallery)")->required();
  new_kernel->add_option("--lang", nk_lang, "the comments' language: en or zh_CN");
  new_kernel->add_flag("--dynamic-smem", nk_dynamic_smem,
                       "interleaved: keep its variant with the shared array sized at launch (extern __shared__), "
                       "which stats --source F --dynamic-smem runs");
  new_kernel->add_flag("--force", nk_force, "replace an existing file");

  auto* bank = app.add_subcommand("bank", "shared-memory bank calculator for one warp access");
  std::string width = "4", access = "load", addrs;
  bank->add_option("--width", width, "bytes per lane: 4, 8 or 16");
  bank->add_option("--access", access, "load or store");
  bank->add_option("--addrs", addrs, "32 byte addresses, '-' for an inactive lane");
  bank->add_flag("--json", json, "JSON output");
  bool bank_measure = false;
  std::string bank_reference;
  bank->add_flag("--measure", bank_measure, "also time the access on the GPU (cycles per access)");
  bank->add_option("--reference", bank_reference,
                   "check the model against every row of a measured CSV (assets/reference/h200-shared-wavefronts.csv)");

  auto* bench = app.add_subcommand("bench", "GPU timings: medians of CUDA-event runs, GB/s, ceilings, speedups, ratio to CUB");
  cli::BenchArgs bench_args;
  bench->add_option("--kernels", bench_args.kernels, "kernel ids, comma-separated; the first is the baseline");
  bench->add_option("--n", bench_args.sizes, "sizes, comma-separated (2^22,2^28)");
  bench->add_option("--type", bench_args.type, "int32|float32|float64");
  bench->add_option("--op", bench_args.op, "sum|min|max");
  bench->add_option("--block", bench_args.block, "threads per block");
  bench->add_option("--finish", bench_args.finish, "relaunch|host|atomic");
  bench->add_option("--reps", bench_args.reps, "timed repetitions (median reported)");
  bench->add_option("--warmup", bench_args.warmup, "untimed warm-up runs");
  bench->add_option("-o,--output", bench_args.output, "also write the JSON report to this file");
  bench->add_flag("--json", bench_args.json, "JSON output");
  bench->add_flag("--shmoo", bench_args.shmoo, "sizes 2^10 .. 2^28");
  bench->add_option("--rows", bench_args.rows, "transposes: matrix rows (default 8192)");
  bench->add_option("--cols", bench_args.cols, "transposes: matrix columns (default 8192)");
  bench->add_option("--block-rows", bench_args.block_rows, "transposes: block (32, K)");
  bench->add_option("--gpus", bench_args.gpus, "all-reduce across G GPUs: NCCL's algbw and busbw per size, and the link's ceiling");

  auto* lesson = app.add_subcommand("lesson", "the course's lessons: list them, show one's beats and answers, check a file");
  lesson->require_subcommand(1);
  auto* lesson_list = lesson->add_subcommand("list", "the lessons redlab ships (assets/lessons), in the notes' order");
  lesson_list->add_flag("--json", json, "JSON output");
  auto* lesson_show = lesson->add_subcommand("show", "a lesson's beats: each scenario, step, view, narration and question, "
                                                      "with the answer computed from the trace");
  std::string lesson_name;
  lesson_show->add_option("lesson", lesson_name, "a lesson's name (redlab lesson list) or file")->required();
  lesson_show->add_flag("--json", json, "JSON output");
  auto* lesson_check = lesson->add_subcommand("check", "check a lesson file: its syntax, both languages, and every "
                                                        "beat's scenario run (steps, warps, lines, answers exist)");
  std::string lesson_file;
  lesson_check->add_option("file", lesson_file, "the lesson file (or a shipped lesson's name)")->required();
  double lesson_check_limit = 600;
  lesson_check->add_option("--time-limit", lesson_check_limit, "seconds the whole check may take (default 600)")
      ->check(CLI::Range(1.0, 86400.0));

  auto* lesson_reset = lesson->add_subcommand("reset", "forget the answers and the beat a lesson kept (every lesson's "
                                                        "without a name), so that it starts again at its first beat");
  std::string reset_name;
  lesson_reset->add_option("lesson", reset_name, "a lesson's name (redlab lesson list) or file; none: every lesson");

  auto* lesson_exercise = lesson->add_subcommand("exercise", "check a kernel file of yours against a lesson's exercise "
                                                              "(exit 0 pass, 1 fail naming the step and line, 2 error)");
  std::string exercise_name, exercise_file;
  double exercise_time_limit = 60;
  lesson_exercise->add_option("lesson", lesson_name, "the lesson (redlab lesson list)")->required();
  lesson_exercise->add_option("exercise", exercise_name, "the exercise's name (redlab lesson show LESSON)")->required();
  lesson_exercise->add_option("--source", exercise_file, "your kernel file (redlab new-kernel)")->required()->check(CLI::ExistingFile);
  lesson_exercise->add_option("--time-limit", exercise_time_limit, "seconds the kernel may run")->check(CLI::Range(1.0, 3600.0));

  auto* selftest = app.add_subcommand("selftest", "correctness matrix and GPU-vs-CPU trace equality");
  std::string st_backend = "auto";
  bool quick = false;
  selftest->add_option("--backend", st_backend, "cuda, cpu or auto");
  selftest->add_flag("--quick", quick, "a smaller matrix (largest size on two block sizes only)");
  std::string st_kernels;
  selftest->add_option("--kernels", st_kernels, "only these kernels (ids separated by commas)");
  cli::SourceArgs bench_source;
  bench_source.add_to(*bench, false);
#if REDLAB_HAVE_CUDA
  // A kernel file's GPU instance compiled beside the host compiler (exec/user_kernel.cpp runs it; not for users).
  auto* nvrtc_compile = app.add_subcommand("nvrtc-compile", "")->group("");
  std::string nvrtc_dir, nvrtc_arch, nvrtc_expression;
  nvrtc_compile->add_option("dir", nvrtc_dir)->required();
  nvrtc_compile->add_option("--arch", nvrtc_arch)->required();
  nvrtc_compile->add_option("--expression", nvrtc_expression)->required();
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    print_message(stderr, "redlab: %s (see redlab --help)\n", msg.c_str());
    return 2;
  }

  auto scenario_from = [](const cli::ScenarioArgs& a, Scenario& s) -> bool {
    std::string err = a.parse(s);
    if (!err.empty()) {
      print_message(stderr, "redlab: %s\n", err.c_str());
      return false;
    }
    return true;
  };

  try {
    if (show_version) return cli::cmd_version(verbose);
    if (verbose) {
      print_message(stderr, "redlab: -v goes with --version (redlab --version -v)\n");
      return 2;
    }
#if REDLAB_HAVE_CUDA
    if (*nvrtc_compile) return nvrtc_compile_command(nvrtc_dir, nvrtc_arch, nvrtc_expression);
#endif
    if (*list) return list_gallery ? cli::cmd_list_gallery(json) : cli::cmd_list(json, list_find, list_ids);
    if (*lesson_list) return cli::cmd_lesson_list(json);
    if (*lesson_show) return cli::cmd_lesson_show(lesson_name, json);
    if (*lesson_check) return cli::cmd_lesson_check(lesson_file, lesson_check_limit);
    if (*lesson_reset) return cli::cmd_lesson_reset(reset_name);
    if (*lesson_exercise) return cli::cmd_lesson_exercise(lesson_name, exercise_name, exercise_file, exercise_time_limit);
    // A kernel file of the student's own: compiled, then run in a second redlab that loads it (--load-kernel, which
    // redlab gives that second redlab itself: with --source it would be given twice).
    for (const cli::SourceArgs* src : {&stats_source, &trace_source, &bench_source})
      if (!src->file.empty() && !src->library.empty()) {
        print_message(stderr, "redlab: --load-kernel is what redlab passes to the redlab that runs a --source file; "
                             "give --source alone\n");
        return 2;
      }
    for (auto [cmd, src, sargs] : {std::tuple{stats, &stats_source, &stats_args}, std::tuple{trace, &trace_source, &trace_args}}) {
      if (!*cmd) continue;
      if (!src->file.empty())
        return cli::run_source(argc, argv, *src, {sargs->type, sargs->block, sargs->block_rows, sargs->op,
                                                  sargs->backend, sargs->kernel, false, ""});
      if (!src->library.empty()) {
        const int rc = cli::load_source_kernel(*src, sargs->kernel, sargs->backend);
        if (rc) return rc;
      }
    }
    if (*bench && !bench_source.file.empty())
      return cli::run_source(argc, argv, bench_source,
                             {bench_args.type, bench_args.block, bench_args.block_rows, bench_args.op, "cuda", "", true,
                              bench->count("--kernels") ? bench_args.kernels : ""});
    if (*bench && !bench_source.library.empty()) {
      const int rc = cli::load_source_kernel(bench_source, "", "cuda");
      if (rc) return rc;
    }
    if (*stats) {
      Scenario s;
      if (stats_hw_metrics) return cli::cmd_hw_metrics();
      if (!scenario_from(stats_args, s)) return 2;
      if (stats_hw_only) return cli::cmd_hw_only(s);
      return cli::cmd_stats(s, json, stats_hw || !stats_hw_from.empty(), stats_hw_from);
    }
    if (*trace) {
      Scenario s;
      if (!scenario_from(trace_args, s)) return 2;
      // Before the run: a file that is not a trace is replaced only when asked.
      if (trace_out.empty()) {
        print_message(stderr, "redlab: -o: give a file name (it is empty)\n");
        return 2;
      }
      if (!trace_force && exists_and_is_not_a_trace(trace_out)) {
        print_message(stderr, "redlab: -o: '%s' exists and is not a redlab trace; use --force to replace it\n",
                     printable(trace_out).c_str());
        return 2;
      }
      if (const std::string why = why_folder_is_not_writable(trace_out); !why.empty()) {
        print_message(stderr, "redlab: %s\n", why.c_str());
        return 2;
      }
      return cli::cmd_trace(s, trace_out);
    }
    if (*bank) {
      if (!bank_reference.empty()) return cli::cmd_bank_reference(bank_reference, bank_measure);
      if (addrs.empty()) {
        print_message(stderr, "redlab: --addrs: give 32 byte addresses (one per lane, '-' inactive), or --reference FILE\n");
        return 2;
      }
      return cli::cmd_bank(width, access, addrs, json, bank_measure);
    }
    if (*selftest) return cli::cmd_selftest(st_backend, quick, st_kernels);
    if (*new_kernel) return cli::cmd_new_kernel(nk_file, nk_from, nk_lang, nk_dynamic_smem, nk_force);
    if (*bench) return cli::cmd_bench(bench_args);
    if (!run_gui) {
      print_message(stderr, "redlab: this build has no GUI (REDLAB_GUI=OFF); try `redlab --help`\n");
      return *gui ? 2 : (std::cout << app.help(), 0);
    }
    GuiOptions g;
    // A file option given an empty name is refused (it would open the interactive window, and a script would wait).
    for (const char* option : {"--screenshot", "--export", "--open", "--source", "--source-b", "--playlist", "--lesson"}) {
      const CLI::Option* o = gui->get_option_no_throw(option);
      if (o && o->count() > 0 && o->as<std::string>().empty()) {
        print_message(stderr, "redlab: %s: give a file name (it is empty)\n", option);
        return 2;
      }
    }
    if (gui_args.any()) {
      Scenario s;
      // A kernel file given a matrix (--rows, --cols, --block-rows) is a transpose: its shape is checked as a
      // catalog transpose's, and the file's own kernel takes that kernel's place once it compiles.
      if (!gui_source.empty() && gui_args.kernel.empty() &&
          !(gui_args.rows.empty() && gui_args.cols.empty() && gui_args.block_rows.empty()))
        gui_args.kernel = "transpose_tiled";
      if (!scenario_from(gui_args, s)) return 2;
      g.scenario = s;
    }
    g.scenario_words = cli::parse_scenario_words;
    if (!gui_playlist.empty()) {
      if (const std::string why = model::read_playlist(gui_playlist, cli::parse_scenario_words, g.playlist); !why.empty()) {
        print_message(stderr, "redlab: --playlist: %s: %s\n", printable(gui_playlist).c_str(), why.c_str());
        return 2;
      }
    }
    if (!gui_lesson.empty()) {   // checked whole before the window opens, as a playlist is
      const std::string path = model::find_lesson(gui_lesson);
      model::Lesson l;
      const std::string why = path.empty() ? "no lesson '" + printable(gui_lesson) + "' (redlab lesson list)"
                                           : model::read_lesson(path, cli::parse_scenario_words, l);
      if (!why.empty()) {
        print_message(stderr, "redlab: --lesson: %s\n", why.c_str());
        return 2;
      }
      if (gui->count("--beat") && (gui_beat < 1 || gui_beat > int(l.beats.size()))) {
        print_message(stderr, "redlab: --beat: %d: lesson %s has beats 1 to %zu\n", gui_beat, l.name.c_str(), l.beats.size());
        return 2;
      }
      g.lesson = path;
      g.lesson_beat = gui->count("--beat") ? gui_beat - 1 : -1;
      g.lesson_fresh = gui_fresh;
    } else if (gui->count("--beat") || gui_fresh) {
      print_message(stderr, "redlab: %s: only with --lesson\n", gui_fresh ? "--fresh" : "--beat");
      return 2;
    }
    g.size_given = gui->count("--size") > 0;
    g.screenshot = screenshot;
    g.trace_file = trace_file;
    g.source_file = gui_source;
    g.source_file_b = gui_source_b;
    g.frames = frames;
    g.frame_report = frame_report;
    if (std::sscanf(size.c_str(), "%dx%d", &g.width, &g.height) != 2 || g.width < 320 || g.height < 240 ||
        g.width > 8192 || g.height > 8192) {
      print_message(stderr, "redlab: --size: '%s' is not accepted; use WxH, from 320x240 to 8192x8192\n", size.c_str());
      return 2;
    }
    if (frames < 1 || frames > 100000) {
      print_message(stderr, "redlab: --frames: %d is out of range; use 1..100000\n", frames);
      return 2;
    }
    // Whole numbers only: "", "-1", "0x1" and "1e3" are refused, not read as something else.
    int gui_step = -1;
    if (gui->count("--step")) {
      const bool digits = !gui_step_text.empty() && gui_step_text.size() <= 6 &&
                          gui_step_text.find_first_not_of("0123456789") == std::string::npos;
      if (!digits || std::stoi(gui_step_text) > 100000) {
        print_message(stderr, "redlab: --step: '%s' is not accepted; use a step number, 0..100000\n",
                     printable(gui_step_text).c_str());
        return 2;
      }
      gui_step = std::stoi(gui_step_text);
    }
    g.step = gui_step;
    if (!gui_lang.empty() && gui_lang != "en" && gui_lang != "zh_CN") {
      print_message(stderr, "redlab: --lang: '%s' is not accepted; use en or zh_CN\n", gui_lang.c_str());
      return 2;
    }
    g.lang = gui_lang;
    if (gui->count("--scale")) {
      if (gui_scale != "1" && gui_scale != "1.5" && gui_scale != "2" && gui_scale != "2.5" && gui_scale != "3") {
        print_message(stderr, "redlab: --scale: '%s' is not accepted; use 1, 1.5, 2, 2.5 or 3\n", gui_scale.c_str());
        return 2;
      }
      g.ui_scale = std::stof(gui_scale);
    }
    g.colorblind = gui_colorblind;
    g.compare = gui_compare;
    if (!gui_layout.empty() && !model::parse_layout(gui_layout)) {
      print_message(stderr, "redlab: --layout: '%s' is not accepted; use study, present or compare\n", gui_layout.c_str());
      return 2;
    }
    g.layout = gui_layout;
    if (!export_path.empty()) {
      std::string why;
      if (!model::export_format_of(export_path, &why)) {
        print_message(stderr, "redlab: --export: %s\n", why.c_str());
        return 2;
      }
      if (!screenshot.empty()) {
        print_message(stderr, "redlab: --export and --screenshot both write a file; use one\n");
        return 2;
      }
      if (!export_force && !model::export_may_write(export_path, *model::export_format_of(export_path), &why)) {
        print_message(stderr, "redlab: --export: %s\n", why.c_str());
        return 2;
      }
    }
    if (!(export_speed >= 0.1f && export_speed <= 20.0f)) {
      print_message(stderr, "redlab: --speed: %g is out of range; use 0.1 to 20 steps per second\n", double(export_speed));
      return 2;
    }
    if (!(export_hold >= 0.2f && export_hold <= 10.0f)) {
      print_message(stderr, "redlab: --hold: %g is out of range; use 0.2 to 10 seconds\n", double(export_hold));
      return 2;
    }
    if (export_width != 0 && (export_width < 16 || export_width > 8192)) {
      print_message(stderr, "redlab: --export-width: %d is out of range; use 16..8192 pixels\n", export_width);
      return 2;
    }
    g.export_path = export_path;
    g.export_view = export_view;
    g.export_transparent = export_transparent;
    g.export_speed = export_speed;
    g.export_width = export_width;
    g.export_hold = export_hold;
    g.export_caption = !export_no_caption;
    g.export_force = export_force;
    // A CSV is the per-step table: no window, no display needed.
    if (!export_path.empty() && model::export_format_of(export_path) == model::ExportFormat::csv) {
      model::Model st(g);
      const std::string why = model::export_csv_without_window(st, export_path, export_force);
      if (!why.empty()) {
        print_message(stderr, "redlab: --export: %s\n", why.c_str());
        return 2;
      }
      print_message(stderr, "redlab: wrote %s\n", export_path.c_str());
      return 0;
    }
    // A PNG or GIF is drawn by the window: without a display, say how to have one.
    if (!export_path.empty() && !std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) {
      print_message(stderr, "redlab: --export %s: a PNG or GIF is drawn by the window, and there is no display here "
                           "(DISPLAY is not set); run it under xvfb-run: xvfb-run -a redlab gui ... --export %s\n",
                   export_path.c_str(), export_path.c_str());
      return 2;
    }
    return run_gui(g);
  } catch (const KernelFileError& e) {
    print_message(stderr, "%s\n", e.what());
    return 2;
  } catch (const ScenarioError& e) {
    print_message(stderr, "redlab: %s\n", e.what());
    return 2;
  } catch (const KernelFault& e) {   // the emulator's report on the kernel: a deadlock, a race, a bad index
    print_message(stderr, "redlab: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {   // not a wrong result (exit 1): a kernel file's thread, or redlab, out of memory
    return cli::out_of_memory();
  } catch (const std::exception& e) {   // a file that cannot be written or read, a device that fails: exit 2, never
    print_message(stderr, "redlab: %s\n", e.what());   // 1, which says a result was wrong or a check failed
    return 2;
  }
}

}  // namespace redlab::cli
