// A catalog kernel as a file of the student's own: `redlab new-kernel mine.cu --from interleaved`.
//
// The file holds what the catalog holds for that kernel, in the catalog's own dialect, read top to bottom as the
// course notes are: a few lines on what it is, the includes, the kernel (kernels/<family>/<id>.cuh) with each probe
// call it makes explained once, before its first use (in English, or Chinese with --lang zh_CN), and last its record
// (<id>.record.cuh: what it is, its steps and slots, its launch), kept to what the file needs. The kernel and record
// are renamed after the file, includes taken from the kernels/ folder, any record it builds on inlined. Nothing else
// is needed to compile it against kernels/ and app/ as the catalog's own records are compiled.
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/catalog.h"

namespace redlab {

// A run of C++ tokens found in a text, any white space between them (a student's file is untrusted: this reads it in
// one pass with no recursion, where std::regex's `\s*` recursed once per character and 50,000 spaces overflowed the
// stack). A pattern is words and punctuation to match as they are, kIdentifier for any identifier and
// kQuotedIdentifier for an identifier in double quotes; each of those two is captured, in order.
inline const std::string kIdentifier = "\x01identifier", kQuotedIdentifier = "\x01quoted";
struct TokenRun {
  std::size_t begin = 0, end = 0;  // the run's first character and one past its last
  std::vector<std::string> captured;
};
// Every run of `pattern` in `text` from `from` on, none overlapping, in order.
std::vector<TokenRun> find_token_runs(const std::string& text, const std::vector<std::string>& pattern,
                                      std::size_t from = 0);

// The kernel id a file name gives: its stem ("mine" for path/to/mine.cu). Throws std::invalid_argument with the
// reason when the stem is not a C++ identifier of letters, digits and '_' (at most 48), or names a catalog kernel.
std::string kernel_id_from_path(const std::string& path);

// Reads one of the catalog's files by its path under the source tree ("kernels/reduce/interleaved.cuh"):
// its text, or nothing when it cannot be found.
using SourceReader = std::function<std::optional<std::string>(const std::string& relative_path)>;
// The reader of redlab's own files (core/resources.h finds them).
std::optional<std::string> read_catalog_source(const std::string& relative_path);

// What the file is written with.
struct KernelFileOptions {
  std::string lang = "en";  // the comments' language: en or zh_CN
  // Keep the kernel's variant with its shared array sized at launch (`extern __shared__`, the seeds' 002) and its
  // branch of the launch, for `stats --source F --dynamic-smem`. Without it the file has the static kernel only.
  bool dynamic_smem = false;
};

// Why a kernel file cannot start from `k` (new-kernel --from; `redlab list --json` says "kernel_file"), or "" when
// it can: a kernel without a traced build (library or host code), or an all-reduce (a schedule, not one kernel).
std::string kernel_file_refusal(const KernelRecord& k);

// The file's text. Throws std::invalid_argument naming the reason: kernel_file_refusal's, --dynamic-smem for a
// kernel without that variant, or a source that cannot be read.
std::string make_kernel_file(const KernelRecord& from, const std::string& new_id, const KernelFileOptions& options,
                             const SourceReader& read);

// A kernel file of id `old_id` (a gallery file, assets/gallery) under a new id: every name in its code that begins
// with the old id (its kernels, its record, the record's .id) begins with the new one; comment lines are left as
// they are.
std::string rename_kernel_file(const std::string& text, const std::string& old_id, const std::string& new_id);

// Steps where a kernel names none: every __global__ function of a kernel file that takes the
// probe and never calls probe.step gets one step per barrier interval: the first from its start ("load", or
// "tile_load" in a transpose file), then one after each __syncthreads() ("after barrier k", or "tile_store"), and,
// where it never calls probe.active, a lane counts as active in a step where it makes a recorded access
// (probe.active_when_accessing). The calls are added on
// the lines they follow (after the body's '{', after each `__syncthreads();`), so every line keeps its number and the
// compilers' messages and the views' lit lines stay the file's. `lines` gets the barriers' lines (1-based).
// Returns the text unchanged where every kernel names its steps.
struct BarrierSteps {
  std::string text;
  std::vector<std::string> kernels;  // the kernels that got steps
  std::vector<int> lines;  // the __syncthreads() lines that begin a step
  std::vector<std::string> left;  // the others, each with why: "named (line 14): names its own steps (probe.step)"
};
BarrierSteps add_barrier_steps(const std::string& text);

// The template instance a kernel file's record launches for a scenario, as the name expression NVRTC compiles
// ("&redlab::kernels::mine<256u, int, redlab::kernels::Sum<int>, redlab::kernels::TraceProbe>", exactly as
// exec/nvrtc.h's nvrtc_name_expression writes it from the host library's symbol), read from the file's text before
// anything compiles it: the one kernel template its launch names, with the launch's template parameters (block size
// or block rows, element, operator, probe) put in. "" where the launch is not of that form: the library, once
// built, names the instance then; `why` then says what the scan looked for and did not find, and on which line.
struct LaunchedInstance {
  ElemType type = ElemType::int32;
  unsigned block = 256;  // reductions
  unsigned block_rows = 8;  // transposes
  OpKind op = OpKind::sum;
  bool traced = true;  // the TraceProbe instance, else the NoProbe (timed) one
};
std::string launched_instance(const std::string& text, const LaunchedInstance& what, std::string* why = nullptr);

}  // namespace redlab
