#include "core/plan.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/catalog.h"

namespace redlab {

Plan make_plan(const Scenario& given) {
  Plan p;
  p.kernel = find_kernel(given.kernel);
  if (!p.kernel)
    throw ScenarioError("--kernel: '" + given.kernel + "' is not a kernel redlab has; use one of " + kernel_ids());
  // A kernel file's record read from its trace has no formula here: the second redlab that compiled the file plans
  // and runs it (app/core/catalog.h).
  if (!p.kernel->elems_per_block || !p.kernel->trace_shape)
    throw ScenarioError("kernel '" + given.kernel +
                        "' is a kernel file's: it runs in the second redlab that compiles "
                        "the file (--source), never in this one");
  p.family = &family_record(p.kernel->family);
  p.scenario = given;
  p.family->resolve(p.scenario);
  const Scenario& s = p.scenario;
  if (std::string why = p.family->validate(*p.kernel, s); !why.empty()) throw ScenarioError(why);
  p.shape = kernel_shape(s);
  p.grid = p.family->first_grid(*p.kernel, s);
  for (auto b : s.focus_blocks)
    if (b >= p.grid)
      throw ScenarioError("--focus: block " + std::to_string(b) + " does not exist; the " +
                          (p.family->takes_matrix ? "transpose" : "first launch") + " has " + std::to_string(p.grid) +
                          " block(s), 0.." + std::to_string(p.grid - 1) +
                          (p.family->takes_matrix ? " (x fastest)" : ""));
  // A cluster kernel's blocks hand their partials to each other: a focus block brings its whole cluster into focus
  // (the views follow the partials across it; its grid is whole clusters), as many as a trace file keeps.
  if (p.kernel->clustered && s.cluster > 1) {
    std::vector<std::uint32_t> whole;
    for (std::uint32_t b : s.focus_blocks)
      for (std::uint32_t r = b / s.cluster * s.cluster; r < (b / s.cluster + 1) * s.cluster; ++r)
        if (whole.size() < kMaxFocusBlocks && std::find(whole.begin(), whole.end(), r) == whole.end())
          whole.push_back(r);
    p.scenario.focus_blocks = std::move(whole);
  }
  p.elems_per_block = p.kernel->elems_per_block(p.shape);
  p.trace = p.kernel->trace_shape(*p.kernel, p.shape, p.grid);
  p.passes = p.family->passes(*p.kernel, s, p.grid);
  return p;
}

}  // namespace redlab
