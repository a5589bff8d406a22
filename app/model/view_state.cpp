// The step clock: playback, and the move into a step.
#include "model/view_state.h"

#include <algorithm>

namespace redlab::model {

ViewState::ViewState(const GuiOptions& o) : headless(!o.screenshot.empty() || !o.export_path.empty()) {
  if (!o.debug.chart.empty()) memory.metrics_chart = memory.compare_chart = o.debug.chart;
  show_hw = o.debug.hw;
}

void ViewState::set_step(int s, int last, bool animate) {
  s = std::clamp(s, 0, std::max(0, last));
  if (s == step) return;
  anim_from = step;
  anim = (animate && s == step + 1) ? 0.0f : 1.0f;
  step = s;
}

void ViewState::tick(float dt, int last) {
  if (playing) {
    step_timer += dt;
    if (step_timer >= 1.0f / speed) {
      step_timer = 0;
      if (step >= last)
        playing = false;
      else
        set_step(step + 1, last);
    }
  }
  if (anim < 1.0f) anim = std::min(1.0f, anim + dt * std::max(1.5f, speed * 1.5f));
}

}  // namespace redlab::model
