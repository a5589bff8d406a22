#include "view_id.h"

namespace redlab::model {

const char* view_key(ViewId v) {
  switch (v) {
    case ViewId::scenario: return "scenario";
    case ViewId::warps: return "warps";
    case ViewId::tree: return "tree";
    case ViewId::tile: return "tile";
    case ViewId::compare: return "compare";
    case ViewId::metrics: return "metrics";
    case ViewId::code: return "code";
    case ViewId::banks: return "banks";
    case ViewId::timings: return "timings";
    case ViewId::bank_lab: return "bank_lab";
    case ViewId::gallery: return "gallery";
    case ViewId::lesson: return "lesson";
    case ViewId::glossary: return "glossary";
    case ViewId::ring: return "ring";
  }
  return "?";
}

std::optional<ViewId> parse_view(const std::string& s) {
  for (ViewId v : kViewIds)
    if (s == view_key(v)) return v;
  return std::nullopt;
}

}  // namespace redlab::model
