#include "session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

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
  user_.cancel = true;
  if (user_.pending.valid()) user_.pending.wait();
}

int Session::max_step() const {
  if (!a.trace || a.trace->steps.empty()) return 0;
  int m = int(a.trace->steps.size()) - 1;
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
  if (std::string why = validate(slot.scenario); !why.empty()) {
    slot.error = why;
    return;
  }
  if (slot.running) return;  // one at a time; the button is disabled meanwhile
  slot.running = true;
  slot.run_started = std::chrono::steady_clock::now();
  slot.control.cancel = false;
  slot.control.blocks_run = 0;
  slot.control.blocks_expected = 0;
  slot.control.chunks_done = 0;
  slot.control.chunks = 0;
  slot.pending = std::async(std::launch::async, run_scenario, slot.scenario, &slot.control);
}

RunEstimate Session::estimate(const Slot& slot) const {
  Scenario sc = slot.scenario;
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
}

double Session::progress(const Slot& slot) const { return run_share(slot); }

bool Session::poll_slot(Slot& slot, bool wait) {
  if (!slot.running || !ready(slot.pending, wait)) return false;
  RunResult r = slot.pending.get();
  slot.running = false;
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
  if (user_.running && ready(user_.pending, wait)) {
    UserSourceResult r = user_.pending.get();
    user_.running = false;
    if (!r.id.empty()) user_.id = r.id;
    if (r.ok) {
      // Its record (and launcher) into this process, then its trace: the views read the record.
      allow_record_replacement(true);
      const std::string why = load_user_kernel(r.library);
      if (why.empty()) {
        set_kernel_source_file(r.id, std::filesystem::absolute(user_.path).string());
        sources_.erase(std::filesystem::absolute(user_.path).string());
        kernel_sources_.clear();
        user_.errors.clear();
        user_.marks.clear();
        if (!open_trace(r.trace_path)) user_.errors = open_error;
        a.origin.clear();
      } else {
        user_.errors = why;
      }
    } else {
      user_.errors = r.errors;
      user_.marks = source_marks(r.errors, user_.path);
      // The slot's one line: the first error the messages give (not "In function ...").
      std::istringstream in(user_.errors);
      std::string first, line;
      while (std::getline(in, line) && first.empty())
        if (line.find("error") != std::string::npos || line.rfind("redlab: ", 0) == 0) first = line;
      a.error = first.empty() ? user_.errors.substr(0, user_.errors.find('\n')) : first;
    }
  }
  // A watched kernel file that changed runs again (checked twice a second).
  if (!user_.path.empty() && !user_.running &&
      std::chrono::steady_clock::now() - user_.checked > std::chrono::milliseconds(500)) {
    user_.checked = std::chrono::steady_clock::now();
    std::error_code ec;
    const auto mtime = std::filesystem::last_write_time(user_.path, ec);
    if (!ec && std::int64_t(mtime.time_since_epoch().count()) != user_.seen_mtime) run_user_source();
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
  return a.running || b.running || live_.running || measure_.running || hw_.running || user_.running;
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

bool Session::open_trace(const std::string& path) {
  try {
    Trace t = load_trace(path);
    adopt(a, std::move(t));
    a.origin = path;
    open_error.clear();
    step = 0;
    return true;
  } catch (const std::exception& e) {
    open_error = path + ": " + e.what();
    a.error = open_error;
    return false;
  }
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

std::map<int, std::string> source_marks(const std::string& messages, const std::string& file) {
  std::map<int, std::string> marks;
  const std::string base = std::filesystem::path(file).filename().string();
  std::istringstream in(messages);
  for (std::string line; std::getline(in, line);) {
    int l = 0;
    // The compiler: "FILE:LINE:COL: error: what" (the file as the student gave it).
    if (line.rfind(file + ":", 0) == 0 && std::sscanf(line.c_str() + file.size() + 1, "%d:", &l) == 1 && l > 0 &&
        line.find(": error:") != std::string::npos) {
      marks.try_emplace(l, line.substr(line.find(": error:") + 2));
      continue;
    }
    // The emulator: "... (kernel line 74 of hang.cu) ..."
    const std::string tag = "line ";
    for (std::size_t at = line.find(tag); at != std::string::npos; at = line.find(tag, at + 1))
      if (std::sscanf(line.c_str() + at + tag.size(), "%d", &l) == 1 && l > 0 &&
          line.compare(at + tag.size() + std::to_string(l).size(), 4 + base.size(), " of " + base) == 0)
        marks.try_emplace(l, line.rfind("redlab: ", 0) == 0 ? line.substr(8) : line);
  }
  return marks;
}

void Session::open_kernel_source(const std::string& path) {
  user_.path = path;
  user_.errors.clear();
  user_.marks.clear();
  user_.seen_mtime = 0;
  run_user_source();
}

void Session::run_user_source() {
  if (user_.running || user_.path.empty()) return;
  std::error_code ec;
  const auto mtime = std::filesystem::last_write_time(user_.path, ec);
  user_.seen_mtime = ec ? 0 : std::int64_t(mtime.time_since_epoch().count());
  user_.running = true;
  user_.cancel = false;
  ++user_.runs;
  user_.pending = std::async(std::launch::async, [this, path = user_.path, scenario = a.scenario] {
    UserSourceResult r;
    std::ifstream f(path);
    std::stringstream text;
    text << f.rdbuf();
    const bool matrix = text.str().find("transpose_kernel") != std::string::npos;
    Scenario s = scenario;
    if (matrix && s.type == ElemType::int32) s.type = ElemType::float32;
    const UserKernelBuild b = compile_user_kernel(path, s.type);
    if (!b.ok) {
      r.errors = b.errors;
      return r;
    }
    r.library = b.library;
    r.id = b.id;
    // The scenario's options for the file's family (a transpose file takes the matrix options).
    s.kernel = b.id;
    std::vector<std::string> args = {"trace", "--load-kernel", b.library, "--time-limit", "60", "--backend", "cpu",
                                     "--type", to_string(s.type), "--input", to_string(s.input), "--seed",
                                     std::to_string(s.seed), "--kernel", b.id};
    if (matrix) {
      args.insert(args.end(), {"--rows", std::to_string(s.rows), "--cols", std::to_string(s.cols), "--block-rows",
                               std::to_string(s.block_rows)});
    } else {
      args.insert(args.end(), {"--n", std::to_string(s.n), "--block", std::to_string(s.block), "--op", to_string(s.op)});
    }
    r.trace_path = (std::filesystem::path(b.library).parent_path() / "last.rltrace").string();
    args.insert(args.end(), {"-o", r.trace_path, "--force"});
    const std::string self = opts.debug.self_exe.empty() ? self_executable() : opts.debug.self_exe;
    const ChildResult c = run_child(self, args, 120.0, &user_.cancel);
    if (c.exit_code != 0) {
      r.errors = c.err.empty() ? "the run of " + path + " failed: " + (c.why.empty() ? "exit " + std::to_string(c.exit_code) : c.why)
                               : c.err;
      return r;
    }
    r.ok = true;
    return r;
  });
}

const KernelSources& Session::kernel_sources(const std::string& rel) {
  auto it = kernel_sources_.find(rel);
  if (it == kernel_sources_.end()) it = kernel_sources_.emplace(rel, load_kernel_sources(rel)).first;
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
  return t;
}

}  // namespace redlab::gui
