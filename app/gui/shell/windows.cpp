// Every window of the GUI, registered once (ImHex's registerViews). The order is the order they are drawn in
// and listed in the View menu; each view's file says what it shows and where it goes first.
#include <memory>
#include <vector>

#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

// One factory per view file.
std::unique_ptr<View> make_scenario_view();
std::unique_ptr<View> make_warps_view();
std::unique_ptr<View> make_tree_view();
std::unique_ptr<View> make_tile_view();
std::unique_ptr<View> make_ring_view();
std::unique_ptr<View> make_compare_view();
std::unique_ptr<View> make_metrics_view();
std::unique_ptr<View> make_code_view();
std::unique_ptr<View> make_banks_view();
std::unique_ptr<View> make_timings_view();
std::unique_ptr<View> make_bank_lab_view();
std::unique_ptr<View> make_gallery_view();
std::unique_ptr<View> make_lesson_view();
std::unique_ptr<View> make_glossary_view();

Views make_views() {
  Views v;
  v.push_back(make_lesson_view());
  v.push_back(make_scenario_view());
  v.push_back(make_warps_view());
  v.push_back(make_tree_view());
  v.push_back(make_tile_view());
  v.push_back(make_ring_view());
  v.push_back(make_compare_view());
  v.push_back(make_metrics_view());
  v.push_back(make_code_view());
  v.push_back(make_banks_view());
  v.push_back(make_timings_view());
  v.push_back(make_bank_lab_view());
  v.push_back(make_gallery_view());
  v.push_back(make_glossary_view());
  return v;
}

View* find_view(const Views& views, ViewId id) {
  for (const auto& v : views)
    if (v->id == id) return v.get();
  return nullptr;
}

}  // namespace redlab::gui
