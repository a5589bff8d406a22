// The work's measurements: live timings of a scenario, one shared access timed on the GPU, and the hardware's
// own counts collected by a child redlab.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <exception>
#include <initializer_list>
#include <map>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/json_read.h"
#include "core/plan.h"
#include "exec/bank_measure.h"
#include "model/i18n.h"
#include "model/work.h"

namespace redlab::model {

namespace {
std::string options_key(const std::vector<std::string>& o) {
  std::string k;
  for (const std::string& s : o) k += s + " ";
  return k;
}
}  // namespace

void Work::request_timings(const Scenario& sc) {
  if (!live_.running()) start_timings(sc, measure_request(sc), false);
}

void Work::request_block_sweep(const Scenario& sc) {
  if (!live_.running() && sweep_offer(sc) == SweepOffer::sweep) start_timings(sc, sweep_request(sc), true);
}

void Work::start_timings(const Scenario& sc, const BenchRequest& req, bool sweep) {
  live_.error.clear();
  live_.kernel = sc.kernel;
  live_.n = sc.n;
  live_.sweep = sweep;
  live_.matrix = takes_matrix(sc);
  live_.what.clear();
  for (const std::string& k : req.kernels) live_.what += (live_.what.empty() ? "" : ", ") + k;
  if (live_.matrix)
    live_.what =
        trf("tim.t.kernels_at", {live_.what, trf("tim.t.shape", {std::to_string(req.rows), std::to_string(req.cols),
                                                                 std::to_string(req.block_rows)})});
  live_.job.start([req](RunControl&) { return from_bench(run_bench(req)); });
}

void Work::request_access_measure(const WarpAddresses& wa, const std::string& key, unsigned model_wavefronts) {
  if (measure_.running()) return;
  measure_.have = false;
  measure_.key = key;
  measure_.model_wavefronts = model_wavefronts;
  measure_.job.start([wa](RunControl&) {
    std::string why;
    const double c = measure_shared_access(wa, &why);
    return std::make_pair(c, why);
  });
}

HwCounts hw_counts_from_child(const ChildResult& r) {
  HwCounts hw;
  if (r.exit_code < 0) {
    hw.why = "redlab stats --hw: " + r.why;
    return hw;
  }
  try {
    const nlohmann::json j = parse_json(r.out);
    const nlohmann::json& h = j.at("hw");
    if (h.contains("collection")) return hw_counts_from_json(h["collection"]);
    hw.why = h.value("why", std::string("no reason given"));
  } catch (const std::exception&) {
    // Not JSON: the child refused the scenario (exit 2) or failed; its last line of stderr says why.
    std::string err = r.err;
    while (!err.empty() && err.back() == '\n') err.pop_back();
    const std::size_t nl = err.rfind('\n');
    hw.why = "redlab stats --hw (exit " + std::to_string(r.exit_code) +
             "): " + (err.empty() ? std::string("no output") : err.substr(nl == std::string::npos ? 0 : nl + 1));
  }
  return hw;
}

std::string Work::self_executable_path() const {
  return opts.debug.self_exe.empty() ? self_executable() : opts.debug.self_exe;
}

void Work::request_hw_counts() {
  if (hw_.running()) return;
  const std::vector<std::string> options = scenario_options(a.scenario);
  const std::string key = options_key(options);
  if (hw_.have && hw_.key == key) return;
  hw_.have = false;
  hw_.key = key;
  hw_.job.start([options, scenario = a.scenario, hw_from = opts.debug.hw_from,
                 self = self_executable_path()](RunControl& control) {
    if (!hw_from.empty()) return read_hw_counts(hw_from, scenario);  // counts recorded on a GPU machine
    std::vector<std::string> args = {"stats", "--hw-only"};
    args.insert(args.end(), options.begin(), options.end());
    return hw_counts_from_child(run_child(self, args, 300.0, &control.cancel));
  });
}

const HwState* Work::hw_counts() const {
  return hw_.have && hw_.key == options_key(scenario_options(a.scenario)) ? &hw_ : nullptr;
}

}  // namespace redlab::model
