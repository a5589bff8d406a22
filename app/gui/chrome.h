// The window's own parts around the views (menu bar, control strip, status bar, File dialog, About box) and
// the frame that draws them and every view of the registry.
#pragma once
#include <string>

#include <imgui.h>

#include "views.h"

namespace redlab::gui {

struct Chrome {
  bool show_open = false, show_about = false;
  bool quit = false;          // File > Quit
};

// One frame's windows, between ImGui::NewFrame and ImGui::Render.
void draw_frame(Session&, Views&, Chrome&);
// Opens the layout's views and closes the others (a layout chosen, reset, or the first frame).
void apply_layout(Session&, Views&);
// Closes the views named by REDLAB_GUI_HIDE (comma-separated ids or their beginnings: "tim" is timings).
void hide_views(Views&, const std::string& hide);

}  // namespace redlab::gui
