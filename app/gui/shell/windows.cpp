// The views' registry (ImHex's registerViews, turned round: each view file registers its own view, views.h). Views
// register while the program starts, in whatever order the linker put their files; the order each gives places it.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace {

using MakeView = std::unique_ptr<View> (*)();

// (A function's static: registrations in other files run before main, in no set order, and may come first.)
std::vector<std::pair<int, MakeView>>& registry() {
  static std::vector<std::pair<int, MakeView>> views;
  return views;
}

}  // namespace

void register_view(int order, MakeView make) { registry().emplace_back(order, make); }

Views make_views() {
  std::vector<std::pair<int, MakeView>> sorted = registry();
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Views v;
  for (const auto& [order, make] : sorted) v.push_back(make());
  return v;
}

View* find_view(const Views& views, ViewId id) {
  for (const auto& v : views)
    if (v->id == id) return v.get();
  return nullptr;
}

View* find_view(const Views& views, const std::string& key) {
  for (const auto& v : views)
    if (key == v->id.key()) return v.get();
  return nullptr;
}

}  // namespace redlab::gui
