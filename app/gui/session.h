// The window's session, as Tracy's Worker is to its View: everything the window shows and every piece of work
// it starts, without drawing anything. It owns the scenarios and their runs (in the background, cancellable
// by neglect: a stale run's result is dropped), the live timings and the bank lab's measurement, the caches of
// files the views read, the step clock and what is selected. Views read it and send requests through it;
// none starts work itself or keeps state of its own between frames. No GL, no ImGui: the GPU selftest drives
// a session without a window (app/cli/selftest.cpp).
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../core/bank_model.h"
#include "../core/child_process.h"
#include "../core/family.h"
#include "../core/hw_counts.h"
#include "../core/input_reach.h"
#include "../core/kernel_source.h"
#include "../core/trace.h"
#include "../exec/device.h"
#include "gallery.h"
#include "gui.h"
#include "../exec/estimate.h"
#include "layout.h"
#include "source_editor.h"
#include "timings_model.h"
#include "tree_model.h"

namespace redlab::gui {

struct RunResult {
  std::optional<Trace> trace;
  std::string error, notice, backend, device;
  bool cancelled = false;
};

// A kernel file of the student's own in a slot: compiled for the emulator and traced by a second
// redlab (`trace --load-kernel`: a crash or an endless loop ends that process, not the window), then its record
// loaded here and its trace adopted. The code view edits it (`editor`); the file is watched, and saving it, here
// or in another editor, runs it again. A and B each follow a file of their own (or none).
struct UserSourceResult {
  bool ok = false;
  std::string path;             // the file this run was for (a result for a file no longer followed is dropped)
  std::string library, id, trace_path, errors;
  double compile_seconds = 0;   // 0: the compiled kernel came from the cache
};
// What waits on the question about unsaved edits: another file to open in the slot, or closing it ("" path).
struct PendingOpen {
  std::string path;
  std::optional<GalleryEntry> gallery;
};
struct UserSource {
  std::string path;             // as opened ("" : none)
  std::string id;               // its record, once the file names one
  std::string errors;           // the compiler's or the run's messages ("" after a good run)
  std::map<int, std::string> marks;   // line -> the first message about it (compile errors, the emulator's reports)
  bool running = false;
  std::future<UserSourceResult> pending;
  std::atomic<bool> cancel{false};
  bool stale = false;           // the file changed while its run was under way: that result is dropped, the file runs again
  FileStamp run_stamp;          // the file as its last run found it
  FileStamp editor_stamp;       // the file as the editor last compared it
  bool missing = false;         // the file is no longer there (saving writes it again)
  std::chrono::steady_clock::time_point checked{}, run_started{};
  unsigned runs = 0;            // runs started
  double last_run_seconds = 0;  // the last adopted run: from its start (a save) to its trace adopted
  double last_compile_seconds = 0;
  SourceEditor editor;          // the text the code view edits, and its state against the file
  std::optional<GalleryEntry> gallery;   // the gallery entry the file was copied from: its explanation is shown
  std::optional<PendingOpen> unsaved_question;   // the slot's editor has unsaved edits and something would replace them
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

// One scenario and what it produced.
struct Slot {
  Scenario scenario;            // as edited in the scenario panel
  std::string n_text = "256", block_text = "256";
  // Transposes: the matrix shape as text (refused with its reason instead of clamped).
  std::string rows_text = "1024", cols_text = "1024", block_rows_text = "8";
  bool type_switched = false;   // int32 was replaced by float32 when a transpose was picked
  std::string error;            // refusal (validate) or the run's exception message
  std::string notice;           // e.g. "no CUDA device: using the CPU emulator (...)"
  std::optional<Trace> trace;
  std::string origin;           // "" live run, else the trace file it came from
  TreeModel tree;
  Summary summary;
  std::future<RunResult> pending;
  RunControl control;           // the run's progress, and its cancel
  bool running = false;
  std::chrono::steady_clock::time_point run_started;
  bool confirm_run = false;     // Run pressed on a long or large run: the window asks first
  bool drop_run = false;        // the run under way was overtaken (a kernel file opened here, a gallery entry beside):
                                // its result is dropped
  bool run_again = false;       // ... and the slot's scenario, changed meanwhile, runs once it has stopped
  unsigned generation = 0;      // counts the traces adopted (views cache what they derive from it)
  UserSource user;              // a kernel file of the student's own this slot follows ("" path: none)
};
// The slot runs something: a scenario, or its kernel file (compiling, tracing in the second redlab).
inline bool slot_running(const Slot& s) { return s.running || s.user.running; }
// The slot follows a kernel file of the student's own.
inline bool follows_file(const Slot& s) { return !s.user.path.empty(); }
// The slot's scenario as it can be checked and estimated: a kernel file not compiled yet stands as its family's
// first kernel (interleaved, or transpose_tiled for a transpose file), at the slot's shape.
Scenario checked_scenario(const Slot&);

// Reference timings read from a file of assets/ (bench_json format), never live.
struct ReferenceTimings {
  bool present = false;         // the file exists
  std::string path, error;
  TimReport rep;
};

// The Timings window's live measurement (run_bench on the CUDA device, in the background).
struct LiveTimings {
  bool running = false;
  std::string error, kernel;
  std::uint64_t n = 0;
  bool matrix = false;          // a transpose: the family's reference (copy) and the kernel at one matrix
  std::string what;             // the kernels being timed, for the window's line
  std::optional<TimReport> rep;
  std::future<TimReport> pending;
};

// The bank lab's "Measure on the GPU": one access timed in the background, kept with the access it was for.
struct AccessMeasure {
  bool running = false, have = false;
  std::string key;              // the access measured (expression, width, kind, mask)
  double cycles = 0;            // NaN: not measured, `why` says why
  unsigned model_wavefronts = 0;
  std::string why;
  std::future<std::pair<double, std::string>> pending;
};

// The hardware's own counts of the primary scenario's timed kernel (core/hw_counts.h), collected by a child
// `redlab stats --hw-only` (CUPTI must see the kernel's module load before the process uses CUDA, and a
// profiler failure must not take the window down). Kept with the scenario they were collected for.
struct HwState {
  bool running = false, have = false;
  std::string key;              // the scenario's options, as the child got them
  HwCounts counts;              // counts.collected false: counts.why says why
  std::future<HwCounts> pending;
  std::atomic<bool> cancel{false};
};
// What the child printed, as counts (or the reason there are none).
HwCounts hw_counts_from_child(const ChildResult&);

// A kernel source for the code view, tabs expanded.
struct SourceFile {
  std::string path;             // where it was found ("" when it was not)
  std::vector<std::string> lines;
};
// The lines (1-based) of the statements a step runs: a step's record names the line of its probe.step(...)
// call, but the work is in the statements after it, up to the next step or the end of the enclosing block.
// Probe calls, blank lines and comments are left out; {probe_line} when no statement follows.
std::vector<int> step_statement_lines(const std::vector<std::string>& source, int probe_line);

// What views remember between frames of their own (the session keeps it, so views keep none).
struct ViewMemory {
  std::string metrics_chart = "active_threads";        // the per-step chart's figure (a StepStats key, or cycles)
  std::string compare_chart = "smem_load_wavefronts";  // the same, A beside B
  int code_line = -1;           // the source line the code view last scrolled to
  int code_side = 0;            // the slot the code view shows (0: A, 1: B, with compare); Ctrl+S saves its file
  int code_goto = 0;            // a line of the editor to scroll to (a message clicked), 0: none
  unsigned code_marks_shown[2] = {~0u, ~0u};   // the run whose marked lines the editor last scrolled to, per side
};

class Session {
 public:
  explicit Session(const GuiOptions& opts);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();   // waits for work in flight

  GuiOptions opts;
  bool headless = false;        // screenshot mode: settle everything before drawing, no waiting on input

  Slot a, b;                    // b: the compare scenario
  bool compare = false;

  // The step clock.
  int step = 0;                 // current step of the first launch
  bool playing = false;
  float speed = 1.5f;           // steps per second
  double step_timer = 0;
  float anim = 1.0f;            // 0 -> 1: the move into the current step
  int anim_from = 0;
  int max_step() const;         // last valid step index of the primary trace (or 0)
  void set_step(int s, bool animate = true);
  // Advances the clock by `dt` seconds (playback and the move into a step).
  void tick(float dt);

  // What is selected.
  int sel_warp = 0, sel_access = 0;
  int sel_tile_req = 0;         // tile view: which of the warp's shared requests of the step is lit
  int sel_focus = 0;            // index into the trace's focus blocks (banks and warps windows)

  // The layout (app/gui/layout.h); `layout_reset`: open its views on the next frame (a layout chosen or reset).
  LayoutKind layout = LayoutKind::study;
  bool layout_reset = false;
  bool fullscreen = false;      // F11: asked for; the window applies it
  bool show_help = false;       // F1: the keys and where things are, over the window
  bool quit = false;            // Ctrl+Q (File > Quit sets the chrome's)
  std::vector<KeyPress> keys;   // this frame's key presses (the window's shortcuts read these)
  bool show_hint = false;       // the first start: a line saying F1 shows the keys (until dismissed)
  std::string front_view;       // a view an export shows: its tab comes to the front while the export runs

  // Settings (saved between runs of the window).
  bool colorblind = false;
  float ui_scale = 1.0f;
  std::string lang = "en";
  bool fonts_dirty = false, lang_dirty = false;
  std::string title;            // window title to apply
  bool title_dirty = true;

  // The bank lab: one warp's access defined by the student.
  std::string lab_expr = "lane*32";
  std::uint32_t lab_mask = 0xffffffffu;
  int lab_width = 4;
  bool lab_store = false;

  // File > Open / Save.
  std::string open_path, open_error;

  ViewMemory memory;
  // Windows a view asks to open (the banks window's "Bank lab..." button); the window opens them.
  std::vector<std::string> views_to_open;
  std::string raise_view;       // the last of them: its tab comes to the front of its pane for a frame

  // ---- Requests. Each starts work in the background (or refuses with the reason in the slot's error).
  // Validates the slot's scenario and runs it; the previous result stays until the new one arrives.
  void request_run(Slot&);
  // What the slot's scenario would take (Run asks first when RunEstimate::ask()); throws ScenarioError for
  // a scenario that cannot run. The emulator's time is scaled by the speed the session has seen.
  RunEstimate estimate(const Slot&) const;
  double emulator_speed = 1.0;  // observed / estimated time of the last long emulator runs
  // Stops the slot's run (the emulator between blocks, the GPU between chunks); its old trace stays.
  void cancel_run(Slot&);
  // Share of the traced launch's blocks run, over all its chunks (0 until the traced launch starts).
  double progress(const Slot&) const;
  // Opens a trace file into slot A; errors go to open_error and the slot's error.
  bool open_trace(const std::string& path);
  void save_trace(const std::string& path);
  // Times the scenario on the CUDA device (run_bench): its kernel at its n, or for a transpose the family's
  // reference (copy) and the kernel at its matrix.
  void request_timings(const Scenario&);
  // ---- Kernel files of the student's own (A and B alike).
  // Follows `path` in the slot: the code view edits it, it is compiled and run on the slot's scenario (its shape;
  // the kernel is the file's), and again whenever it is saved. When the slot's editor has unsaved edits to another
  // file, nothing changes yet: the slot's unsaved_question asks first (resolve_unsaved). False then.
  bool open_kernel_source(Slot&, const std::string& path);
  // Stops following the slot's file (the trace stays); asks first about unsaved edits, as above.
  bool close_kernel_source(Slot&);
  enum class Unsaved { save, discard, cancel };
  // The answer to the slot's unsaved_question: save the edits (then go on), drop them (go on), or leave it all.
  void resolve_unsaved(Slot&, Unsaved);
  // Writes the slot's editor to its file (atomically) and runs it (`run`), as a save in another editor does. False
  // with the editor's error set when the file could not be written.
  bool save_kernel_source(Slot&, bool run = true);
  // The slot whose file the code view shows (B when it is chosen there and compare is on): Ctrl+S saves it.
  Slot& code_slot() { return memory.code_side == 1 && compare ? b : a; }
  // The code view changed the slot's editor text (new characters may need glyphs).
  void edited(Slot&);
  // The scenario as the slot would run it: validate()'s refusal, or "". A kernel file not compiled yet is checked
  // against its family's own rules (the shape), the kernel itself when its record is loaded.
  std::string validate_slot(const Slot&) const;

  // ---- The gallery of mistakes (gallery.h): assets/gallery/gallery.json, read once, on first use.
  const Gallery& gallery();
  // Copies the entry's file into the student's folder (student_kernel_dir) and opens the copy in slot A on the
  // entry's scenario. A copy there with other text (the student's changes) is not replaced unless `replace`: the
  // question goes to gallery_question and nothing is opened. `open_mine`: open the copy as it is.
  enum class ExistingCopy { ask, open_mine, replace };
  void open_gallery_entry(GalleryEntry, ExistingCopy = ExistingCopy::ask);   // (a copy: it may be gallery_question)
  // B shows the catalog kernel a gallery entry was made from, on the entry's scenario, compare on: the mistake beside
  // the kernel that does it right (not when B follows a file of the student's).
  void show_beside(const GalleryEntry&);
  std::optional<GalleryEntry> gallery_question;   // an entry whose copy differs from the gallery's file
  std::string gallery_message;                     // the last open's outcome (where the copy went) or why it failed

  // Characters beyond ASCII that the files and gallery the window shows use (the fonts' glyphs are built for
  // them: a Chinese comment in a kernel file); fonts_dirty is set when new ones arrive.
  const std::string& extra_glyphs() const { return extra_glyphs_; }
  // Collects the hardware's counts for slot A's scenario (a child process; the source and per-step views'
  // "Hardware counts" toggle). Nothing happens while one is under way or when they are already there.
  void request_hw_counts();
  // The counts, when they were collected for slot A's current scenario (else nullptr).
  const HwState* hw_counts() const;
  bool hw_busy() const { return hw_.running; }
  bool show_hw = false;         // the views' toggle
  // Times one shared access on the CUDA device, beside the model's wavefronts.
  void request_access_measure(const WarpAddresses&, const std::string& key, unsigned model_wavefronts);

  // Collects finished work; returns true when a trace arrived in slot A (the title changes). `wait`: block
  // until everything in flight is done (screenshots, the selftest).
  bool poll(bool wait = false);
  bool busy() const;

  // ---- What the views read.
  const LiveTimings& live_timings() const { return live_; }
  const AccessMeasure& access_measure() const { return measure_; }
  // Reference timings: assets/reference_timings.json (or REDLAB_REFERENCE_TIMINGS), and per element type the
  // transposes' assets/reference_transpose_<type>.json. Read once, on first use.
  const ReferenceTimings& reference_timings();
  // Which inputs of each focus block reached its result (core/input_reach.h), worked out once per trace (its digest):
  // the views say which elements a wrong result lost.
  const std::vector<BlockReach>& input_reach_of(const Trace&);
  const ReferenceTimings& transpose_reference(ElemType);
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
  void adopt(Slot&, Trace&&);
  bool poll_slot(Slot&, bool wait);
  LiveTimings live_;
  AccessMeasure measure_;
  HwState hw_;
  void run_user_source(Slot&);
  void poll_user_source(Slot&, bool wait);
  void watch_user_source(Slot&);
  void editor_sees_disk(Slot&, const FileStamp&);
  void follow(Slot&, const std::string& path, std::optional<GalleryEntry> gallery);
  bool load_trace_into(Slot&, const std::string& path, std::string* why);
  void need_glyphs(const std::string& text);
  std::optional<Gallery> gallery_;
  std::string extra_glyphs_;
  std::optional<ReferenceTimings> reference_;
  std::map<int, ReferenceTimings> transpose_references_;
  std::map<std::string, SourceFile> sources_;
  std::map<std::string, KernelSources> kernel_sources_;
  std::map<std::uint64_t, std::vector<BlockReach>> input_reach_;   // by trace digest
};

// The family of a scenario's kernel (reductions when the kernel is unknown), and whether it takes a matrix
// (transposes: rows, cols, block rows instead of n and block).
const FamilyRecord& family_of(const Scenario&);
bool takes_matrix(const Scenario&);
// Copies the scenario's shape into the slot's text fields.
void sync_text_fields(Slot&);
// A run under way: the share of its blocks run over all the chunks' launches (0 until the traced launch
// starts), and the seconds since it started, as shown ("12.3").
double run_share(const Slot&);
std::string run_seconds_text(const Slot&);
// What a view without a trace says: the run under way and how far it is, or "press Run".
std::string no_trace_text(const Slot&);
// The step of `slot` shown when the session is at `step` (clamped to its trace).
int slot_step(const Slot&, int step);
// The slot's trace is drawn by its family's tile view (transposes), not the reduction tree.
bool slot_draws_tile(const Slot&);

}  // namespace redlab::gui
