// The work's runs: a side's scenario run in the background and its trace adopted, trace files opened and saved,
// and the poll that collects every finished job.
#include "model/work.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/catalog.h"
#include "core/plan.h"
#include "exec/executor.h"
#include "model/i18n.h"

namespace redlab::model {

namespace {

// One background run; `control` lets the work cancel it and read its progress.
RunResult run_scenario(const Scenario& sc, RunControl& control) {
  RunResult r;
  std::string notice;
  auto ex = make_executor(sc.backend, &notice);
  if (!ex) throw std::runtime_error(notice.empty() ? "no executor for this backend" : notice);
  r.notice = notice;
  RunOptions options;
  options.control = &control;
  r.trace = ex->run(sc, options);
  return r;
}

}  // namespace

Work::Work(const GuiOptions& o) : opts(o) { b.id = SideId::b; }

Work::~Work() {
  // Every job stops (the emulator between blocks, a child killed) before any is waited for.
  for (Side* s : {&a, &b}) {
    s->run.cancel();
    s->user.job.cancel();
  }
  hw_.job.cancel();
}

void Work::request_run(Side& side) {
  side.error.clear();
  resolve_shape(side.scenario);  // transposes: n = rows * cols, block = 32 * K (as the CLI does)
  if (std::string why = validate_side(side); !why.empty()) {
    side.error = why;
    if (side.phase == RunPhase::confirming) side.phase = RunPhase::idle;
    return;
  }
  // A kernel file of the student's own runs in a second redlab, never in the window's process (a crash or an
  // endless loop in it must not take the window down): the side's file, or the file a loaded record came from.
  const KernelRecord* k = find_kernel(side.scenario.kernel);
  if (follows_file(side) && (!k || side.scenario.kernel == side.user.id)) {
    run_user_source(side);
    return;
  }
  if (k && is_user_kernel(*k)) {
    open_kernel_source(side, k->source_file);
    return;
  }
  if (side.running()) return;  // one at a time; the button is disabled meanwhile
  side.phase = RunPhase::running;
  side.run.start([sc = side.scenario](RunControl& control) { return run_scenario(sc, control); });
}

RunEstimate Work::estimate(const Side& side) const {
  Scenario sc = checked_scenario(side);
  resolve_shape(sc);
  // The emulator runs it when asked, or when the window's runs so far ran there (no CUDA device).
  const bool on_cpu =
      sc.backend == BackendChoice::cpu ||
      (sc.backend == BackendChoice::auto_ && (a.trace ? a.trace->backend != Backend::cuda : !a.notice.empty()));
  RunEstimate e = estimate_run(sc, on_cpu);
  e.seconds *= emulator_speed;
  return e;
}

void Work::cancel_run(Side& side) {
  if (side.running()) side.run.cancel();
  if (side.user.running()) {  // its compile finishes (a second or two), its run in the second redlab is killed
    side.user.job.cancel();
    side.user.stale = false;
  }
}

std::string Work::validate_side(const Side& side) const { return validate(checked_scenario(side)); }

bool Work::poll_side(Side& side, bool wait) {
  std::optional<JobOutcome<RunResult>> got = side.run.collect(wait);
  if (!got) return false;
  const RunPhase phase = std::exchange(side.phase, RunPhase::idle);
  if (phase == RunPhase::overtaken) return false;
  if (phase == RunPhase::overtaken_rerun) {
    request_run(side);
    return false;
  }
  if (got->cancelled) {
    side.error = tr("sc.cancelled");
    return false;
  }
  if (!got->value || !got->value->trace) {
    side.error = got->error.empty() ? "the run returned no trace" : got->error;
    return false;
  }
  RunResult& r = *got->value;
  side.notice = r.notice;
  side.origin.clear();
  // A long emulator run tells how fast this machine is against the estimate (other cores, other load).
  if (r.trace->backend == Backend::emulator && r.trace->trace_ms >= 1000) {
    try {
      const double predicted = estimate_run(r.trace->scenario, true).seconds;
      if (predicted > 0)
        emulator_speed = std::clamp(0.5 * emulator_speed + 0.5 * (r.trace->trace_ms / 1000.0) / predicted, 0.1, 10.0);
    } catch (const std::exception&) {}
  }
  adopt(side, std::move(*r.trace));
  return true;
}

Arrivals Work::poll(bool wait) {
  Arrivals got;
  got.a = poll_side(a, wait);
  got.b = poll_side(b, wait);
  if (std::optional<JobOutcome<TimReport>> t = live_.job.collect(wait)) {
    live_.rep = std::move(t->value);
    live_.error = t->error;
  }
  if (std::optional<JobOutcome<std::pair<double, std::string>>> m = measure_.job.collect(wait)) {
    measure_.have = true;
    measure_.cycles = m->value ? m->value->first : std::nan("");
    measure_.why = m->value ? m->value->second : m->error;
  }
  for (Side* side : {&a, &b}) {
    if (poll_user_source(*side, wait)) (side == &a ? got.a : got.b) = true;
    watch_user_source(*side);
  }
  if (std::optional<JobOutcome<HwCounts>> h = hw_.job.collect(wait)) {
    hw_.have = true;
    hw_.counts = h->value ? std::move(*h->value) : HwCounts{};
    if (!h->value) hw_.counts.why = h->error;
  }
  if (got.a) title_dirty = true;
  return got;
}

bool Work::busy() const {
  return side_running(a) || side_running(b) || live_.running() || measure_.running() || hw_.running();
}

void Work::adopt(Side& side, Trace&& t) {
  side.error.clear();
  side.trace = std::move(t);
  side.scenario = side.trace->scenario;
  sync_text_fields(side);
  side.tree = build_tree(*side.trace);
  ++side.generation;
  try {
    side.summary = summarize(*side.trace);
  } catch (...) { side.summary = {}; }
  title_dirty = true;
}

bool Work::load_trace_into(Side& side, const std::string& path, std::string* why) {
  try {
    Trace t = load_trace(path);
    // A kernel file's trace names the file's kernel: its record (data) comes with it. (One whose id is the catalog's
    // is not taken: the catalog's record stays.)
    if (t.kernel_record) register_file_record(*t.kernel_record);
    adopt(side, std::move(t));
    return true;
  } catch (const std::exception& e) {
    *why = path + ": " + e.what();
    side.error = *why;
    return false;
  }
}

bool Work::open_trace(const std::string& path) {
  if (!load_trace_into(a, path, &open_error)) return false;
  a.origin = path;
  open_error.clear();
  return true;
}

void Work::save_trace(const std::string& path) {
  if (!a.trace) return;
  try {
    redlab::save_trace(*a.trace, path);
    open_error = trf("open.saved", {path});
  } catch (const std::exception& e) { open_error = e.what(); }
}

std::string Work::window_title() const {
  std::string t = "redlab";
  if (a.trace) {
    const Trace& tr_ = *a.trace;
    t += " - " + scenario_text(tr_.scenario);
    if (!a.origin.empty())
      t += " - " + trf("title.replay", {a.origin, tr_.host, tr_.device, tr_.recorded_at});
    else
      t += " - " + tr_.device;
  }
  // A's kernel file, marked while it has unsaved edits (as editors mark theirs).
  if (follows_file(a))
    t += " - " + std::filesystem::path(a.user.path).filename().string() + (a.user.editor.dirty() ? " *" : "");
  return t;
}

}  // namespace redlab::model
