// What the driver needs from a device: memory, copies, and launching one kernel of the catalog. The CUDA
// device and the CPU emulator implement it; the driver (driver.cpp) is written once against it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../../kernels/trace_record.h"
#include "../core/scenario.h"

namespace redlab {

struct LaunchArgs {
  std::string kernel;        // catalog id
  ElemType type = ElemType::int32;
  OpKind op = OpKind::sum;
  std::uint32_t grid = 1, block = 256;
  const void* in = nullptr;  // input (or scratch for in-place kernels)
  void* out = nullptr;       // partials[grid] or out[0] when atomic
  std::uint64_t n = 0;
  bool atomic = false;
  bool dynamic_smem = false;
  unsigned coarse = 4;
  void* partials = nullptr;            // single-pass kernels: one partial per block
  unsigned* blocks_done = nullptr;     // single-pass kernels: the last-block ticket (starts at 0)
  unsigned algo = 0;                   // cub_block: 0 warp_reductions, 1 raking, 2 raking_commutative
};

// One launch of a transpose (kernels/transpose/): rows x cols in, cols x rows out (copies: rows x cols),
// blocks of 32 x block_rows threads over ceil(cols/32) x ceil(rows/32) tiles.
struct TransposeArgs {
  std::string kernel;        // catalog id
  ElemType type = ElemType::float32;
  std::uint32_t rows = 0, cols = 0, block_rows = 8;
  const void* in = nullptr;
  void* out = nullptr;
};

// One matrix and its output, on a device.
struct TransposeBuffers {
  const void* in = nullptr;
  void* out = nullptr;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual std::string name() const = 0;
  virtual bool measures_clocks() const = 0;     // clock64 deltas are real cycles
  virtual std::size_t free_memory() const = 0;  // bytes a run may allocate
  virtual void* alloc(std::size_t bytes) = 0;   // 256-byte aligned
  virtual void release(void*) = 0;
  virtual void upload(void* dst, const void* src, std::size_t bytes) = 0;
  virtual void download(void* dst, const void* src, std::size_t bytes) = 0;
  virtual void fill(void* dst, int byte, std::size_t bytes) = 0;
  virtual void copy(void* dst, const void* src, std::size_t bytes) = 0;   // device to device
  // Runs one launch to completion. With `trace` set, the traced instantiation records into `buffers`
  // (device pointers laid out by `layout`); otherwise the timed instantiation runs.
  virtual void launch(const LaunchArgs&, const rec::Layout* layout, const rec::Buffers* buffers) = 0;
  // Analyses one chunk's raw records where they lie (kernels/trace_analysis.h): adds the per-step sums to
  // `out.sums` and writes every warp's and block's hash. All pointers are this device's memory.
  virtual void analyse_trace(const rec::Layout&, const rec::Buffers& raw, const rec::Analysis& out) = 0;
  // One launch of a transpose (transpose_driver.cpp), traced or timed as launch().
  virtual void launch_transpose(const TransposeArgs&, const rec::Layout* layout, const rec::Buffers* buffers) = 0;
  // Timings: `warmup` untimed launches of the timed (uninstrumented) transpose, then `reps` launches, each
  // timed alone with events (no device-wide sync inside the timed region); milliseconds per rep. Launch i
  // moves copies[i % copies.size()] (a.in and a.out are not used).
  virtual std::vector<float> time_transpose(const TransposeArgs&, const std::vector<TransposeBuffers>& /*copies*/,
                                            int /*warmup*/, int /*reps*/) {
    throw ScenarioError("timings need a CUDA device");
  }
  // Timings (CUDA only). Each round runs every TimedRun in turn: `prepare(rep)` outside the timed region,
  // then `run(rep)`, which enqueues the work without waiting for it, alone between two CUDA events. After
  // `warmup` untimed rounds come `reps` timed ones; milliseconds [run][rep]. Runs timed in one set of rounds
  // meet the same conditions (clocks, other work on a shared machine), so their ratio is a paired one.
  struct TimedRun {
    std::function<void(int)> prepare, run;
  };
  virtual std::vector<std::vector<float>> time_rounds_ms(const std::vector<TimedRun>& /*runs*/, int /*warmup*/,
                                                         int /*reps*/) {
    throw ScenarioError("timings need a CUDA device");
  }
  // One run alone.
  std::vector<float> time_ms(const std::function<void(int)>& prepare, const std::function<void(int)>& run,
                             int warmup, int reps) {
    return time_rounds_ms({{prepare, run}}, warmup, reps)[0];
  }
  // The read-only pass that measures the read ceiling over `bytes` (CUDA only; enqueued, not waited for).
  virtual void read_only(const void* /*p*/, std::size_t /*bytes*/, void* /*sink*/) {
    throw ScenarioError("timings need a CUDA device");
  }
  // The bank lab's measurement (CUDA only): one warp repeats the access (lane byte offsets into a shared
  // buffer, inactive lanes skipped) many times; returns SM cycles per access (clock64 over the loop / reps).
  virtual double shared_access_cycles(const std::uint32_t* /*addr32*/, std::uint32_t /*mask*/, unsigned /*width*/,
                                      bool /*store*/) {
    throw ScenarioError("measuring an access needs a CUDA device");
  }
  virtual std::size_t l2_bytes() const { return 0; }
  virtual std::string driver() const { return ""; }
};

struct Trace;

// The devices. make_cuda_device returns nullptr with `why` set when there is no usable GPU.
std::unique_ptr<Device> make_cpu_device();
std::unique_ptr<Device> make_cuda_device(std::string* why);

// The sequential host loop (cpu_sequential), timed with the host clock: median ms, every rep in `all`.
double time_host_loop_ms(const Scenario&, int warmup, int reps, std::vector<float>* all);
std::string now_iso();
std::string host_name();
struct Check;
// Where and when a trace was recorded: backend, device, host, date, redlab version.
void stamp_trace(Trace&, const char* backend, const std::string& device);
// The result check's figures into the trace.
void set_check(Trace&, const Check&);

// The runner both executors share: validates, uploads, runs the first launch (traced in chunks of blocks
// that fit `options.trace_budget`, or timed), finishes (relaunch, host or atomic), checks the result.
struct RunOptions;
struct Trace;
Trace run_on_device(Device&, const char* backend, const Scenario&, const RunOptions&);

}  // namespace redlab
