// A scenario run for a command that prints or writes its trace (stats, trace).
#pragma once
#include "core/scenario.h"
#include "core/trace.h"

namespace redlab::cli {

// Runs the scenario; a run that takes more than a second reports its progress on stderr once a second (blocks run
// over all the chunks' launches, the chunk, the time so far), on one line rewritten in a terminal. One the estimate
// puts over 10 s says so first, with the host memory it will hold (the window asks instead).
Trace run_scenario(const Scenario&);
// The exit code of a run: 0 a correct result, 1 a wrong one, 2 a fault in the kernel (its report on stderr first, as
// a fault without a trace is reported; the trace up to it follows).
int run_outcome(const Trace&);

}  // namespace redlab::cli
