// A lesson walked beat by beat in a headless window, for the tests (REDLAB_GUI_LESSON_WALK=FILE): at every beat, once
// its traces are there and its layout has settled, the frame's text as drawn (text_check.h's runs), and where the
// beat asks a question the same again after Reveal; then the window ends. FILE is JSON lines, one a frame:
//   {"beat": 2, "phase": "before" | "after" | "shown", "figure": "divergent_warps", "compare": false,
//    "labels": ["load", "stride 1", ...], "drawn": ["tree", "warps", ...], "text": ["Window###win.id: a line", ...],
//    "overlaps": ""}
// (beat counted from 1, as the lesson's counter; "shown" for a beat without a question; labels: A's steps' and, in
// compare, B's, as the window writes them; drawn: the views drawn in that frame, the front tab of each pane, by their
// keys; overlaps: text drawn over text, text_check.h's report, empty where there is none). tests/gui/lesson_hidden.py
// reads it for the figures a question keeps back, the view a beat names and text over text.
#pragma once

#include <string>
#include <utility>

struct ImDrawData;
struct ImFontAtlas;

namespace redlab::model {
class Model;
}

namespace redlab::gui {

class LessonWalk {
 public:
  explicit LessonWalk(std::string path) : path_(std::move(path)) {}
  // After a frame is rendered: records it when the beat has settled, and moves on (reveal, next beat). True when the
  // walk is over: every beat written, or the file could not be (`failed`).
  bool after_frame(model::Model&, const ImDrawData&, const ImFontAtlas&);
  bool failed() const { return failed_; }
  const std::string& message() const { return message_; }

 private:
  std::string path_, out_, message_;
  int settled_ = 0;  // frames drawn since the beat's traces were there
  bool revealed_ = false;  // the current beat's "before" is written and its figure revealed
  bool failed_ = false;
};

}  // namespace redlab::gui
