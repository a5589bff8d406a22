// `redlab gui` (and `redlab` alone): the window, on a scenario, a trace file, a kernel file, a playlist or a lesson;
// with --screenshot or --export it renders headless, writes the file and exits.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cli/command.h"
#include "core/catalog.h"
#include "core/printable.h"
#include "model/export.h"
#include "model/layout.h"
#include "model/lesson.h"
#include "model/model.h"
#include "model/playlist.h"
#include "model/startup.h"
#include "model/view_id.h"

namespace redlab::cli {
namespace {

// "WxH" from 320x240 to 8192x8192, and nothing after it.
bool parse_window_size(const std::string& v, int& w, int& h) {
  char rest = 0;
  return std::sscanf(v.c_str(), "%dx%d%c", &w, &h, &rest) == 2 && w >= 320 && h >= 240 && w <= 8192 && h <= 8192;
}

// The window's own values, checked as they are read.
CLI::Validator window_size() {
  return CLI::Validator(
      [](const std::string& v) {
        int w = 0, h = 0;
        if (parse_window_size(v, w, h)) return std::string();
        return "'" + printable(v) + "' is not accepted; use WxH, from 320x240 to 8192x8192";
      },
      "");
}
CLI::Validator scale() {
  return CLI::Validator(
      [](const std::string& v) {
        for (const char* s : {"1", "1.5", "2", "2.5", "3"})
          if (v == s) return std::string();
        return "'" + printable(v) + "' is not accepted; use 1, 1.5, 2, 2.5 or 3";
      },
      "");
}
CLI::Validator layout() {
  return CLI::Validator(
      [](const std::string& v) {
        return model::parse_layout(v) ? std::string()
                                      : "'" + printable(v) + "' is not accepted; use study, present or compare";
      },
      "");
}
CLI::Validator export_file() {
  return CLI::Validator(
      [](const std::string& v) {
        std::string why;
        return model::export_format_of(v, &why) ? std::string() : why;
      },
      "");
}
CLI::Validator export_width() {  // 0: the view's own width
  return CLI::Validator(
      [](const std::string& v) {
        std::string value = v;
        return v == "0" ? std::string() : whole_number(16, 8192, "a width in pixels (or 0, the view's own)")(value);
      },
      "");
}

class GuiCommand : public Command {
  CLI::App* gui_ = nullptr;
  ScenarioArgs scenario_;
  std::string screenshot_, size_ = "1600x900", trace_file_, playlist_, lesson_, source_, source_b_, step_, lang_,
                           scale_, layout_, export_path_, export_view_;
  int frames_ = 3, beat_ = 0, export_width_ = 0;
  bool frame_report_ = false, fresh_ = false, colorblind_ = false, compare_ = false, export_transparent_ = false,
       export_no_caption_ = false, export_force_ = false;
  float export_speed_ = 1.5f, export_hold_ = model::kDefaultHold;

 public:
  CLI::App* declare(CLI::App& parent) override {
    CLI::App* gui = gui_ =
        parent.add_subcommand("gui", "open the window (default); with --screenshot render headless and exit");
    scenario_.add_to(*gui);
    gui->add_option("--screenshot", screenshot_, "render, write this PNG and exit")->check(file_name());
    gui->add_option("--size", size_, "window size WxH (default: 1600x900, no larger than the screen)")
        ->check(window_size());
    gui->add_option("--playlist", playlist_,
                    "a lecture's scenarios, one per line in these options' words (--kernel interleaved --n 256); "
                    "Page Down and Page Up step through them")
        ->check(file_name());
    gui->add_option("--lesson", lesson_,
                    "open a lesson (redlab lesson list, or a lesson file): its beats step with Page Down and Page Up")
        ->check(file_name());
    gui->add_option("--beat", beat_, "with --lesson: the beat to open at, from 1 (default: where you left it)");
    gui->add_flag("--fresh", fresh_,
                  "with --lesson: open it without the answers given before, and keep none of this time's (a rehearsal "
                  "does not show in class)");
    gui->add_option("--frames", frames_, "frames to render before the screenshot")
        ->check(whole_number(1, 100000, "a number of frames"));
    gui->add_flag("--frame-report", frame_report_, "print frame-time percentiles at exit");
    gui->add_option("--open", trace_file_, "open a trace file recorded by `redlab trace`")->check(file_name());
    gui->add_option("--source", source_,
                    "run a kernel file of your own (redlab new-kernel) on the scenario given, and again on every save")
        ->check(file_name())
        ->check(CLI::ExistingFile);
    gui->add_option("--source-b", source_b_,
                    "a kernel file of your own as scenario B, beside A (--source, or the kernel given), run again on "
                    "every save")
        ->check(file_name())
        ->check(CLI::ExistingFile);
    gui->add_option("--step", step_, "the step to show first (0-based)")
        ->check(whole_number(0, 100000, "a step number"));
    gui->add_option("--lang", lang_, "en or zh_CN (default: the system locale)")->check(language());
    gui->add_option("--scale", scale_, "presentation scale: 1, 1.5, 2, 2.5 or 3")->check(scale());
    gui->add_flag("--colorblind", colorblind_, "a palette readable with colour-blindness (Okabe-Ito)");
    gui->add_flag("--compare", compare_, "open the compare window");
    gui->add_option("--layout", layout_, "study (every panel), present (the tree and banks large) or compare")
        ->check(layout());
    gui->add_option("--export", export_path_,
                    "render headless, write FILE and exit; the format follows the extension: .png (the window, or "
                    "--export-view), .csv (the per-step table), .gif (the playback, every step and its motion)")
        ->check(file_name())
        ->check(export_file());
    std::string view_ids;  // the View menu's views, by the ids a lesson and an export name them with
    for (const model::ViewId v : model::kViewIds) view_ids += (view_ids.empty() ? "" : ", ") + std::string(v.key());
    gui->add_option("--export-view", export_view_,
                    "export one view: " + view_ids +
                        " (default: the view the file is named after, as tree.png; else a PNG is the window, a GIF "
                        "the centre view)");
    gui->add_flag("--transparent", export_transparent_, "a PNG export with a transparent background");
    gui->add_option("--speed", export_speed_, "a GIF export's steps per second (0.1 to 20; default 1.5)")
        ->check(number_in(0.1, 20, "the steps per second"));
    gui->add_option("--export-width", export_width_, "scale a PNG or GIF export to this width in pixels")
        ->check(export_width());
    gui->add_option("--hold", export_hold_, "a GIF export's seconds on each finished step (0.2 to 10; default 1.5)")
        ->check(number_in(0.2, 10, "the seconds"));
    gui->add_flag(
        "--no-caption", export_no_caption_,
        "a view's export without the caption above it (the kernel, n, block, type, the step and its figures)");
    gui->add_flag("--force", export_force_,
                  "let --export or --screenshot replace a file that is not a picture or export redlab wrote");
    return gui;
  }

  int run(const Invocation& in) override {
    if (!in.run_gui) {
      print_message(stderr, "redlab: this build has no GUI (REDLAB_GUI=OFF); try `redlab --help`\n");
      return *gui_ ? 2 : (std::cout << in.app.help(), 0);
    }
    GuiOptions g;
    if (scenario_.any()) {
      // A kernel file given a matrix (--rows, --cols, --block-rows) is a transpose: its shape is checked as a
      // catalog transpose's, and the file's own kernel takes that kernel's place once it compiles.
      if (!source_.empty() && scenario_.kernel.empty() &&
          !(scenario_.rows.empty() && scenario_.cols.empty() && scenario_.block_rows.empty())) {
        scenario_.kernel = "transpose_tiled";
      } else if (!source_.empty() && scenario_.kernel.empty() && !scenario_.cluster.empty()) {
        // Likewise a kernel file given a cluster size launches clusters: checked as a catalog cluster kernel's.
        if (const KernelRecord* k = first_cluster_kernel(Family::reduction)) scenario_.kernel = k->id;
      }
      Scenario s;
      if (!scenario_.parse_or_say(s)) return 2;
      g.scenario = s;
    }
    g.scenario_words = parse_scenario_words;
    if (!playlist_.empty()) {
      if (const std::string why = model::read_playlist(playlist_, parse_scenario_words, g.playlist); !why.empty()) {
        print_message(stderr, "redlab: --playlist: %s: %s\n", printable(playlist_).c_str(), why.c_str());
        return 2;
      }
    }
    if (!lesson_.empty()) {  // checked whole before the window opens, as a playlist is
      const std::string path = model::find_lesson(lesson_);
      model::Lesson l;
      const std::string why = path.empty() ? "no lesson '" + printable(lesson_) + "' (redlab lesson list)"
                                           : model::read_lesson(path, parse_scenario_words, l);
      if (!why.empty()) {
        print_message(stderr, "redlab: --lesson: %s\n", why.c_str());
        return 2;
      }
      if (gui_->count("--beat") && (beat_ < 1 || beat_ > int(l.beats.size()))) {
        print_message(stderr, "redlab: --beat: %d: lesson %s has beats 1 to %zu\n", beat_, l.name.c_str(),
                      l.beats.size());
        return 2;
      }
      g.lesson = path;
      g.lesson_beat = gui_->count("--beat") ? beat_ - 1 : -1;
      g.lesson_fresh = fresh_;
    } else if (gui_->count("--beat") || fresh_) {
      print_message(stderr, "redlab: %s: only with --lesson\n", fresh_ ? "--fresh" : "--beat");
      return 2;
    }
    g.size_given = gui_->count("--size") > 0;
    parse_window_size(size_, g.width, g.height);  // checked as it was read
    // A screenshot is written as a PNG export is: over nothing but a picture redlab wrote, unless --force.
    if (std::string why; !screenshot_.empty() && !export_force_ &&
                         !model::export_may_write(screenshot_, model::ExportFormat::png, &why)) {
      print_message(stderr, "redlab: --screenshot: %s\n", why.c_str());
      return 2;
    }
    g.screenshot = screenshot_;
    g.trace_file = trace_file_;
    g.source_file = source_;
    g.source_file_b = source_b_;
    g.frames = frames_;
    g.frame_report = frame_report_;
    g.step = step_.empty() ? -1 : std::atoi(step_.c_str());
    g.lang = lang_;
    if (!scale_.empty()) g.ui_scale = std::stof(scale_);
    g.colorblind = colorblind_;
    g.compare = compare_;
    g.layout = layout_;
    if (!export_path_.empty()) {
      std::string why;
      if (!screenshot_.empty()) {
        print_message(stderr, "redlab: --export and --screenshot both write a file; use one\n");
        return 2;
      }
      if (!export_force_ && !model::export_may_write(export_path_, *model::export_format_of(export_path_), &why)) {
        print_message(stderr, "redlab: --export: %s\n", why.c_str());
        return 2;
      }
    }
    g.export_path = export_path_;
    g.export_view = export_view_;
    g.export_transparent = export_transparent_;
    g.export_speed = export_speed_;
    g.export_width = export_width_;
    g.export_hold = export_hold_;
    g.export_caption = !export_no_caption_;
    g.export_force = export_force_;
    // A CSV is the per-step table: no window, no display needed.
    if (!export_path_.empty() && model::export_format_of(export_path_) == model::ExportFormat::csv) {
      model::Model model(g);
      const std::string why = model::export_csv_without_window(model, export_path_, export_force_);
      if (!why.empty()) {
        print_message(stderr, "redlab: --export: %s\n", why.c_str());
        return 2;
      }
      print_message(stderr, "redlab: wrote %s\n", export_path_.c_str());
      return 0;
    }
    // A PNG or GIF is drawn by the window: without a display, say how to have one.
    if (!export_path_.empty() && !std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) {
      print_message(stderr,
                    "redlab: --export %s: a PNG or GIF is drawn by the window, and there is no display here "
                    "(DISPLAY is not set); run it under xvfb-run: xvfb-run -a redlab gui ... --export %s\n",
                    export_path_.c_str(), export_path_.c_str());
      return 2;
    }
    return in.run_gui(g);
  }
};

const CommandRegistration gui_command{Order::gui, [] { return std::unique_ptr<Command>(new GuiCommand); }, true};

}  // namespace
}  // namespace redlab::cli
