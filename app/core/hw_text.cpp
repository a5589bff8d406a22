// The hardware counts as text: the report of `redlab stats --hw`, a count for a narrow column, and a line
// table's path shortened to redlab's part.
#include "core/hw_counts.h"

#include <array>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/hw_counts_detail.h"
#include "core/kernel_source.h"

namespace redlab {

using hw_detail::num;

namespace {
const char* kind_text(HwKind k) {
  constexpr const char* t[kHwKinds] = {"shared load", "shared store", "shared atomic",
                                       "global load", "global store", "global atomic"};
  return t[int(k)];
}
std::string region_name(const HwRegion& r, const std::string& own) {
  if (!r.first_line) return "before the first step";
  std::string s = (r.file == own ? std::string() : r.file + " ") + "line " + std::to_string(r.first_line);
  if (!r.steps.empty()) s += ": " + r.steps;
  return s;
}
void append(std::string& out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void append(std::string& out, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  out += buf;
}
void kind_rows(std::string& out, const std::array<HwKindFigures, kHwKinds>& kinds) {
  for (int k = 0; k < kHwKinds; ++k) {
    const HwKindFigures& f = kinds[std::size_t(k)];
    if (!f.model_requests && !f.hw_instructions && !f.model_data && !f.hw_data) continue;
    append(out, "    %-14s %12s %12s   %12s %12s   %s\n", kind_text(HwKind(k)), num(f.model_requests).c_str(),
           num(f.hw_instructions).c_str(), num(f.model_data).c_str(), f.hw_data_known ? num(f.hw_data).c_str() : "-",
           hw_cause_key(f.cause));
    if (!f.why.empty()) append(out, "      %s\n", f.why.c_str());
  }
}

std::string short_file(const std::string& path) {
  // The line table names the file as the compiler saw it: keep redlab's part of the path.
  const std::size_t k = path.rfind("/kernels/");
  return k != std::string::npos ? path.substr(k + 1) : path;
}
}  // namespace

std::string hw_text(const Trace& t, const HwCounts& hw, const KernelSources& sources) {
  std::string out;
  if (!hw.collected) {
    out += "hardware counts: not collected: " + hw.why + "\n";
    return out;
  }
  const HwComparison c = compare_hw(t, hw, &sources);
  append(out, "hardware counts: %s, CUPTI SASS metrics (chip %s) of the timed kernel's first launch\n",
         hw.device.c_str(), hw.chip.c_str());
  if (!hw.missing.empty()) {
    out += "  not offered by this chip:";
    for (const auto& m : hw.missing) out += " " + m;
    out += "\n";
  }
  out +=
      "  model: redlab's count of the source's accesses (every block traced); hardware: executed SASS instructions.\n";
  out += "  requests = warp-level accesses; data = shared wavefronts or global 32-byte sectors.\n\n";
  append(out, "    %-14s %12s %12s   %12s %12s\n", "", "model req", "hw inst", "model data", "hw data");
  out += "  whole kernel\n";
  kind_rows(out, c.total);
  for (const HwRegion& r : c.regions) {
    if (!r.instructions && r.steps.empty()) continue;
    append(out, "  %s (%u SASS instructions, %s warp-level executions)\n", region_name(r, hw.source_file).c_str(),
           r.instructions, num(r.inst_executed).c_str());
    kind_rows(out, r.kinds);
  }
  out += "\nper source line (hardware):\n";
  append(out, "  %-26s %4s %11s %12s %10s %10s %10s %10s %10s  %s\n", "line", "SASS", "warp inst", "thread inst",
         "smem inst", "wavefront", "gmem inst", "sectors", "atomics", "source");
  for (const HwLine& l : hw_lines(hw)) {
    const std::uint64_t smem = l.get(HwMetric::shared_ld) + l.get(HwMetric::shared_st) + l.get(HwMetric::shared_atom);
    const std::uint64_t gmem = l.get(HwMetric::global_ld) + l.get(HwMetric::global_st);
    const std::uint64_t atom =
        l.get(HwMetric::global_red) + l.get(HwMetric::global_atom) + l.get(HwMetric::shared_atom);
    std::string where = (l.file.empty() ? std::string("?") : l.file) + ":" + std::to_string(l.line);
    if (where.size() > 26) where = "..." + where.substr(where.size() - 23);
    std::string text;
    const auto src = sources.lines.find(l.file);
    if (src != sources.lines.end() && l.line >= 1 && l.line <= src->second.size()) {
      text = src->second[l.line - 1];
      const std::size_t a = text.find_first_not_of(" \t");
      text = a == std::string::npos ? "" : text.substr(a);
      if (text.size() > 60) text = text.substr(0, 57) + "...";
    }
    append(out, "  %-26s %4u %11s %12s %10s %10s %10s %10s %10s  %s\n", where.c_str(), l.instructions,
           num(l.get(HwMetric::inst_executed)).c_str(), num(l.get(HwMetric::thread_inst_executed)).c_str(),
           num(smem).c_str(), num(l.get(HwMetric::shared_wavefronts)).c_str(), num(gmem).c_str(),
           num(l.get(HwMetric::global_sectors)).c_str(), num(atom).c_str(), text.c_str());
  }
  return out;
}

std::string hw_short_file(const std::string& path) { return short_file(path); }

std::string compact_count(std::uint64_t v) {
  if (v < 1000) return std::to_string(v);
  const char* units = "kMGTPE";
  double x = double(v);
  int u = -1;
  while (x >= 999.5 && u < 5) {
    x /= 1000;
    ++u;
  }
  char buf[16];
  std::snprintf(buf, sizeof buf, x < 99.95 ? "%.1f%c" : "%.0f%c", x, units[u]);
  return buf;
}

}  // namespace redlab
