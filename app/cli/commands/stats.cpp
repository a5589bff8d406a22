// `redlab stats`: a scenario's per-step figures (text or JSON); with --hw the hardware's own counts beside them.
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/arguments.h"
#include "cli/command.h"
#include "cli/scenario_run.h"
#include "cli/source.h"
#include "core/catalog.h"
#include "core/hw_counts.h"
#include "core/kernel_source.h"
#include "core/printable.h"
#include "core/stats_json.h"
#include "exec/hw_collect.h"

namespace redlab::cli {
namespace {

int cmd_stats(const Scenario& s, bool json, bool hw, const std::string& hw_from) {
  if (!hw) {
    Trace t = run_scenario(s);
    const int code = run_outcome(t);
    if (json)
      std::cout << stats_json(t).dump(2) << "\n";
    else
      std::cout << stats_text(t);
    return code;
  }
  // The hardware first: CUPTI must see the kernels' module load, before this process's first CUDA call.
  HwCounts counts;
  if (hw_from.empty()) {
    counts = collect_hw_counts(s);
  } else {
    try {
      counts = read_hw_counts(hw_from, s);
    } catch (const std::exception& e) {
      print_message(stderr, "redlab: --hw-from: %s\n", e.what());
      return 2;
    }
  }
  if (!counts.collected) print_message(stderr, "redlab: --hw: %s; the model alone follows\n", counts.why.c_str());
  Trace t = run_scenario(s);
  const int code = run_outcome(t);
  const KernelRecord* k = find_kernel(s.kernel);
  const KernelSources sources = load_kernel_sources(k ? k->source_file : std::string());
  if (json) {
    nlohmann::json j = stats_json(t);
    j["hw"] = hw_json(t, counts, &sources);
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << stats_text(t) << "\n" << hw_text(t, counts, sources);
  }
  return code;
}

int cmd_hw_only(const Scenario& s) {
  const HwCounts counts = collect_hw_counts(s);
  const nlohmann::json j = {{"kernel", s.kernel},
                            {"n", s.n},
                            {"block", s.block},
                            {"type", to_string(s.type)},
                            {"hw", {{"collection", hw_counts_to_json(counts)}}}};
  std::cout << j.dump() << "\n";
  return 0;
}

int cmd_hw_metrics() {
  std::string why;
  const auto list = hw_metric_list(&why);
  if (list.empty()) {
    print_message(stderr, "redlab: --hw-metrics: %s\n", why.empty() ? "CUPTI listed no metric" : why.c_str());
    return 2;
  }
  for (const auto& [name, what] : list) print_message(stdout, "%-64s %s\n", name.c_str(), what.c_str());
  return 0;
}

class StatsCommand : public Command {
  ScenarioArgs scenario_;
  SourceArgs source_;
  bool json_ = false, hw_ = false, hw_metrics_ = false, hw_only_ = false;
  std::string hw_from_;

 public:
  CLI::App* declare(CLI::App& parent) override {
    CLI::App* stats = parent.add_subcommand("stats", "run the instrumented kernel and print per-step statistics");
    scenario_.add_to(*stats);
    stats->add_flag("--json", json_, "JSON output: per-step statistics");
    source_.add_to(*stats);
    stats->add_flag(
        "--hw", hw_,
        "also the GPU's own per-instruction counts of the timed kernel (CUPTI SASS metrics), by source line "
        "and step, beside the model's; without a GPU, says why and shows the model alone");
    stats->add_flag("--hw-metrics", hw_metrics_, "list the SASS metrics CUPTI offers on this GPU, and exit");
    stats->add_flag("--hw-only", hw_only_,
                    "with --hw --json: the hardware's collection alone, no model run (the window's child process)");
    stats
        ->add_option("--hw-from", hw_from_,
                     "the hardware's counts from a file that `stats --hw --json` wrote on a GPU machine, instead of "
                     "collecting them (the same scenario)")
        ->check(CLI::ExistingFile);
    return stats;
  }
  int run(const Invocation& in) override {
    const SourceCommand file{scenario_.type,
                             scenario_.block,
                             scenario_.block_rows,
                             scenario_.op,
                             scenario_.backend,
                             scenario_.kernel,
                             false,
                             ""};
    if (const auto rc = kernel_file_part(in.argc, in.argv, source_, file)) return *rc;
    if (hw_metrics_) return cmd_hw_metrics();
    Scenario s;
    if (!scenario_.parse_or_say(s)) return 2;
    if (hw_only_) return cmd_hw_only(s);
    return cmd_stats(s, json_, hw_ || !hw_from_.empty(), hw_from_);
  }
};

const CommandRegistration stats_command{Order::stats, [] { return std::unique_ptr<Command>(new StatsCommand); }};

}  // namespace
}  // namespace redlab::cli
