// The window's own parts around the views (menu bar, control strip, status bar, File dialog, About box) and
// the frame that draws them and every view of the registry.
#pragma once
#include <optional>
#include <string>

#include <imgui.h>

#include "model/export.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

struct Chrome {
  bool show_open = false, show_about = false;
  // What the Open window opens: a trace file, or a kernel file of the student's own in side A or B.
  enum class OpenMode { trace, source_a, source_b, playlist, lesson } open_mode = OpenMode::trace;
  bool open_focus = false;  // the Open window just opened: its path field takes the keys
  bool quit = false;  // File > Quit
  bool quit_question = false;  // quitting with unsaved edits in a kernel file: the window asks first
  bool quit_confirmed = false;
  // File > Export: the window the user fills in, what it asks the loop to export, the outcome.
  bool show_export = false;
  bool export_focus = false;  // the Export window just opened: its path field takes the keys
  ExportRequest export_form;
  std::optional<ExportRequest> export_request;
  std::string export_message;
  bool export_failed = false;
  double export_time = -100;  // when the message came (glfwGetTime), shown for a while in the status bar
};

// One frame's windows, between ImGui::NewFrame and ImGui::Render.
// `exporting`: an export takes this frame (the Export window stays out of the picture); `gif_progress`: a GIF
// export's share done, shown in the status bar (-1: none runs; a GIF never shows the status bar).
void draw_frame(Model&, Views&, Chrome&, bool exporting = false, double gif_progress = -1);
// Opens the layout's views and closes the others (a layout chosen, reset, or the first frame).
void apply_layout(Model&, Views&);
// Whether quitting now must ask first: a kernel file has unsaved edits (and the window is not headless). Sets the
// question then.
bool ask_before_quit(Model&, Chrome&);
// Closes the views named by REDLAB_GUI_HIDE (comma-separated ids or their beginnings: "tim" is timings).
void hide_views(Views&, const std::string& hide);
bool hidden_by(const std::string& hide, const std::string& id);

}  // namespace redlab::gui
