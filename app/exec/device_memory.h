// Device memory the drivers and bench share: an owning buffer, and the raw trace arrays of one chunk.
#pragma once
#include <cstdint>
#include <utility>

#include "../core/trace_builder.h"
#include "device.h"

namespace redlab {

// Device memory released on scope exit; movable, not copyable.
struct DeviceBuffer {
  Device* dev = nullptr;
  void* p = nullptr;
  DeviceBuffer() = default;
  DeviceBuffer(Device& d, std::size_t bytes) : dev(&d), p(d.alloc(bytes ? bytes : 1)) {}
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : dev(o.dev), p(o.p) { o.p = nullptr; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(dev, o.dev);
    std::swap(p, o.p);
    return *this;
  }
  ~DeviceBuffer() {
    if (p) dev->release(p);
  }
};

// The arrays of rec::Buffers on a device, sized for one chunk's layout.
struct RawDeviceTrace {
  DeviceBuffer lanes, active, clocks, steps, steps_min, steps_max, overflow;
  rec::Buffers buffers;

  RawDeviceTrace(Device& d, const rec::Layout& l)
      : lanes(d, l.lane_records() * sizeof(rec::LaneRecord)),
        active(d, l.warp_steps() * 4),
        clocks(d, l.clock_entries() * 8),
        steps(d, std::size_t(l.blocks()) * l.max_steps * sizeof(rec::StepRecord)),
        steps_min(d, l.blocks() * 4),
        steps_max(d, l.blocks() * 4),
        overflow(d, 4) {
    buffers.lanes = static_cast<rec::LaneRecord*>(lanes.p);
    buffers.active = static_cast<std::uint32_t*>(active.p);
    buffers.clocks = static_cast<long long*>(clocks.p);
    buffers.steps = static_cast<rec::StepRecord*>(steps.p);
    buffers.steps_min = static_cast<std::uint32_t*>(steps_min.p);
    buffers.steps_max = static_cast<std::uint32_t*>(steps_max.p);
    buffers.overflow = static_cast<std::uint32_t*>(overflow.p);
  }
  // The initial values the probe expects: zero, and steps_min at ~0.
  void clear(Device& d, const rec::Layout& l) {
    d.fill(lanes.p, 0, l.lane_records() * sizeof(rec::LaneRecord));
    d.fill(active.p, 0, l.warp_steps() * 4);
    d.fill(clocks.p, 0, l.clock_entries() * 8);
    d.fill(steps.p, 0, std::size_t(l.blocks()) * l.max_steps * sizeof(rec::StepRecord));
    d.fill(steps_min.p, 0xff, l.blocks() * 4);
    d.fill(steps_max.p, 0, l.blocks() * 4);
    d.fill(overflow.p, 0, 4);
  }
  void download(Device& d, RawTrace& raw) {
    const rec::Layout& l = raw.layout;
    d.download(raw.lanes.data(), lanes.p, l.lane_records() * sizeof(rec::LaneRecord));
    d.download(raw.active.data(), active.p, l.warp_steps() * 4);
    d.download(raw.clocks.data(), clocks.p, l.clock_entries() * 8);
    d.download(raw.steps.data(), steps.p, std::size_t(l.blocks()) * l.max_steps * sizeof(rec::StepRecord));
    d.download(raw.steps_min.data(), steps_min.p, l.blocks() * 4);
    d.download(raw.steps_max.data(), steps_max.p, l.blocks() * 4);
    d.download(&raw.overflow, overflow.p, 4);
  }
};

}  // namespace redlab
