#include "app_state.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>

#include "../core/catalog.h"
#include "../exec/executor.h"
#include "i18n.h"

namespace redlab::gui {

int AppState::max_step() const {
  if (!a.trace || a.trace->steps.empty()) return 0;
  int m = int(a.trace->steps.size()) - 1;
  if (compare && b.trace && !b.trace->steps.empty()) m = std::max(m, int(b.trace->steps.size()) - 1);
  return m;
}

void AppState::set_step(int s, bool animate) {
  s = std::clamp(s, 0, max_step());
  if (s == step) return;
  anim_from = step;
  anim = (animate && s == step + 1) ? 0.0f : 1.0f;
  step = s;
}

namespace {
RunResult run_scenario(Scenario sc) {
  RunResult r;
  try {
    std::string notice;
    auto ex = make_executor(sc.backend, &notice);
    if (!ex) throw std::runtime_error(notice.empty() ? "no executor for this backend" : notice);
    r.notice = notice;
    r.backend = ex->backend();
    r.device = ex->device();
    r.trace = ex->run(sc);
  } catch (const std::exception& e) {
    r.error = e.what();
    r.trace.reset();
  } catch (...) {
    r.error = "unknown error while running the scenario";
  }
  return r;
}
}  // namespace

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

void start_run(AppState& st, Slot& slot) {
  (void)st;
  slot.error.clear();
  resolve_shape(slot.scenario);   // transposes: n = rows * cols, block = 32 * K (as the CLI does)
  std::string why = validate(slot.scenario);
  if (!why.empty()) {
    slot.error = why;
    return;
  }
  if (slot.running) return;  // one at a time; the button is disabled meanwhile
  slot.running = true;
  slot.run_started = glfwGetTime();
  slot.pending = std::async(std::launch::async, run_scenario, slot.scenario);
}

bool poll_run(AppState& st, Slot& slot, bool wait) {
  if (!slot.running || !slot.pending.valid()) return false;
  if (!wait && slot.pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
  RunResult r = slot.pending.get();
  slot.running = false;
  slot.notice = r.notice;
  if (!r.error.empty() || !r.trace) {
    slot.error = r.error.empty() ? "the run returned no trace" : r.error;
    return false;
  }
  slot.origin.clear();
  adopt_trace(st, slot, std::move(*r.trace));
  return true;
}

void adopt_trace(AppState& st, Slot& slot, Trace&& t) {
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
  st.step = std::clamp(st.step, 0, st.max_step());
  st.anim = 1.0f;
  st.sel_access = 0;
  st.sel_focus = std::clamp(st.sel_focus, 0, std::max(0, int(slot.trace->focus.size()) - 1));
  st.sel_warp = std::clamp(st.sel_warp, 0, std::max(0, int(slot.trace->warps_per_block) - 1));
  st.title_dirty = true;
}

bool open_trace(AppState& st, const std::string& path) {
  try {
    Trace t = load_trace(path);
    st.a.origin = path;
    adopt_trace(st, st.a, std::move(t));
    st.a.origin = path;
    st.open_error.clear();
    st.step = 0;
    return true;
  } catch (const std::exception& e) {
    st.open_error = path + ": " + e.what();
    st.a.error = st.open_error;
    return false;
  }
}

std::string window_title(const AppState& st) {
  std::string t = "redlab";
  if (st.a.trace) {
    const Trace& tr_ = *st.a.trace;
    t += " - " + describe(tr_.scenario);
    if (!st.a.origin.empty()) {
      t += " - " + trf("title.replay", {st.a.origin, tr_.host, tr_.device, tr_.recorded_at});
    } else {
      t += " - " + tr_.device;
    }
  }
  return t;
}

}  // namespace redlab::gui
