#include "core/stats_json.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "core/allreduce.h"
#include "core/catalog.h"
#include "core/family.h"
#include "core/input_reach.h"
#include "core/kernel_file.h"

namespace redlab {

using nlohmann::json;

const char* definition(const std::string& f) {
  if (f == "active_threads")
    return "threads that executed the step's work (their guard was true), summed over all blocks";
  if (f == "active_warps") return "warps with at least one active thread";
  if (f == "divergent_warps")
    return "active warps with fewer than 32 active threads: the warp runs the step for all 32 lanes but only some do "
           "work";
  if (f == "smem_load_requests") return "warp-level shared-memory load instructions with at least one active lane";
  if (f == "smem_load_wavefronts")
    return "passes the shared-memory pipeline needs for those loads (bank model: per phase, the busiest bank's "
           "distinct 32-bit words)";
  if (f == "smem_store_requests") return "warp-level shared-memory store instructions with at least one active lane";
  if (f == "smem_store_wavefronts") return "passes the shared-memory pipeline needs for those stores (bank model)";
  if (f == "gmem_load_requests") return "warp-level global-memory load instructions with at least one active lane";
  if (f == "gmem_load_sectors") return "distinct 32-byte sectors those loads touch, per request, summed";
  if (f == "gmem_store_requests")
    return "warp-level global-memory store instructions with at least one active lane (atomics are counted apart)";
  if (f == "gmem_store_sectors") return "distinct 32-byte sectors those stores touch, per request, summed";
  if (f == "smem_atomic_requests")
    return "warp-level shared-memory atomic instructions (ATOMS) with at least one active lane: read-modify-writes, "
           "neither loads nor stores";
  if (f == "smem_atomic_wavefronts")
    return "passes the shared-memory pipeline needs for those atomics (bank model, as for a store)";
  if (f == "gmem_atomic_requests")
    return "warp-level global-memory atomic instructions (ATOMG, RED) with at least one active lane: a ticket, a "
           "block's result combined into out[0]";
  if (f == "gmem_atomic_sectors") return "distinct 32-byte sectors those atomics touch, per request, summed";
  if (f == "dsmem_load_requests")
    return "warp-level loads from another block's shared memory in the thread block cluster (distributed shared "
           "memory, cluster.map_shared_rank) with at least one active lane";
  if (f == "dsmem_load_bytes") return "bytes those loads' active lanes read across the SM-to-SM network";
  if (f == "dsmem_store_requests")
    return "warp-level stores into another block's shared memory in the cluster, with at least one active lane";
  if (f == "dsmem_store_bytes") return "bytes those stores' active lanes write across the SM-to-SM network";
  if (f == "cycles")
    return "GPU only: median over warps of lane 0's clock64 difference across the step (traced build, so probe "
           "overhead included); null on the CPU emulator";
  if (f == "tree_simd_efficiency")
    return "sum of active threads / (32 x sum of active warps) over the tree steps: the share of issued lanes doing "
           "useful work";
  return "";
}

std::string simd_efficiency_note(const Trace& t) {
  const Summary s = summarize(t);
  if (!s.tree_simd_efficiency) return {};
  char buf[128];
  std::snprintf(buf, sizeof buf, "%llu / (32 x %llu) = %.4f", (unsigned long long)s.tree_active_threads,
                (unsigned long long)s.tree_active_warps, *s.tree_simd_efficiency);
  // Where a book quotes this figure differently, the kernel's record says what it counted.
  const KernelRecord* k = find_kernel(t.scenario.kernel);
  return k && !k->remark.empty() ? std::string(buf) + ". " + k->remark : std::string(buf);
}

namespace {
json number_or_string(ElemType t, const std::string& text) {
  try {
    if (t == ElemType::int32) return std::stoll(text);
    return std::stod(text);
  } catch (...) {
    return text;  // inf/nan stay readable
  }
}
}  // namespace

json fault_json(const Fault& f) {
  json accesses = json::array();
  for (const FaultAccess& a : f.accesses)
    accesses.push_back({{"block", a.block},
                        {"thread", a.thread},
                        {"step", a.step},
                        {"file", a.file},
                        {"line", a.line},
                        {"write", a.write}});
  return {{"kind", to_string(f.kind)},
          {"message", f.message},
          {"block", f.block},
          {"step", f.step},
          {"element", f.element},
          {"element_block", f.element_block},
          {"byte", f.byte},
          {"accesses", accesses}};
}

std::string fault_access_text(const Fault& f, const FaultAccess& a) {
  const char* did = f.kind == FaultKind::out_of_bounds ? " used " : a.write ? " wrote " : " read ";
  std::string s = "thread " + std::to_string(a.thread) +
                  (a.block != f.block ? " of block " + std::to_string(a.block) : "") + did +
                  (f.element.empty() ? "it" : f.element) +
                  (f.element_block != f.block ? " of block " + std::to_string(f.element_block) : "");
  if (a.line) s += " at line " + std::to_string(a.line);
  return s;
}

// "race", "out-of-bounds index", "fault": a fault's kind in a sentence.
static const char* fault_kind_text(FaultKind k) {
  return k == FaultKind::race ? "race" : k == FaultKind::out_of_bounds ? "out-of-bounds index" : "fault";
}

json stats_json(const Trace& t) {
  const Scenario& sc = t.scenario;
  json steps = json::array();
  for (const Step& s : t.steps) {
    const StepStats& st = s.stats;
    steps.push_back({{"phase", to_string(s.phase)},
                     {"label", s.label},
                     {"active_threads", st.active_threads},
                     {"active_warps", st.active_warps},
                     {"divergent_warps", st.divergent_warps},
                     {"smem_load_requests", st.smem_load_requests},
                     {"smem_load_wavefronts", st.smem_load_wavefronts},
                     {"smem_store_requests", st.smem_store_requests},
                     {"smem_store_wavefronts", st.smem_store_wavefronts},
                     {"gmem_load_requests", st.gmem_load_requests},
                     {"gmem_load_sectors", st.gmem_load_sectors},
                     {"gmem_store_requests", st.gmem_store_requests},
                     {"gmem_store_sectors", st.gmem_store_sectors},
                     {"smem_atomic_requests", st.smem_atomic_requests},
                     {"smem_atomic_wavefronts", st.smem_atomic_wavefronts},
                     {"gmem_atomic_requests", st.gmem_atomic_requests},
                     {"gmem_atomic_sectors", st.gmem_atomic_sectors},
                     {"dsmem_load_requests", st.dsmem_load_requests},
                     {"dsmem_load_bytes", st.dsmem_load_bytes},
                     {"dsmem_store_requests", st.dsmem_store_requests},
                     {"dsmem_store_bytes", st.dsmem_store_bytes},
                     {"cycles", st.cycles ? json(*st.cycles) : json(nullptr)}});
  }
  // A kernel the probe cannot see (library code) has no counts: the summary says so by leaving them out rather
  // than showing zeros, as if nothing happened ("traced": false).
  const KernelRecord* record = find_kernel(sc.kernel);
  const bool traced = record ? record->traceable : !t.steps.empty();
  const Summary sum = summarize(t);
  json summary = {{"tree_simd_efficiency", sum.tree_simd_efficiency ? json(*sum.tree_simd_efficiency) : json(nullptr)},
                  {"tree_active_threads", sum.tree_active_threads},
                  {"tree_active_warps", sum.tree_active_warps},
                  {"tree_steps", sum.tree_steps},
                  {"smem_wavefronts", sum.smem_wavefronts},
                  {"smem_ideal_wavefronts", sum.smem_ideal},
                  {"smem_requests", sum.smem_requests},
                  {"gmem_requests", sum.gmem_requests},
                  {"gmem_sectors", sum.gmem_sectors},
                  {"smem_atomic_requests", sum.smem_atomic_requests},
                  {"gmem_atomic_requests", sum.gmem_atomic_requests},
                  {"dsmem_requests", sum.dsmem_requests},
                  {"dsmem_bytes", sum.dsmem_bytes},
                  {"tree_simd_efficiency_note", simd_efficiency_note(t)},
                  {"abs_error", t.abs_error},
                  {"error_bound", t.error_bound},
                  {"trace_digest",
                   [&] {
                     char b[24];
                     std::snprintf(b, sizeof b, "%016llx", (unsigned long long)t.digest);
                     return std::string(b);
                   }()},
                  {"trace_chunks", t.trace_chunks},
                  {"trace_ms", t.trace_ms},
                  {"trace_bytes_peak", t.trace_bytes_peak}};
  if (!traced) summary = {{"abs_error", t.abs_error}, {"error_bound", t.error_bound}};
  json passes = json::array();
  for (const Pass& p : t.passes)
    passes.push_back({{"grid", p.grid}, {"block", p.block}, {"kernel", p.kernel}, {"n", p.n}, {"atomic", p.atomic}});
  json out = {{"kernel", sc.kernel},
              {"backend", to_string(t.backend)},
              {"device", t.device},
              {"n", sc.n},
              {"block", sc.block},
              {"type", to_string(sc.type)},
              {"op", to_string(sc.op)},
              {"result", number_or_string(sc.type, t.result)},
              {"reference", number_or_string(sc.type, t.reference)},
              {"correct", t.correct},
              {"steps", steps},
              {"traced", traced},
              {"summary", summary},
              {"passes", passes},
              // the first launch's (null where it has no kernel of the catalog's: the host loop, a library's)
              {"occupancy", t.occupancy ? occupancy_json(*t.occupancy) : json(nullptr)}};
  // An all-reduce: its GPUs, the bytes each sent and received over the run, the least any all-reduce sends, and per
  // step what moved (SPEC: stats --json).
  if (record && record->family == Family::allreduce) {
    out["gpus"] = t.gpus;
    std::vector<std::uint64_t> sent(t.gpus, 0), received(t.gpus, 0);
    json moved = json::array();
    for (const auto& step : t.transfers) {
      json list = json::array();
      for (const GpuTransfer& x : step) {
        if (x.from < t.gpus) sent[x.from] += x.bytes;
        if (x.to < t.gpus) received[x.to] += x.bytes;
        list.push_back({{"from", x.from},
                        {"to", x.to},
                        {"chunk", x.chunk},
                        {"lo", x.lo},
                        {"hi", x.hi},
                        {"bytes", x.bytes},
                        {"combine", x.combine}});
      }
      moved.push_back(list);
    }
    // NCCL's run records no transfers of redlab's: what it moved is its own (null, not zero).
    const bool known = !t.transfers.empty();
    out["summary"]["bytes_sent_per_gpu"] = known ? json(sent) : json(nullptr);
    out["summary"]["bytes_received_per_gpu"] = known ? json(received) : json(nullptr);
    // The busiest GPU's bytes: what the link of the slowest GPU must carry, against the lower bound.
    out["summary"]["most_bytes_sent_per_gpu"] =
        known ? json(*std::max_element(sent.begin(), sent.end())) : json(nullptr);
    out["summary"]["lower_bound_bytes_per_gpu"] =
        allreduce::lower_bound_bytes_per_gpu(t.gpus, double(sc.n) * double(elem_size(sc.type)));
    out["transfers"] = moved;
  }
  // A fault: the steps are the faulting block's up to it, and there is no result.
  if (t.fault) {
    out["fault"] = fault_json(*t.fault);
    out["result"] = nullptr;
  }
  // Which of each focus block's inputs reached its result (core/input_reach.h): ranges of input elements, both ends
  // included.
  if (traced && !t.fault) {
    auto ranges = [](const std::vector<ElementRange>& v) {
      json a = json::array();
      for (const ElementRange& r : v) a.push_back({r.first, r.last});
      return a;
    };
    json reach = json::array();
    for (const BlockReach& r : input_reach(t))
      reach.push_back({{"block", r.block},
                       {"inputs", r.inputs},
                       {"input_ranges", ranges(r.input_ranges)},
                       {"lost", r.lost},
                       {"lost_ranges", ranges(r.lost_ranges)},
                       {"wrote_result", r.wrote_result}});
    out["lost_inputs"] = reach;
  }
  if (const KernelRecord* k = find_kernel(sc.kernel); k && family_record(k->family).takes_matrix) {
    out["rows"] = sc.rows;
    out["cols"] = sc.cols;
    out["block_rows"] = sc.block_rows;
  }
  return out;
}

std::string stats_text(const Trace& t) {
  std::ostringstream o;
  o << describe(t.scenario) << "\n" << to_string(t.backend) << ": " << t.device << "\n";
  if (t.fault) {
    // The report itself is on stderr, above (as a fault without a trace is reported).
    o << "no result: the kernel stopped at its fault, " << fault_kind_text(t.fault->kind) << " in block "
      << t.fault->block << ", step " << t.fault->step + 1 << " '"
      << (t.fault->step < t.steps.size() ? t.steps[t.fault->step].label : std::string()) << "' (the report above)\n";
  } else {
    o << "result " << t.result << "  reference " << t.reference << "  " << (t.correct ? "correct" : "WRONG") << "\n";
  }
  // A wrong result: which inputs each focus block lost on the way to its result (core/input_reach.h).
  if (!t.correct && !t.fault && !t.steps.empty()) {
    const std::vector<BlockReach> reach = input_reach(t);
    if (!reach.empty()) o << "what reached each focus block's result (data flow over its recorded accesses):\n";
    for (const BlockReach& r : reach) o << "  " << describe_reach(r) << "\n";
    if (std::all_of(reach.begin(), reach.end(), [](const BlockReach& r) { return r.lost == 0; }) && !reach.empty())
      o << "  nothing was lost there: the error is in how the values were combined, or in a block not in focus "
           "(--focus 0,5 picks the blocks)"
        << (t.backend == Backend::cuda
                ? "; on a GPU, values read before another warp wrote them (a missing __syncthreads) "
                  "look like this: the emulator's race detector names them (--backend cpu)"
                : "")
        << "\n";
  }
  if (t.steps.empty()) {
    o << "no per-step figures: " << t.scenario.kernel
      << " has no traced build (library or host code); redlab bench times it\n";
  } else if (t.fault) {
    o << "first launch: grid " << t.grid << " x block " << t.block << "; figures of block " << t.fault->block
      << " alone, from its first step to the fault's (marked <-)\n\n";
  } else {
    o << "first launch: grid " << t.grid << " x block " << t.block << "; figures summed over all blocks\n\n";
  }
  char line[400];
  // Distributed shared memory's columns, for a cluster kernel's trace only (every other kernel's are zeros).
  const bool remote = uses_distributed_shared_memory(t);
  auto remote_columns = [&](std::string row, const StepStats* st) {
    if (!remote) return row;
    char more[80];
    if (st)
      std::snprintf(more, sizeof more, " %7llu %8llu %7llu %8llu", (unsigned long long)st->dsmem_load_requests,
                    (unsigned long long)st->dsmem_load_bytes, (unsigned long long)st->dsmem_store_requests,
                    (unsigned long long)st->dsmem_store_bytes);
    else
      std::snprintf(more, sizeof more, " %7s %8s %7s %8s", "ds.ld", "ds.ld.B", "ds.st", "ds.st.B");
    row.insert(row.size() - 1, more);  // before the line's end
    return row;
  };
  if (!t.steps.empty())
    std::snprintf(line, sizeof line, "%-10s %-28s %10s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %6s %6s %9s\n", "phase",
                  "label", "act.thr", "act.w", "div.w", "sm.ld", "sm.ld.wf", "sm.st", "sm.st.wf", "gm.ld", "gm.ld.sec",
                  "gm.st", "gm.st.sec", "sm.at", "gm.at", "cycles");
  if (!t.steps.empty()) o << remote_columns(line, nullptr);
  for (const Step& s : t.steps) {
    const StepStats& st = s.stats;
    char cyc[24] = "-";
    if (st.cycles) std::snprintf(cyc, sizeof cyc, "%.0f", *st.cycles);
    std::snprintf(line, sizeof line,
                  "%-10s %-28s %10llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu %6llu %6llu %9s\n",
                  to_string(s.phase), s.label.c_str(), (unsigned long long)st.active_threads,
                  (unsigned long long)st.active_warps, (unsigned long long)st.divergent_warps,
                  (unsigned long long)st.smem_load_requests, (unsigned long long)st.smem_load_wavefronts,
                  (unsigned long long)st.smem_store_requests, (unsigned long long)st.smem_store_wavefronts,
                  (unsigned long long)st.gmem_load_requests, (unsigned long long)st.gmem_load_sectors,
                  (unsigned long long)st.gmem_store_requests, (unsigned long long)st.gmem_store_sectors,
                  (unsigned long long)st.smem_atomic_requests, (unsigned long long)st.gmem_atomic_requests, cyc);
    // A fault's accesses beside their steps, the fault's own step marked with its kind.
    std::string marks;
    if (t.fault) {
      const auto step = std::size_t(&s - t.steps.data());
      for (const FaultAccess& a : t.fault->accesses)
        if (a.step >= 0 && std::size_t(a.step) == step)
          marks += (marks.empty() ? "" : "; ") + fault_access_text(*t.fault, a);
      if (step == t.fault->step)
        marks = std::string(fault_kind_text(t.fault->kind)) + (marks.empty() ? "" : ": " + marks);
    }
    if (marks.empty()) {
      o << remote_columns(line, &st);
    } else {
      std::string row = remote_columns(line, &st);
      row.pop_back();
      o << row << "  <- " << marks << "\n";
    }
  }
  const std::string note = simd_efficiency_note(t);
  if (!note.empty()) o << "\ntree SIMD efficiency: " << note << "\n";
  if (t.trace_chunks) {
    std::snprintf(line, sizeof line,
                  "trace: %llu blocks in %u run%s of the first launch, %.1f MB of trace memory at most, %.1f ms "
                  "(runs, analysis on the device, copies)\n",
                  (unsigned long long)t.traced_blocks, t.trace_chunks, t.trace_chunks == 1 ? "" : "s",
                  double(t.trace_bytes_peak) / 1e6, t.trace_ms);
    o << line;
  }
  o << "passes:";
  const KernelRecord* k = find_kernel(t.scenario.kernel);
  for (const Pass& p : t.passes) {
    if (p.on_host && k && k->host_only)
      o << "  [host loop over " << p.n << " elements]";
    else if (p.on_host)
      o << "  [host finish over " << p.n << " partials]";
    else
      o << "  [" << p.kernel << " n=" << p.n << " grid " << p.grid << (p.atomic ? " atomic" : "") << "]";
  }
  o << "\n";
  if (t.occupancy) o << occupancy_text(*t.occupancy);
  return o.str();
}

json list_json(const std::string& find) {
  // "sources": where the kernel comes from; "seed", the same, is the key SPEC.md's `list` names and scripts read.
  json a = json::array();
  for (const KernelRecord* k : catalog())
    if (kernel_matches(*k, find))
      a.push_back({{"id", k->id},
                   {"title", k->title},
                   {"group", k->group},
                   {"sources", k->sources},
                   {"seed", k->sources},
                   {"gpu_only", k->gpu_only},
                   {"teaches", k->teaches},
                   {"family", family_record(k->family).name},
                   {"traced", k->traceable},
                   {"host_only", k->host_only},
                   {"kernel_file", kernel_file_refusal(*k).empty()}});
  return a;
}

std::string list_text(const std::string& find) {
  std::ostringstream o;
  std::string group;
  for (const KernelRecord* k : catalog()) {
    if (!kernel_matches(*k, find)) continue;
    if (k->group != group) {
      group = k->group;
      o << "\n" << group << "\n";
    }
    char line[512];
    std::snprintf(line, sizeof line, "  %-20s %s%s\n      %s  [%s]\n", k->id.c_str(), k->title.c_str(),
                  k->gpu_only ? " (GPU only)" : "", k->teaches.c_str(), k->sources.c_str());
    o << line;
  }
  return o.str();
}

json bank_json(const WarpAddresses& a, const BankReport& r) {
  json phases = json::array();
  for (const BankPhase& p : r.phases) {
    json banks = json::array();
    for (unsigned b = 0; b < kBanks; ++b) {
      if (p.words[b].empty()) continue;
      json lanes = json::array();
      for (unsigned l = 0; l < 32; ++l)
        if (p.bank_lanes[b] >> l & 1u) lanes.push_back(l);
      banks.push_back({{"bank", b}, {"words", p.words[b]}, {"lanes", lanes}});
    }
    json lanes = json::array();
    for (unsigned l = 0; l < 32; ++l)
      if (p.lanes >> l & 1u) lanes.push_back(l);
    phases.push_back({{"lanes", lanes}, {"wavefronts", p.wavefronts}, {"banks", banks}});
  }
  return {{"width", a.width},
          {"access", a.store ? "store" : "load"},
          {"active_lanes", __builtin_popcount(a.mask)},
          {"wavefronts", r.wavefronts},
          {"ideal", r.ideal},
          {"lanes_per_phase", r.lanes_per_phase},
          {"paired", r.paired},
          {"phases", phases}};
}

std::string bank_text(const WarpAddresses& a, const BankReport& r) {
  std::ostringstream o;
  o << (a.store ? "store" : "load") << " of " << a.width << " bytes by " << __builtin_popcount(a.mask)
    << " active lanes: " << r.wavefronts << " wavefront(s), ideal " << r.ideal << "\n";
  o << r.phases.size() << " phase(s) of " << r.lanes_per_phase << " lanes"
    << (r.paired ? " (load pairing: lanes sharing an address with lane n^1 or n^2 let phases double)" : "") << "\n";
  for (std::size_t i = 0; i < r.phases.size(); ++i) {
    const BankPhase& p = r.phases[i];
    if (!p.lanes) continue;
    o << "phase " << i << ": " << p.wavefronts << " wavefront(s)\n";
    for (unsigned b = 0; b < kBanks; ++b) {
      if (p.words[b].empty()) continue;
      o << "  bank " << (b < 10 ? " " : "") << b << ": " << p.words[b].size() << " word(s) [";
      for (std::size_t w = 0; w < p.words[b].size(); ++w) o << (w ? " " : "") << p.words[b][w];
      o << "] lanes";
      for (unsigned l = 0; l < 32; ++l)
        if (p.bank_lanes[b] >> l & 1u) o << ' ' << l;
      o << "\n";
    }
  }
  return o.str();
}

}  // namespace redlab
