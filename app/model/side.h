// A scenario the window shows (A, and B beside it when comparing) and what it produced: its trace, the run under
// way, and the kernel file of the student's own it may follow. Plain data and the questions views ask of it;
// the work that fills it is in work.h.
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/family.h"
#include "core/file_write.h"
#include "core/trace.h"
#include "core/gallery.h"
#include "core/input_reach.h"
#include "core/kernel_source.h"
#include "exec/job.h"
#include "model/source_editor.h"
#include "model/tree_model.h"

namespace redlab::model {

// The two scenarios: A, and B for compare.
enum class SideId : std::uint8_t { a, b };

struct RunResult {
  std::optional<Trace> trace;
  std::string notice;  // e.g. "no CUDA device: using the CPU emulator (...)"
};

// A run of the side's scenario, through its life.
enum class RunPhase : std::uint8_t {
  idle,  // nothing under way (the last trace, if any, stays)
  confirming,  // Run was pressed on a long or large run: the window asks first
  running,  // under way; its trace is adopted when it arrives
  overtaken,  // under way, but overtaken (a kernel file opened in the side, a gallery entry beside): dropped
  overtaken_rerun,  // ... and the side's scenario, changed meanwhile, runs once it has stopped
};

// A kernel file of the student's own in a side: compiled for the emulator and traced by a second
// redlab (`trace --load-kernel`: a crash or an endless loop ends that process, not the window), then its record
// loaded here and its trace adopted. The code view edits it (`editor`); the file is watched, and saving it, here
// or in another editor, runs it again. A and B each follow a file of their own (or none).
struct UserSourceResult {
  bool ok = false;
  std::string path;  // the file this run was for (a result for a file no longer followed is dropped)
  std::string library, id, trace_path, errors;
  std::string after_run;  // the file's process failed after its run ended (a destructor): the trace stands
  double compile_seconds = 0;  // 0: the compiled kernel came from the cache
};
// What waits on the question about unsaved edits: another file to open in the side, or closing it ("" path).
struct PendingOpen {
  std::string path;
  std::optional<GalleryEntry> gallery;
};
struct UserSource {
  std::string path;  // as opened ("" : none)
  std::string id;  // its record, once the file names one
  std::string errors;  // the compiler's or the run's messages ("" after a good run)
  std::map<int, std::string> marks;  // line -> the first message about it (compile errors, the emulator's reports)
  Job<UserSourceResult> job;  // its compile and traced run
  bool stale = false;  // the file changed while its run was under way: that result is dropped, the file runs again
  FileStamp run_stamp;  // the file as its last run found it
  FileStamp editor_stamp;  // the file as the editor last compared it
  bool missing = false;  // the file is no longer there (saving writes it again)
  std::chrono::steady_clock::time_point checked{};
  unsigned runs = 0;  // runs started
  double last_run_seconds = 0;  // the last adopted run: from its start (a save) to its trace adopted
  double last_compile_seconds = 0;
  SourceEditor editor;  // the text the code view edits, and its state against the file
  std::optional<GalleryEntry> gallery;  // the gallery entry the file was copied from: its explanation is shown
  std::optional<PendingOpen> unsaved_question;  // the side's editor has unsaved edits and something would replace them
  bool running() const { return job.running(); }
};

// One scenario and what it produced.
struct Side {
  SideId id = SideId::a;
  Scenario scenario;  // as edited in the scenario panel
  std::string n_text = "256", block_text = "256";
  // Transposes: the matrix shape as text (refused with its reason instead of clamped).
  std::string rows_text = "1024", cols_text = "1024", block_rows_text = "8";
  bool type_switched = false;  // int32 was replaced by float32 when a transpose was picked
  std::string error;  // refusal (validate) or the run's exception message
  std::string notice;  // e.g. "no CUDA device: using the CPU emulator (...)"
  std::optional<Trace> trace;
  std::string origin;  // "" live run, else the trace file it came from
  TreeModel tree;
  Summary summary;
  Job<RunResult> run;  // the scenario's run
  RunPhase phase = RunPhase::idle;
  unsigned generation = 0;  // counts the traces adopted (views cache what they derive from it)
  UserSource user;  // a kernel file of the student's own this side follows ("" path: none)
  // The scenario's run is under way (whether or not its result will be kept).
  bool running() const { return run.running(); }
};

// The lines (1-based) a compiler's or the emulator's messages name in `file`, with the first message for each.
std::map<int, std::string> source_marks(const std::string& messages, const std::string& file);
// The line of `file` one message line names ("mine.cu:53:43: error: ...", "(kernel line 74 of mine.cu)"), or 0.
int message_line(const std::string& message, const std::string& file);
// A kernel of the student's own (loaded from a file; the catalog's source files are relative to redlab's own).
bool is_user_kernel(const KernelRecord&);
// Two paths name the same file (absolute, normalised; "" is no file).
bool same_file(const std::string&, const std::string&);
// Whether a kernel file's text is a transpose (its record launches a transpose_kernel): it takes a matrix.
bool kernel_file_takes_matrix(const std::string& text);
// Whether a kernel file's text launches thread block clusters (cooperative_groups::this_cluster()), before it compiles.
bool kernel_file_launches_clusters(const std::string& text);

// A warp's access as the bank grid lists it, in the UI's language: "1: s[tid + offset], line 28 · shared load 4B,
// 32 lanes"; without the expression where the trace does not say where it was made (a GPU's; `sources`: the kernel's
// files).
std::string access_label(const Trace&, const WarpAccess&, std::size_t index, const KernelSources&);

// The trace's result against its reference in the UI's language ("result 256 (reference 256)"; a transpose: how many
// elements differ from a CPU transpose).
std::string result_text(const Trace&);
// A scenario in one line in the UI's language, as the compare panes and the window title name it.
std::string scenario_text(const Scenario&);

// The device a trace names, in the UI's language where redlab named it ("CPU SIMT emulator (2 threads, MODEL)",
// exec/cpu_device.cpp, and an all-reduce's "..., 4 virtual GPUs", exec/allreduce_run.cpp); a GPU keeps the name its
// driver gives. Read with plain string operations: the name comes from a trace file, which may be anyone's.
std::string device_text(const std::string& device);

// A trace that ends at a fault in the kernel (core/fault.h), as the window says it. The one sentence (status bar,
// scenario window, source panel): "The kernel stopped at a race in block 0, step 3 'offset 32': no result ...".
std::string fault_summary(const Trace&);
// The fault in full, in the UI's language, from its fields: a race's element and both accesses (thread, warp, lane,
// step, line), a bad index's access; another fault (a deadlock) in the emulator's own words, introduced.
std::string fault_report(const Trace&);
// A wrong result's lost inputs in the UI's language, a line for each block that lost some ("block 0: inputs 128-255
// (128 of 256) never reached its result"), or one line saying none was lost (the values were combined wrongly); no
// line where the trace has no block in detail.
std::vector<std::string> lost_input_lines(const Trace&, const std::vector<BlockReach>&);
// The lines of `file` (1-based) the fault's accesses were made at, each with what happened there and, for a race,
// where the barrier belongs; another fault's (a deadlock's), the lines its report names.
std::map<int, std::string> fault_marks(const Trace&, const std::string& file);
// How a step takes part in the trace's fault: none, an access the fault names was made in it, or the fault itself.
enum class FaultRole : std::uint8_t { none, access, fault };
FaultRole fault_role(const Trace&, unsigned step);

// The side runs something: a scenario, or its kernel file (compiling, tracing in the second redlab).
inline bool side_running(const Side& s) { return s.running() || s.user.running(); }
// The side follows a kernel file of the student's own.
inline bool follows_file(const Side& s) { return !s.user.path.empty(); }
// The side's scenario as it can be checked and estimated: a kernel file not compiled yet stands as its family's
// first kernel, at the side's shape.
Scenario checked_scenario(const Side&);
// Whether a scenario's kernel takes a matrix (transposes: rows, cols, block rows instead of n and block; its family:
// family.h's family_of).
bool takes_matrix(const Scenario&);
// Copies the scenario's shape into the side's text fields.
void sync_text_fields(Side&);
// A run under way: the seconds since it started, as shown ("12.3"). (How far it is: side.run.progress(), the share
// of its blocks run over all the chunks' launches.)
std::string run_seconds_text(const Side&);
// What a view without a trace says: the run under way and how far it is, or "press Run".
std::string no_trace_text(const Side&);
// Why the side's trace is not of what the side now shows (the views mark it so), or "" when it is: the scenario
// was changed and not run yet; a run is under way; the kernel file does not compile as it is now (the trace is of
// the last text that did). Compared as a run would differ: kernel (a file's side: its id), shape, type, operator,
// input, seed, finish, coarsening, algorithm; not the backend or the blocks shown in detail.
std::string stale_reason(const Side&);
// The step of `side` shown when the window is at `step` (clamped to its trace).
int side_step(const Side&, int step);
// The side's trace is drawn by its family's tile view (transposes), not the reduction tree.
bool side_draws_tile(const Side&);
bool side_draws_ring(const Side&);  // an all-reduce's trace: the GPUs on their ring
// How a transpose keeps its tile, as the trace's declarations say (core/trace.h: SharedDeclaration): the first 2D
// shared array (rows x row length, padding included; a row of pairs counts two elements each), else a 1D array of
// whole rows of the kernel's tile side. A catalog kernel's record adds what no declaration says (a swizzle, its
// declaration's text) where its shape agrees; a trace that knows no declaration (an older file) takes the record's.
struct TileShape {
  bool shared = false;  // the kernel stages through a shared tile at all
  unsigned dim = 32;  // rows, and the columns the matrix's tile fills
  unsigned pitch = 32;  // elements per row in shared memory (dim + padding)
  unsigned vector = 1;  // elements one shared access moves
  bool swizzled = false;
  std::string decl;  // "tile[32][33]"
};
TileShape tile_shape(const Trace&);
// A transpose's shared requests per warp in one step: a thread moves tile rows ty, ty + K, ... (the tile's side /
// K of them, one request each); at least 1.
unsigned tile_requests(const Trace&);

}  // namespace redlab::model
