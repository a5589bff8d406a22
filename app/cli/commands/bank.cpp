// `redlab bank`: the bank model for one warp's shared-memory access, or every row of a measured CSV against it;
// with --measure, the access timed on the GPU too.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/bank_model.h"
#include "core/printable.h"
#include "core/scenario.h"
#include "core/stats_json.h"
#include "exec/bank_measure.h"

namespace redlab::cli {
namespace {

// Parses 32 lane addresses ('-' inactive); returns "" or the error.
std::string parse_lanes(const std::string& addrs, WarpAddresses& a) {
  std::stringstream ss(addrs);
  std::string tok;
  unsigned lane = 0;
  while (ss >> tok) {
    if (lane >= 32) return "--addrs: more than 32 addresses; give exactly 32 (one per lane, '-' inactive)";
    if (tok != "-") {
      std::uint64_t v = 0;
      if (!parse_size(tok, v) || v > 0xffffffffull)
        return "--addrs: '" + tok + "' (lane " + std::to_string(lane) +
               ") is not a byte address; use 0..4294967295 or '-'";
      if (v % a.width != 0)
        return "--addrs: " + std::to_string(v) + " (lane " + std::to_string(lane) + ") is not aligned to the " +
               std::to_string(a.width) + "-byte width";
      a.addr[lane] = std::uint32_t(v);
      a.mask |= 1u << lane;
    }
    ++lane;
  }
  if (lane != 32)
    return "--addrs: " + std::to_string(lane) + " address(es); give exactly 32 (one per lane, '-' for inactive)";
  return {};
}

int cmd_bank_reference(const std::string& csv, bool measure) {
  std::ifstream f(csv);
  if (!f) {
    print_message(stderr, "redlab: --reference: cannot open '%s'\n", csv.c_str());
    return 2;
  }
  std::string line;
  std::getline(f, line);
  if (line.rfind("pattern,access,width_bytes,lane_byte_addresses,ncu_wavefronts", 0) != 0) {
    print_message(stderr,
                  "redlab: --reference: '%s' is not a wavefront CSV (header "
                  "pattern,access,width_bytes,lane_byte_addresses,ncu_wavefronts)\n",
                  csv.c_str());
    return 2;
  }
  unsigned rows = 0, agree = 0;
  std::string why;
  print_message(stdout, "%-28s %-5s %5s %6s %6s%s\n", "pattern", "access", "width", "model", "ncu",
                measure ? "  cycles/access" : "");
  while (std::getline(f, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CSV rows end in CRLF (RFC 4180)
    if (line.empty()) continue;
    std::vector<std::string> c;
    std::stringstream ss(line);
    std::string item;
    while (std::getline(ss, item, ',')) c.push_back(item);
    if (c.size() != 5) {
      print_message(stderr, "redlab: --reference: bad row '%s'\n", line.c_str());
      return 2;
    }
    // Every field checked before use: width 4, 8 or 16, access load or store, a count.
    WarpAddresses a;
    if (c[2] != "4" && c[2] != "8" && c[2] != "16") {
      print_message(stderr, "redlab: --reference: row %u: width_bytes '%s' is not accepted; use 4, 8 or 16\n", rows + 1,
                    c[2].c_str());
      return 2;
    }
    if (c[1] != "load" && c[1] != "store") {
      print_message(stderr, "redlab: --reference: row %u: access '%s' is not accepted; use load or store\n", rows + 1,
                    c[1].c_str());
      return 2;
    }
    a.width = unsigned(std::stoul(c[2]));
    a.store = c[1] == "store";
    if (std::string err = parse_lanes(c[3], a); !err.empty()) {
      print_message(stderr, "redlab: --reference: row %u: %s\n", rows + 1, err.c_str());
      return 2;
    }
    std::uint64_t measured = 0;
    if (!parse_size(c[4], measured) || measured < 1 || measured > 1024) {
      print_message(stderr,
                    "redlab: --reference: row %u: ncu_wavefronts '%s' is not accepted; use a whole number 1..1024\n",
                    rows + 1, c[4].c_str());
      return 2;
    }
    const unsigned model = wavefronts(a), ncu = unsigned(measured);
    ++rows;
    agree += model == ncu;
    std::string cycles;
    if (measure) {
      AccessTiming t;
      if (measure_shared_access(a, &t, &why)) {
        char b[32];
        std::snprintf(b, sizeof b, "  %8.2f", t.cycles);
        cycles = b;
      } else {
        cycles = "  -";
      }
    }
    print_message(stdout, "%-28s %-5s %5u %6u %6u%s%s\n", c[0].c_str(), c[1].c_str(), a.width, model, ncu,
                  cycles.c_str(), model == ncu ? "" : "  MISMATCH");
  }
  print_message(stdout, "model agrees with %u of %u measured rows%s\n", agree, rows,
                measure && !why.empty() ? ("; not timed: " + why).c_str() : "");
  return agree == rows ? 0 : 1;
}

int cmd_bank(const std::string& width_text, const std::string& access, const std::string& addrs, bool json,
             bool measure) {
  WarpAddresses a;
  if (width_text == "4" || width_text == "8" || width_text == "16") {
    a.width = unsigned(std::stoul(width_text));
  } else {
    print_message(stderr, "redlab: --width: '%s' is not accepted; use 4, 8 or 16\n", width_text.c_str());
    return 2;
  }
  if (access != "load" && access != "store") {
    print_message(stderr, "redlab: --access: '%s' is not accepted; use load or store\n", access.c_str());
    return 2;
  }
  a.store = access == "store";
  if (std::string err = parse_lanes(addrs, a); !err.empty()) {
    print_message(stderr, "redlab: %s\n", err.c_str());
    return 2;
  }
  const BankReport r = bank_report(a);
  nlohmann::json j = bank_json(a, r);
  std::string text = bank_text(a, r);
  if (measure) {
    AccessTiming t;
    std::string why;
    char b[256];
    if (measure_shared_access(a, &t, &why)) {
      std::snprintf(b, sizeof b, "measured on %s: %.2f cycles per access (a conflict-free 4-byte load: %.2f)\n",
                    t.device.c_str(), t.cycles, t.baseline_cycles);
      j["measured"] = {{"device", t.device}, {"cycles_per_access", t.cycles}, {"baseline_cycles", t.baseline_cycles}};
    } else {
      std::snprintf(b, sizeof b, "not measured: %s\n", why.c_str());
      j["measured"] = nullptr;
    }
    text += b;
  }
  if (json)
    std::cout << j.dump(2) << "\n";
  else
    std::cout << text;
  return 0;
}

class BankCommand : public Command {
  std::string width_ = "4", access_ = "load", addrs_, reference_;
  bool json_ = false, measure_ = false;

 public:
  CLI::App* declare(CLI::App& parent) override {
    CLI::App* bank = parent.add_subcommand("bank", "shared-memory bank calculator for one warp access");
    bank->add_option("--width", width_, "bytes per lane: 4, 8 or 16");
    bank->add_option("--access", access_, "load or store");
    bank->add_option("--addrs", addrs_, "32 byte addresses, '-' for an inactive lane");
    bank->add_flag("--json", json_, "JSON output");
    bank->add_flag("--measure", measure_, "also time the access on the GPU (cycles per access)");
    bank->add_option(
        "--reference", reference_,
        "check the model against every row of a measured CSV (assets/reference/h200-shared-wavefronts.csv)");
    return bank;
  }
  int run(const Invocation&) override {
    if (!reference_.empty()) return cmd_bank_reference(reference_, measure_);
    if (addrs_.empty()) {
      print_message(stderr,
                    "redlab: --addrs: give 32 byte addresses (one per lane, '-' inactive), or --reference FILE\n");
      return 2;
    }
    return cmd_bank(width_, access_, addrs_, json_, measure_);
  }
};

const CommandRegistration bank_command{Order::bank, [] { return std::unique_ptr<Command>(new BankCommand); }};

}  // namespace
}  // namespace redlab::cli
