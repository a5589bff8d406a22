// What the all-reduce view shows at a step, without drawing it (the view draws this, app/gui): the GPUs, the
// transfers of the step, which GPUs' values each GPU's chunk holds after it (the G x G grid: row a GPU, column a
// chunk of the ring's G), the bytes each GPU has sent and received up to it beside the least any all-reduce sends,
// and the bytes on each link in the step and through it. Everything comes from the trace's transfers (Trace::transfers).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "core/trace.h"

namespace redlab::model {

struct RingPicture {
  unsigned gpus = 0;
  int step = -1;  // -1: before the first step (every GPU holds its own values)
  std::vector<GpuTransfer> moving;  // the step's transfers
  // holds[g][c]: the GPUs (a bit each) whose values GPU g's chunk c holds after the step; all G bits: reduced.
  std::vector<std::vector<std::uint32_t>> holds;
  std::vector<std::uint64_t> sent, received;  // bytes per GPU, through the step
  std::vector<std::vector<std::uint64_t>> link;  // [from][to]: bytes in this step
  // [from][to]: bytes through the step; the links the whole run uses, in (from, to) order (the view's rows stay
  // the same from step to step), and the bytes each carries over the whole run.
  std::vector<std::vector<std::uint64_t>> link_so_far;
  std::vector<std::pair<unsigned, unsigned>> links_used;
  std::vector<std::uint64_t> links_used_bytes;
  double lower_bound_bytes = 0;  // 2 (G-1) / G x S: the least one GPU sends in a whole all-reduce
  std::uint64_t buffer_bytes = 0;  // S: one GPU's buffer
};

// The picture of an all-reduce trace at `step` (clamped to the trace's steps; -1 before the first); an empty
// picture (gpus 0) for a trace that is not an all-reduce's.
RingPicture ring_picture(const Trace&, int step);

// How many GPUs' values a cell holds (the grid's shade: 1 of G .. G of G).
inline unsigned holders(std::uint32_t bits) { return unsigned(__builtin_popcount(bits)); }

}  // namespace redlab::model
