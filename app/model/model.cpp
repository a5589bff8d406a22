// The model: the work beside the view state, kept in step when a trace arrives.
#include "model/model.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "core/bank_model.h"
#include "model/i18n.h"

namespace redlab::model {

Model::Model(const GuiOptions& o) : work(o), view(o) {}

int Model::max_step() const {
  // A's steps, and B's beside them when comparing (B alone when A has no trace: its file did not run, say).
  const Side &a = work.a, &b = work.b;
  int m = a.trace && !a.trace->steps.empty() ? int(a.trace->steps.size()) - 1 : 0;
  if (work.compare && b.trace && !b.trace->steps.empty()) m = std::max(m, int(b.trace->steps.size()) - 1);
  return m;
}

void Model::trace_arrived(const Side& side) {
  view.step = std::clamp(view.step, 0, max_step());
  view.anim = 1.0f;
  view.sel_access = 0;
  view.sel_focus = std::clamp(view.sel_focus, 0, std::max(0, int(side.trace->focus.size()) - 1));
  view.sel_warp = std::clamp(view.sel_warp, 0, std::max(0, int(side.trace->warps_per_block) - 1));
  // A trace that ends at a fault opens where it happened: its step, the warp of the access that met it.
  if (const auto& f = side.trace->fault) {
    view.playing = false;
    view.step = int(f->step);
    if (!f->accesses.empty()) view.sel_warp = int(f->accesses.back().thread / 32);
  }
}

bool Model::poll(bool wait) {
  const Arrivals got = work.poll(wait);
  if (got.a && work.a.trace) trace_arrived(work.a);
  if (got.b && work.b.trace) trace_arrived(work.b);
  if ((got.a || got.b) && lesson.open()) lesson_traces_arrived(*this);
  // Text with characters the fonts lack arrived (a file opened or edited, the gallery read): glyphs for them.
  if (work.glyphs_added() != glyphs_seen_) {
    glyphs_seen_ = work.glyphs_added();
    view.fonts_dirty = true;
  }
  return got.a;
}

void Model::open_scenario(SideId id, const Scenario& sc) {
  Side& side = work.side(id);
  side.scenario = sc;
  sync_text_fields(side);
  if (id == SideId::b) work.compare = true;
  work.request_run(side);
}

void Model::go_to_step(int s) {
  view.playing = false;
  set_step(s, false);
}

void Model::select_warp(int warp) {
  const int warps = work.a.trace ? int(work.a.trace->warps_per_block) : 1;
  view.sel_warp = std::clamp(warp, 0, std::max(0, warps - 1));
  view.sel_access = 0;
}

void Model::select_bank_column(int bank) { view.sel_bank = bank >= 0 && bank < int(kBanks) ? bank : -1; }

bool Model::open_trace(const std::string& path) {
  if (!work.open_trace(path)) return false;
  trace_arrived(work.a);
  view.step = 0;
  return true;
}

std::string Model::step_counter() const {
  auto count = [](const Side& sl) { return sl.trace ? int(sl.trace->steps.size()) : 0; };
  auto own = [&](const Side& sl) {
    return std::to_string(count(sl) ? side_step(sl, view.step) + 1 : 0) + "/" + std::to_string(count(sl));
  };
  const std::string word = tr("ctl.step");
  if (work.compare && work.b.trace) return word + " A " + own(work.a) + " \u00b7 B " + own(work.b);
  return word + " " + std::to_string(count(work.a) ? side_step(work.a, view.step) + 1 : 0) + " / " +
         std::to_string(count(work.a));
}

}  // namespace redlab::model
