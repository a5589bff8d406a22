#include "hw_counts.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <set>
#include <stdexcept>

#include "catalog.h"
#include "scenario.h"
#include "kernel_source.h"
#include "trace.h"

namespace redlab {

namespace {
struct MetricName {
  const char* key;
  const char* cupti;
};
// CUPTI's SASS metric names (cupti_sass_metrics.h lists them per chip: `redlab stats --hw-metrics`).
constexpr MetricName kNames[kHwMetrics] = {
    {"inst_executed", "smsp__sass_inst_executed"},
    {"thread_inst_executed", "smsp__sass_thread_inst_executed"},
    {"thread_inst_executed_pred_on", "smsp__sass_thread_inst_executed_pred_on"},
    {"shared_ld", "smsp__sass_inst_executed_op_shared_ld"},
    {"shared_st", "smsp__sass_inst_executed_op_shared_st"},
    {"shared_atom", "smsp__sass_inst_executed_op_shared_atom"},
    {"global_ld", "smsp__sass_inst_executed_op_global_ld"},
    {"global_st", "smsp__sass_inst_executed_op_global_st"},
    {"global_red", "smsp__sass_inst_executed_op_global_red"},
    {"global_atom", "smsp__sass_inst_executed_op_global_atom"},
    {"shared_wavefronts", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"},
    {"shared_wavefronts_ideal", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"},
    {"global_sectors", "smsp__sass_sectors_mem_global"},
    {"global_sectors_ideal", "smsp__sass_sectors_mem_global_ideal"},
    {"thread_shared_pred_on", "smsp__sass_thread_inst_executed_op_shared_pred_on"},
    {"thread_global_pred_on", "smsp__sass_thread_inst_executed_op_global_pred_on"},
};
constexpr const char* kKindKeys[kHwKinds] = {"shared_load", "shared_store", "shared_atomic",
                                            "global_load", "global_store", "global_atomic"};

// Which kind of access an instruction makes (by the operation CUPTI counted for it), and how often.
std::optional<HwKind> kind_of(const HwInstruction& i) {
  if (i.get(HwMetric::shared_ld)) return HwKind::shared_load;
  if (i.get(HwMetric::shared_st)) return HwKind::shared_store;
  if (i.get(HwMetric::shared_atom)) return HwKind::shared_atomic;
  if (i.get(HwMetric::global_ld)) return HwKind::global_load;
  if (i.get(HwMetric::global_st)) return HwKind::global_store;
  if (i.get(HwMetric::global_red) || i.get(HwMetric::global_atom)) return HwKind::global_atomic;
  return std::nullopt;
}
std::uint64_t executions_of(const HwInstruction& i, HwKind k) {
  switch (k) {
    case HwKind::shared_load: return i.get(HwMetric::shared_ld);
    case HwKind::shared_store: return i.get(HwMetric::shared_st);
    case HwKind::shared_atomic: return i.get(HwMetric::shared_atom);
    case HwKind::global_load: return i.get(HwMetric::global_ld);
    case HwKind::global_store: return i.get(HwMetric::global_st);
    default: return i.get(HwMetric::global_red) + i.get(HwMetric::global_atom);
  }
}
bool is_shared(HwKind k) { return k == HwKind::shared_load || k == HwKind::shared_store || k == HwKind::shared_atomic; }

void add_model(std::array<HwKindFigures, kHwKinds>& f, const StepStats& s) {
  auto add = [&](HwKind k, std::uint64_t req, std::uint64_t data) {
    f[std::size_t(k)].model_requests += req;
    f[std::size_t(k)].model_data += data;
  };
  add(HwKind::shared_load, s.smem_load_requests, s.smem_load_wavefronts);
  add(HwKind::shared_store, s.smem_store_requests, s.smem_store_wavefronts);
  add(HwKind::shared_atomic, s.smem_atomic_requests, s.smem_atomic_wavefronts);
  add(HwKind::global_load, s.gmem_load_requests, s.gmem_load_sectors);
  add(HwKind::global_store, s.gmem_store_requests, s.gmem_store_sectors);
  add(HwKind::global_atomic, s.gmem_atomic_requests, s.gmem_atomic_sectors);
}

// Two counts agree when they are within 2 % of the larger.
bool agree(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t hi = std::max(a, b), lo = std::min(a, b);
  return hi - lo <= hi / 50;
}

std::string num(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(std::size_t(i), ",");
  return s;
}

// The reason for a difference, from what the figures themselves show.
void explain(HwKindFigures& f, HwKind k, const HwKindFigures* kernel_total) {
  f.cause.clear();
  f.why.clear();
  const bool req_ok = agree(f.model_requests, f.hw_instructions);
  const bool data_ok = !f.hw_data_known || agree(f.model_data, f.hw_data);
  if (req_ok && data_ok) return;
  const char* data = is_shared(k) ? "wavefronts" : "sectors";
  if (kernel_total && ((f.model_requests == 0) != (f.hw_instructions == 0)) &&
      agree(kernel_total->model_requests, kernel_total->hw_instructions)) {
    f.cause = "moved";
    f.why = f.hw_instructions ? "the compiler placed an access of another step's source here (the kernel's totals agree)"
                              : "the compiler placed this access in another step's code (the kernel's totals agree)";
    return;
  }
  if (f.hw_instructions > f.model_requests && data_ok) {
    f.cause = "predicated";
    f.why = num(f.hw_instructions - f.model_requests) +
            " executions by warps with no active lane: the compiler predicates the access instead of branching "
            "around it, so such a warp still issues it, moving no data (the " + std::string(data) + " agree)";
    return;
  }
  if (f.hw_instructions < f.model_requests && f.hw_instructions > 0) {
    f.cause = "merged";
    f.why = "the compiler merged neighbouring accesses into wider instructions: " + num(f.model_requests) +
            " requests in the source, " + num(f.hw_instructions) + " instructions executed" +
            (data_ok ? "" : std::string(", whose ") + data + " follow the wider width");
    return;
  }
  if (req_ok) {
    f.cause = "replays";
    f.why = std::string("the same accesses; the hardware counted ") + num(f.hw_data) + " " + data + " where the model has " +
            num(f.model_data) + " (not explained by the addresses redlab recorded)";
    return;
  }
  f.cause = "unexplained";
  f.why = "redlab cannot tell why: " + num(f.model_requests) + " requests in the model, " + num(f.hw_instructions) +
          " instructions executed";
}

std::string short_file(const std::string& path) {
  // The line table names the file as the compiler saw it: keep redlab's part of the path.
  const std::size_t k = path.rfind("/kernels/");
  return k != std::string::npos ? path.substr(k + 1) : path;
}
}  // namespace

const char* hw_metric_key(HwMetric m) { return kNames[int(m)].key; }
const char* hw_metric_cupti(HwMetric m) { return kNames[int(m)].cupti; }
const char* hw_kind_key(HwKind k) { return kKindKeys[int(k)]; }

std::vector<HwLine> hw_lines(const HwCounts& hw) {
  std::map<std::pair<std::string, std::uint32_t>, HwLine> by;
  for (const HwInstruction& i : hw.instructions) {
    HwLine& l = by[{i.file, i.line}];
    l.file = i.file;
    l.line = i.line;
    ++l.instructions;
    for (int m = 0; m < kHwMetrics; ++m) l.sums[std::size_t(m)] += i.values[std::size_t(m)].value_or(0);
  }
  std::vector<HwLine> out;
  for (auto& [key, l] : by)
    if (key.first == hw.source_file) out.push_back(l);
  for (auto& [key, l] : by)
    if (key.first != hw.source_file) out.push_back(l);
  return out;
}

HwComparison compare_hw(const Trace& t, const HwCounts& hw, const KernelSources* sources) {
  HwComparison c;
  const std::string own = hw.source_file;
  auto file_of = [&](const Step& s) { return sources ? sources->file_of_step(s.line, s.label_kind) : own; };
  // The regions: the code before the first step, then one per distinct probe.step (file, line), the kernel's
  // own file first, each file's in line order.
  std::vector<std::string> order_of_files = {own};
  if (sources)
    for (const std::string& f : sources->files)
      if (f != own) order_of_files.push_back(f);
  std::set<std::pair<std::size_t, std::uint32_t>> starts;
  for (const Step& s : t.steps) {
    const std::string f = file_of(s);
    const std::size_t fi = std::size_t(std::find(order_of_files.begin(), order_of_files.end(), f) - order_of_files.begin());
    if (fi == order_of_files.size()) order_of_files.push_back(f);
    starts.insert({fi, s.line});
  }
  c.regions.push_back({});
  c.regions.back().file = own;
  for (const auto& [fi, l] : starts) {
    HwRegion r;
    r.file = order_of_files[fi];
    r.first_line = l;
    c.regions.push_back(r);
  }
  for (std::size_t i = 0; i < c.regions.size(); ++i)
    for (std::size_t j = i + 1; j < c.regions.size(); ++j)
      if (c.regions[j].file == c.regions[i].file) {
        c.regions[i].last_line = c.regions[j].first_line - 1;
        break;
      }
  // The region of (file, line): the last one of that file starting at or before it; nullopt where the file
  // has none, or the line comes before its first step (outside the kernel's own file).
  auto region_of = [&](const std::string& file, std::uint32_t line) -> std::optional<std::size_t> {
    std::optional<std::size_t> found;
    for (std::size_t r = 0; r < c.regions.size(); ++r)
      if (c.regions[r].file == file && c.regions[r].first_line <= line && (r == 0 || c.regions[r].first_line)) found = r;
    return found;
  };
  // The model: every step's figures into its region.
  for (std::size_t ri = 1; ri < c.regions.size(); ++ri) {
    HwRegion& r = c.regions[ri];
    std::vector<const Step*> mine;
    for (const Step& s : t.steps)
      if (s.line == r.first_line && file_of(s) == r.file) mine.push_back(&s);
    if (mine.empty()) continue;
    bool same = true;
    for (const Step* s : mine) same = same && s->label == mine.front()->label;
    r.steps = mine.size() == 1 ? mine.front()->label
              : same           ? mine.front()->label + " (" + std::to_string(mine.size()) + " steps)"
                               : mine.front()->label + " .. " + mine.back()->label + " (" + std::to_string(mine.size()) + " steps)";
    for (const Step* s : mine) add_model(r.kinds, s->stats);
  }
  // The hardware: each instruction into the region of its line, or (another file, no line) of the kernel-file
  // instruction before it. Per function, in pc order.
  std::vector<const HwInstruction*> order;
  for (const HwInstruction& i : hw.instructions) order.push_back(&i);
  std::stable_sort(order.begin(), order.end(), [](const HwInstruction* a, const HwInstruction* b) {
    return a->function != b->function ? a->function < b->function : a->pc < b->pc;
  });
  std::size_t current = 0;
  const std::string* function = nullptr;
  for (const HwInstruction* i : order) {
    if (!function || *function != i->function) {
      function = &i->function;
      current = 0;
    }
    if (i->line)
      if (const auto r = region_of(i->file, i->line)) current = *r;
    HwRegion& r = c.regions[current];
    ++r.instructions;
    r.inst_executed += i->get(HwMetric::inst_executed);
    r.thread_inst_executed += i->get(HwMetric::thread_inst_executed);
    if (const auto k = kind_of(*i)) {
      HwKindFigures& f = r.kinds[std::size_t(*k)];
      f.hw_instructions += executions_of(*i, *k);
      f.hw_data += i->get(is_shared(*k) ? HwMetric::shared_wavefronts : HwMetric::global_sectors);
    }
  }
  // Data the chip did not count (a metric it does not offer) is not compared.
  auto offered = [&](HwMetric m) {
    return std::find(hw.missing.begin(), hw.missing.end(), hw_metric_cupti(m)) == hw.missing.end();
  };
  for (int k = 0; k < kHwKinds; ++k) {
    const bool known = offered(is_shared(HwKind(k)) ? HwMetric::shared_wavefronts : HwMetric::global_sectors);
    c.total[std::size_t(k)].hw_data_known = known;
    for (HwRegion& r : c.regions) r.kinds[std::size_t(k)].hw_data_known = known;
  }
  for (const HwRegion& r : c.regions)
    for (int k = 0; k < kHwKinds; ++k) {
      HwKindFigures& tot = c.total[std::size_t(k)];
      tot.model_requests += r.kinds[std::size_t(k)].model_requests;
      tot.model_data += r.kinds[std::size_t(k)].model_data;
      tot.hw_instructions += r.kinds[std::size_t(k)].hw_instructions;
      tot.hw_data += r.kinds[std::size_t(k)].hw_data;
    }
  for (int k = 0; k < kHwKinds; ++k) explain(c.total[std::size_t(k)], HwKind(k), nullptr);
  for (HwRegion& r : c.regions)
    for (int k = 0; k < kHwKinds; ++k) explain(r.kinds[std::size_t(k)], HwKind(k), &c.total[std::size_t(k)]);
  return c;
}

namespace {
const char* kind_text(HwKind k) {
  constexpr const char* t[kHwKinds] = {"shared load", "shared store", "shared atomic", "global load", "global store",
                                       "global atomic"};
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
           f.cause.empty() ? "agree" : f.cause.c_str());
    if (!f.why.empty()) append(out, "      %s\n", f.why.c_str());
  }
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
  out += "  model: redlab's count of the source's accesses (every block traced); hardware: executed SASS instructions.\n";
  out += "  requests = warp-level accesses; data = shared wavefronts or global 32-byte sectors.\n\n";
  append(out, "    %-14s %12s %12s   %12s %12s\n", "", "model req", "hw inst", "model data", "hw data");
  out += "  whole kernel\n";
  kind_rows(out, c.total);
  for (const HwRegion& r : c.regions) {
    if (!r.instructions && r.steps.empty()) continue;
    append(out, "  %s (%u SASS instructions, %s warp-level executions)\n", region_name(r, hw.source_file).c_str(), r.instructions,
           num(r.inst_executed).c_str());
    kind_rows(out, r.kinds);
  }
  out += "\nper source line (hardware):\n";
  append(out, "  %-26s %4s %11s %12s %10s %10s %10s %10s %10s  %s\n", "line", "SASS", "warp inst", "thread inst",
         "smem inst", "wavefront", "gmem inst", "sectors", "atomics", "source");
  for (const HwLine& l : hw_lines(hw)) {
    const std::uint64_t smem = l.get(HwMetric::shared_ld) + l.get(HwMetric::shared_st) + l.get(HwMetric::shared_atom);
    const std::uint64_t gmem = l.get(HwMetric::global_ld) + l.get(HwMetric::global_st);
    const std::uint64_t atom = l.get(HwMetric::global_red) + l.get(HwMetric::global_atom) + l.get(HwMetric::shared_atom);
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

namespace {
nlohmann::json kinds_json(const std::array<HwKindFigures, kHwKinds>& kinds) {
  nlohmann::json j = nlohmann::json::object();
  for (int k = 0; k < kHwKinds; ++k) {
    const HwKindFigures& f = kinds[std::size_t(k)];
    nlohmann::json o = {{"model_requests", f.model_requests}, {"hw_instructions", f.hw_instructions},
                        {"model_data", f.model_data}, {"hw_data", f.hw_data_known ? nlohmann::json(f.hw_data) : nlohmann::json()}};
    if (!f.cause.empty()) {
      o["cause"] = f.cause;
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
    j["regions"].push_back({{"file", r.file}, {"first_line", r.first_line}, {"last_line", r.last_line}, {"steps", r.steps},
                            {"instructions", r.instructions}, {"inst_executed", r.inst_executed},
                            {"thread_inst_executed", r.thread_inst_executed}, {"kinds", kinds_json(r.kinds)}});
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
  nlohmann::json j = {{"collected", hw.collected}, {"why", hw.why}, {"device", hw.device}, {"chip", hw.chip},
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
  if (!j.is_object() || !j.contains("collected") || !j["collected"].is_boolean()) fail("not a collection (no 'collected')");
  HwCounts hw;
  hw.collected = j["collected"].get<bool>();
  auto str = [&](const char* k) {
    if (j.contains(k) && !j[k].is_string()) fail(std::string("'") + k + "' is not a string");
    return j.contains(k) ? j[k].get<std::string>() : std::string();
  };
  hw.why = str("why");
  hw.device = str("device");
  hw.chip = str("chip");
  hw.source_file = str("source_file");
  if (j.contains("missing")) hw.missing = j["missing"].get<std::vector<std::string>>();
  if (!hw.collected) return hw;
  const auto functions = j.at("functions").get<std::vector<std::string>>();
  const auto files = j.at("files").get<std::vector<std::string>>();
  const auto keys = j.at("metrics").get<std::vector<std::string>>();
  std::vector<int> slot(keys.size(), -1);
  for (std::size_t k = 0; k < keys.size(); ++k)
    for (int m = 0; m < kHwMetrics; ++m)
      if (keys[k] == kNames[m].key) slot[k] = m;
  for (const auto& r : j.at("instructions")) {
    if (!r.is_array() || r.size() != 4 + keys.size()) fail("an instruction row has the wrong length");
    HwInstruction i;
    const std::size_t f = r[0].get<std::size_t>(), file = r[2].get<std::size_t>();
    if (f >= functions.size() || file >= files.size()) fail("an instruction names a function or file out of range");
    i.function = functions[f];
    i.pc = r[1].get<std::uint32_t>();
    i.file = files[file];
    i.line = r[3].get<std::uint32_t>();
    for (std::size_t k = 0; k < keys.size(); ++k)
      if (slot[k] >= 0 && !r[4 + k].is_null()) i.values[std::size_t(slot[k])] = r[4 + k].get<std::uint64_t>();
    hw.instructions.push_back(std::move(i));
  }
  return hw;
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

HwCounts read_hw_counts(const std::string& path, const Scenario& s) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open '" + path + "'");
  try {
    const nlohmann::json j = nlohmann::json::parse(f);
    const nlohmann::json& h = j.contains("hw") ? j["hw"] : j;
    HwCounts counts = hw_counts_from_json(h.contains("collection") ? h["collection"] : h);
    // The file's scenario must be this one: counts of another run would be compared with the wrong model.
    if (j.contains("kernel") && j["kernel"] != s.kernel)
      throw std::runtime_error("it holds counts of '" + j["kernel"].get<std::string>() + "', not '" + s.kernel + "'");
    if (j.contains("n") && (j["n"] != s.n || j.value("block", 0u) != s.block || j.value("type", "") != to_string(s.type)))
      throw std::runtime_error("it holds counts of n = " + j["n"].dump() + ", block " +
                               j.value("block", nlohmann::json()).dump() + ", " + j.value("type", "") +
                               "; run the same scenario");
    return counts;
  } catch (const std::exception& e) {
    throw std::runtime_error("'" + path + "' is not a hardware collection of this scenario: " + e.what());
  }
}

}  // namespace redlab
