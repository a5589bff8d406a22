// The questions views ask of a side, and what a compiler's messages say about a kernel file's lines.
#include "model/side.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <vector>

#include "core/catalog.h"
#include "model/i18n.h"

namespace redlab::model {

std::string run_seconds_text(const Side& side) {
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", side.run.seconds());
  return secs;
}

std::string no_trace_text(const Side& side) {
  // A scenario the device cannot run, or a cancelled run: the reason, not an invitation to press Run.
  if (side.user.running()) return trf("source.running", {side.user.path});
  if (!side.running()) return side.error.empty() ? tr("common.no_trace") : trf("common.no_trace_because", {side.error});
  return trf("common.running",
             {side.scenario.kernel, std::to_string(int(100.0 * side.run.progress())), run_seconds_text(side)});
}

bool takes_matrix(const Scenario& s) { return family_of(s).takes_matrix; }

void sync_text_fields(Side& side) {
  side.n_text = std::to_string(side.scenario.n);
  side.block_text = std::to_string(side.scenario.block);
  side.rows_text = std::to_string(side.scenario.rows);
  side.cols_text = std::to_string(side.scenario.cols);
  side.block_rows_text = std::to_string(side.scenario.block_rows);
}

std::string stale_reason(const Side& s) {
  if (!s.trace) return {};
  if (side_running(s)) return tr("stale.running");
  if (follows_file(s) && !s.user.errors.empty()) return tr("stale.compile");
  const Scenario& a = s.scenario;
  const Scenario& t = s.trace->scenario;
  const bool matrix = takes_matrix(t);
  const bool same =
      (follows_file(s) || a.kernel == t.kernel) && a.type == t.type && a.input == t.input && a.seed == t.seed &&
      a.algo == t.algo &&
      (matrix ? a.rows == t.rows && a.cols == t.cols && a.block_rows == t.block_rows
              : a.n == t.n && a.block == t.block && a.op == t.op && a.finish == t.finish && a.coarse == t.coarse &&
                    a.dynamic_smem == t.dynamic_smem && cluster_size(a) == cluster_size(t));
  return same ? std::string() : tr("stale.changed");
}

int side_step(const Side& s, int step) {
  if (!s.trace || s.trace->steps.empty()) return 0;
  return std::clamp(step, 0, int(s.trace->steps.size()) - 1);
}

bool side_draws_tile(const Side& s) { return s.trace && family_of(s.trace->scenario).view == FamilyView::tile; }
TileShape tile_shape(const Trace& t) {
  const KernelRecord* k = find_kernel(t.scenario.kernel);
  const bool transpose = k && k->family == Family::transpose;
  // A kernel file's record: the tile's side its launch uses, not how it keeps the tile (its file says that).
  const bool catalog = transpose && !std::filesystem::path(k->source_file).is_absolute();
  TileShape record;
  if (catalog) {
    record = {.shared = k->tile.shared,
              .dim = k->tile.dim,
              .pitch = k->tile.pitch,
              .vector = k->tile.vector,
              .swizzled = k->tile.swizzled,
              .decl = k->tile.decl ? k->tile.decl : ""};
  }
  if (!t.shared_arrays) {
    if (catalog || !transpose) return record;
    // A kernel file's trace that names no declaration (the emulator could not run it beside the GPU): a plain tile
    // of the launch's side wherever the kernel moved shared memory at all.
    TileShape plain{.dim = k->tile.dim, .pitch = k->tile.dim, .decl = "tile"};
    for (const Step& st : t.steps) plain.shared |= st.stats.smem_load_requests + st.stats.smem_store_requests > 0;
    return plain;
  }
  const unsigned width = unsigned(elem_size(t.scenario.type));
  const unsigned dim = transpose ? k->tile.dim : 32;
  const SharedDeclaration* two_d = nullptr;
  const SharedDeclaration* one_d = nullptr;
  for (const SharedDeclaration& d : *t.shared_arrays) {
    if (d.flag || d.elem_bytes == 0) continue;
    if (d.row_length && !two_d) two_d = &d;
    if (!d.row_length && !one_d) one_d = &d;
  }
  TileShape s;
  constexpr std::uint64_t kLargest = 256;  // a side the view can draw
  auto name_of = [](const SharedDeclaration& d) { return d.name.empty() ? std::string("tile") : d.name; };
  if (two_d && two_d->rows && two_d->rows <= kLargest) {
    const SharedDeclaration& d = *two_d;
    s.vector = d.elem_bytes > width && d.elem_bytes % width == 0 ? d.elem_bytes / width : 1;
    s.pitch = unsigned(std::min<std::uint64_t>(d.row_length * s.vector, kLargest));
    s.dim = unsigned(std::min<std::uint64_t>(d.rows, s.pitch));
    s.decl = name_of(d) + "[" + std::to_string(d.rows) + "][" + std::to_string(d.row_length) + "]";
  } else if (one_d && one_d->rows % dim == 0 && one_d->rows / dim >= dim && one_d->rows / dim <= kLargest) {
    s.dim = dim;
    s.pitch = unsigned(one_d->rows / dim);
    s.decl = name_of(*one_d) + "[" + std::to_string(one_d->rows) + "]";
  } else if (two_d || one_d) {
    s.dim = s.pitch = dim;  // a shape the kernel computes: drawn as a plain tile of its side
    s.decl = name_of(two_d ? *two_d : *one_d);
  } else {
    return s;  // nothing shared
  }
  s.shared = true;
  if (record.shared && record.dim == s.dim && record.pitch == s.pitch && record.vector == s.vector) {
    s.swizzled = record.swizzled;
    s.decl = record.decl;
  }
  return s;
}

unsigned tile_requests(const Trace& t) {
  const KernelRecord* k = find_kernel(t.scenario.kernel);
  const unsigned dim = k && k->family == Family::transpose ? k->tile.dim : 32;
  return std::max(1u, dim / std::max(1u, t.scenario.block_rows));
}
bool side_draws_ring(const Side& s) { return s.trace && family_of(s.trace->scenario).view == FamilyView::ring; }

int message_line(const std::string& line, const std::string& file) {
  int l = 0;
  // The compiler: "FILE:LINE:COL: error: what" (the file as the student gave it; notes and warnings too), or
  // NVRTC's "FILE(LINE): error: what" for the GPU.
  if (line.rfind(file + ":", 0) == 0 && std::sscanf(line.c_str() + file.size() + 1, "%d:", &l) == 1 && l > 0) return l;
  if (line.rfind(file + "(", 0) == 0 && std::sscanf(line.c_str() + file.size() + 1, "%d):", &l) == 1 && l > 0) return l;
  // The emulator: "... (kernel line 74 of hang.cu) ..."
  const std::string base = std::filesystem::path(file).filename().string(), tag = "line ";
  for (std::size_t at = line.find(tag); at != std::string::npos; at = line.find(tag, at + 1))
    if (std::sscanf(line.c_str() + at + tag.size(), "%d", &l) == 1 && l > 0 &&
        line.compare(at + tag.size() + std::to_string(l).size(), 4 + base.size(), " of " + base) == 0)
      return l;
  return 0;
}

std::map<int, std::string> source_marks(const std::string& messages, const std::string& file) {
  std::map<int, std::string> marks;
  std::istringstream in(messages);
  for (std::string line; std::getline(in, line);) {
    const int l = message_line(line, file);
    if (l <= 0) continue;
    if (line.rfind(file + ":", 0) == 0 || line.rfind(file + "(", 0) == 0) {  // the compilers' errors, not their notes
      const std::size_t at =
          line.find(": error:") != std::string::npos ? line.find(": error:") : line.find(": catastrophic error:");
      if (at != std::string::npos) marks.try_emplace(l, line.substr(at + 2));
    } else {
      marks.try_emplace(l, line.rfind("redlab: ", 0) == 0 ? line.substr(8) : line);
    }
  }
  return marks;
}

namespace {
// A deadlock or a misuse of a warp intrinsic is FaultKind::other; the emulator's report says which.
bool is_deadlock(const Fault& f) {
  return f.kind == FaultKind::other && f.message.find("deadlock") != std::string::npos;
}
const char* fault_kind_key(const Fault& f) {
  return f.kind == FaultKind::race            ? "gallery.expect.race"
         : f.kind == FaultKind::out_of_bounds ? "gallery.expect.out_of_bounds"
         : is_deadlock(f)                     ? "gallery.expect.deadlock"
                                              : "fault.kind.other";
}
std::string step_number(std::int32_t step) { return std::to_string(step + 1); }
// The step's label in the UI's language ("offset 32", "偏移 32"); "-" before the first step.
std::string step_label_of(const Trace& t, std::int32_t step) {
  return step >= 0 && std::size_t(step) < t.steps.size() ? step_label_text(t, unsigned(step)) : std::string("-");
}
std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }
// One access of a race or a bad index, with its thread's warp and lane (the thread index is linear in the block).
std::string access_text(const Trace& t, const FaultAccess& a, const char* key) {
  std::string text =
      trf(key, {std::to_string(a.thread), std::to_string(a.thread / 32), std::to_string(a.thread % 32),
                step_number(a.step), step_label_of(t, a.step), std::to_string(a.line), file_name(a.file)});
  // A race across the cluster: each access's block, and whether it reached into another block's shared memory.
  const Fault& f = *t.fault;
  if (!f.across_cluster()) return text;
  if (a.block != f.element_block) text = trf("fault.report.through_dsmem", {text});
  return trf("fault.report.in_block", {std::to_string(a.block), text});
}
}  // namespace

std::string access_label(const Trace& t, const WarpAccess& a, std::size_t index, const KernelSources& sources) {
  const std::string what = std::string("bank.access.") + to_string(a.space) + "_" + to_string(a.kind);
  const std::string kind =
      trf(what.c_str(), {std::to_string(a.width), std::to_string(std::popcount(a.mask)), redlab::to_string(a.op)});
  const std::optional<AccessSource> src = access_source(t, a, sources);
  if (!src) return std::to_string(index) + ": " + kind;
  return std::to_string(index) + ": " + trf("bank.access.at", {src->expression, std::to_string(src->line), kind});
}

std::string result_text(const Trace& t) {
  // A transpose's result is the count of elements that differ from a CPU transpose (abs_error holds it); the trace's
  // own sentence is the CLI's, in English.
  if (family_of(t.scenario).view == FamilyView::tile) {
    const KernelRecord* k = find_kernel(t.scenario.kernel);
    const std::string rows = std::to_string(t.scenario.rows), cols = std::to_string(t.scenario.cols);
    return trf(k && k->copies ? "sc.result.copy" : "sc.result.transpose",
               {rows, cols, std::to_string(std::uint64_t(t.abs_error))});
  }
  return trf("sc.result", {t.result, t.reference});
}

std::string scenario_text(const Scenario& s) {
  // The CLI's describe() in the UI's words: the option values (int32, sum, random, relaunch) as the options take them.
  const std::string seed = s.input == InputKind::random ? trf("scenario.seed", {std::to_string(s.seed)}) : "";
  if (family_of(s).view == FamilyView::tile)
    return trf("scenario.transpose", {s.kernel, to_string(s.type), std::to_string(s.rows), std::to_string(s.cols),
                                      std::to_string(s.block_rows), to_string(s.input), seed});
  if (const KernelRecord* k = find_kernel(s.kernel); k && k->family == Family::allreduce)  // no finish: no tree
    return trf("scenario.allreduce",
               {s.kernel, to_string(s.type), to_string(s.op), std::to_string(s.n), std::to_string(s.gpus ? s.gpus : 2),
                std::to_string(s.block), to_string(s.input), seed});
  return trf("scenario.reduction",
             {s.kernel + (s.dynamic_smem ? tr("scenario.dynamic_smem") : ""), to_string(s.type), to_string(s.op),
              std::to_string(s.n), std::to_string(s.block), to_string(s.input), seed, to_string(s.finish)});
}

std::string device_text(const std::string& device) {
  static const std::string head = "CPU SIMT emulator (", mid = " threads, ", gpus = " virtual GPUs";
  if (device.size() > 512 || device.compare(0, head.size(), head) != 0) return device;
  const std::size_t threads_end = device.find(mid, head.size());
  if (threads_end == std::string::npos) return device;
  const std::string threads = device.substr(head.size(), threads_end - head.size());
  if (threads.empty() || threads.find_first_not_of("0123456789") != std::string::npos) return device;
  std::string rest = device.substr(threads_end + mid.size());  // "MODEL)" or "MODEL), 4 virtual GPUs"
  std::string count;
  if (rest.size() > gpus.size() && rest.compare(rest.size() - gpus.size(), gpus.size(), gpus) == 0) {
    const std::size_t comma = rest.rfind("), ");
    if (comma == std::string::npos) return device;
    count = rest.substr(comma + 3, rest.size() - gpus.size() - comma - 3);
    if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos) return device;
    rest = rest.substr(0, comma + 1);
  }
  if (rest.empty() || rest.back() != ')') return device;
  const std::string model = rest.substr(0, rest.size() - 1);
  return count.empty() ? trf("status.emulator", {threads, model})
                       : trf("status.emulator.gpus", {threads, model, count});
}

std::string fault_summary(const Trace& t) {
  if (!t.fault) return {};
  const Fault& f = *t.fault;
  return trf("fault.stopped", {tr(fault_kind_key(f)), std::to_string(f.block), step_number(std::int32_t(f.step)),
                               step_label_of(t, std::int32_t(f.step))});
}

std::vector<std::string> lost_input_lines(const Trace& t, const std::vector<BlockReach>& reach) {
  std::vector<std::string> out;
  if (!reach.empty() && std::all_of(reach.begin(), reach.end(), [](const BlockReach& r) { return r.lost == 0; })) {
    // Every input got there: the values, not the elements, went wrong (a race, a wrong operator).
    out.push_back(tr(t.backend == Backend::cuda ? "code.lost.none.gpu" : "code.lost.none"));
    return out;
  }
  for (const BlockReach& r : reach) {
    if (r.lost == 0) continue;
    std::string ranges;
    for (std::size_t i = 0; i < r.lost_ranges.size() && i < 8; ++i) {
      const ElementRange& e = r.lost_ranges[i];
      ranges += (i ? ", " : "") + std::to_string(e.first) + (e.last > e.first ? "-" + std::to_string(e.last) : "");
    }
    if (r.lost_ranges.size() > 8) ranges += ", ...";
    out.push_back(
        trf("code.lost", {std::to_string(r.block), ranges, std::to_string(r.lost), std::to_string(r.inputs)}));
  }
  return out;
}

std::string fault_report(const Trace& t) {
  if (!t.fault) return {};
  const Fault& f = *t.fault;
  const std::string element = f.element.empty() ? "?" : f.element;
  if (f.kind == FaultKind::race && f.accesses.size() == 2) {
    const FaultAccess &x = f.accesses[0], &y = f.accesses[1];
    const bool cluster = f.across_cluster();
    return trf(
        cluster ? "fault.report.cluster_race" : "fault.report.race",
        {std::to_string(cluster ? f.element_block : f.block), element, f.byte >= 0 ? std::to_string(f.byte) : "?",
         access_text(t, x, x.write ? "fault.report.wrote" : "fault.report.read"),
         access_text(t, y, y.write ? "fault.report.wrote" : "fault.report.read")});
  }
  if (f.kind == FaultKind::out_of_bounds && f.accesses.size() == 1)
    return trf("fault.report.out_of_bounds",
               {std::to_string(f.block), element, access_text(t, f.accesses[0], "fault.report.used")});
  // A deadlock's report names what the fields do not (the intrinsic, the mask, who arrived): the emulator's words.
  return trf("fault.report.other", {f.message});
}

std::map<int, std::string> fault_marks(const Trace& t, const std::string& file) {
  std::map<int, std::string> marks;
  if (!t.fault) return marks;
  const Fault& f = *t.fault;
  auto here = [&](const FaultAccess& a) {
    return a.line > 0 && (same_file(a.file, file) ||
                          std::filesystem::path(a.file).filename() == std::filesystem::path(file).filename());
  };
  for (const FaultAccess& a : f.accesses) {
    if (!here(a)) continue;
    const bool other_block = f.across_cluster();
    const char* key = f.kind == FaultKind::out_of_bounds ? "fault.used"
                      : other_block                      ? (a.write ? "fault.write.in_block" : "fault.read.in_block")
                      : a.write                          ? "fault.write"
                                                         : "fault.read";
    std::string text = trf(key, {std::to_string(a.thread), f.element.empty() ? "?" : f.element, step_number(a.step),
                                 step_label_of(t, a.step), std::to_string(a.block)});
    std::string& mark = marks[int(a.line)];
    mark += (mark.empty() ? "" : "\n") + text;
  }
  // Another fault (a deadlock, a misuse of a warp intrinsic) names its lines in its report: the emulator's words,
  // introduced in the UI's language.
  if (f.kind == FaultKind::other)
    for (const auto& [line, message] : source_marks(f.message, file))
      marks.try_emplace(line, trf(is_deadlock(f) ? "fault.deadlock.here" : "fault.other.here", {message}));
  // A race: where the barrier belongs, at both lines (the accesses are in the kernel's order).
  if (f.kind == FaultKind::race && f.accesses.size() == 2) {
    const FaultAccess &x = f.accesses[0], &y = f.accesses[1];
    const bool cluster = f.across_cluster();
    const std::string place =
        x.step == y.step && x.line == y.line
            ? std::string(tr(cluster ? "fault.cluster_same_step" : "fault.same_step"))
            : trf(cluster ? "fault.cluster_barrier" : "fault.barrier",
                  {std::to_string(x.line), step_number(x.step), std::to_string(y.line), step_number(y.step)});
    for (const FaultAccess* a : {&x, &y})
      if (here(*a) && marks[int(a->line)].find(place) == std::string::npos) marks[int(a->line)] += "\n" + place;
  }
  return marks;
}

FaultRole fault_role(const Trace& t, unsigned step) {
  if (!t.fault) return FaultRole::none;
  if (step == t.fault->step) return FaultRole::fault;
  for (const FaultAccess& a : t.fault->accesses)
    if (a.step >= 0 && unsigned(a.step) == step) return FaultRole::access;
  return FaultRole::none;
}

bool kernel_file_takes_matrix(const std::string& text) { return text.find("transpose_kernel") != std::string::npos; }

bool kernel_file_launches_clusters(const std::string& text) { return text.find("this_cluster()") != std::string::npos; }

bool is_user_kernel(const KernelRecord& k) { return std::filesystem::path(k.source_file).is_absolute(); }

bool same_file(const std::string& x, const std::string& y) {
  namespace fs = std::filesystem;
  return !x.empty() && !y.empty() && fs::absolute(x).lexically_normal() == fs::absolute(y).lexically_normal();
}

Scenario checked_scenario(const Side& side) {
  Scenario s = side.scenario;
  // A kernel file, not compiled yet or known here by its record as data (no formula: its second redlab plans it): the
  // shape as the file's family takes it (a transpose file or a reduction), checked and estimated as the family's
  // default kernel would be.
  const KernelRecord* k = find_kernel(s.kernel);
  if ((follows_file(side) && !k) || (k && is_file_record(*k))) {
    const Family family = k                                                    ? k->family
                          : kernel_file_takes_matrix(side.user.editor.saved()) ? Family::transpose
                                                                               : Family::reduction;
    // A file that launches clusters is checked as the catalog's cluster kernels are (its --cluster is allowed).
    const bool clusters = k ? k->clustered : kernel_file_launches_clusters(side.user.editor.saved());
    const KernelRecord* like = clusters ? first_cluster_kernel(family) : nullptr;
    s.kernel = like ? like->id : family_record(family).default_compare;
    resolve_shape(s);
  }
  return s;
}

}  // namespace redlab::model
