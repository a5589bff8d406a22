#include "model/cluster_model.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <utility>

#include "core/catalog.h"

namespace redlab::model {

ClusterPicture cluster_picture(const Trace& t, int step, std::size_t focus) {
  ClusterPicture p;
  const KernelRecord* k = find_kernel(t.scenario.kernel);
  if (!k || !k->clustered || focus >= t.focus.size() || t.steps.empty()) return p;
  const unsigned size = std::max(1u, t.scenario.cluster);
  p.size = size;
  p.step = std::clamp(step, -1, int(t.steps.size()) - 1);
  p.index = t.focus[focus].block / size;
  const std::uint32_t first = p.index * size;
  std::map<std::pair<unsigned, unsigned>, ClusterArrow> arrows;
  for (unsigned rank = 0; rank < size; ++rank) {
    ClusterBlock b;
    b.block = first + rank;
    const FocusBlock* f = nullptr;
    for (const FocusBlock& x : t.focus)
      if (x.block == b.block) f = &x;
    b.recorded = f != nullptr;
    if (f) {
      for (int s = 0; s <= p.step && std::size_t(s) < f->steps.size(); ++s)
        for (const WarpStep& w : f->steps[std::size_t(s)])
          for (const WarpAccess& a : w.accesses) {
            for (std::uint32_t m = a.mask; m; m &= m - 1) {
              const unsigned lane = unsigned(__builtin_ctz(m));
              if (a.space == Space::shared && a.kind == AccessKind::store && a.addr[lane] == 0)
                b.partial = a.bits[lane];
              const bool out = a.space == Space::global && a.buffer == unsigned(rec::Buffer::output) &&
                               (a.kind == AccessKind::store || a.kind == AccessKind::atomic);
              if (out) p.result = a.bits[lane];
              if (a.space != Space::remote_shared || s != p.step) continue;
              const unsigned from = rec::remote_rank(a.addr[lane]);
              ClusterArrow& arrow = arrows[{from, rank}];
              if (arrow.lanes == 0) arrow.bits = a.bits[lane];
              arrow.from = from;
              arrow.to = rank;
              arrow.store = a.kind == AccessKind::store;
              ++arrow.lanes;
              p.remote_bytes += a.width;
            }
            if (a.space == Space::remote_shared && s == p.step) ++p.remote_requests;
          }
    }
    p.blocks.push_back(b);
  }
  for (auto& [key, arrow] : arrows) p.arrows.push_back(arrow);
  return p;
}

}  // namespace redlab::model
