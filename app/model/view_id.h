// The window's views, by name inside the program; their text names ("tree", "bank_lab") are for what comes in
// and goes out: REDLAB_GUI_HIDE, --export-view, the export's file names.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace redlab::model {

enum class ViewId : std::uint8_t { scenario, warps, tree, tile, compare, metrics, code, banks, timings, bank_lab, gallery, lesson, glossary, ring };
inline constexpr ViewId kViewIds[] = {ViewId::scenario, ViewId::warps,  ViewId::tree,    ViewId::tile,   ViewId::ring,
                                      ViewId::compare,  ViewId::metrics, ViewId::code,   ViewId::banks,
                                      ViewId::timings,  ViewId::bank_lab, ViewId::gallery, ViewId::lesson, ViewId::glossary};

const char* view_key(ViewId);
std::optional<ViewId> parse_view(const std::string&);

}  // namespace redlab::model
