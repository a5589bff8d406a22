// What the cluster view shows at a step, without drawing it (the view draws this, app/gui): the blocks of one thread
// block cluster in rank order, each with its partial (what its shared s[0] holds after the step) when the trace
// recorded it, the step's reads and writes of another block's shared memory (distributed shared memory) as arrows
// from the block whose memory it is to the block whose threads made them, and the value the cluster wrote once it
// has. Everything comes from the trace's focus blocks (a cluster kernel's focus is whole clusters: core/plan.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/trace.h"

namespace redlab::model {

struct ClusterBlock {
  std::uint32_t block = 0;  // its index in the grid
  bool recorded = false;  // in focus: its partial and its accesses are known
  std::optional<std::uint64_t> partial;  // s[0] (shared byte 0) after the step, as bits; none before a store there
};

// The lanes of one step that moved values between two blocks of the cluster.
struct ClusterArrow {
  unsigned from = 0, to = 0;  // ranks: whose shared memory, whose threads
  bool store = false;  // `to`'s threads wrote into `from`'s memory (else they read it)
  unsigned lanes = 0;
  std::uint64_t bits = 0;  // the first lane's value
};

struct ClusterPicture {
  unsigned size = 0;  // blocks in the cluster; 0: not a cluster kernel's trace (or no focus detail)
  std::uint32_t index = 0;  // the cluster's index in the grid
  int step = -1;
  std::vector<ClusterBlock> blocks;  // by rank
  std::vector<ClusterArrow> arrows;  // the step's, by (from, to)
  std::uint64_t remote_requests = 0, remote_bytes = 0;  // the step's, over the cluster's recorded blocks
  std::optional<std::uint64_t> result;  // what the cluster wrote to the output or the partials, once written
};

// The picture of the cluster holding focus block `focus` (an index into Trace::focus) at `step` (clamped; -1 before
// the first).
ClusterPicture cluster_picture(const Trace&, int step, std::size_t focus);

}  // namespace redlab::model
