// The commands' registry, and the checks more than one command declares.
#include "cli/command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "core/printable.h"
#include "model/i18n.h"

namespace redlab::cli {

namespace {
std::vector<RegisteredCommand>& registry() {
  static std::vector<RegisteredCommand> commands;  // filled before main, by each command's file
  return commands;
}

std::string shown(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
}  // namespace

CommandRegistration::CommandRegistration(Order order, CommandFactory make, bool is_default) {
  registry().push_back({order, make, is_default});
}

std::vector<RegisteredCommand> registered_commands() {
  std::vector<RegisteredCommand> commands = registry();
  std::stable_sort(commands.begin(), commands.end(),
                   [](const RegisteredCommand& a, const RegisteredCommand& b) { return a.order < b.order; });
  return commands;
}

CLI::Validator language() {
  return CLI::Validator(
      [](const std::string& v) {
        return model::is_language(v) ? std::string() : "'" + printable(v) + "' is not accepted; use en or zh_CN";
      },
      "");
}

CLI::Validator file_name() {
  return CLI::Validator(
      [](const std::string& v) { return v.empty() ? std::string("give a file name (it is empty)") : ""; }, "");
}

// Digits only: "", "-1", "0x1" and "1e3" are refused, not read as another number.
CLI::Validator whole_number(long long lo, long long hi, const std::string& what) {
  return CLI::Validator(
      [lo, hi, what](const std::string& v) {
        const bool digits = !v.empty() && v.size() <= 12 && v.find_first_not_of("0123456789") == std::string::npos;
        if (digits) {
          const long long x = std::atoll(v.c_str());
          if (x >= lo && x <= hi) return std::string();
        }
        return "'" + printable(v) + "' is not accepted; use " + what + ", " + std::to_string(lo) + ".." +
               std::to_string(hi);
      },
      "");
}

CLI::Validator number_in(double lo, double hi, const std::string& what) {
  return CLI::Validator(
      [lo, hi, what](const std::string& v) {
        char* end = nullptr;
        const double x = v.empty() ? NAN : std::strtod(v.c_str(), &end);  // nan and inf fail both comparisons
        if (end && *end == '\0' && x >= lo && x <= hi) return std::string();
        return "give " + what + " as a number from " + shown(lo) + " to " + shown(hi) + " ('" + printable(v) +
               "' is not)";
      },
      "FLOAT in [" + shown(lo) + " - " + shown(hi) + "]");  // as CLI::Range says it in the help
}

}  // namespace redlab::cli
