#include "traced_run.h"

#include <algorithm>
#include <chrono>
#include <type_traits>

namespace redlab {

RawDeviceTrace::RawDeviceTrace(Device& d, const rec::Layout& l)
    : lanes(d, l.lane_records() * sizeof(rec::LaneRecord)),
      active(d, l.warp_steps() * 4),
      clocks(d, l.clock_entries() * 8),
      steps(d, std::size_t(l.rows()) * l.max_steps * sizeof(rec::StepRecord)),
      steps_min(d, l.blocks() * 4),
      steps_max(d, l.blocks() * 4),
      overflow(d, 4),
      last_block(d, 4),
      sums(d, std::size_t(l.max_steps) * rec::kSums * 8),
      warp_hash(d, l.warp_steps() * 8),
      block_hash(d, l.blocks() * 8) {
  buffers.lanes = static_cast<rec::LaneRecord*>(lanes.p);
  buffers.active = static_cast<std::uint32_t*>(active.p);
  buffers.clocks = static_cast<long long*>(clocks.p);
  buffers.steps = static_cast<rec::StepRecord*>(steps.p);
  buffers.steps_min = static_cast<std::uint32_t*>(steps_min.p);
  buffers.steps_max = static_cast<std::uint32_t*>(steps_max.p);
  buffers.overflow = static_cast<std::uint32_t*>(overflow.p);
  buffers.last_block = static_cast<std::uint32_t*>(last_block.p);
  analysis.sums = static_cast<unsigned long long*>(sums.p);
  analysis.warp_hash = static_cast<unsigned long long*>(warp_hash.p);
  analysis.block_hash = static_cast<unsigned long long*>(block_hash.p);
}

void RawDeviceTrace::clear(Device& d, const rec::Layout& l) {
  d.fill(lanes.p, 0, l.lane_records() * sizeof(rec::LaneRecord));
  d.fill(active.p, 0, l.warp_steps() * 4);
  d.fill(clocks.p, 0, l.clock_entries() * 8);
  d.fill(steps.p, 0, std::size_t(l.rows()) * l.max_steps * sizeof(rec::StepRecord));
  d.fill(steps_min.p, 0xff, l.blocks() * 4);
  d.fill(steps_max.p, 0, l.blocks() * 4);
  d.fill(overflow.p, 0, 4);
  d.fill(last_block.p, 0xff, 4);
  d.fill(sums.p, 0, std::size_t(l.max_steps) * rec::kSums * 8);
}

ChunkSummary RawDeviceTrace::summary(Device& d, const rec::Layout& l) const {
  ChunkSummary c;
  c.layout = l;
  c.sums.resize(std::size_t(l.max_steps) * rec::kSums);
  c.block_hash.resize(l.blocks());
  c.steps.resize(std::size_t(l.blocks()) * l.max_steps);   // the blocks' rows (the launch row is not checked)
  c.steps_min.resize(l.blocks());
  c.steps_max.resize(l.blocks());
  d.download(c.sums.data(), sums.p, c.sums.size() * 8);
  d.download(c.block_hash.data(), block_hash.p, c.block_hash.size() * 8);
  d.download(c.steps.data(), steps.p, c.steps.size() * sizeof(rec::StepRecord));
  d.download(c.steps_min.data(), steps_min.p, l.blocks() * 4);
  d.download(c.steps_max.data(), steps_max.p, l.blocks() * 4);
  d.download(&c.overflow, overflow.p, 4);
  d.download(&c.last_block, last_block.p, 4);
  if (d.measures_clocks()) {
    c.clocks.resize(std::size_t(l.blocks()) * (l.max_steps + 1) * l.warps);
    d.download(c.clocks.data(), clocks.p, c.clocks.size() * 8);
  }
  return c;
}

RawTrace RawDeviceTrace::row(Device& d, const rec::Layout& l, std::uint32_t row, std::uint32_t block) const {
  RawTrace r;
  r.resize(one_block_layout(l, block));
  auto part = [&d, row](auto& to, const DeviceBuffer& from) {
    using T = typename std::decay_t<decltype(to)>::value_type;
    d.download(to.data(), static_cast<const T*>(from.p) + std::uint64_t(row) * to.size(), to.size() * sizeof(T));
  };
  part(r.lanes, lanes);
  part(r.active, active);
  part(r.clocks, clocks);
  part(r.steps, steps);
  if (row < l.blocks()) {
    part(r.steps_min, steps_min);
    part(r.steps_max, steps_max);
  }
  d.download(&r.overflow, overflow.p, 4);
  return r;
}

namespace {

void trace_each_chunk(Device& dev, TraceBuilder& builder, std::size_t budget,
                      const std::function<void(const rec::Layout&, const rec::Buffers&)>& run_first,
                      RunControl* control, bool chunk_runs_its_blocks) {
  const std::uint32_t grid = builder.trace().grid;
  const std::uint32_t chunk = builder.blocks_per_chunk(budget);
  RawDeviceTrace raw(dev, builder.layout(0, chunk));
  // Each chunk reruns the whole launch (only its blocks record).
  if (control) {
    control->chunks = (grid + chunk - 1) / chunk;
    control->blocks_expected = chunk_runs_its_blocks ? std::uint64_t(grid) : std::uint64_t(grid) * control->chunks;
    control->blocks_run = 0;
    control->chunks_done = 0;
  }
  bool launch_row_added = false;
  for (std::uint32_t lo = 0; lo < grid; lo += chunk) {
    if (control && control->cancel) throw RunCancelled();
    const rec::Layout layout = builder.layout(lo, std::min(grid, lo + chunk));
    raw.clear(dev, layout);
    try {
      run_first(layout, raw.buffers);
    } catch (const KernelFault& e) {
      // A fault in a block of this chunk after its first step: the trace keeps that block up to it.
      if (!e.fault || e.fault->block < layout.block_lo || e.fault->block >= layout.block_hi) throw;
      builder.add_fault(raw.row(dev, layout, e.fault->block - layout.block_lo, e.fault->block), *e.fault);
      return;
    }
    dev.analyse_trace(layout, raw.buffers, raw.analysis);
    const ChunkSummary summary = raw.summary(dev, layout);
    builder.add(summary);
    // Single-pass kernels: the steps after the last ticket, recorded once per run; the first run's count.
    if (layout.launch_row && (lo == 0 || chunk_runs_its_blocks) && summary.last_block != ~0u && !launch_row_added) {
      builder.add_launch_row(raw.row(dev, layout, layout.blocks(), grid), summary.last_block);
      launch_row_added = true;
    }
    for (std::uint32_t block : builder.focus_blocks())
      if (block >= layout.block_lo && block < layout.block_hi)
        builder.add_focus(raw.row(dev, layout, block - layout.block_lo, block));
    if (control) {
      control->blocks_run = chunk_runs_its_blocks ? std::uint64_t(std::min(grid, lo + chunk))
                                                  : std::uint64_t(grid) * (lo / chunk + 1);
      control->chunks_done = lo / chunk + 1;
    }
  }
}

}  // namespace

void trace_in_chunks(Device& dev, TraceBuilder& builder, std::size_t budget,
                     const std::function<void(const rec::Layout&, const rec::Buffers&)>& run_first,
                     RunControl* control, bool chunk_runs_its_blocks) {
  const auto t0 = std::chrono::steady_clock::now();
  // The record's formulas are the room a block's trace starts with: a kernel that needs more is traced again
  // with twice the room (a student's kernel file that makes another step than the one it was copied from).
  for (;;) {
    try {
      trace_each_chunk(dev, builder, budget, run_first, control, chunk_runs_its_blocks);
      break;
    } catch (const TraceRoomShort&) {
      if (!builder.grow(budget)) throw;
    }
  }
  builder.trace().trace_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace redlab
