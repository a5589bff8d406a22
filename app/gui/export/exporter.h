// Carries out an export (export.h) in the window's loop: a CSV at once; a PNG from the next settled frame,
// of the whole window or of one view; a GIF frame by frame, the loop showing each step and each point of its
// animation in turn while the exporter captures the view. The frames are drawn again into an image of the
// exporter's own (capture), so that a transparent background and the window's own buffer do not matter.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include <imgui.h>

#include "model/export.h"
#include "gui/export/export_files.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

// What the window's picture is drawn from (model::picture_source): A's trace, and B's when B is shown.
std::string picture_source_of(const Model&);

// The window's background, behind the panels (run_gui.cpp clears to it; an opaque export too).
inline constexpr float kBackground[4] = {0.09f, 0.10f, 0.12f, 1.0f};

class Exporter {
 public:
  Exporter();
  Exporter(const Exporter&) = delete;
  Exporter& operator=(const Exporter&) = delete;
  ~Exporter();  // the capture's GL objects (call before the context goes)

  // Starts `req`; a CSV is written at once. False (and `message`) when it is refused: no trace, an unknown
  // view, a path that names no format.
  bool start(Model&, const Views&, ExportRequest req);
  bool active() const { return job_ != nullptr; }
  bool gif() const;  // a GIF is being captured
  // Share done (GIF frames captured / frames), for the status bar.
  double progress() const;
  // The view the export shows in front of its pane (none: the whole window).
  std::optional<ViewId> front_view() const;

  // Before the frame is drawn: the step and animation point this frame shows, the background it draws.
  void before_frame(Model&);
  // After ImGui::Render(): takes this frame's picture when the export needs it; finishes the file.
  void after_frame(Model&, const Views&, ImDrawData*, int fb_w, int fb_h);

  std::string message;  // the last export's outcome, for the status bar and the CLI
  bool failed = false;

 private:
  struct Job;
  Image capture(ImDrawData*, int fb_w, int fb_h, bool transparent);
  void finish(Model&, const std::string& outcome, bool ok);
  std::unique_ptr<Job> job_;
  unsigned fbo_ = 0, tex_ = 0;
  int w_ = 0, h_ = 0;
};

// The view a GIF (and a view PNG with no view named) shows: compare when comparing, else the tile or the tree.
ViewId centre_view(const Model&);

}  // namespace redlab::gui
