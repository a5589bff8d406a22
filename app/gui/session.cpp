#include "session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "../core/catalog.h"
#include "../core/plan.h"
#include "../exec/bank_measure.h"
#include "../exec/executor.h"
#include "../exec/user_kernel.h"
#include "i18n.h"

namespace redlab::gui {

namespace {

// One background run; `control` lets the session cancel it and read its progress.
RunResult run_scenario(Scenario sc, RunControl* control) {
  RunResult r;
  try {
    std::string notice;
    auto ex = make_executor(sc.backend, &notice);
    if (!ex) throw std::runtime_error(notice.empty() ? "no executor for this backend" : notice);
    r.notice = notice;
    r.backend = ex->backend();
    r.device = ex->device();
    RunOptions options;
    options.control = control;
    r.trace = ex->run(sc, options);
  } catch (const RunCancelled&) {
    r.cancelled = true;
  } catch (const std::exception& e) {
    r.error = e.what();
    r.trace.reset();
  } catch (...) {
    r.error = "unknown error while running the scenario";
  }
  return r;
}

template <class T>
bool ready(std::future<T>& f, bool wait) {
  if (!f.valid()) return false;
  if (wait) f.wait();
  return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

void read_timings(ReferenceTimings& r, const std::string& path) {
  r.path = path;
  if (path.empty()) return;
  std::ifstream f(path);
  if (!f) return;
  r.present = true;
  try {
    r.rep = parse_timings(nlohmann::json::parse(f));
  } catch (const std::exception& e) {
    r.error = e.what();
  }
}

}  // namespace

std::vector<int> step_statement_lines(const std::vector<std::string>& src, int probe_line) {
  std::vector<int> out;
  auto trimmed = [](const std::string& s) {
    const std::size_t a = s.find_first_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a, s.find_last_not_of(" \t") + 1 - a);
  };
  int depth = 0;
  for (int i = probe_line; i >= 1 && i < int(src.size()) && out.size() < 12; ++i) {
    const std::string t = trimmed(src[std::size_t(i)]);   // line i + 1
    if (t.find("probe.step(") != std::string::npos) break;              // the next step
    for (char c : t) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (depth < 0) break;                                               // the enclosing block ends
    if (t.empty() || t.rfind("//", 0) == 0 || t.rfind("probe.", 0) == 0) continue;
    if (t == "}" || t == "{") continue;
    out.push_back(i + 1);
  }
  if (out.empty()) out.push_back(probe_line);
  return out;
}

double run_share(const Slot& slot) {
  const std::uint64_t expected = slot.control.blocks_expected;
  return expected ? std::min(1.0, double(slot.control.blocks_run) / double(expected)) : 0.0;
}

std::string run_seconds_text(const Slot& slot) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - slot.run_started).count();
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", elapsed);
  return secs;
}

std::string no_trace_text(const Slot& slot) {
  // A scenario the device cannot run, or a cancelled run: the reason, not an invitation to press Run.
  if (slot.user.running) return trf("source.running", {slot.user.path});
  if (!slot.running) return slot.error.empty() ? tr("common.no_trace") : trf("common.no_trace_because", {slot.error});
  return trf("common.running", {slot.scenario.kernel, std::to_string(int(100.0 * run_share(slot))), run_seconds_text(slot)});
}
const FamilyRecord& family_of(const Scenario& s) {
  const KernelRecord* k = find_kernel(s.kernel);
  return family_record(k ? k->family : Family::reduction);
}
bool takes_matrix(const Scenario& s) { return family_of(s).takes_matrix; }

void sync_text_fields(Slot& slot) {
  slot.n_text = std::to_string(slot.scenario.n);
  slot.block_text = std::to_string(slot.scenario.block);
  slot.rows_text = std::to_string(slot.scenario.rows);
  slot.cols_text = std::to_string(slot.scenario.cols);
  slot.block_rows_text = std::to_string(slot.scenario.block_rows);
}

int slot_step(const Slot& s, int step) {
  if (!s.trace || s.trace->steps.empty()) return 0;
  return std::clamp(step, 0, int(s.trace->steps.size()) - 1);
}

bool slot_draws_tile(const Slot& s) { return s.trace && std::string(family_of(s.trace->scenario).view) == "tile"; }

Session::Session(const GuiOptions& o) : opts(o), headless(!o.screenshot.empty() || !o.export_path.empty()) {
  if (!o.debug.chart.empty()) memory.metrics_chart = memory.compare_chart = o.debug.chart;
  show_hw = o.debug.hw;
}

Session::~Session() {
  // Stop what runs (the emulator stops between blocks) and wait for it, so that no thread outlives us.
  for (Slot* s : {&a, &b}) {
    s->control.cancel = true;
    if (s->pending.valid()) s->pending.wait();
  }
  if (live_.pending.valid()) live_.pending.wait();
  if (measure_.pending.valid()) measure_.pending.wait();
  hw_.cancel = true;   // the child is killed
  if (hw_.pending.valid()) hw_.pending.wait();
  for (Slot* s : {&a, &b}) {
    s->user.cancel = true;   // the child is killed
    if (s->user.pending.valid()) s->user.pending.wait();
  }
}

int Session::max_step() const {
  // A's steps, and B's beside them when comparing (B alone when A has no trace: its file did not run, say).
  int m = a.trace && !a.trace->steps.empty() ? int(a.trace->steps.size()) - 1 : 0;
  if (compare && b.trace && !b.trace->steps.empty()) m = std::max(m, int(b.trace->steps.size()) - 1);
  return m;
}

void Session::set_step(int s, bool animate) {
  s = std::clamp(s, 0, max_step());
  if (s == step) return;
  anim_from = step;
  anim = (animate && s == step + 1) ? 0.0f : 1.0f;
  step = s;
}

void Session::tick(float dt) {
  if (playing) {
    step_timer += dt;
    if (step_timer >= 1.0f / speed) {
      step_timer = 0;
      if (step >= max_step()) playing = false;
      else set_step(step + 1);
    }
  }
  if (anim < 1.0f) anim = std::min(1.0f, anim + dt * std::max(1.5f, speed * 1.5f));
}

void Session::request_run(Slot& slot) {
  slot.error.clear();
  resolve_shape(slot.scenario);   // transposes: n = rows * cols, block = 32 * K (as the CLI does)
  if (std::string why = validate_slot(slot); !why.empty()) {
    slot.error = why;
    return;
  }
  // A kernel file of the student's own runs in a second redlab, never in the window's process (a crash or an
  // endless loop in it must not take the window down): the slot's file, or the file a loaded record came from.
  const KernelRecord* k = find_kernel(slot.scenario.kernel);
  if (follows_file(slot) && (!k || slot.scenario.kernel == slot.user.id)) {
    run_user_source(slot);
    return;
  }
  if (k && is_user_kernel(*k)) {
    open_kernel_source(slot, k->source_file);
    return;
  }
  if (slot.running) return;  // one at a time; the button is disabled meanwhile
  slot.running = true;
  slot.drop_run = false;
  slot.run_started = std::chrono::steady_clock::now();
  slot.control.cancel = false;
  slot.control.blocks_run = 0;
  slot.control.blocks_expected = 0;
  slot.control.chunks_done = 0;
  slot.control.chunks = 0;
  slot.pending = std::async(std::launch::async, run_scenario, slot.scenario, &slot.control);
}

RunEstimate Session::estimate(const Slot& slot) const {
  Scenario sc = checked_scenario(slot);
  resolve_shape(sc);
  // The emulator runs it when asked, or when the window's runs so far ran there (no CUDA device).
  const bool on_cpu = sc.backend == BackendChoice::cpu ||
                      (sc.backend == BackendChoice::auto_ && (a.trace ? a.trace->backend != "cuda" : !a.notice.empty()));
  RunEstimate e = estimate_run(sc, on_cpu);
  e.seconds *= emulator_speed;
  return e;
}

void Session::cancel_run(Slot& slot) {
  if (slot.running) slot.control.cancel = true;
  if (slot.user.running) {   // its compile finishes (a second or two), its run in the second redlab is killed
    slot.user.cancel = true;
    slot.user.stale = false;
  }
}

double Session::progress(const Slot& slot) const { return run_share(slot); }

bool Session::poll_slot(Slot& slot, bool wait) {
  if (!slot.running || !ready(slot.pending, wait)) return false;
  RunResult r = slot.pending.get();
  slot.running = false;
  if (std::exchange(slot.drop_run, false)) {
    if (std::exchange(slot.run_again, false)) request_run(slot);
    return false;
  }
  slot.notice = r.notice;
  if (r.cancelled) {
    slot.error = tr("sc.cancelled");
    return false;
  }
  if (!r.error.empty() || !r.trace) {
    slot.error = r.error.empty() ? "the run returned no trace" : r.error;
    return false;
  }
  slot.origin.clear();
  // A long emulator run tells how fast this machine is against the estimate (other cores, other load).
  if (r.trace->backend == "cpu" && r.trace->trace_ms >= 1000) {
    try {
      const double predicted = estimate_run(r.trace->scenario, true).seconds;
      if (predicted > 0)
        emulator_speed = std::clamp(0.5 * emulator_speed + 0.5 * (r.trace->trace_ms / 1000.0) / predicted, 0.1, 10.0);
    } catch (const std::exception&) {
    }
  }
  adopt(slot, std::move(*r.trace));
  return true;
}

bool Session::poll(bool wait) {
  const bool arrived = poll_slot(a, wait);
  poll_slot(b, wait);
  if (live_.running && ready(live_.pending, wait)) {
    live_.running = false;
    try {
      live_.rep = live_.pending.get();
    } catch (const std::exception& e) {
      live_.error = e.what();
      live_.rep.reset();
    }
  }
  if (measure_.running && ready(measure_.pending, wait)) {
    auto [cycles, why] = measure_.pending.get();
    measure_.running = false;
    measure_.have = true;
    measure_.cycles = cycles;
    measure_.why = why;
  }
  for (Slot* slot : {&a, &b}) {
    poll_user_source(*slot, wait);
    watch_user_source(*slot);
  }
  if (hw_.running && ready(hw_.pending, wait)) {
    hw_.counts = hw_.pending.get();
    hw_.running = false;
    hw_.have = true;
  }
  if (arrived) title_dirty = true;
  return arrived;
}

bool Session::busy() const {
  return slot_running(a) || slot_running(b) || live_.running || measure_.running || hw_.running;
}

void Session::adopt(Slot& slot, Trace&& t) {
  slot.error.clear();
  slot.trace = std::move(t);
  slot.scenario = slot.trace->scenario;
  sync_text_fields(slot);
  slot.tree = build_tree(*slot.trace);
  ++slot.generation;
  try {
    slot.summary = summarize(*slot.trace);
  } catch (...) {
    slot.summary = {};
  }
  step = std::clamp(step, 0, max_step());
  anim = 1.0f;
  sel_access = 0;
  sel_focus = std::clamp(sel_focus, 0, std::max(0, int(slot.trace->focus.size()) - 1));
  sel_warp = std::clamp(sel_warp, 0, std::max(0, int(slot.trace->warps_per_block) - 1));
  title_dirty = true;
}

bool Session::load_trace_into(Slot& slot, const std::string& path, std::string* why) {
  try {
    adopt(slot, load_trace(path));
    return true;
  } catch (const std::exception& e) {
    *why = path + ": " + e.what();
    slot.error = *why;
    return false;
  }
}

bool Session::open_trace(const std::string& path) {
  if (!load_trace_into(a, path, &open_error)) return false;
  a.origin = path;
  open_error.clear();
  step = 0;
  return true;
}

void Session::save_trace(const std::string& path) {
  if (!a.trace) return;
  try {
    redlab::save_trace(*a.trace, path);
    open_error = trf("open.saved", {path});
  } catch (const std::exception& e) {
    open_error = e.what();
  }
}

void Session::request_timings(const Scenario& sc) {
  if (live_.running) return;
  const BenchRequest req = measure_request(sc);
  live_.running = true;
  live_.error.clear();
  live_.kernel = sc.kernel;
  live_.n = sc.n;
  live_.matrix = takes_matrix(sc);
  live_.what.clear();
  for (const std::string& k : req.kernels) live_.what += (live_.what.empty() ? "" : ", ") + k;
  if (live_.matrix)
    live_.what = trf("tim.t.kernels_at", {live_.what, trf("tim.t.shape", {std::to_string(req.rows),
                                                                          std::to_string(req.cols),
                                                                          std::to_string(req.block_rows)})});
  live_.pending = std::async(std::launch::async, [req] { return from_bench(run_bench(req)); });
}

void Session::request_access_measure(const WarpAddresses& wa, const std::string& key, unsigned model_wavefronts) {
  if (measure_.running) return;
  measure_.running = true;
  measure_.have = false;
  measure_.key = key;
  measure_.model_wavefronts = model_wavefronts;
  measure_.pending = std::async(std::launch::async, [wa] {
    std::string why;
    double c = std::nan("");
    try {
      c = measure_shared_access(wa, &why);
    } catch (const std::exception& e) {
      why = e.what();
    }
    return std::make_pair(c, why);
  });
}

namespace {
std::string options_key(const std::vector<std::string>& o) {
  std::string k;
  for (const std::string& s : o) k += s + " ";
  return k;
}
}  // namespace

HwCounts hw_counts_from_child(const ChildResult& r) {
  HwCounts hw;
  if (r.exit_code < 0) {
    hw.why = "redlab stats --hw: " + r.why;
    return hw;
  }
  try {
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const nlohmann::json& h = j.at("hw");
    if (h.contains("collection")) return hw_counts_from_json(h["collection"]);
    hw.why = h.value("why", std::string("no reason given"));
  } catch (const std::exception&) {
    // Not JSON: the child refused the scenario (exit 2) or failed; its last line of stderr says why.
    std::string err = r.err;
    while (!err.empty() && err.back() == '\n') err.pop_back();
    const std::size_t nl = err.rfind('\n');
    hw.why = "redlab stats --hw (exit " + std::to_string(r.exit_code) + "): " +
             (err.empty() ? std::string("no output") : err.substr(nl == std::string::npos ? 0 : nl + 1));
  }
  return hw;
}

void Session::request_hw_counts() {
  if (hw_.running) return;
  const std::vector<std::string> options = scenario_options(a.scenario);
  const std::string key = options_key(options);
  if (hw_.have && hw_.key == key) return;
  hw_.running = true;
  hw_.have = false;
  hw_.key = key;
  hw_.cancel = false;
  hw_.pending = std::async(std::launch::async, [this, options, scenario = a.scenario] {
    if (!opts.debug.hw_from.empty()) {   // counts recorded on a GPU machine
      try {
        return read_hw_counts(opts.debug.hw_from, scenario);
      } catch (const std::exception& e) {
        HwCounts none;
        none.why = e.what();
        return none;
      }
    }
    std::vector<std::string> args = {"stats", "--hw-only"};
    args.insert(args.end(), options.begin(), options.end());
    const std::string self = opts.debug.self_exe.empty() ? self_executable() : opts.debug.self_exe;
    return hw_counts_from_child(run_child(self, args, 300.0, &hw_.cancel));
  });
}

const HwState* Session::hw_counts() const {
  return hw_.have && hw_.key == options_key(scenario_options(a.scenario)) ? &hw_ : nullptr;
}

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
    if (line.rfind(file + ":", 0) == 0 || line.rfind(file + "(", 0) == 0) {   // the compilers' errors, not their notes
      const std::size_t at = line.find(": error:") != std::string::npos ? line.find(": error:") : line.find(": catastrophic error:");
      if (at != std::string::npos) marks.try_emplace(l, line.substr(at + 2));
    } else {
      marks.try_emplace(l, line.rfind("redlab: ", 0) == 0 ? line.substr(8) : line);
    }
  }
  return marks;
}

bool kernel_file_takes_matrix(const std::string& text) { return text.find("transpose_kernel") != std::string::npos; }

bool is_user_kernel(const KernelRecord& k) { return std::filesystem::path(k.source_file).is_absolute(); }

Scenario checked_scenario(const Slot& slot) {
  Scenario s = slot.scenario;
  if (follows_file(slot) && !find_kernel(s.kernel)) {
    // Not compiled yet: the shape as the file's family takes it (a transpose file or a reduction).
    s.kernel = kernel_file_takes_matrix(slot.user.editor.saved()) ? "transpose_tiled" : "interleaved";
    resolve_shape(s);
  }
  return s;
}

std::string Session::validate_slot(const Slot& slot) const { return validate(checked_scenario(slot)); }

void Session::need_glyphs(const std::string& text) {
  // Only characters beyond ASCII; each once (the fonts are built again when one is new).
  bool fresh = false;
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    if (len > 1 && i + len <= text.size()) {
      const std::string ch = text.substr(i, len);
      if (extra_glyphs_.find(ch) == std::string::npos) {
        extra_glyphs_ += ch;
        fresh = true;
      }
    }
    i += len;
  }
  if (fresh) fonts_dirty = true;
}

void Session::edited(Slot& slot) {
  need_glyphs(slot.user.editor.text);
  title_dirty = true;   // the title says when A's file has unsaved edits
}

bool same_file(const std::string& x, const std::string& y) {
  namespace fs = std::filesystem;
  return !x.empty() && !y.empty() && fs::absolute(x).lexically_normal() == fs::absolute(y).lexically_normal();
}

bool Session::open_kernel_source(Slot& slot, const std::string& path) {
  UserSource& u = slot.user;
  if (same_file(path, u.path)) {   // followed already: run it again, the editor's edits kept
    run_user_source(slot);
    return true;
  }
  if (u.editor.dirty()) {
    u.unsaved_question = PendingOpen{path, std::nullopt};
    return false;
  }
  follow(slot, path, std::nullopt);
  return true;
}

bool Session::close_kernel_source(Slot& slot) {
  UserSource& u = slot.user;
  if (!follows_file(slot)) return true;
  if (u.editor.dirty()) {
    u.unsaved_question = PendingOpen{"", std::nullopt};
    return false;
  }
  follow(slot, "", std::nullopt);
  return true;
}

void Session::resolve_unsaved(Slot& slot, Unsaved answer) {
  UserSource& u = slot.user;
  if (!u.unsaved_question) return;
  if (answer == Unsaved::cancel) {
    u.unsaved_question.reset();
    return;
  }
  // Saved without a run: the slot goes on to another file (or none) at once.
  if (answer == Unsaved::save && !save_kernel_source(slot, false)) return;   // the editor says why; the question stays
  PendingOpen next = std::move(*u.unsaved_question);
  u.unsaved_question.reset();
  if (next.gallery) {
    slot.scenario = next.gallery->scenario;
    sync_text_fields(slot);
    if (&slot == &a) show_beside(*next.gallery);
  }
  follow(slot, next.path, std::move(next.gallery));
}

// The slot follows `path` ("" : no file), its editor loaded from it, and runs it.
void Session::follow(Slot& slot, const std::string& path, std::optional<GalleryEntry> gallery) {
  UserSource& u = slot.user;
  u.cancel = u.running;   // a run for the file followed before is stopped; its result is dropped on arrival
  u.path = path;
  u.id.clear();
  u.errors.clear();
  u.marks.clear();
  u.stale = false;
  u.missing = false;
  u.unsaved_question.reset();
  u.gallery = std::move(gallery);
  u.run_stamp = u.editor_stamp = FileStamp{};
  u.editor = SourceEditor{};
  title_dirty = true;
  if (path.empty()) return;
  if (slot.running) {   // a run of the scenario as it was: the file's run takes its place
    slot.control.cancel = true;
    slot.drop_run = true;
  }
  if (!u.editor.load(path)) {
    u.errors = u.editor.error;
    slot.error = u.editor.error;
    return;
  }
  u.editor_stamp = stamp_of(path);
  need_glyphs(u.editor.text);
  // The scenario names the file's kernel from now on (its record loads with the first good run).
  std::string why;
  if (const std::string id = user_kernel_id(u.editor.saved(), &why); !id.empty()) {
    u.id = id;
    slot.scenario.kernel = id;
  }
  if (kernel_file_takes_matrix(u.editor.saved()) && slot.scenario.type == ElemType::int32) {
    slot.scenario.type = ElemType::float32;   // transposes move float matrices (as the scenario panel switches)
    slot.type_switched = true;
  }
  if (u.running) return;   // the run in flight ends soon (cancelled); its arrival starts this file's
  run_user_source(slot);
}

bool Session::save_kernel_source(Slot& slot, bool run) {
  UserSource& u = slot.user;
  if (!follows_file(slot)) return false;
  if (!u.editor.save()) return false;
  u.editor_stamp = stamp_of(u.path);
  u.missing = false;
  title_dirty = true;
  if (!run) {   // quitting: the file is written, nothing more starts
    u.run_stamp = u.editor_stamp;
    return true;
  }
  // The save runs the file as a save in another editor would, at once rather than at the watch's next look. A run
  // under way compiled the text before this save: it is stopped and its result dropped.
  if (u.running) {
    u.stale = true;
    u.cancel = true;
  } else {
    run_user_source(slot);
  }
  return true;
}

void Session::run_user_source(Slot& slot) {
  UserSource& u = slot.user;
  if (u.running || u.path.empty()) return;
  u.run_stamp = stamp_of(u.path);
  u.running = true;
  u.stale = false;
  u.cancel = false;
  u.run_started = std::chrono::steady_clock::now();
  ++u.runs;
  const std::string self = opts.debug.self_exe.empty() ? self_executable() : opts.debug.self_exe;
  // Each slot its own trace file: A and B may run the same kernel file at two shapes at once.
  const std::string trace_name = &slot == &a ? "last-A.rltrace" : "last-B.rltrace";
  u.pending = std::async(std::launch::async, [path = u.path, scenario = slot.scenario, self, trace_name,
                                              cancel = &u.cancel] {
    UserSourceResult r;
    r.path = path;
    std::string text;
    read_text_file(path, &text, nullptr);
    const bool matrix = kernel_file_takes_matrix(text);
    Scenario s = scenario;
    if (matrix && s.type == ElemType::int32) s.type = ElemType::float32;
    const UserKernelBuild b = compile_user_kernel(path, {s.type, s.block, s.block_rows, s.op});
    r.id = b.id;
    r.compile_seconds = b.seconds;
    if (!b.ok) {
      r.errors = b.errors;
      return r;
    }
    if (*cancel) {
      r.errors = "cancelled";
      return r;
    }
    r.library = b.library;
    // The scenario's options for the file's family (a transpose file takes the matrix options).
    // On the scenario's backend: the emulator, or the GPU through NVRTC (exec/nvrtc.h). `auto` is settled here, as
    // a catalog run settles it, so that the second redlab prints no notice of its own above the kernel's messages.
    std::string backend = to_string(s.backend);
    if (s.backend == BackendChoice::auto_) {
      std::string notice;
      const auto ex = make_executor(BackendChoice::auto_, &notice);
      backend = ex ? ex->backend() : "cpu";
    }
    std::vector<std::string> args = {"trace", "--load-kernel", b.library, "--time-limit", "60", "--backend", backend,
                                     "--type", to_string(s.type), "--input", to_string(s.input), "--seed",
                                     std::to_string(s.seed), "--kernel", b.id};
    if (matrix) {
      args.insert(args.end(), {"--rows", std::to_string(s.rows), "--cols", std::to_string(s.cols), "--block-rows",
                               std::to_string(s.block_rows)});
    } else {
      args.insert(args.end(), {"--n", std::to_string(s.n), "--block", std::to_string(s.block), "--op", to_string(s.op),
                               "--finish", to_string(s.finish), "--coarse", std::to_string(s.coarse)});
    }
    std::string focus;
    for (std::uint32_t f : s.focus_blocks) focus += (focus.empty() ? "" : ",") + std::to_string(f);
    if (!focus.empty()) args.insert(args.end(), {"--focus", focus});
    r.trace_path = (std::filesystem::path(b.library).parent_path() / trace_name).string();
    args.insert(args.end(), {"-o", r.trace_path, "--force"});
    std::error_code ec;
    std::filesystem::remove(r.trace_path, ec);
    const ChildResult c = run_child(self, args, 120.0, cancel);
    // Exit 1 with the trace written: the kernel ran to its end with a wrong result, which the views show.
    const bool wrong_result = c.exit_code == 1 && std::filesystem::exists(r.trace_path, ec);
    if (c.exit_code != 0 && !wrong_result) {
      r.errors = c.err.empty() ? "the run of " + path + " failed: " + (c.why.empty() ? "exit " + std::to_string(c.exit_code) : c.why)
                               : c.err;
      return r;
    }
    r.ok = true;
    return r;
  });
}

void Session::poll_user_source(Slot& slot, bool wait) {
  UserSource& u = slot.user;
  if (!u.running) return;
  // Loading a compiled kernel registers its record, which the other side's work may be reading (its compile looks
  // its id up in the registry; a run of the catalog reads it while it prepares): that result waits until they are
  // past it. Waiting for everything, the other side is finished first.
  Slot& other = &slot == &a ? b : a;
  if (wait && other.user.running) other.user.pending.wait();
  if (wait && other.running) other.pending.wait();
  if (!ready(u.pending, wait)) return;
  if ((other.user.running && !ready(other.user.pending, false)) ||
      (other.running && other.control.blocks_expected == 0 && !ready(other.pending, false)))
    return;
  UserSourceResult r = u.pending.get();
  u.running = false;
  if (r.path != u.path || u.stale) {   // a file no longer followed, or saved again since: the newest text runs
    run_user_source(slot);
    if (wait) poll_user_source(slot, wait);
    return;
  }
  if (!r.id.empty()) u.id = r.id;
  u.last_compile_seconds = r.compile_seconds;
  if (!r.ok && u.cancel) {   // Esc, or Cancel: the last good trace stays
    u.cancel = false;
    u.errors.clear();
    slot.error = tr("sc.cancelled");
    return;
  }
  if (!r.ok) {
    u.errors = r.errors;
    u.marks = source_marks(r.errors, u.path);
    // The slot's one line: the first error the messages give (not "In function ...").
    std::istringstream in(u.errors);
    std::string first, line;
    while (std::getline(in, line) && first.empty())
      if (line.find("error") != std::string::npos || line.rfind("redlab: ", 0) == 0) first = line;
    slot.error = first.empty() ? u.errors.substr(0, u.errors.find('\n')) : first;
    return;
  }
  // Two files whose records share an id cannot both be loaded (the second would replace the first's record).
  const std::string here = std::filesystem::absolute(u.path).lexically_normal().string();
  if (follows_file(other) && other.user.id == r.id && !same_file(other.user.path, u.path)) {
    u.errors = trf("source.same_id", {u.path, other.user.path, r.id});
    u.marks.clear();
    slot.error = u.errors;
    return;
  }
  // Its record (and launcher) into this process, then its trace: the views read the record.
  allow_record_replacement(true);
  if (const std::string why = load_user_kernel(r.library); !why.empty()) {
    u.errors = slot.error = why;
    return;
  }
  set_kernel_source_file(r.id, here);
  sources_.erase(here);
  kernel_sources_.clear();
  std::string why;
  if (!load_trace_into(slot, r.trace_path, &why)) {
    u.errors = why;
    return;
  }
  slot.origin.clear();
  u.errors.clear();
  u.marks.clear();
  u.last_run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - u.run_started).count();
  if (&slot == &a) title_dirty = true;
}

// The file on disk (at `stamp`) reaches the slot's editor: reloaded when it has no unsaved edits, else the question.
void Session::editor_sees_disk(Slot& slot, const FileStamp& stamp) {
  UserSource& u = slot.user;
  std::string text;
  if (!read_text_file(u.path, &text, nullptr)) return;
  u.editor_stamp = stamp;
  if (u.editor.disk_changed(text) == SourceEditor::DiskChange::reloaded) need_glyphs(u.editor.text);
  title_dirty = true;
}

// Twice a second: the file changed on disk (another editor saved it, or this window did) reaches the editor (it
// reloads, or asks when it has unsaved edits) and runs again.
void Session::watch_user_source(Slot& slot) {
  UserSource& u = slot.user;
  if (u.path.empty() || std::chrono::steady_clock::now() - u.checked < std::chrono::milliseconds(500)) return;
  u.checked = std::chrono::steady_clock::now();
  const FileStamp now = stamp_of(u.path);
  u.missing = !now.exists;
  if (!now.exists) return;
  if (now != u.editor_stamp) editor_sees_disk(slot, now);
  if (now == u.run_stamp) return;
  if (u.running) {   // what is being compiled is already old
    u.stale = true;
    u.cancel = true;
    return;
  }
  run_user_source(slot);
}

const Gallery& Session::gallery() {
  if (!gallery_) {
    const std::string index = find_resource("assets/gallery/gallery.json");
    if (index.empty()) {
      gallery_.emplace();
      gallery_->error = tr("gallery.none");
    } else {
      gallery_ = read_gallery(index);
    }
    for (const GalleryEntry& e : gallery_->entries) {
      for (const auto& [lang, t] : e.title) need_glyphs(t);
      for (const auto& [lang, t] : e.explanation) need_glyphs(t);
    }
  }
  return *gallery_;
}

void Session::open_gallery_entry(GalleryEntry e, ExistingCopy existing) {
  gallery_question.reset();
  const std::string dir = student_kernel_dir();
  GalleryCopy c = copy_gallery_file(e, dir, existing == ExistingCopy::replace);
  if (c.outcome == GalleryCopy::differs && existing == ExistingCopy::ask) {
    gallery_question = e;
    gallery_message = trf("gallery.exists", {c.path});
    return;
  }
  if (c.outcome == GalleryCopy::failed) {
    gallery_message = c.error;
    return;
  }
  gallery_message = trf(c.outcome == GalleryCopy::copied ? "gallery.copied" : "gallery.reused", {c.path});
  Slot& slot = a;
  if (same_file(c.path, slot.user.path)) {   // the copy A follows already: the entry's scenario, its edits kept
    slot.scenario = e.scenario;
    sync_text_fields(slot);
    slot.user.gallery = std::move(e);
    // Replaced with the gallery's file: the editor sees it as any change on disk (taken, or asked about).
    if (c.outcome == GalleryCopy::copied) editor_sees_disk(slot, stamp_of(slot.user.path));
    run_user_source(slot);
    show_beside(*slot.user.gallery);
    return;
  }
  if (slot.user.editor.dirty()) {   // unsaved edits to another file: asked first
    slot.user.unsaved_question = PendingOpen{c.path, e};
    return;
  }
  slot.scenario = e.scenario;
  sync_text_fields(slot);
  show_beside(e);
  follow(slot, c.path, e);
}

void Session::show_beside(const GalleryEntry& e) {
  if (follows_file(b) || !find_kernel(e.from)) return;
  b.scenario = e.scenario;
  b.scenario.kernel = e.from;
  sync_text_fields(b);
  compare = true;
  if (b.running) {   // the run of B's scenario as it was (the start's demo): stopped, and B's new scenario runs after
    b.control.cancel = true;
    b.drop_run = b.run_again = true;
    return;
  }
  request_run(b);
}
const KernelSources& Session::kernel_sources(const std::string& rel) {
  auto it = kernel_sources_.find(rel);
  if (it == kernel_sources_.end()) it = kernel_sources_.emplace(rel, load_kernel_sources(rel)).first;
  return it->second;
}

const std::vector<BlockReach>& Session::input_reach_of(const Trace& t) {
  auto it = input_reach_.find(t.digest);
  if (it == input_reach_.end()) {
    if (input_reach_.size() > 16) input_reach_.clear();   // a few traces at a time: A, B and their last runs
    it = input_reach_.emplace(t.digest, input_reach(t)).first;
  }
  return it->second;
}

const ReferenceTimings& Session::reference_timings() {
  if (!reference_) {
    reference_.emplace();
    read_timings(*reference_, opts.debug.reference_timings.empty() ? find_resource("assets/reference_timings.json")
                                                                     : opts.debug.reference_timings);
  }
  return *reference_;
}

const ReferenceTimings& Session::transpose_reference(ElemType t) {
  auto [it, fresh] = transpose_references_.try_emplace(int(t));
  if (fresh) read_timings(it->second, find_resource(transpose_reference_name(t)));
  return it->second;
}

const SourceFile& Session::source(const std::string& rel) {
  auto [it, fresh] = sources_.try_emplace(rel);
  if (fresh) {
    // A kernel file of the student's own is named by its absolute path; redlab's own files are found.
    it->second.path = std::filesystem::path(rel).is_absolute() ? rel : find_resource(rel);
    std::ifstream f(it->second.path);
    if (!f) it->second.path.clear();
    for (std::string l; std::getline(f, l);) {
      for (size_t p; (p = l.find('\t')) != std::string::npos;) l.replace(p, 1, "  ");
      it->second.lines.push_back(l);
    }
  }
  return it->second;
}

std::string Session::window_title() const {
  std::string t = "redlab";
  if (a.trace) {
    const Trace& tr_ = *a.trace;
    t += " - " + describe(tr_.scenario);
    if (!a.origin.empty()) t += " - " + trf("title.replay", {a.origin, tr_.host, tr_.device, tr_.recorded_at});
    else t += " - " + tr_.device;
  }
  // A's kernel file, marked while it has unsaved edits (as editors mark theirs).
  if (follows_file(a))
    t += " - " + std::filesystem::path(a.user.path).filename().string() + (a.user.editor.dirty() ? " *" : "");
  return t;
}

}  // namespace redlab::gui
