// The CPU SIMT emulator as a Device: host memory, kernels run by app/emu's fibers.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <thread>

#include "../../kernels/trace_analysis.h"
#include "device.h"
#include "emu/simt.h"

namespace redlab {

std::size_t host_available_bytes() {
  const long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  std::size_t available = pages > 0 && size > 0 ? std::size_t(pages) * std::size_t(size) : 0;
  // A limit on the process's address space (ulimit -v, a batch system's) bounds what a run can allocate as much
  // as the machine's free memory does: the room left under it, beside what the process has mapped already.
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    std::size_t mapped_pages = 0;
    std::ifstream("/proc/self/statm") >> mapped_pages;
    const std::size_t mapped = mapped_pages * std::size_t(size > 0 ? size : 4096);
    const std::size_t room = limit.rlim_cur > mapped ? std::size_t(limit.rlim_cur) - mapped : 0;
    available = std::max<std::size_t>(1, available ? std::min(available, room) : room);   // 0 would read "unknown"
  }
  return available;
}

namespace {

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      auto p = line.find(':');
      if (p != std::string::npos) return line.substr(p + 2);
    }
  return "host CPU";
}

// The emulator's report as the trace keeps it.
Fault fault_of(const emu::FaultSite& site, const std::string& message) {
  Fault f;
  f.kind = site.kind == emu::FaultSite::Kind::race            ? FaultKind::race
           : site.kind == emu::FaultSite::Kind::out_of_bounds ? FaultKind::out_of_bounds
                                                              : FaultKind::other;
  f.message = message;
  f.block = std::uint32_t(site.block);
  f.step = std::uint32_t(site.step);
  f.element = site.element;
  f.byte = site.byte;
  for (unsigned i = 0; i < site.access_count && i < 2; ++i) {
    const emu::FaultSite::Access& a = site.accesses[i];
    f.accesses.push_back({a.thread, a.step, a.file ? a.file : "", a.line, a.write});
  }
  return f;
}

class CpuDevice final : public Device {
 public:
  std::string name() const override {
    return "CPU SIMT emulator (" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
           " threads, " + cpu_model() + ")";
  }
  bool measures_clocks() const override { return false; }
  std::size_t free_memory() const override {
    const std::size_t free = host_free_for_runs();
    return free ? free : std::size_t(1) << 32;
  }
  void* alloc(std::size_t bytes) override {
    void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    if (!p) throw std::bad_alloc();
    return p;
  }
  void release(void* p) override { std::free(p); }
  void upload(void* dst, const void* src, std::size_t bytes) override { std::memcpy(dst, src, bytes); }
  void download(void* dst, const void* src, std::size_t bytes) override { std::memcpy(dst, src, bytes); }
  void copy(void* dst, const void* src, std::size_t bytes) override { std::memcpy(dst, src, bytes); }
  void fill(void* dst, int byte, std::size_t bytes) override { std::memset(dst, byte, bytes); }
  Backend backend() const override { return Backend::emulator; }
  // The emulator's device memory is host memory: the analysis runs over it in place.
  // The chunk's blocks split between the emulator's worker threads (the figures are sums, the hashes per block:
  // the same whatever the split); a small chunk on one.
  void analyse_trace(const rec::Layout& l, const rec::Buffers& raw, const rec::Analysis& out) override {
    const std::uint32_t blocks = l.blocks();
    const unsigned threads = std::min<unsigned>(std::max(1u, emu::workers()), std::max(1u, blocks / 16));
    if (threads <= 1) return rec::analyse_chunk_on_host(l, raw, out);
    const std::size_t sums = std::size_t(l.max_steps) * rec::kSums;
    std::vector<std::vector<unsigned long long>> part(threads, std::vector<unsigned long long>(sums, 0));
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < threads; ++t)
      helpers.emplace_back([&, t] {
        rec::analyse_blocks_on_host(l, raw, out, std::uint32_t(std::uint64_t(blocks) * t / threads),
                                    std::uint32_t(std::uint64_t(blocks) * (t + 1) / threads), part[t].data());
      });
    rec::analyse_blocks_on_host(l, raw, out, 0, std::uint32_t(blocks / threads), part[0].data());
    for (std::thread& h : helpers) h.join();
    for (const auto& p : part)
      for (std::size_t i = 0; i < sums; ++i) out.sums[i] += p[i];
  }
 protected:
  void invoke(LaunchFn fn, const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) override {
    try {
      fn(a, layout, buffers);
    } catch (const emu::Cancelled&) {
      throw RunCancelled();
    } catch (const emu::LaunchError& e) {
      const std::string what = std::string("emulator: ") + e.what();
      if (e.site.kind == emu::FaultSite::Kind::none || e.site.step < 0) throw KernelFault(what);
      throw KernelFault(what, fault_of(e.site, what));
    }
  }
};

}  // namespace

std::unique_ptr<Device> make_cpu_device() { return std::make_unique<CpuDevice>(); }

}  // namespace redlab
