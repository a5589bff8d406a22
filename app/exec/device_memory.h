// Device memory the drivers and bench share: an owning buffer, and how many copies timed runs rotate over.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>

#include "device.h"

namespace redlab {

// Device memory released on scope exit; movable, not copyable.
// Host memory from Device::alloc_host (page-locked on a GPU), released with it.
struct HostBuffer {
  Device* dev = nullptr;
  void* p = nullptr;
  HostBuffer() = default;
  HostBuffer(Device& d, std::size_t bytes) : dev(&d), p(d.alloc_host(bytes ? bytes : 1)) {}
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer(HostBuffer&& o) noexcept : dev(o.dev), p(o.p) { o.p = nullptr; }
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    std::swap(dev, o.dev);
    std::swap(p, o.p);
    return *this;
  }
  ~HostBuffer() {
    if (p) dev->release_host(p);
  }
};

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

// Timed runs whose data (`bytes` per run) is under 4x the L2 rotate over enough copies (4x the L2 in all)
// that each run reads and writes DRAM and finds nothing of its data left in L2 by the run before, as large
// data does. 1 when no rotation is needed.
inline std::size_t rotating_copies(std::size_t bytes, std::size_t l2) {
  if (!l2 || bytes >= 4 * l2) return 1;
  return std::clamp<std::size_t>((4 * l2 + bytes - 1) / std::max<std::size_t>(bytes, 1), 2, 256);
}

}  // namespace redlab
