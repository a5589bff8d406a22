// The hardware counts as JSON: the "hw" object of `stats --hw --json`, a collection to JSON and back, and a
// recorded collection read from a file.
#include "core/hw_counts.h"
#include "core/printable.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/file_write.h"
#include "core/hw_counts_detail.h"
#include "core/json_read.h"
#include "core/scenario.h"

namespace redlab {

using hw_detail::kKindKeys;
using hw_detail::kNames;

namespace {
nlohmann::json kinds_json(const std::array<HwKindFigures, kHwKinds>& kinds) {
  nlohmann::json j = nlohmann::json::object();
  for (int k = 0; k < kHwKinds; ++k) {
    const HwKindFigures& f = kinds[std::size_t(k)];
    nlohmann::json o = {{"model_requests", f.model_requests},
                        {"hw_instructions", f.hw_instructions},
                        {"model_data", f.model_data},
                        {"hw_data", f.hw_data_known ? nlohmann::json(f.hw_data) : nlohmann::json()}};
    if (f.cause != HwCause::agree) {
      o["cause"] = hw_cause_key(f.cause);
      o["why"] = f.why;
    }
    j[kKindKeys[k]] = o;
  }
  return j;
}
}  // namespace

nlohmann::json hw_json(const Trace& t, const HwCounts& hw, const KernelSources* sources) {
  nlohmann::json j = {{"collected", hw.collected}};
  if (!hw.collected) {
    j["why"] = hw.why;
    return j;
  }
  const HwComparison c = compare_hw(t, hw, sources);
  j["device"] = hw.device;
  j["total"] = kinds_json(c.total);
  j["regions"] = nlohmann::json::array();
  for (const HwRegion& r : c.regions)
    j["regions"].push_back({{"file", r.file},
                            {"first_line", r.first_line},
                            {"last_line", r.last_line},
                            {"steps", r.steps},
                            {"instructions", r.instructions},
                            {"inst_executed", r.inst_executed},
                            {"thread_inst_executed", r.thread_inst_executed},
                            {"kinds", kinds_json(r.kinds)}});
  j["lines"] = nlohmann::json::array();
  for (const HwLine& l : hw_lines(hw)) {
    nlohmann::json o = {{"file", l.file}, {"line", l.line}, {"instructions", l.instructions}};
    for (int m = 0; m < kHwMetrics; ++m) o[kNames[m].key] = l.sums[std::size_t(m)];
    j["lines"].push_back(o);
  }
  j["collection"] = hw_counts_to_json(hw);
  return j;
}

nlohmann::json hw_counts_to_json(const HwCounts& hw) {
  nlohmann::json j = {{"collected", hw.collected},     {"why", hw.why},        {"device", hw.device}, {"chip", hw.chip},
                      {"source_file", hw.source_file}, {"missing", hw.missing}};
  // Instructions as rows: [function index, pc, file index, line, value or null per metric]
  std::vector<std::string> functions, files;
  auto index_of = [](std::vector<std::string>& v, const std::string& s) {
    auto it = std::find(v.begin(), v.end(), s);
    if (it != v.end()) return std::size_t(it - v.begin());
    v.push_back(s);
    return v.size() - 1;
  };
  nlohmann::json rows = nlohmann::json::array();
  for (const HwInstruction& i : hw.instructions) {
    nlohmann::json r = {index_of(functions, i.function), i.pc, index_of(files, i.file), i.line};
    for (const auto& v : i.values) r.push_back(v ? nlohmann::json(*v) : nlohmann::json());
    rows.push_back(std::move(r));
  }
  std::vector<std::string> keys;
  for (const auto& n : kNames) keys.push_back(n.key);
  j["functions"] = functions;
  j["files"] = files;
  j["metrics"] = keys;
  j["instructions"] = rows;
  return j;
}

HwCounts hw_counts_from_json(const nlohmann::json& j) {
  auto fail = [](const std::string& what) { throw std::runtime_error("hardware counts: " + what); };
  if (!j.is_object() || !j.contains("collected") || !j["collected"].is_boolean())
    fail("not a collection (no 'collected')");
  HwCounts hw;
  hw.collected = j["collected"].get<bool>();
  auto str = [&](const char* k) {
    if (j.contains(k) && !j[k].is_string()) fail(std::string("'") + k + "' is not a string");
    return j.contains(k) ? printable(j[k].get<std::string>()) : std::string();
  };
  // Names and paths as the terminal and the window show them (core/printable.h).
  auto printable_list = [&](const char* k) {
    std::vector<std::string> list = j.at(k).get<std::vector<std::string>>();
    for (std::string& s : list) s = printable(s);
    return list;
  };
  hw.why = str("why");
  hw.device = str("device");
  hw.chip = str("chip");
  hw.source_file = str("source_file");
  if (j.contains("missing")) hw.missing = printable_list("missing");
  if (!hw.collected) return hw;
  const auto functions = printable_list("functions");
  const auto files = printable_list("files");
  const auto keys = j.at("metrics").get<std::vector<std::string>>();
  std::vector<int> slot(keys.size(), -1);
  for (std::size_t k = 0; k < keys.size(); ++k)
    for (int m = 0; m < kHwMetrics; ++m)
      if (keys[k] == kNames[m].key) slot[k] = m;
  // Every number is a whole number in its range, named when it is not: a negative count, 1e308 or 0.5 read as an
  // unsigned number would show as a wrapped or made-up figure.
  std::size_t row = 0;
  auto whole = [&](const nlohmann::json& v, const std::string& what, std::uint64_t max) {
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > max)
      fail("instruction " + std::to_string(row) + ", " + what + ": " + json_excerpt(v) +
           " is not a whole number from 0 to " + std::to_string(max));
    return v.get<std::uint64_t>();
  };
  constexpr std::uint64_t kMaxCount = 1'000'000'000'000'000ull;  // 10^15: far above any run's, far below wrapping
  for (const auto& r : j.at("instructions")) {
    ++row;
    if (!r.is_array() || r.size() != 4 + keys.size()) fail("an instruction row has the wrong length");
    if (functions.empty() || files.empty()) fail("instructions name functions and files, and none are listed");
    HwInstruction i;
    i.function = functions[whole(r[0], "function", functions.size() - 1)];
    i.pc = std::uint32_t(whole(r[1], "pc", 0xffffffffu));
    i.file = files[whole(r[2], "file", files.size() - 1)];
    i.line = std::uint32_t(whole(r[3], "line", 0xffffffffu));
    for (std::size_t k = 0; k < keys.size(); ++k)
      if (slot[k] >= 0 && !r[4 + k].is_null()) i.values[std::size_t(slot[k])] = whole(r[4 + k], keys[k], kMaxCount);
    hw.instructions.push_back(std::move(i));
  }
  return hw;
}

HwCounts read_hw_counts(const std::string& path, const Scenario& s) {
  std::string text;
  if (const std::string why = read_regular_file(path, kMaxHwCountsBytes, &text); !why.empty())
    throw std::runtime_error(why);
  try {
    return hw_counts_from_text(text, s);
  } catch (const std::exception& e) {
    throw std::runtime_error("'" + printable(path) + "' is not a hardware collection of this scenario: " + e.what());
  }
}

HwCounts hw_counts_from_text(std::string_view text, const Scenario& s) {
  const nlohmann::json j = parse_json(text);
  if (!j.is_object()) throw std::runtime_error("not a JSON object");
  const nlohmann::json& h = j.contains("hw") ? j["hw"] : j;
  HwCounts counts = hw_counts_from_json(h.is_object() && h.contains("collection") ? h["collection"] : h);
  // The file's scenario must be this one: counts of another run would be compared with the wrong model.
  if (j.contains("kernel") && j["kernel"] != s.kernel)
    throw std::runtime_error("it holds counts of " + json_excerpt(j["kernel"]) + ", not '" + s.kernel + "'");
  if (j.contains("n") && (j["n"] != s.n || j.value("block", nlohmann::json()) != s.block ||
                          j.value("type", nlohmann::json()) != to_string(s.type)))
    throw std::runtime_error("it holds counts of n = " + json_excerpt(j["n"]) + ", block " +
                             json_excerpt(j.value("block", nlohmann::json())) + ", " +
                             json_excerpt(j.value("type", nlohmann::json())) + "; run the same scenario");
  return counts;
}

}  // namespace redlab
