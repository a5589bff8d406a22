// The window's model: the work (work.h: runs, kernel files, measurements, the gallery, caches) beside the view
// state (view_state.h: the step clock, what is selected, the layout, keys, settings). The window's views read
// both and send requests; a lesson drives the same calls a student's clicks do (open this scenario, go to this
// step, select this warp or bank column). No GL, no ImGui.
#pragma once
#include <cstddef>
#include <string>

#include "model/lesson_player.h"
#include "model/options.h"
#include "model/view_state.h"
#include "model/work.h"

namespace redlab::model {

class Model {
 public:
  explicit Model(const GuiOptions& opts);
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  Work work;  // work.opts: how the window was asked to start
  ViewState view;
  LessonPlayer lesson;  // a lesson open in the window (lesson_player.h), driving the calls below

  // Collects finished work and keeps the view in step with it (a new trace: the step and selection clamped to
  // it). True when a trace arrived in side A. `wait`: block until everything in flight is done.
  bool poll(bool wait = false);

  // ---- The step clock over the traces shown.
  int max_step() const;  // last valid step index of A's trace, and B's beside it when comparing (or 0)
  void set_step(int s, bool animate = true) { view.set_step(s, max_step(), animate); }
  void tick(float dt) { view.tick(dt, max_step()); }
  // The step counter, counted from 1 over each trace's own steps: "step 2 / 2" (a transpose's tile store), and
  // with compare "step A 2/2 · B 5/10" (each side's own step; a side that has finished holds its last).
  std::string step_counter() const;

  // ---- Plain calls: what a click does, for a lesson to do.
  // Puts `sc` in the side (B turns compare on) and runs it.
  void open_scenario(SideId, const Scenario& sc);
  // Stops playback and shows step `s` (clamped to the traces).
  void go_to_step(int s);
  // Selects a warp of the focus block (clamped to the block's warps) and a bank column of the grid (-1: none).
  void select_warp(int warp);
  void select_bank_column(int bank);
  // Opens a trace file into A at its first step.
  bool open_trace(const std::string& path);

  // The side whose file the code view shows (B when it is chosen there and compare is on): Ctrl+S saves it.
  Side& code_side() { return view.memory.code_side == 1 && work.compare ? work.b : work.a; }

 private:
  void trace_arrived(const Side&);
  std::size_t glyphs_seen_ = 0;
};

}  // namespace redlab::model
