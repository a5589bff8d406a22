// A scenario resolved once into everything a run needs: the kernel's record and its family's, the shape of
// the first launch, what one of its blocks records, and every launch of the run. The executors, the trace
// builder, bench and the views all read the plan; nobody derives these again.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/kernel_record.h"
#include "core/family.h"
#include "core/scenario.h"
#include "core/trace.h"

namespace redlab {

struct Plan {
  Scenario scenario;  // resolved: derived options set (transposes: n and block)
  const KernelRecord* kernel = nullptr;
  const FamilyRecord* family = nullptr;
  KernelShape shape;  // what the record's formulas see
  std::uint32_t grid = 0;  // blocks of the first launch, numbered x fastest
  std::uint64_t elems_per_block = 0;  // elements one block of the first launch covers
  TraceShape trace;  // what one block of the first launch records
  std::vector<Pass> passes;  // every launch: the first, then what finishes the run

  bool atomic() const { return !passes.empty() && passes.front().atomic; }
  bool host_finish() const { return passes.size() == 2 && passes.back().on_host; }
};

// Resolves and checks a scenario: throws ScenarioError naming the option and what it accepts.
Plan make_plan(const Scenario&);

}  // namespace redlab
