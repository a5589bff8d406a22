#include "model/ring_model.h"

#include <algorithm>
#include <cstddef>

#include "core/allreduce.h"

namespace redlab::model {

RingPicture ring_picture(const Trace& t, int step) {
  RingPicture p;
  if (t.gpus < 2 || t.transfers.empty() || t.gpus > 32) return p;
  const unsigned g = t.gpus;
  const std::uint64_t n = t.scenario.n;
  p.gpus = g;
  p.step = std::clamp(step, -1, int(t.transfers.size()) - 1);
  p.buffer_bytes = n * elem_size(t.scenario.type);
  p.lower_bound_bytes = allreduce::lower_bound_bytes_per_gpu(g, double(p.buffer_bytes));
  p.holds.assign(g, std::vector<std::uint32_t>(g, 0));
  for (unsigned i = 0; i < g; ++i)
    for (unsigned c = 0; c < g; ++c) p.holds[i][c] = 1u << i;
  p.sent.assign(g, 0);
  p.received.assign(g, 0);
  p.link.assign(g, std::vector<std::uint64_t>(g, 0));
  p.link_so_far = p.link;
  std::vector<std::vector<bool>> used(g, std::vector<bool>(g, false));
  std::vector<std::vector<std::uint64_t>> run_bytes(g, std::vector<std::uint64_t>(g, 0));
  for (const auto& step_transfers : t.transfers)
    for (const GpuTransfer& x : step_transfers)
      if (x.from < g && x.to < g && x.from != x.to) {
        used[x.from][x.to] = true;
        run_bytes[x.from][x.to] += x.bytes;
      }
  for (unsigned a = 0; a < g; ++a)
    for (unsigned b = 0; b < g; ++b)
      if (used[a][b]) {
        p.links_used.push_back({a, b});
        p.links_used_bytes.push_back(run_bytes[a][b]);
      }
  for (int s = 0; s <= p.step; ++s) {
    // A step's transfers run at once: each reads the sender as the step found it.
    const auto before = p.holds;
    for (const GpuTransfer& x : t.transfers[std::size_t(s)]) {
      if (x.from >= g || x.to >= g) continue;
      // The whole buffer (naive, tree) carries every chunk; the ring's transfers carry their own (one that n < G
      // leaves empty moves too, with no bytes).
      const bool whole = x.lo == 0 && x.hi == n;
      for (unsigned c = 0; c < g; ++c) {
        if (!whole && c != x.chunk) continue;
        if (x.combine)
          p.holds[x.to][c] |= before[x.from][c];
        else
          p.holds[x.to][c] = before[x.from][c];
      }
      p.sent[x.from] += x.bytes;
      p.received[x.to] += x.bytes;
      p.link_so_far[x.from][x.to] += x.bytes;
      if (s == p.step) p.link[x.from][x.to] += x.bytes;
    }
  }
  if (p.step >= 0) p.moving = t.transfers[std::size_t(p.step)];
  return p;
}

}  // namespace redlab::model
