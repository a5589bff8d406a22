// Device memory the drivers and bench share: an owning buffer, and how many copies timed runs rotate over.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "exec/device.h"

namespace redlab {

// Memory a device hands out, released on scope exit; movable, not copyable. One shape for both kinds, which
// differ only in the device's pair of calls that take and give back the memory.
template <void* (Device::*Take)(std::size_t), void (Device::*GiveBack)(void*)>
struct OwnedMemory {
  Device* dev = nullptr;
  void* p = nullptr;
  OwnedMemory() = default;
  OwnedMemory(Device& d, std::size_t bytes) : dev(&d), p((d.*Take)(bytes ? bytes : 1)) {}
  OwnedMemory(const OwnedMemory&) = delete;
  OwnedMemory(OwnedMemory&& o) noexcept : dev(o.dev), p(o.p) { o.p = nullptr; }
  OwnedMemory& operator=(OwnedMemory&& o) noexcept {
    std::swap(dev, o.dev);
    std::swap(p, o.p);
    return *this;
  }
  ~OwnedMemory() {
    if (p) (dev->*GiveBack)(p);
  }
};

// Device memory (Device::alloc).
using DeviceBuffer = OwnedMemory<&Device::alloc, &Device::release>;
// Host memory that downloads land in (Device::alloc_host: page-locked on a GPU).
using HostBuffer = OwnedMemory<&Device::alloc_host, &Device::release_host>;

// Timed runs whose data (`bytes` per run) is under 4x the L2 rotate over enough copies (4x the L2 in all)
// that each run reads and writes DRAM and finds nothing of its data left in L2 by the run before, as large
// data does. 1 when no rotation is needed.
inline std::size_t rotating_copies(std::size_t bytes, std::size_t l2) {
  if (!l2 || bytes >= 4 * l2) return 1;
  return std::clamp<std::size_t>((4 * l2 + bytes - 1) / std::max<std::size_t>(bytes, 1), 2, 256);
}

}  // namespace redlab
