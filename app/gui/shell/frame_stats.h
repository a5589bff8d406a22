// Frame times: `--frame-report` percentiles and REDLAB_GUI_PROFILE's per-phase means (docs/gui.md).
#pragma once
#include <vector>

namespace redlab::gui {

class FrameStats {
 public:
  explicit FrameStats(bool profile, bool per_frame) : profile_(profile), per_frame_(per_frame) {}
  // One frame: its whole time, and (profiling) the times of its phases, the ImGui vertex and index counts,
  // the share of the window redrawn, whether it changed step. `counted`: false for the frame that read the
  // pixels back (not a frame a user sees).
  void add(int frame, double total_ms, double pre_ms, double build_ms, double draw_ms, double present_ms, int vertices,
           int indices, double redrawn, bool step_changed, bool counted);
  // "frame times over N frames (WxH, C cells): p50 .. p95 .. p99 .. max .."
  void print_report(int width, int height, int cells) const;
  void print_profile() const;

 private:
  bool profile_, per_frame_;
  std::vector<double> ms_;
  double sum_[7] = {};  // pre, build, draw, present, vertices, indices, redrawn
  int frames_ = 0;
  double step_ms_ = 0, step_build_ms_ = 0;
  int step_frames_ = 0;
};

}  // namespace redlab::gui
