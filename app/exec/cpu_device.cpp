// The CPU SIMT emulator as a Device: host memory, kernels run by app/emu's fibers.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kernels/trace_analysis.h"
#include "exec/device.h"
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
    available = std::max<std::size_t>(1, available ? std::min(available, room) : room);  // 0 would read "unknown"
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
  f.step_phase = site.step_phase;
  f.step_label = site.step_label;
  f.step_param = site.step_param;
  f.step_line = site.step_line;
  f.element = site.element;
  f.byte = site.byte;
  f.element_block = std::uint32_t(site.element_block < 0 ? site.block : (unsigned long long)site.element_block);
  for (unsigned i = 0; i < site.access_count && i < 2; ++i) {
    const emu::FaultSite::Access& a = site.accesses[i];
    f.accesses.push_back({a.thread, a.step, a.file ? a.file : "", a.line, a.write,
                          std::uint32_t(a.block < 0 ? site.block : (unsigned long long)a.block)});
  }
  return f;
}

class CpuDevice final : public Device {
 public:
  std::string name() const override {
    return "CPU SIMT emulator (" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " threads, " +
           cpu_model() + ")";
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
  // The emulator's device memory is host memory: the analysis runs over it in place. A traced launch announced by
  // expect_analysis has analysed each block on the worker that ran it (BlockRows below): only its sums are added
  // here. Otherwise the chunk's blocks split between the emulator's worker threads (the figures are sums, the
  // hashes per block: the same whatever the split); a small chunk on one.
  void analyse_trace(const rec::Layout& l, const rec::Buffers& raw, const rec::Analysis& out) override {
    const std::optional<Analysed> done = std::exchange(analysed_, std::nullopt);
    if (done && done->block_lo == l.block_lo && done->block_hi == l.block_hi && done->sums_out == out.sums) {
      for (std::size_t i = 0; i < done->sums.size(); ++i) out.sums[i] += done->sums[i];
      return;
    }
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
  void expect_analysis(const rec::Layout& l, const rec::Buffers& raw, const rec::Analysis& out) override {
    expected_ = Expected{l, raw, out};
  }
  bool counts_written_slots() const override { return true; }

 protected:
  void invoke(LaunchFn fn, const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) override {
    const bool traced = layout && buffers && buffers->lanes && layout->blocks() > 0;
    std::optional<BlockRows> rows;
    if (traced) {
      const std::optional<Expected> expected = std::exchange(expected_, std::nullopt);
      analysed_.reset();
      rows.emplace(*layout, *buffers,
                   expected && expected->raw.lanes == buffers->lanes && expected->layout.block_lo == layout->block_lo &&
                           expected->layout.block_hi == layout->block_hi
                       ? &expected->out
                       : nullptr);
    }
    struct Hooks {
      explicit Hooks(BlockRows* r) {
        if (r) emu::set_block_hooks(&BlockRows::before, &BlockRows::after, r);
      }
      ~Hooks() { emu::set_block_hooks(nullptr, nullptr, nullptr); }
    } hooks(rows ? &*rows : nullptr);
    try {
      fn(a, layout, buffers);
    } catch (const emu::Cancelled&) { throw RunCancelled(); } catch (const emu::LaunchError& e) {
      const std::string what = std::string("emulator: ") + e.what();
      if (e.site.kind == emu::FaultSite::Kind::none || e.site.step < 0) throw KernelFault(what);
      throw KernelFault(what, fault_of(e.site, what));
    }
    if (rows && rows->announced && rows->analysed.load() == layout->blocks() && !rows->relaunched.load())
      analysed_ = Analysed{layout->block_lo, layout->block_hi, rows->out.sums, rows->gathered()};
  }

 private:
  // A traced launch's blocks, on the workers that run them (emu::set_block_hooks): after a block runs, where the
  // launch was announced (expect_analysis), its row is analysed while its records are still in that core's cache,
  // into sums of that worker's own. A block that runs a second time in the launch (a record that launches twice)
  // writes over what the first wrote, as on a GPU, and analyse_trace analyses the chunk as a whole.
  struct BlockRows {
    rec::Layout layout;
    rec::Buffers raw;
    rec::Analysis out{};
    bool announced = false;
    std::vector<unsigned char> ran;  // per block: written only by the worker that runs it
    std::atomic<bool> relaunched{false};
    std::atomic<std::uint32_t> analysed{0};
    std::mutex m;
    std::vector<std::unique_ptr<std::vector<unsigned long long>>> sums;  // one per worker
    std::uint64_t id;

    BlockRows(const rec::Layout& l, const rec::Buffers& b, const rec::Analysis* o)
        : layout(l), raw(b), out(o ? *o : rec::Analysis{}), announced(o != nullptr), ran(l.blocks(), 0) {
      static std::atomic<std::uint64_t> next_id{1};
      id = next_id++;
    }
    static void before(void* self, unsigned long long block) {
      BlockRows& r = *static_cast<BlockRows*>(self);
      if (block < r.layout.block_lo || block >= r.layout.block_hi) return;
      unsigned char& ran = r.ran[block - r.layout.block_lo];
      if (ran) {
        r.relaunched = true;
        return;
      }
      ran = 1;
    }
    static void after(void* self, unsigned long long block) {
      BlockRows& r = *static_cast<BlockRows*>(self);
      if (!r.announced || r.relaunched.load(std::memory_order_relaxed) || block < r.layout.block_lo ||
          block >= r.layout.block_hi)
        return;
      const std::uint32_t row = std::uint32_t(block - r.layout.block_lo);
      rec::analyse_blocks_on_host(r.layout, r.raw, r.out, row, row + 1, r.worker_sums());
      r.analysed.fetch_add(1, std::memory_order_relaxed);
    }
    // This worker's sums for this launch.
    unsigned long long* worker_sums() {
      thread_local std::uint64_t owner = 0;
      thread_local unsigned long long* mine = nullptr;
      if (owner != id) {
        const std::lock_guard<std::mutex> lock(m);
        sums.push_back(
            std::make_unique<std::vector<unsigned long long>>(std::size_t(layout.max_steps) * rec::kSums, 0));
        mine = sums.back()->data();
        owner = id;
      }
      return mine;
    }
    std::vector<unsigned long long> gathered() const {
      std::vector<unsigned long long> total(std::size_t(layout.max_steps) * rec::kSums, 0);
      for (const auto& s : sums)
        for (std::size_t i = 0; i < total.size(); ++i) total[i] += (*s)[i];
      return total;
    }
  };
  struct Expected {
    rec::Layout layout;
    rec::Buffers raw;
    rec::Analysis out;
  };
  struct Analysed {
    std::uint32_t block_lo, block_hi;
    const unsigned long long* sums_out;
    std::vector<unsigned long long> sums;
  };
  std::optional<Expected> expected_;
  std::optional<Analysed> analysed_;
};

}  // namespace

std::unique_ptr<Device> make_cpu_device() { return std::make_unique<CpuDevice>(); }

}  // namespace redlab
