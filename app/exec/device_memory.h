// Device memory the drivers and bench share: an owning buffer.
#pragma once
#include <cstdint>
#include <utility>

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

}  // namespace redlab
