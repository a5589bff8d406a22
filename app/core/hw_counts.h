// The hardware's own counts beside the model's.
//
// On a GPU, CUPTI's SASS metrics (exec/hw_counts_cupti.cpp) count, for every SASS instruction of the timed
// (uninstrumented) kernel's first launch, how often warps executed it, how many threads, and the shared
// wavefronts and global sectors it moved. The line table (-lineinfo) maps each instruction to a source line.
// This file is the model of those counts, without CUDA: the per-instruction records, their sums per line, and
// the comparison with the model's per-step figures, step region by step region, with the reason for each
// difference where redlab can tell it. Tests run it on a recorded collection (tests/data/hw_*.json).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace redlab {

struct Trace;
struct Scenario;
struct KernelSources;

// The hardware figures redlab asks CUPTI for, by the role they play here. Each instruction's value for a role
// the chip does not offer stays absent (the report says which were missing).
enum class HwMetric : int {
  inst_executed,  // warp-level executions of the instruction
  thread_inst_executed,  // thread-level executions (active threads, predicated-off ones included)
  thread_pred_on,  // thread-level executions with the instruction's predicate true
  shared_ld,  // warp-level executions, by the instruction's memory operation
  shared_st,
  shared_atom,
  global_ld,
  global_st,
  global_red,  // global reductions (RED: an atomic whose old value is not used)
  global_atom,
  shared_wavefronts,  // L1 data-stage passes of a shared access (wavefronts)
  shared_wavefronts_ideal,
  global_sectors,  // 32-byte sectors a global access touched
  global_sectors_ideal,
  thread_shared_pred_on,  // thread-level executions of shared / global instructions with every predicate true
  thread_global_pred_on,
  count
};
constexpr int kHwMetrics = int(HwMetric::count);
const char* hw_metric_key(HwMetric);  // "inst_executed", ... (JSON keys)
const char* hw_metric_cupti(HwMetric);  // CUPTI's name, e.g. "smsp__sass_inst_executed"

struct HwInstruction {
  std::string function;  // mangled name
  std::uint32_t pc = 0;  // offset in the function
  std::string file;  // as the line table names it, shortened to kernels/... where it is redlab's
  std::uint32_t line = 0;  // 0: no line
  std::array<std::optional<std::uint64_t>, kHwMetrics> values{};
  std::uint64_t get(HwMetric m) const { return values[std::size_t(m)].value_or(0); }
};

struct HwCounts {
  bool collected = false;  // false: `why` says why not (no GPU, CUPTI refused, ...)
  std::string why;
  std::string device;  // "NVIDIA H200 (sm_90)"
  std::string chip;  // CUPTI's chip name, "GH100"
  std::string source_file;  // the kernel's own file (kernels/reduce/interleaved.cuh)
  std::vector<std::string> missing;  // CUPTI names the chip did not offer
  std::vector<HwInstruction> instructions;  // in pc order
};

// Sums of every instruction at one source line.
struct HwLine {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t instructions = 0;  // SASS instructions at the line
  std::array<std::uint64_t, kHwMetrics> sums{};
  std::uint64_t get(HwMetric m) const { return sums[std::size_t(m)]; }
};
std::vector<HwLine> hw_lines(const HwCounts&);  // the kernel's file first, by line; then other files

// One kind of memory access, the model's figure beside the hardware's.
enum class HwKind : int { shared_load, shared_store, shared_atomic, global_load, global_store, global_atomic, count };
constexpr int kHwKinds = int(HwKind::count);
const char* hw_kind_key(HwKind);  // "shared_load", ...

// Why the model's and the hardware's figures of an access differ.
enum class HwCause : std::uint8_t {
  agree,  // within 2 %
  moved,  // the compiler placed the access in another step's code (the kernel's totals agree)
  predicated,  // warps with no active lane still issue a predicated access
  merged,  // neighbouring accesses merged into wider instructions
  replays,  // the same accesses, more wavefronts or sectors than the addresses explain
  unexplained,  // none of the above
};
const char* hw_cause_key(HwCause);  // "agree", "moved", ... (JSON values, UI text "hw.cause.<key>")

struct HwKindFigures {
  std::uint64_t model_requests = 0, hw_instructions = 0;  // warp-level accesses
  std::uint64_t model_data = 0, hw_data = 0;  // shared: wavefronts; global: sectors
  bool hw_data_known = true;  // false: the chip does not count it
  // Why the two differ; `why` is the sentence the student reads ("" when they agree).
  HwCause cause = HwCause::agree;
  std::string why;
};

// The code of one step, as the line table sees it: from its probe.step line to the next one in the kernel's
// file (region 0 is the code before the first step). An instruction from another file (an inlined helper)
// belongs to the region of the kernel-file instruction before it in pc order.
struct HwRegion {
  std::string file;  // the file of its probe.step call (a helper's, for block_reduce)
  std::uint32_t first_line = 0,
                last_line = 0;  // in that file; first_line 0: before the first step; last_line 0: to the end
  std::string steps;  // the steps' names that start at first_line ("stride 1..128")
  std::uint32_t instructions = 0;  // SASS instructions attributed
  std::uint64_t inst_executed = 0, thread_inst_executed = 0;
  std::array<HwKindFigures, kHwKinds> kinds{};
};
struct HwComparison {
  std::vector<HwRegion> regions;
  std::array<HwKindFigures, kHwKinds> total{};
};
// `t` is the traced run of the same scenario (every block); its steps' lines are the regions' first lines, in
// the file `sources` names for each (core/kernel_source.h; without it, the kernel's own file).
HwComparison compare_hw(const Trace& t, const HwCounts& hw, const KernelSources* sources = nullptr);

// Text for `redlab stats --hw` (per region, then per line with the source text), and the JSON object
// "hw" of `stats --hw --json`.
std::string hw_text(const Trace& t, const HwCounts& hw, const KernelSources& sources);
nlohmann::json hw_json(const Trace& t, const HwCounts& hw, const KernelSources* sources = nullptr);
// A collection as JSON (instructions included) and back: the window reads a child process's output, the tests
// read recorded collections. Throws std::runtime_error naming what is wrong.
nlohmann::json hw_counts_to_json(const HwCounts&);
HwCounts hw_counts_from_json(const nlohmann::json&);
// A collection recorded by `stats --hw --json` (or its hw.collection alone), for `scenario`: throws
// std::runtime_error naming the file and what is wrong, including counts of another scenario.
HwCounts read_hw_counts(const std::string& path, const Scenario& scenario);
// The same from the file's text (a file is read up to kMaxHwCountsBytes); throws std::exception.
inline constexpr std::size_t kMaxHwCountsBytes = 64 << 20;
HwCounts hw_counts_from_text(std::string_view text, const Scenario& scenario);
// A count in at most 6 characters for a narrow column: 950, 12.3k, 786k, 1.6M, 25.2M, 3.1G.
std::string compact_count(std::uint64_t v);
// A line table's path shortened to redlab's part ("/src/redlab/kernels/reduce/x.cuh" -> "kernels/reduce/x.cuh").
std::string hw_short_file(const std::string& path);

}  // namespace redlab
