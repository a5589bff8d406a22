// The window's work, as Tracy's Worker is to its View: the scenarios and their runs (in the background,
// cancellable; a stale run's result is dropped), the kernel files of the student's own, the gallery, the
// measurements (live timings, the bank lab's access, the hardware's counts) and the caches of files the views
// read. Every piece of background work is a Job (exec/job.h). Nothing here is drawn and nothing here knows what is
// selected or shown: model.h puts this beside the view state. No GL, no ImGui: the GPU selftest drives it
// without a window (app/cli/commands/selftest.cpp).
//
// The work is in six files: runs.cpp (scenarios, traces, polling), kernel_files.cpp (following a kernel file),
// measurements.cpp (timings, the access, the hardware's counts), work_gallery.cpp, work_playlist.cpp and
// caches.cpp (the files the views read).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/child_process.h"
#include "core/hw_counts.h"
#include "core/input_reach.h"
#include "core/kernel_source.h"
#include "core/trace.h"
#include "exec/estimate.h"
#include "core/gallery.h"
#include "exec/job.h"
#include "model/options.h"
#include "model/side.h"
#include "model/timings_model.h"

namespace redlab::model {

// Reference timings read from a file of assets/ (bench_json format), never live.
struct ReferenceTimings {
  bool present = false;  // the file exists
  std::string path, error;
  TimReport rep;
};

// The Timings window's live measurement (run_bench on the CUDA device, in the background).
struct LiveTimings {
  std::string error, kernel;
  std::uint64_t n = 0;
  bool matrix = false;  // a transpose: the family's reference (copy) and the kernel at one matrix
  bool sweep = false;  // a block-size sweep: the kernel and the family's reference at every block
  std::string what;  // the kernels being timed, for the window's line
  std::optional<TimReport> rep;
  Job<TimReport> job;
  bool running() const { return job.running(); }
};

// The bank lab's "Measure on the GPU": one access timed in the background, kept with the access it was for.
struct AccessMeasure {
  bool have = false;
  std::string key;  // the access measured (expression, width, kind, mask)
  double cycles = 0;  // NaN: not measured, `why` says why
  unsigned model_wavefronts = 0;
  std::string why;
  Job<std::pair<double, std::string>> job;
  bool running() const { return job.running(); }
};

// The hardware's own counts of the primary scenario's timed kernel (core/hw_counts.h), collected by a child
// `redlab stats --hw-only` (CUPTI must see the kernel's module load before the process uses CUDA, and a
// profiler failure must not take the window down). Kept with the scenario they were collected for.
struct HwState {
  bool have = false;
  std::string key;  // the scenario's options, as the child got them
  HwCounts counts;  // counts.collected false: counts.why says why
  Job<HwCounts> job;
  bool running() const { return job.running(); }
};
// What the child printed, as counts (or the reason there are none).
HwCounts hw_counts_from_child(const ChildResult&);

// A kernel source for the code view, tabs expanded.
struct SourceFile {
  std::string path;  // where it was found ("" when it was not)
  std::vector<std::string> lines;
};
// The lines (1-based) of the statements a step runs: a step's record names the line of its probe.step(...)
// call, but the work is in the statements after it, up to the next step or the end of the enclosing block.
// Probe calls, blank lines and comments are left out; {probe_line} when no statement follows.
std::vector<int> step_statement_lines(const std::vector<std::string>& source, int probe_line);

// What a poll collected.
struct Arrivals {
  bool a = false, b = false;  // a trace was adopted in the side
  bool any() const { return a || b; }
};

class Work {
 public:
  explicit Work(const GuiOptions& opts);
  Work(const Work&) = delete;
  Work& operator=(const Work&) = delete;
  ~Work();  // stops the work in flight and waits for it

  GuiOptions opts;
  Side a, b;  // b: the compare scenario
  bool compare = false;
  Side& side(SideId s) { return s == SideId::a ? a : b; }
  const Side& side(SideId s) const { return s == SideId::a ? a : b; }
  Side& other(const Side& s) { return s.id == SideId::a ? b : a; }

  bool title_dirty = true;  // what the window's title says changed (a trace, a file, its unsaved edits)
  std::string open_error;  // File > Open / Save: the last one's outcome

  // ---- Runs. Each starts work in the background (or refuses with the reason in the side's error).
  // Validates the side's scenario and runs it; the previous result stays until the new one arrives.
  void request_run(Side&);
  // What the side's scenario would take (Run asks first when RunEstimate::ask()); throws ScenarioError for
  // a scenario that cannot run. The emulator's time is scaled by the speed the work has seen.
  RunEstimate estimate(const Side&) const;
  double emulator_speed = 1.0;  // observed / estimated time of the last long emulator runs
  // Stops the side's run (the emulator between blocks, the GPU between chunks); its old trace stays.
  void cancel_run(Side&);
  // Opens a trace file into side A; errors go to open_error and the side's error.
  bool open_trace(const std::string& path);
  void save_trace(const std::string& path);
  // The scenario as the side would run it: validate()'s refusal, or "". A kernel file not compiled yet is checked
  // against its family's own rules (the shape), the kernel itself when its record is loaded.
  std::string validate_side(const Side&) const;

  // ---- Kernel files of the student's own (A and B alike).
  // Follows `path` in the side: the code view edits it, it is compiled and run on the side's scenario (its shape;
  // the kernel is the file's), and again whenever it is saved. When the side's editor has unsaved edits to another
  // file, nothing changes yet: the side's unsaved_question asks first (resolve_unsaved). False then.
  bool open_kernel_source(Side&, const std::string& path);
  // Stops following the side's file (the trace stays); asks first about unsaved edits, as above.
  bool close_kernel_source(Side&);
  enum class Unsaved { save, discard, cancel };
  // The answer to the side's unsaved_question: save the edits (then go on), drop them (go on), or leave it all.
  void resolve_unsaved(Side&, Unsaved);
  // Writes the side's editor to its file (atomically) and runs it (`run`), as a save in another editor does. False
  // with the editor's error set when the file could not be written.
  bool save_kernel_source(Side&, bool run = true);
  // The code view changed the side's editor text (new characters may need glyphs).
  void edited(Side&);

  // ---- A lecture's playlist (playlist.h): A steps through its scenarios.
  model::Playlist playlist;
  std::string playlist_message;  // File > Playlist's outcome, or why a step through it did not happen
  // Reads a playlist (File > Playlist); false with playlist_message saying why.
  bool load_playlist(const std::string& path);
  // A's scenario becomes the playlist's entry `index` (clamped), and its text fields say it; false (and nothing
  // changes) where that is the entry shown already (past either end), A follows a kernel file with unsaved edits
  // (the question about them is asked) or there is no playlist. The caller runs it (asking first when it is long).
  bool playlist_go(int index);

  // ---- The gallery of mistakes (gallery.h): assets/gallery/gallery.json, read once, on first use.
  const Gallery& gallery();
  // Copies the entry's file into the student's folder (student_kernel_dir) and opens the copy in side A on the
  // entry's scenario. A copy there with other text (the student's changes) is not replaced unless `replace`: the
  // question goes to gallery_question and nothing is opened. `open_mine`: open the copy as it is.
  enum class ExistingCopy { ask, open_mine, replace };
  void open_gallery_entry(GalleryEntry, ExistingCopy = ExistingCopy::ask);  // (a copy: it may be gallery_question)
  // B shows the catalog kernel a gallery entry was made from, on the entry's scenario, compare on: the mistake beside
  // the kernel that does it right (not when B follows a file of the student's).
  void show_beside(const GalleryEntry&);
  std::optional<GalleryEntry> gallery_question;  // an entry whose copy differs from the gallery's file
  std::string gallery_message;  // the last open's outcome (where the copy went) or why it failed

  // Characters beyond ASCII that the files and gallery the window shows use (the fonts' glyphs are built for
  // them: a Chinese comment in a kernel file); the count grows when new ones arrive.
  const std::string& extra_glyphs() const { return extra_glyphs_; }
  std::size_t glyphs_added() const { return glyphs_added_; }
  // Text the window will show (a kernel file, a lesson): its characters beyond ASCII get glyphs.
  void need_glyphs(const std::string& text);

  // ---- Measurements.
  // Times the scenario on the CUDA device (run_bench): its kernel at its n, or for a transpose the family's
  // reference (copy) and the kernel at its matrix.
  void request_timings(const Scenario&);
  // Times the scenario's kernel at every block size, beside the family's reference (bench --blocks all).
  void request_block_sweep(const Scenario&);
  const LiveTimings& live_timings() const { return live_; }
  // Times one shared access on the CUDA device, beside the model's wavefronts.
  void request_access_measure(const WarpAddresses&, const std::string& key, unsigned model_wavefronts);
  const AccessMeasure& access_measure() const { return measure_; }
  // Collects the hardware's counts for side A's scenario (a child process; the source and per-step views'
  // "Hardware counts" toggle). Nothing happens while one is under way or when they are already there.
  void request_hw_counts();
  // The counts, when they were collected for side A's current scenario (else nullptr).
  const HwState* hw_counts() const;
  bool hw_busy() const { return hw_.running(); }

  // Collects finished work: which sides adopted a trace. `wait`: block until everything in flight is done
  // (screenshots, the selftest).
  Arrivals poll(bool wait = false);
  bool busy() const;

  // ---- Caches of what the views read.
  // Reference timings: assets/reference/timings.json (or REDLAB_REFERENCE_TIMINGS), and per element type the
  // transposes' assets/reference/transpose_<type>.json. Read once, on first use.
  const ReferenceTimings& reference_timings();
  const ReferenceTimings& transpose_reference(ElemType);
  // Block-size sweeps of an element type: assets/reference/blocks_<type>_<card>.json, one per card, by name
  // (or the one file REDLAB_REFERENCE_BLOCKS names, whatever its type).
  const std::vector<ReferenceTimings>& block_sweeps(ElemType);
  // Which inputs of each focus block reached its result (core/input_reach.h), worked out once per trace (its digest):
  // the views say which elements a wrong result lost.
  const std::vector<BlockReach>& input_reach_of(const Trace&);
  const SourceFile& source(const std::string& rel);
  // The kernel's file and the helpers it includes (core/kernel_source.h), read once per kernel.
  const KernelSources& kernel_sources(const std::string& rel);
  // The file of a step's probe.step call: the kernel's own, or a helper's (block_reduce.cuh).
  std::string step_file(const KernelRecord& k, const Step& s) {
    return kernel_sources(k.source_file).file_of_step(s.line, s.label_kind);
  }
  // The window's title for the current trace.
  std::string window_title() const;

 private:
  void adopt(Side&, Trace&&);
  // Starts the live measurement `req` of the scenario in the background (request_timings, request_block_sweep).
  void start_timings(const Scenario&, const BenchRequest& req, bool sweep);
  bool poll_side(Side&, bool wait);
  void run_user_source(Side&);
  bool poll_user_source(Side&, bool wait);
  void watch_user_source(Side&);
  void editor_sees_disk(Side&, const FileStamp&);
  void follow(Side&, const std::string& path, std::optional<GalleryEntry> gallery);
  bool load_trace_into(Side&, const std::string& path, std::string* why);
  std::string self_executable_path() const;

  LiveTimings live_;
  AccessMeasure measure_;
  HwState hw_;
  std::optional<Gallery> gallery_;
  std::string extra_glyphs_;
  std::size_t glyphs_added_ = 0;
  std::optional<ReferenceTimings> reference_;
  std::map<int, ReferenceTimings> transpose_references_;
  std::map<int, std::vector<ReferenceTimings>> block_sweeps_;
  std::map<std::string, SourceFile> sources_;
  std::map<std::string, KernelSources> kernel_sources_;
  std::map<std::uint64_t, std::vector<BlockReach>> input_reach_;  // by trace digest
};

}  // namespace redlab::model
