// Turns the raw records of traced launches (kernels/trace_record.h) into a Trace: groups lanes into
// warp-level requests, applies the bank and sector models, sums per-step statistics over all blocks, keeps
// full detail for the focus blocks, and hashes everything into Trace::digest.
#pragma once
#include <vector>

#include "catalog.h"
#include "trace.h"

namespace redlab {

// Host copies of one chunk of raw trace (the arrays of rec::Buffers).
struct RawTrace {
  rec::Layout layout;
  std::vector<rec::LaneRecord> lanes;
  std::vector<std::uint32_t> active;
  std::vector<long long> clocks;
  std::vector<rec::StepRecord> steps;
  std::vector<std::uint32_t> steps_min, steps_max;
  std::uint32_t overflow = 0;

  void resize(const rec::Layout&);   // allocates every array for the layout
  void clear();                      // initial values: zero, steps_min = ~0
};

class TraceBuilder {
 public:
  TraceBuilder(const Scenario&, const KernelInfo&, std::uint32_t grid, bool measured_clocks);

  // The layout for blocks [lo, hi) of the first launch.
  rec::Layout layout(std::uint32_t lo, std::uint32_t hi) const;
  // Blocks per chunk so that one chunk's raw buffers stay within `budget` bytes (at least 1).
  std::uint32_t blocks_per_chunk(std::size_t budget) const;

  // Decodes one chunk; chunks must come in block order. Throws std::runtime_error when the kernel broke a
  // probe rule (steps not block-uniform, more steps or requests than the catalog allows).
  void add(const RawTrace&);

  Trace& trace() { return trace_; }
  // Finalises per-step cycles and returns the trace (result fields are the caller's).
  Trace finish();

 private:
  const KernelInfo& kernel_;
  Trace trace_;
  bool measured_clocks_;
  TraceShape shape_;
  unsigned steps_ = 0;
  std::uint32_t next_block_ = 0;
  std::vector<std::vector<std::int64_t>> cycles_;   // [step] -> per-warp deltas
  std::uint64_t hash_ = 1469598103934665603ull;
};

std::string step_label(rec::Phase, rec::Label, std::int32_t param);

}  // namespace redlab
