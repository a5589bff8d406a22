// A view's name, inside the program and out ("tree", "bank_lab": REDLAB_GUI_HIDE, --export-view, a lesson's look:,
// an export's file name). Views register themselves with the window (gui/views/views.h: RegisterView), each with its
// id; the model names here only the views it works with itself (the layouts place them, a lesson looks at them, an
// exercise opens the code view). A view the model does not name needs nothing here.
#pragma once
#include <string_view>

namespace redlab::model {

class ViewId {
 public:
  // `key` lives as long as the program: a string literal (the views below, a view's registration).
  constexpr explicit ViewId(const char* key) : key_(key) {}
  constexpr const char* key() const { return key_; }
  friend constexpr bool operator==(ViewId a, ViewId b) { return std::string_view(a.key_) == std::string_view(b.key_); }
  friend constexpr bool operator<(ViewId a, ViewId b) { return std::string_view(a.key_) < std::string_view(b.key_); }

  static const ViewId scenario, warps, tree, tile, ring, cluster, compare, metrics, code, banks, timings, bank_lab,
      gallery, lesson, glossary;

 private:
  const char* key_;
};

inline constexpr ViewId ViewId::scenario{"scenario"};
inline constexpr ViewId ViewId::warps{"warps"};
inline constexpr ViewId ViewId::tree{"tree"};
inline constexpr ViewId ViewId::tile{"tile"};
inline constexpr ViewId ViewId::ring{"ring"};
inline constexpr ViewId ViewId::cluster{"cluster"};
inline constexpr ViewId ViewId::compare{"compare"};
inline constexpr ViewId ViewId::metrics{"metrics"};
inline constexpr ViewId ViewId::code{"code"};
inline constexpr ViewId ViewId::banks{"banks"};
inline constexpr ViewId ViewId::timings{"timings"};
inline constexpr ViewId ViewId::bank_lab{"bank_lab"};
inline constexpr ViewId ViewId::gallery{"gallery"};
inline constexpr ViewId ViewId::lesson{"lesson"};
inline constexpr ViewId ViewId::glossary{"glossary"};

// The views the model names, in the View menu's order.
inline constexpr ViewId kViewIds[] = {ViewId::scenario, ViewId::warps,   ViewId::tree,    ViewId::tile,
                                      ViewId::ring,     ViewId::cluster, ViewId::compare, ViewId::metrics,
                                      ViewId::code,     ViewId::banks,   ViewId::timings, ViewId::bank_lab,
                                      ViewId::gallery,  ViewId::lesson,  ViewId::glossary};

inline const char* view_key(ViewId v) { return v.key(); }

}  // namespace redlab::model
