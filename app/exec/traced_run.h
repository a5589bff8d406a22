// Tracing the first launch of a scenario, in chunks of blocks that fit a memory budget: the part the
// reduction and transpose drivers share. Each chunk reruns the whole launch with only its blocks recording;
// the device then analyses the chunk's records where they lie (kernels/trace_analysis.h), and only the
// per-step sums, block hashes, step records, clocks and the focus blocks' raw records are copied back.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/trace_builder.h"
#include "exec/device.h"
#include "exec/device_memory.h"

namespace redlab {

// The raw arrays (rec::Buffers) and the analysis arrays (rec::Analysis) of one chunk on a device. What comes
// back of a chunk (the summary: steps, their counts, sums, block hashes, clocks) lies in one allocation, so that
// it comes back in one copy: the copies' latency, eight a chunk, was an eighth of a traced run at 2^24 on an H100.
struct RawDeviceTrace {
  DeviceBuffer lanes, active, warp_hash;
  DeviceBuffer slots_written;  // where the device counts them (Device::counts_written_slots), else empty
  DeviceBuffer summary_region;  // the arrays below, each at its offset
  HostBuffer summary_staging;  // where the summary comes back to
  struct Part {
    std::size_t offset = 0;  // bytes from the region's start
  };
  Part steps, steps_min, steps_max, overflow, last_block, sums, block_hash, clocks;
  std::size_t summary_bytes = 0;
  rec::Buffers buffers;
  rec::Analysis analysis;

  RawDeviceTrace(Device&, const rec::Layout&);
  // The initial values the probe expects (zero, steps_min at ~0) and zero sums. Where the device counts the slots
  // written, the counts are cleared and the lane records left.
  void clear(Device&, const rec::Layout&);
  // After the device's analyse_trace(): the chunk's summary.
  ChunkSummary summary(Device&, const rec::Layout&) const;
  // Row `row`'s raw arrays (a focus block's, or the launch row) as block `block` alone, every slot past a count of
  // slots written cleared: as a GPU's row.
  RawTrace row(Device&, const rec::Layout&, std::uint32_t row, std::uint32_t block) const;
};

// Runs `run_first(layout, buffers)` once per chunk of at most `budget` bytes of trace memory, analyses each
// chunk on the device and adds it (and its focus blocks) to `builder`. Sets the trace's trace_ms.
// With `control`: blocks_expected and blocks_run follow the chunks; a cancel stops the next chunk (RunCancelled).
// `chunk_runs_its_blocks`: run_first runs only the chunk's blocks (the emulator: set_block_range), so the
// chunks together are one launch; the launch row is then recorded in the chunk where the last ticket falls.
// A KernelFault that says where (the emulator's race, bad index, deadlock) ends the tracing with the faulting
// block's steps up to it (TraceBuilder::add_fault); one that does not is thrown on.
void trace_in_chunks(Device&, TraceBuilder&, std::size_t budget,
                     const std::function<void(const rec::Layout&, const rec::Buffers&)>& run_first,
                     RunControl* control = nullptr, bool chunk_runs_its_blocks = false);

}  // namespace redlab
