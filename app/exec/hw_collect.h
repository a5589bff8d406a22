// The hardware's own per-instruction counts of a scenario's timed kernel, through CUPTI's
// SASS metrics (cupti_sass_metrics.h, in the CUDA toolkit). libcupti is opened at run time (dlopen), so redlab
// starts where it is absent; every refusal comes back as HwCounts::why, never as an exception.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/hw_counts.h"
#include "core/scenario.h"

namespace redlab {

// Runs the scenario's first launch once, uninstrumented, with CUPTI patching every SASS instruction of the
// kernels it launches, and maps each instruction to its source line. Must be called before anything else in
// the process uses CUDA (CUPTI hands over the kernel's cubin when its module loads).
HwCounts collect_hw_counts(const Scenario&);

// The CUPTI library the counts would use (its path), or "" with `why` set when there is none this redlab can use.
std::string cupti_library(std::string* why);

// The SASS metrics this GPU offers (name, description), or `why` when it cannot say.
std::vector<std::pair<std::string, std::string>> hw_metric_list(std::string* why);

}  // namespace redlab
