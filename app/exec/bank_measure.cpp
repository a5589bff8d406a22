#include "exec/bank_measure.h"

#include <array>
#include <cmath>
#include <exception>
#include <memory>
#include <mutex>

#include "exec/device.h"

namespace redlab {

bool measure_shared_access(const WarpAddresses& a, AccessTiming* out, std::string* why) {
  static std::mutex m;
  static std::unique_ptr<Device> dev;
  static std::string no_device;
  std::lock_guard<std::mutex> lock(m);
#if REDLAB_HAVE_CUDA
  if (!dev && no_device.empty()) {
    dev = make_cuda_device(&no_device);
    if (!dev && no_device.empty()) no_device = "no CUDA device";
  }
#else
  no_device = "no CUDA device: this redlab was built without CUDA";
#endif
  if (!dev) {
    if (why) *why = no_device + ": the model's prediction is all there is on this machine";
    return false;
  }
  for (unsigned lane = 0; lane < 32; ++lane)
    if ((a.mask >> lane & 1u) && (a.addr[lane] % a.width != 0 || a.addr[lane] + a.width > 48 * 1024)) {
      if (why)
        *why = "lane " + std::to_string(lane) + ": address " + std::to_string(a.addr[lane]) +
               " must be a multiple of the width and below 49152 - width (the measurement's 48 KB buffer)";
      return false;
    }
  try {
    WarpAddresses ideal;
    ideal.mask = ~0u;
    for (unsigned lane = 0; lane < 32; ++lane) ideal.addr[lane] = 4 * lane;
    out->baseline_cycles = dev->shared_access_cycles(ideal.addr.data(), ideal.mask, 4, false);
    out->cycles = dev->shared_access_cycles(a.addr.data(), a.mask, a.width, a.store);
    out->device = dev->name();
  } catch (const std::exception& e) {
    if (why) *why = e.what();
    return false;
  }
  return true;
}

double measure_shared_access(const WarpAddresses& a, std::string* why) {
  AccessTiming t;
  return measure_shared_access(a, &t, why) ? t.cycles : std::nan("");
}

}  // namespace redlab
