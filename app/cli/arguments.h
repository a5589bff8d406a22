// The scenario options every scenario command takes (--kernel, --n, --block, ...), as CLI11 reads them and as
// they are checked into a Scenario (arguments.cpp).
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/scenario.h"

namespace redlab::cli {

// Scenario options as the user typed them; parsed and validated after CLI11 so every bad value gets the
// same one-line message, naming the option and what it accepts.
struct ScenarioArgs {
  std::string kernel, n, block, type, op, backend, input, seed, finish, coarse, focus, algo, cluster;
  bool dynamic_smem = false;
  std::string rows, cols, block_rows;  // transposes
  std::string gpus;  // all-reduce
  void add_to(CLI::App&);
  // Fills `out`; returns an error message or "".
  std::string parse(Scenario& out) const;
  // The same, the message said on stderr ("redlab: ..."): false when a value is not accepted.
  bool parse_or_say(Scenario& out) const;
  bool any() const;
};

// One line of a lecture's playlist (model/playlist.h): its words read as the scenario options above, then checked
// as a run would check them. Returns "" or what is wrong.
std::string parse_scenario_words(const std::vector<std::string>& words, Scenario& out);

}  // namespace redlab::cli
