// What a run needs from a device: memory, copies, and launching one kernel of the catalog. The CUDA device
// and the CPU emulator implement it; the run pipeline (run.cpp, family_run.cpp) is written once against it.
#pragma once
#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/kernel_record.h"
#include "kernels/trace_record.h"
#include "core/scenario.h"
#include "core/fault.h"

namespace redlab {

// A run's progress and its stop, shared with whoever started it (the window): the run reads `cancel` while it
// makes the input, before each chunk of the traced launch and, on the emulator, between blocks. Progress:
// the blocks the traced launch's reruns have run (the emulator counts each; a GPU chunk counts when done) out
// of the blocks all its chunks will run.
struct RunControl {
  std::atomic<bool> cancel{false};
  std::atomic<std::uint64_t> blocks_run{0}, blocks_expected{0};
  std::atomic<std::uint32_t> chunks_done{0}, chunks{0};  // traced runs: the launch reruns once per chunk
};
// Host memory the system has free now (sysconf's available physical pages, and no more than the room left under
// the process's address-space limit, ulimit -v, where one is set), 0 when it cannot say; and the
// share of it a run may take (three quarters: the window, the OS and the page cache keep the rest). The
// emulator's device, the memory guard for the host's input copy and the run estimate all read it here.
std::size_t host_available_bytes();
inline std::size_t host_free_for_runs() { return host_available_bytes() / 4 * 3; }

// A run stopped through its RunControl.
struct RunCancelled : std::runtime_error {
  RunCancelled() : std::runtime_error("the run was cancelled") {}
};

// The kernel itself went wrong on the emulator, which says how: a deadlock, a data race or an out-of-bounds index in
// shared memory, a misuse of a warp intrinsic, a launch the hardware would refuse (app/emu: LaunchError). The
// command line ends such a run with the message and exit code 2, as it does a bad scenario; a kernel that runs
// to its end with a wrong result is exit code 1.
// `fault`: where it happened, when it happened inside a kernel after its first step (a traced run keeps the
// faulting block's steps up to there: exec/traced_run.h).
struct KernelFault : std::runtime_error {
  using std::runtime_error::runtime_error;
  KernelFault(const std::string& what, const Fault& where) : std::runtime_error(what), fault(where) {}
  std::optional<Fault> fault;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual std::string name() const = 0;
  virtual bool measures_clocks() const = 0;  // clock64 deltas are real cycles
  virtual std::size_t free_memory() const = 0;  // bytes a run may allocate
  virtual void* alloc(std::size_t bytes) = 0;  // 256-byte aligned
  virtual void release(void*) = 0;
  virtual void upload(void* dst, const void* src, std::size_t bytes) = 0;
  virtual void download(void* dst, const void* src, std::size_t bytes) = 0;
  virtual void fill(void* dst, int byte, std::size_t bytes) = 0;
  virtual void copy(void* dst, const void* src, std::size_t bytes) = 0;  // device to device
  // Host memory that downloads into are fastest (CUDA: page-locked, which the copy engine reads directly; 3 GB/s
  // into ordinary memory for a traced chunk's summary on an H100 host). Plain memory elsewhere.
  virtual void* alloc_host(std::size_t bytes) { return ::operator new(bytes); }
  virtual void release_host(void* p) { ::operator delete(p); }
  // Which backend's launchers the device runs (KernelRecord::launch).
  virtual Backend backend() const = 0;
  // One launch of `kernel` for element type `type`: traced into `buffers` (device pointers laid out by
  // `layout`) when `layout` is given, otherwise the timed (uninstrumented) build. Runs to completion, unless a
  // timing loop is enqueueing (CUDA). Throws ScenarioError when the kernel is not built for this device.
  void launch(const KernelRecord& kernel, ElemType type, const LaunchArgs& args, const rec::Layout* layout = nullptr,
              const rec::Buffers* buffers = nullptr);
  // Makes the first launch of a traceable kernel's build (traced or timed) ready without running it: CUDA loads a
  // kernel into the context at its first launch, 40-50 ms for a traced build on an H100 host, which the run
  // pipeline does on a thread of its own while the host fills the input. Nothing to do elsewhere; a kernel
  // file's launch is compiled at its first launch still.
  virtual void load(const KernelRecord&, ElemType, const LaunchArgs&, bool /*traced*/) {}
  // Analyses one chunk's raw records where they lie (kernels/trace_analysis.h): adds the per-step sums to
  // `out.sums` and writes every warp's and block's hash. All pointers are this device's memory.
  virtual void analyse_trace(const rec::Layout&, const rec::Buffers& raw, const rec::Analysis& out) = 0;
  // Whether the device's traced build counts the slots each warp writes (rec::Buffers::slots_written: the
  // emulator's probe), clearing a slot's records as it first writes them: the chunk's clear then clears the counts
  // and leaves the rows of lane records as they are.
  virtual bool counts_written_slots() const { return false; }
  // The analysis the next traced launch's records go to: a device that can analyses each block as it finishes (the
  // emulator: on the worker that ran it, its records still in that core's cache), and analyse_trace then only
  // gathers. The arrays stay the caller's, alive until analyse_trace.
  virtual void expect_analysis(const rec::Layout&, const rec::Buffers& /*raw*/, const rec::Analysis& /*out*/) {}
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
  std::vector<float> time_ms(const std::function<void(int)>& prepare, const std::function<void(int)>& run, int warmup,
                             int reps) {
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

 protected:
  // Calls a launcher (the emulator turns its launch errors into messages here).
  virtual void invoke(LaunchFn fn, const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) {
    fn(a, layout, buffers);
  }
};

struct Trace;
struct FocusBlock;

// The devices. make_cuda_device returns nullptr with `why` set when there is no usable GPU.
std::unique_ptr<Device> make_cpu_device();
std::unique_ptr<Device> make_cuda_device(std::string* why);
// GPUs 0..gpus-1 of this machine, each able to read every other's memory (peer access, enabled here); none, with
// `why` in a sentence, where the machine has fewer GPUs or two of them cannot reach each other. CUDA builds only.
std::vector<std::unique_ptr<Device>> make_cuda_devices(unsigned gpus, std::string* why);
// GPUs 0..want-1 of this machine if there are as many and each can reach every other (peer access); 0 with `why`
// ("2 GPUs asked, this machine has 1", "GPU 0 cannot access GPU 1's memory (no peer access)"). Defined with the
// multi-GPU timing (multi_gpu.cpp).
unsigned usable_gpus(unsigned want, std::string* why);

// The sequential host loop (cpu_sequential), timed with the host clock: median ms, every rep in `all`.
double time_host_loop_ms(const Scenario&, int warmup, int reps, std::vector<float>* all);
std::string now_iso();
std::string host_name();
struct Check;
// Where and when a trace was recorded: backend, device, host, date, redlab version.
void stamp_trace(Trace&, Backend, const std::string& device);
// The result check's figures into the trace.
void set_check(Trace&, const Check&);

// The run pipeline both executors share (run.cpp): uploads, runs the first launch (traced in chunks of blocks
// that fit `options.trace_budget`, or timed), finishes (relaunch, host or atomic), checks the result.
struct RunOptions;
struct Plan;
Trace run_plan(Device&, const Plan&, const RunOptions&);
// The all-reduce family's run (allreduce_run.cpp), which run_plan hands its plans to: every transfer of the
// schedule a launch, traced one after another.
Trace run_allreduce(Device&, const Plan&, const RunOptions&);
// A GPU trace's accesses named by the places the emulator records (its records hold none): run_plan calls it on
// every GPU trace. `input` is the plan's input on the host; accesses the emulator's run does not match stay unnamed.
void name_accesses_from_emulator(const Plan&, const std::uint8_t* input, std::size_t trace_budget, Trace&);
// The places of `from`'s accesses (an emulator's focus block, its files `from_files`) copied onto `to`'s (the same
// block on a GPU) at the same step, warp and position where space, kind, width and lanes agree; file numbers as
// `files` gives them (names added to it). Returns how many of `to`'s accesses lie past `from`'s in their warp-step.
std::size_t copy_access_places(const FocusBlock& from, const std::vector<std::string>& from_files, FocusBlock& to,
                               std::vector<std::string>& files);

}  // namespace redlab
