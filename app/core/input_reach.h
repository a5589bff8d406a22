// Which of a block's inputs reached its result (a wrong sum, and which elements it lost): a
// data-flow analysis over the focus blocks' recorded accesses (Trace::focus: every request's lanes, addresses and
// values), in plain C++ like the rest of the core. `stats` prints it when a result is wrong; `stats --json` gives it
// as "lost_inputs".
//
// What flows. Each thread holds the set of input elements its registers may carry, and each shared or global word
// the set its value may carry:
//   - a load adds what the word holds to the thread's set (a thread's registers are not told apart: its set only
//     grows, which fits a reduction, where everything a thread loads goes into its running value);
//   - a shuffle (a `reg` record, which names its source lane) adds the source lane's set;
//   - a step labelled warp_reduce (kernels/warp/warp_reduce.cuh: a whole warp reduced in registers, its shuffles
//     not recorded) gives each of its active lanes what all of them hold;
//   - a store sets the word to the thread's set; an atomic adds the thread's set to the word's (and, reading the
//     word, the word's to the thread's).
// Values that move between lanes with no record (a shuffle without probe.shuffled outside a warp_reduce step) are
// not followed: the probe's dialect records every other way a value moves.
// A word of the input, or of the scratch copy an in-place kernel works on (KernelRecord::in_place_global), holds
// its own element until it is written; every other word starts empty (in particular the partials other blocks
// wrote, which a single-pass kernel's last block reads: not this block's inputs).
//
// Inputs and result. A block's inputs are the input elements it loads (grid-stride and coarsened kernels included:
// every element it loads, wherever it lies; elements past n, the identity an in-place copy is padded with, are not
// inputs). Its result is what it stores or adds atomically to the output, or to the partials (the scratch buffer of
// a kernel that does not work in place on it: vectorized's). An input is lost when no result it wrote carries it.
//
// Clusters. A cluster kernel's block hands its partial to another block, which reads it from the first block's shared
// memory (distributed shared memory): the focus blocks of a cluster are followed together, step by step, a remote
// load taking what the other block's word holds and counting it as that block's result. A block of rank above 0
// is judged only when its whole cluster is in focus (else who read its partial is not known).
//
// Order within a step. The trace keeps a step's requests per access class, not their order across classes (the
// bank model and the digest do not need it). So every load of a step may see every store of the same step, and
// every shuffle every lane's set at the step's end (repeated until no set grows): a may-reach over-approximation.
// An element reported lost reached the result by no order of the step's accesses; a loss that happens inside one
// step (a value overwritten before the step's own load of it) can go unreported.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/trace.h"

namespace redlab {

struct ElementRange {
  std::uint64_t first = 0, last = 0;  // input elements first..last, both included
  bool operator==(const ElementRange&) const = default;
};

struct BlockReach {
  std::uint32_t block = 0;
  std::uint64_t inputs = 0;  // input elements the block loaded
  std::vector<ElementRange> input_ranges;
  std::uint64_t lost = 0;  // of those, the ones no result of the block carries
  std::vector<ElementRange> lost_ranges;
  bool wrote_result = false;  // the block stored (or added atomically) a result at all
};

// One entry per focus block that has recorded detail; none for a kernel without a traced build.
std::vector<BlockReach> input_reach(const Trace&);

// "block 0: inputs 128-255 (128 of 256) never reached its result", or "block 0: all 256 inputs (0-255) reached
// its result". At most `max_ranges` ranges are listed, then how many more.
std::string describe_reach(const BlockReach&, std::size_t max_ranges = 8);

}  // namespace redlab
