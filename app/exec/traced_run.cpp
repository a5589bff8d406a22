#include "exec/traced_run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <optional>
#include <ratio>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

namespace redlab {

namespace {

// The summary's arrays one after another, each 256-byte aligned (as an allocation of its own would be).
std::size_t place(RawDeviceTrace::Part& part, std::size_t bytes, std::size_t at) {
  part.offset = at;
  return (at + bytes + 255) / 256 * 256;
}

template <class T>
T* at(const DeviceBuffer& region, const RawDeviceTrace::Part& part) {
  return reinterpret_cast<T*>(static_cast<char*>(region.p) + part.offset);
}

}  // namespace

RawDeviceTrace::RawDeviceTrace(Device& d, const rec::Layout& l)
    : lanes(d, l.lane_records() * sizeof(rec::LaneRecord)),
      active(d, l.warp_steps() * 4),
      warp_hash(d, l.warp_steps() * 8),
      slots_written(d.counts_written_slots() ? DeviceBuffer(d, l.warp_steps() * rec::kClasses * sizeof(std::uint16_t))
                                             : DeviceBuffer()) {
  std::size_t end = 0;
  end = place(steps, std::size_t(l.rows()) * l.max_steps * sizeof(rec::StepRecord), end);
  end = place(steps_min, l.blocks() * 4, end);
  end = place(steps_max, l.blocks() * 4, end);
  end = place(overflow, 4, end);
  end = place(last_block, 4, end);
  end = place(sums, std::size_t(l.max_steps) * rec::kSums * 8, end);
  end = place(block_hash, l.blocks() * 8, end);
  end = place(clocks, l.clock_entries() * 8, end);
  summary_bytes = end;
  summary_region = DeviceBuffer(d, summary_bytes);
  summary_staging = HostBuffer(d, summary_bytes);
  buffers.lanes = static_cast<rec::LaneRecord*>(lanes.p);
  buffers.active = static_cast<std::uint32_t*>(active.p);
  buffers.slots_written = static_cast<std::uint16_t*>(slots_written.p);
  buffers.clocks = at<long long>(summary_region, clocks);
  buffers.steps = at<rec::StepRecord>(summary_region, steps);
  buffers.steps_min = at<std::uint32_t>(summary_region, steps_min);
  buffers.steps_max = at<std::uint32_t>(summary_region, steps_max);
  buffers.overflow = at<std::uint32_t>(summary_region, overflow);
  buffers.last_block = at<std::uint32_t>(summary_region, last_block);
  analysis.sums = at<unsigned long long>(summary_region, sums);
  analysis.warp_hash = static_cast<unsigned long long*>(warp_hash.p);
  analysis.block_hash = at<unsigned long long>(summary_region, block_hash);
}

void RawDeviceTrace::clear(Device& d, const rec::Layout& l) {
  if (buffers.slots_written)
    d.fill(slots_written.p, 0, l.warp_steps() * rec::kClasses * sizeof(std::uint16_t));
  else
    d.fill(lanes.p, 0, l.lane_records() * sizeof(rec::LaneRecord));
  d.fill(active.p, 0, l.warp_steps() * 4);
  d.fill(summary_region.p, 0, summary_bytes);
  d.fill(buffers.steps_min, 0xff, l.blocks() * 4);
  d.fill(buffers.last_block, 0xff, 4);
}

ChunkSummary RawDeviceTrace::summary(Device& d, const rec::Layout& l) const {
  // The clocks only where they are measured: the rest is small.
  const bool with_clocks = d.measures_clocks();
  const unsigned char* bytes = static_cast<const unsigned char*>(summary_staging.p);
  d.download(summary_staging.p, summary_region.p, with_clocks ? summary_bytes : clocks.offset);
  auto take = [bytes](auto& to, const Part& part, std::size_t count) {
    using T = typename std::decay_t<decltype(to)>::value_type;
    to.resize(count);
    std::memcpy(to.data(), bytes + part.offset, count * sizeof(T));
  };
  ChunkSummary c;
  c.layout = l;
  take(c.sums, sums, std::size_t(l.max_steps) * rec::kSums);
  take(c.block_hash, block_hash, l.blocks());
  take(c.steps, steps, std::size_t(l.blocks()) * l.max_steps);  // the blocks' rows (the launch row is not checked)
  take(c.steps_min, steps_min, l.blocks());
  take(c.steps_max, steps_max, l.blocks());
  std::memcpy(&c.overflow, bytes + overflow.offset, 4);
  std::memcpy(&c.last_block, bytes + last_block.offset, 4);
  if (with_clocks) take(c.clocks, clocks, std::size_t(l.blocks()) * (l.max_steps + 1) * l.warps);
  return c;
}

RawTrace RawDeviceTrace::row(Device& d, const rec::Layout& l, std::uint32_t row, std::uint32_t block) const {
  RawTrace r;
  r.resize(one_block_layout(l, block));
  auto part = [&d, row](auto& to, const void* from) {
    using T = typename std::decay_t<decltype(to)>::value_type;
    d.download(to.data(), static_cast<const T*>(from) + std::uint64_t(row) * to.size(), to.size() * sizeof(T));
  };
  part(r.lanes, buffers.lanes);
  if (buffers.slots_written) {
    std::vector<std::uint16_t> written(r.active.size() * rec::kClasses);
    part(written, buffers.slots_written);
    for (std::size_t ws = 0; ws < r.active.size(); ++ws)
      for (unsigned c = 0; c < unsigned(rec::kClasses); ++c) {
        rec::LaneRecord* slots = r.lanes.data() + (ws * l.slots_total + l.slot_base[c]) * 32;
        std::fill(slots + std::size_t(written[ws * rec::kClasses + c]) * 32, slots + std::size_t(l.slots[c]) * 32,
                  rec::LaneRecord{});
      }
  }
  part(r.active, buffers.active);
  part(r.clocks, buffers.clocks);
  part(r.steps, buffers.steps);
  if (row < l.blocks()) {
    part(r.steps_min, buffers.steps_min);
    part(r.steps_max, buffers.steps_max);
  }
  d.download(&r.overflow, buffers.overflow, 4);
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
  // On a GPU the builder's part of a chunk (checking its steps, adding its sums, gathering every warp's cycles:
  // 35-50 ms of a 2^24 trace on an H100's host) runs on a thread of its own while the GPU runs the next chunk;
  // the chunks still reach the builder in order, and what it throws (a trace short of room) is thrown here at
  // the next chunk. On the emulator the host is the device: one thread does both, as before.
  const bool overlap = dev.backend() != Backend::emulator;
  std::future<void> adding;
  auto add_in_order = [&](ChunkSummary summary, std::optional<RawTrace> launch_row, std::vector<RawTrace> focus) {
    auto work = [&builder, summary = std::move(summary), launch_row = std::move(launch_row),
                 focus = std::move(focus)]() {
      builder.add(summary);
      if (launch_row) builder.add_launch_row(*launch_row, summary.last_block);
      for (const RawTrace& row : focus) builder.add_focus(row);
    };
    if (adding.valid()) adding.get();
    if (overlap)
      adding = std::async(std::launch::async, std::move(work));
    else
      work();
  };
  for (std::uint32_t lo = 0; lo < grid; lo += chunk) {
    if (control && control->cancel) throw RunCancelled();
    const rec::Layout layout = builder.layout(lo, std::min(grid, lo + chunk));
    raw.clear(dev, layout);
    dev.expect_analysis(layout, raw.buffers, raw.analysis);
    try {
      run_first(layout, raw.buffers);
    } catch (const KernelFault& e) {
      // A fault in a block of this chunk after its first step: the trace keeps that block up to it.
      if (!e.fault || e.fault->block < layout.block_lo || e.fault->block >= layout.block_hi) throw;
      if (adding.valid()) adding.get();
      builder.add_fault(raw.row(dev, layout, e.fault->block - layout.block_lo, e.fault->block), *e.fault);
      return;
    }
    dev.analyse_trace(layout, raw.buffers, raw.analysis);
    ChunkSummary summary = raw.summary(dev, layout);
    // What the builder needs of this chunk's raw records is copied out now: the next chunk overwrites them.
    // Single-pass kernels: the steps after the last ticket, recorded once per run; the first run's count.
    std::optional<RawTrace> launch_row;
    if (layout.launch_row && (lo == 0 || chunk_runs_its_blocks) && summary.last_block != ~0u && !launch_row_added) {
      launch_row = raw.row(dev, layout, layout.blocks(), grid);
      launch_row_added = true;
    }
    std::vector<RawTrace> focus;
    for (std::uint32_t block : builder.focus_blocks())
      if (block >= layout.block_lo && block < layout.block_hi)
        focus.push_back(raw.row(dev, layout, block - layout.block_lo, block));
    add_in_order(std::move(summary), std::move(launch_row), std::move(focus));
    if (control) {
      control->blocks_run =
          chunk_runs_its_blocks ? std::uint64_t(std::min(grid, lo + chunk)) : std::uint64_t(grid) * (lo / chunk + 1);
      control->chunks_done = lo / chunk + 1;
    }
  }
  if (adding.valid()) adding.get();
}

}  // namespace

void trace_in_chunks(Device& dev, TraceBuilder& builder, std::size_t budget,
                     const std::function<void(const rec::Layout&, const rec::Buffers&)>& run_first, RunControl* control,
                     bool chunk_runs_its_blocks) {
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
