#include "gui/shell/frame_stats.h"

#include <algorithm>
#include <cstdio>

namespace redlab::gui {

void FrameStats::add(int frame, double total_ms, double pre_ms, double build_ms, double draw_ms, double present_ms,
                     int vertices, int indices, double redrawn, bool step_changed, bool counted) {
  if (counted) ms_.push_back(total_ms);
  if (!profile_ || frame < 2) return;
  const double v[7] = {pre_ms, build_ms, draw_ms, present_ms, double(vertices), double(indices), redrawn};
  for (int i = 0; i < 7; ++i) sum_[i] += v[i];
  ++frames_;
  if (per_frame_)
    std::printf("frame %d: %.2f ms (build %.2f, draw %.2f), redrawn %.0f %%\n", frame, total_ms, build_ms, draw_ms,
                100 * redrawn);
  if (step_changed) {
    step_ms_ += total_ms;
    step_build_ms_ += build_ms;
    ++step_frames_;
  }
}

void FrameStats::print_report(int width, int height, int cells) const {
  if (ms_.empty()) return;
  // The first two frames build the fonts' texture and the first trees: not what a user waits for after.
  std::vector<double> v(ms_.begin() + std::min<std::size_t>(2, ms_.size() - 1), ms_.end());
  std::sort(v.begin(), v.end());
  auto pct = [&](double p) { return v[std::min(v.size() - 1, std::size_t(p / 100.0 * double(v.size() - 1) + 0.5))]; };
  std::printf("frame times over %zu frames (%dx%d, %d cells): p50 %.2f ms  p95 %.2f ms  p99 %.2f ms  max %.2f ms\n",
              v.size(), width, height, cells, pct(50), pct(95), pct(99), v.back());
}

void FrameStats::print_profile() const {
  if (!profile_ || frames_ == 0) return;
  const double n = frames_;
  std::printf("profile (mean ms): pre %.2f  build+tree %.2f  imgui draw %.2f  swap/read %.2f  |  vtx %.0f  idx %.0f\n",
              sum_[0] / n, sum_[1] / n, sum_[2] / n, sum_[3] / n, sum_[4] / n, sum_[5] / n);
  std::printf("redrawn: %.1f %% of the window per frame\n", 100.0 * sum_[6] / n);
  if (step_frames_)
    std::printf("step-change frames: %d, mean %.2f ms, build+tree %.2f ms\n", step_frames_, step_ms_ / step_frames_,
                step_build_ms_ / step_frames_);
}

}  // namespace redlab::gui
