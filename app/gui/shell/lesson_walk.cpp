#include "gui/shell/lesson_walk.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "core/file_write.h"
#include "model/lesson_player.h"
#include "model/model.h"
#include "model/tree_model.h"
#include "gui/shell/text_check.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {
// Frames drawn after the traces arrive before the text is taken: the layout a beat changes is applied in the first,
// a view raised to the front of its pane draws in the next, and scrolling to a step's line settles in the third.
constexpr int kSettleFrames = 4;
}  // namespace

bool LessonWalk::after_frame(Model& model, const ImDrawData& data, const ImFontAtlas& atlas) {
  LessonPlayer& p = model.lesson;
  const LessonBeat* b = p.current();
  if (!b) {
    failed_ = true;
    message_ = "no lesson is open";
    return true;
  }
  // A headless walk waits for the beat's runs instead of drawing frames while they go.
  if (p.pending || model.work.busy()) {
    model.poll(true);
    settled_ = 0;
    return false;
  }
  if (++settled_ < kSettleFrames) return false;
  TextCheckResult drawn_text;
  drawn_text.glyphs = glyphs_of(data, atlas, &drawn_text.roots);
  const std::vector<DrawnGlyph>& glyphs = drawn_text.glyphs;
  const std::vector<std::string> text = text_runs(glyphs, drawn_text.roots);
  // Text drawn over text, as the screenshot tests check their last frame (REDLAB_GUI_TEXT_CHECK): here in every
  // beat's settled frame, before and after its answer.
  drawn_text.overlaps = find_text_overlaps(glyphs);
  // The size of the values each tree with Values on draws, against the UI's type in hundredths: the smallest glyph
  // whose centre lies in its canvas (0: none drawn). A value on a row too thin for it is drawn at 60.
  std::vector<int> tree_value_size;
  for (const ViewState::ValuesCanvas& c : model.view.values_canvases) {
    float smallest = 0;
    for (const DrawnGlyph& g : glyphs) {
      const float x = (g.x0 + g.x1) / 2, y = (g.y0 + g.y1) / 2;
      if (g.scale > 0 && x >= c.x0 && x < c.x1 && y >= c.y0 && y < c.y1)
        smallest = smallest > 0 ? std::min(smallest, g.scale) : g.scale;
    }
    tree_value_size.push_back(int(std::lround(smallest * 100)));
  }
  // The steps' labels as the window writes them ("stride 64", "步长 64"): numbers of the tree's shape, not figures.
  std::vector<std::string> labels;
  for (const Side* s : {&model.work.a, &model.work.b})
    if (s->trace && (s == &model.work.a || model.work.compare))
      for (unsigned k = 0; k < s->trace->steps.size(); ++k) labels.push_back(step_label_text(*s->trace, k));
  std::vector<std::string> drawn;  // the views in front (the look: view must be one)
  for (ViewId v : model.view.drawn) drawn.push_back(view_key(v));
  nlohmann::json overflow = nlohmann::json::object();  // the views that run past their panes, by how much
  for (const ViewState::Overflow& o : model.view.overflow)
    if (o.x > 0 || o.y > 0) overflow[view_key(o.id)] = {std::round(o.x), std::round(o.y)};
  nlohmann::json line = {{"beat", p.beat + 1},
                         {"phase", !b->question ? "shown"
                                   : revealed_  ? "after"
                                                : "before"},
                         {"figure", b->question ? b->question->figure : ""},
                         {"compare", b->question && b->question->compare},
                         {"labels", labels},
                         {"drawn", drawn},
                         {"overflow", overflow},
                         {"question_in_view", !b->question || model.view.lesson_question_in_view},
                         {"look_hidden", b->look && lesson_hides(model, *b->look)},
                         {"text", text},
                         {"overlaps", drawn_text.overlaps.empty() ? std::string() : drawn_text.report(3)},
                         {"tree_value_size", tree_value_size}};
  out_ += line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  settled_ = 0;
  if (b->question && !revealed_) {
    revealed_ = true;
    lesson_reveal(model);
    return false;
  }
  revealed_ = false;
  if (p.beat + 1 < int(p.lesson.beats.size()) && lesson_go(model, p.beat + 1)) return false;
  try {
    write_file_atomically(path_, out_);
    message_ = "walked " + std::to_string(p.lesson.beats.size()) + " beats into " + path_;
  } catch (const std::exception& e) {
    failed_ = true;
    message_ = e.what();
  }
  return true;
}

}  // namespace redlab::gui
