#include "exec/estimate.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <thread>

#include "core/plan.h"
#include "core/trace_builder.h"
#include "exec/family_run.h"

namespace redlab {

RunEstimate estimate_run(const Scenario& sc, bool on_cpu, const RunOptions& options, const EmulatorRates& rates) {
  const Plan p = make_plan(sc);
  RunEstimate e;
  e.threads = std::uint64_t(p.grid) * p.scenario.block;
  const bool traced = options.trace && p.kernel->traceable;
  // On a GPU the chunks of one with room (trace_budget_for; a GPU with less free memory takes more of them).
  const std::size_t budget = options.trace_budget.value_or(on_cpu ? kTraceBudget : kGpuTraceBudget);
  if (traced) {
    const std::uint32_t per_chunk = std::max<std::uint32_t>(1, TraceBuilder(p, false).blocks_per_chunk(budget));
    e.chunks = (p.grid + per_chunk - 1) / per_chunk;
  }
  const double input = double(p.scenario.n) * double(elem_size(p.scenario.type));
  e.bytes = input;
  if (on_cpu) e.bytes += family_runner(p).device_bytes(p, 1) + (traced ? double(budget) : 0.0);
  e.free_bytes = double(host_available_bytes());
  if (p.kernel->host_only) {  // a loop on the host: no threads, no chunks
    e.threads = 0;
    e.chunks = 1;
    e.seconds = rates.fixed_s + double(p.scenario.n) * 1e-6 * rates.host_us_per_element;
  } else if (on_cpu) {
    const double cores = std::max(1u, std::thread::hardware_concurrency());
    const double per_core = double(rates.measured_cores) / cores;
    e.seconds = rates.fixed_s + double(e.threads) * 1e-6 * per_core * rates.traced_us;
  }
  return e;
}

}  // namespace redlab
