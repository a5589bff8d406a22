// Every window of the GUI, registered once (ImHex's registerViews). The order is the order they are drawn in
// and listed in the View menu; each view's file says what it shows and where it goes first.
#include "views.h"

namespace redlab::gui {

Views make_views() {
  Views v;
  v.push_back(make_scenario_view());
  v.push_back(make_warps_view());
  v.push_back(make_tree_view());
  v.push_back(make_tile_view());
  v.push_back(make_compare_view());
  v.push_back(make_metrics_view());
  v.push_back(make_code_view());
  v.push_back(make_banks_view());
  v.push_back(make_timings_view());
  v.push_back(make_bank_lab_view());
  return v;
}

View* find_view(const Views& views, const std::string& id) {
  for (const auto& v : views)
    if (v->id == id) return v.get();
  return nullptr;
}

}  // namespace redlab::gui
