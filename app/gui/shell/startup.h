// What the window shows first and how settings reach it: the session's language, scale and palette from the
// settings file, the command line and the environment; the scenarios it starts with (a trace file, the one on
// the command line, or the default demo) and the debug switches' selections.
#pragma once
#include <string>

#include "gui/shell/platform.h"
#include "gui/views/views.h"
#include "model/settings.h"

namespace redlab::gui {

using namespace redlab::model;

// Settings file < command line < environment (REDLAB_LANG, ...); a screenshot ignores the settings file.
// Loads the UI text. Returns the settings to save at exit.
Settings start_settings(Model&);
// Applies changed settings (menu: scale, language, palette; a new trace: the title) to the window.
void apply_settings(Model&, Platform&, Settings&);
// Starts the first runs (or opens the trace file), closes the views the layout or REDLAB_GUI_HIDE leave out,
// and in screenshot mode waits for the runs and sets the step and selections the options ask for.
void start_scenarios(Model&, Views&);
// The font atlas's sentence (Platform::build_fonts), on stderr once (not again while it stays the same) and in the
// status bar while it holds.
void say_font_notice(Model&, const std::string& notice);

}  // namespace redlab::gui
