// What the window starts with, from its options, decided without a window: a trace file, a kernel file of the
// student's own, the scenario on the command line, or the default demo (divergent beside convergent), and B
// beside A. The window (gui/shell/startup.cpp) adds its views; `gui --export F.csv` writes the table from it with
// no window at all.
#pragma once
#include <string>

#include "model/model.h"

namespace redlab::model {

// The demo's scenario for `kernel`: 256 ones summed in one block of 256.
Scenario default_demo(const std::string& kernel);
// B beside A at the same size: the kernel A's record names to compare with, else its family's default, or
// REDLAB_GUI_COMPARE_KERNEL.
Scenario partner_of(const Model&);
// Sets A and B from the options and starts their runs (or opens the trace or kernel files); compare is on where
// the options or the default demo ask for it.
void start_work(Model&);

// `gui --export F.csv`: the per-step table of what the window would show first, written without a window (the
// export rules of export.h: an existing file that is not a CSV redlab exported is kept unless `force`). Returns
// "" or why not.
std::string export_csv_without_window(Model&, const std::string& path, bool force);

}  // namespace redlab::model
