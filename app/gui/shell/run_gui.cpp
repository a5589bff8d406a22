// The window's main loop, as Dear ImGui's GLFW + OpenGL 3 example has it: poll events, let the session collect
// finished work, draw a frame of every view, present it. What the window shows first comes from the options
// (startup.cpp); the platform (platform.cpp) owns GLFW, GL and ImGui; the compositor draws on software GL.
#include <glad/gl.h>
// glad first
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gui/shell/chrome.h"
#include "core/printable.h"
#include "gui/render/compositor.h"
#include "gui/export/exporter.h"
#include "gui/shell/frame_stats.h"
#include "model/layout.h"
#include "model/i18n.h"
#include "gui/shell/palette.h"
#include "gui/shell/platform.h"
#include "gui/shell/startup.h"
#include "gui/shell/lesson_walk.h"
#include "gui/shell/text_check.h"

namespace redlab {

namespace {
// SIGINT / SIGTERM: the loop sees it within its 0.1 s wait and quits as File > Quit does.
volatile std::sig_atomic_t g_signal = 0;
extern "C" void on_signal(int sig) { g_signal = sig; }
}  // namespace

int run_gui(const GuiOptions& opts) {
  using namespace gui;
  using namespace model;
  Model model(opts);
  Settings settings = start_settings(model);
  std::unique_ptr<Platform> platform;
  try {
    platform = std::make_unique<Platform>(opts.width, opts.height, model.view.headless, opts.debug.linear_font,
                                          !model.view.headless && !opts.size_given);
  } catch (const std::exception& e) {
    print_message(stderr, "redlab gui: %s\n", e.what());
    return 2;  // the environment (no display, no OpenGL 3.3), not a wrong result
  }
  model.view.chrome_scale = chrome_scale(model.view.ui_scale, float(platform->window_height()));
  say_font_notice(model, platform->build_fonts(model.view.ui_scale, model.view.chrome_scale, model.view.lang,
                                               model.work.extra_glyphs()));
  Views views = make_views();
  start_scenarios(model, views);
  // Redraw only what changed where rasterising is dear (software GL); whole frames on hardware GL.
  Compositor compositor(opts.debug.compositor < 0 ? platform->software_gl() : opts.debug.compositor == 1,
                        opts.debug.profile_lists);
  FrameStats stats(opts.debug.profile, opts.debug.profile_frames);
  const bool autoplay = model.view.headless && opts.debug.play;
  Chrome chrome;
  Exporter exporter;
  // --export: the file is the run's outcome (the loop ends when it is written).
  const bool exporting = !opts.export_path.empty();
  if (exporting) {
    ExportRequest req;
    req.path = opts.export_path;
    if (auto f = export_format_of(req.path)) req.format = *f;
    req.view = opts.export_view;
    req.transparent = opts.export_transparent;
    req.speed = opts.export_speed;
    req.width = opts.export_width;
    req.hold = opts.export_hold;
    req.caption = opts.export_caption;
    req.force = opts.export_force;
    chrome.export_request = req;
  }
  // A walk through the lesson's beats for the tests: the window ends when it is written.
  std::optional<LessonWalk> walk;
  if (model.view.headless && !opts.debug.lesson_walk.empty()) walk.emplace(opts.debug.lesson_walk);
  int rc = 0;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  double last = glfwGetTime();
  // Quit (Ctrl+Q, File > Quit, the window's close button) asks first while a kernel file has unsaved edits; a signal
  // does not ask.
  auto quitting = [&] {
    if (!platform->should_close() && !chrome.quit && !model.view.quit) return false;
    if (!ask_before_quit(model, chrome)) return true;
    platform->keep_open();
    return false;
  };
  for (int f = 0; !quitting() && !g_signal; ++f) {
    const double t0 = glfwGetTime();
    glfwPollEvents();
    const float dt = autoplay ? 1.0f / 30.0f : float(t0 - last);  // headless playback: a fixed, reproducible clock
    last = t0;
    // A file dropped on the window: a kernel file (.cu) is followed in A, anything else opened as a trace.
    for (const std::string& path : platform->take_dropped()) {
      if (path.size() > 3 && path.compare(path.size() - 3, 3, ".cu") == 0)
        model.work.open_kernel_source(model.work.a, path);
      else
        model.open_trace(path);
    }
    model.view.keys = platform->take_keys();
    model.poll();
    // Compare switched on with nothing to compare yet: run B as it stands.
    if (model.work.compare && !model.work.b.trace && !side_running(model.work.b) && model.work.b.error.empty())
      model.work.request_run(model.work.b);
    apply_settings(model, *platform, settings);
    if (chrome.export_request) {  // File > Export, or --export once the runs are in
      const bool started = exporter.start(model, views, *chrome.export_request);
      chrome.export_request.reset();
      chrome.export_message = exporter.message;
      chrome.export_failed = exporter.failed;
      chrome.export_time = t0;
      if (exporting && (!started || !exporter.active())) {
        print_message(started ? stdout : stderr, "redlab gui: %s\n", exporter.message.c_str());
        rc = started ? 0 : 2;
        break;
      }
    }
    model.view.front_view = exporter.front_view();
    exporter.before_frame(model);
    if (model.view.fullscreen != platform->fullscreen()) {
      platform->set_fullscreen(model.view.fullscreen);
      model.view.fullscreen = platform->fullscreen();
    }
    if (!exporter.active()) {
      if (!model.view.headless || autoplay) model.tick(dt);
      if (model.view.headless && opts.debug.anim >= 0) model.view.anim = std::clamp(opts.debug.anim, 0.0f, 1.0f);
      if (model.view.headless && opts.frame_report && !autoplay)
        model.view.anim = float(f % 30) / 29.0f;  // animate every frame
    }

    const double tb0 = glfwGetTime();
    const int step_before = model.view.step;
    platform->new_frame();
    draw_frame(model, views, chrome, exporter.active(), exporter.gif() ? exporter.progress() : -1.0);
    ImGui::Render();
    if (opts.debug.profile) glFinish();
    const double tb1 = glfwGetTime();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(platform->window(), &fw, &fh);
    if (exporter.active()) {
      exporter.after_frame(model, views, ImGui::GetDrawData(), fw, fh);
      if (!exporter.active()) {
        chrome.export_message = exporter.message;
        chrome.export_failed = exporter.failed;
        chrome.export_time = glfwGetTime();
        if (exporting) {
          print_message(exporter.failed ? stderr : stdout, "redlab gui: %s\n", exporter.message.c_str());
          rc = exporter.failed ? 2 : 0;  // a file that cannot be written: the environment, not a wrong result
          break;
        }
      }
    }
    const bool changed = compositor.render(ImGui::GetDrawData(), fw, fh, kBackground, take_changed_textures());
    if (opts.debug.profile) glFinish();
    const double tb2 = glfwGetTime();
    // A frame the same as the last one on screen needs no swap: an idle window under software GL then costs
    // almost nothing. An expose (the window system lost the picture) and a read-back need the picture in the
    // back buffer all the same.
    const bool present = changed || platform->take_exposed() || model.view.headless;
    if (present && !changed) compositor.copy_to_window(fw, fh);
    const bool last_frame = model.view.headless && !exporting && !walk && f + 1 >= std::max(1, opts.frames);
    if (last_frame && !opts.screenshot.empty()) {
      // As an export is written: the file replaced at once, never a device or a pipe, with redlab's mark and the
      // backend and device the picture was drawn from.
      try {
        write_png_file(opts.screenshot, platform->back_buffer(), false, picture_source_of(model));
      } catch (const std::exception& e) {
        print_message(stderr, "redlab gui: %s\n", e.what());
        rc = 2;
      }
    }
    if (last_frame && opts.debug.text_check) {
      const TextCheckResult check = check_text(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts);
      print_message(stderr, "redlab gui: text check: %s\n", check.report().c_str());
      if (!check.overlaps.empty() && rc == 0) rc = 3;
    }
    if (walk && walk->after_frame(model, *ImGui::GetDrawData(), *ImGui::GetIO().Fonts)) {
      print_message(walk->failed() ? stderr : stdout, "redlab gui: %s\n", walk->message().c_str());
      rc = walk->failed() ? 2 : 0;
      break;
    }
    if (present) glfwSwapBuffers(platform->window());
    // Where the swap does not wait (software GL, Xvfb) hold an interactive window near 60 frames per second
    // instead of spinning a core, and when nothing changed wait for input (or a background run) up to 0.1 s.
    if (!model.view.headless) {
      const double spare = (changed ? 1.0 / 60.0 : 0.1) - (glfwGetTime() - t0);
      if (spare > 0.001) glfwWaitEventsTimeout(spare);
    } else {
      glFinish();
    }
    const ImDrawData* dd = ImGui::GetDrawData();
    stats.add(f, (glfwGetTime() - t0) * 1000, (tb0 - t0) * 1000, (tb1 - tb0) * 1000, (tb2 - tb1) * 1000,
              (glfwGetTime() - tb2) * 1000, dd ? dd->TotalVtxCount : 0, dd ? dd->TotalIdxCount : 0,
              compositor.last_dirty_fraction(), step_before != model.view.step, !last_frame);
    if (last_frame) break;
  }
  if (!model.view.headless) save_settings(settings);
  if (g_signal) rc = 128 + g_signal;
  // Quit (or a signal) during a run: stop it; the emulator stops between blocks, well within a second. What
  // cannot stop that soon (a GPU launch, a measurement) does not hold the process: it ends without waiting.
  model.work.cancel_run(model.work.a);
  model.work.cancel_run(model.work.b);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(700);
  while (model.work.busy() && std::chrono::steady_clock::now() < deadline) {
    model.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (model.work.busy()) {
    print_message(stderr, "redlab gui: work still running at exit was abandoned\n");
    std::fflush(nullptr);
    std::_Exit(rc);
  }
  stats.print_profile();
  if (opts.frame_report)
    stats.print_report(opts.width, opts.height, model.work.a.tree.valid ? int(model.work.a.tree.cells) : 0);
  // Headless: a trace that could not be opened or run is the command's failure too (exit 2), not only a
  // message drawn in the picture.
  if (model.view.headless) {
    for (const Side* s : {&model.work.a, &model.work.b}) {
      if (!s->error.empty()) {
        print_message(stderr, "redlab gui: %s\n", s->error.c_str());
        if (rc == 0) rc = 2;
      } else if (s->trace && s->trace->fault) {  // drawn up to the kernel's fault, which ends it as the CLI's does
        print_message(stderr, "redlab gui: %s\n", s->trace->fault->message.c_str());
        if (rc == 0) rc = 2;
      }
    }
  }
  for (auto& v : views) v->release_gl();
  return rc;
}

}  // namespace redlab
