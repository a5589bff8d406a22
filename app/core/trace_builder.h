// Builds a Trace from traced launches, chunk by chunk: the per-step sums and block hashes that the trace
// analysis (kernels/trace_analysis.h) computed on the device, the checks that every block ran the same
// steps, per-step cycles from clock64, and full detail (every request's lanes) for the focus blocks.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/trace_analysis.h"
#include "core/plan.h"
#include "core/trace.h"

namespace redlab {

// Host copies of raw trace arrays (rec::Buffers): one focus block's or the launch row, in the drivers.
struct RawTrace {
  rec::Layout layout;
  std::vector<rec::LaneRecord> lanes;
  std::vector<std::uint32_t> active;
  std::vector<long long> clocks;
  std::vector<rec::StepRecord> steps;
  std::vector<std::uint32_t> steps_min, steps_max;
  std::uint32_t overflow = 0;
  std::uint32_t last_block = ~0u;

  void resize(const rec::Layout&);  // allocates every array for the layout
  void clear();  // initial values: zero, steps_min = ~0
};

// Block `block` of a chunk's layout, alone: the layout focus blocks are copied to the host with.
rec::Layout one_block_layout(const rec::Layout&, std::uint32_t block);

// Host copies of one chunk's analysis (rec::Analysis) and of the small raw arrays the checks need.
struct ChunkSummary {
  rec::Layout layout;
  std::vector<unsigned long long> sums;  // [step][rec::Sum]
  std::vector<unsigned long long> block_hash;  // [block]
  std::vector<rec::StepRecord> steps;  // [block][step]
  std::vector<std::uint32_t> steps_min, steps_max;
  std::vector<long long> clocks;  // [row][step][warp]; empty unless clocks are measured
  std::uint32_t overflow = 0;
  std::uint32_t last_block = ~0u;  // the block that wrote the launch row, if any
};

// The whole analysis of a chunk on the host: what the drivers get from a device, computed from a host copy
// of the raw records (the launch row, tests; the emulator runs the same code through Device::analyse_trace).
ChunkSummary summarise(const RawTrace&);

// A traced block recorded more steps, or more requests of a class in a step, than the layout had room for: the
// record's formulas are room to start with, not a promise, so the run is traced again with more (TraceBuilder::grow).
struct TraceRoomShort : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The clock deltas of one step, every warp's, as counts: the exact median without holding 4.7 million deltas one by
// one at 2^24 elements (the page faults of filling them were a third of the builder's time, and the builder is what
// a GPU trace waits for). Deltas under kCounted cycles are counted; the rarer longer ones are kept as they are.
class CycleCounts {
 public:
  static constexpr std::uint32_t kCounted = 1u << 14;  // 64 KiB of counts per step
  void add(std::uint64_t delta) {
    if (delta < kCounted) {
      if (counts_.empty()) counts_.assign(kCounted, 0);
      ++counts_[delta];
    } else {
      longer_.push_back(delta);
    }
    ++total_;
  }
  std::uint64_t size() const { return total_; }
  // The middle delta, or the mean of the two middle ones when their number is even; none when there are none.
  std::optional<double> median();

 private:
  std::uint64_t smallest(std::uint64_t k);  // the k-th smallest (from 0)
  std::vector<std::uint32_t> counts_;  // [delta]
  std::vector<std::uint64_t> longer_;
  std::uint64_t total_ = 0;
};

// How the steps are counted: the record's trace_shape gives the room a block's trace starts with; the steps are
// what block 0 of the first chunk recorded (every thread calls probe.step for every step, and every block runs the
// same steps), so a kernel that makes fewer steps than its formula says is traced as it is, and one that makes
// more is traced again with twice the room.
class TraceBuilder {
 public:
  TraceBuilder(const Plan&, bool measured_clocks);

  // The layout for blocks [lo, hi) of the first launch.
  rec::Layout layout(std::uint32_t lo, std::uint32_t hi) const;
  // Blocks per chunk so that one chunk's raw buffers stay within `budget` bytes (at least 1).
  std::uint32_t blocks_per_chunk(std::size_t budget) const;

  // Adds one chunk; chunks must come in block order. Throws TraceRoomShort when a block needed more room, and
  // std::runtime_error when the kernel broke a probe rule (steps not the same in every thread and block).
  void add(const ChunkSummary&);
  // Starts again with twice the room for steps and for each class's requests (at least one); false, and nothing
  // changed, when one block's trace would then take more than `budget` bytes or kMaxRoomSteps steps.
  bool grow(std::size_t budget);
  static constexpr unsigned kMaxRoomSteps = 4096;
  // Full detail of one focus block: a RawTrace whose layout holds that block alone, after its chunk's add().
  void add_focus(const RawTrace&);
  // Single-pass kernels: the launch row of the first chunk's run (layout block = the grid size, a block
  // that does not exist, so its hash names no real block), written by `block`.
  void add_launch_row(const RawTrace&, std::uint32_t block);
  const std::vector<std::uint32_t>& focus_blocks() const { return trace_.scenario.focus_blocks; }
  // The kernel faulted (KernelFault) in `fault.block`, whose raw records up to there are `row` (a RawTrace of that
  // block alone): the trace becomes that block's steps from the first to the fault's, its figures and its detail
  // (the only focus block), and no other chunk is added. Throws TraceRoomShort as add() does.
  void add_fault(const RawTrace& row, const Fault& fault);
  bool faulted() const { return trace_.fault.has_value(); }

  // What a record's site (rec::LaneRecord::site) names: the emulator's records hold a number its table of places names
  // (file, line, column), which the executor gives here before the first chunk; the GPU's hold 0 (not known).
  struct SourcePlace {
    std::string file;
    std::uint32_t line = 0, column = 0;
  };
  void name_sites(std::function<SourcePlace(std::uint16_t)> names) { site_names_ = std::move(names); }

  Trace& trace() { return trace_; }
  // A focus block's steps as the finished trace will hold them: its own row, and where it took a single-pass
  // kernel's last ticket, the launch row's steps over them. Null when `block` is not in focus.
  const FocusBlock* focus_with_launch_row(std::uint32_t block);
  // Finalises per-step cycles and returns the trace (result fields are the caller's).
  Trace finish();

 private:
  Plan plan_;
  Trace trace_;
  bool measured_clocks_;
  TraceShape shape_;
  unsigned steps_ = 0;
  std::uint32_t next_block_ = 0;
  std::vector<CycleCounts> cycles_;  // [step]: every warp's delta
  std::uint64_t hash_ = rec::kHashBasis;
  bool has_launch_row_ = false;
  std::uint64_t launch_hash_ = 0;
  std::uint32_t launch_block_ = 0;
  std::vector<std::vector<WarpStep>> launch_detail_;  // when launch_block_ is in focus
  std::function<SourcePlace(std::uint16_t)> site_names_;  // empty: a site is a line

  void add_sums(const std::vector<unsigned long long>&);
  std::vector<std::vector<WarpStep>> decode(const RawTrace&);  // one block's full detail
  void place_access(WarpAccess&, std::uint16_t site);  // its line, column and file
};

std::string step_label(rec::Phase, rec::Label, std::int32_t param);

}  // namespace redlab
