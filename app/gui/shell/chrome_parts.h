// The parts of the window's chrome, one file each, that draw_frame (chrome.cpp) draws around and over the views.
#pragma once
#include "gui/shell/chrome.h"

namespace redlab::gui {

// The menu bar's and the status bar's heights, at the bars' scale (chrome.cpp).
float menu_bar_height();
float status_bar_height();

// menu_bar.cpp: the menu bar and its shortcuts; the About box (Help > About).
void menu_bar(Model&, Views&, Chrome&);
void about(Chrome&);
// status_bar.cpp: the status bar (`exporting`, `export_progress`: draw_frame's), the first start's hint, F1's help.
void status_bar(Model&, const Chrome&, bool exporting, double export_progress);
void first_start_hint(Model&);
void help_window(Model&);
// dialogs.cpp: File > Open's window, the unsaved-edits questions, the question before quitting.
void open_dialog(Model&, Chrome&);
void unsaved_dialogs(Model&);
void quit_dialog(Model&, Chrome&);
// export_window.cpp: File > Export.
void export_window(Model&, Views&, Chrome&);

}  // namespace redlab::gui
