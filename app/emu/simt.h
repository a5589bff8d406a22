// redlab's CPU SIMT emulator: CUDA's device-side vocabulary for code compiled by a host C++ compiler.
//
// kernels/cuda_compat.cuh includes this header when the kernels are compiled by g++/clang instead of nvcc.
// It gives the same names (__global__, __shared__, threadIdx, __syncthreads, __shfl_down_sync, atomicAdd, ...)
// a real, per-thread meaning:
//
//   * every CUDA thread runs on its own fiber (Boost.Context, pooled 64 KiB stacks); all threads of one block
//     run on one OS worker thread under a round-robin scheduler; blocks are spread over a pool of workers
//     (set_workers) and may run in any order, concurrently, as on a GPU;
//   * __shared__ is `thread_local`: a worker runs one block at a time, so a worker's copy is the block's
//     shared memory. Shared memory is not cleared between blocks (as on a GPU, it starts undefined);
//   * __syncthreads() is a real barrier over the block's threads that have not exited (exited threads do
//     not count, as on the hardware; set_barrier_mode(BarrierMode::strict) makes an exit that skips a
//     barrier an error);
//   * warp intrinsics are rendezvous: every lane named in the mask must call the same intrinsic with the
//     same mask; the call completes when all of them have arrived. A lane that names lanes which exited, or
//     which wait elsewhere, is a deadlock and launch() throws LaunchError saying where. As on sm_70+ (PTX
//     shfl.sync/bar.warp.sync), the lanes may call it from different source lines; __syncthreads, however,
//     must be reached at one call site (line and column) by every thread, else LaunchError;
//   * atomics are real atomics (blocks on different workers touch the same host memory at once);
//   * a cluster launch (launch with a cluster shape, Hopper's thread block clusters) runs the blocks of a cluster at
//     once, each on a worker of its own, taking turns: one block of a cluster runs its threads while the others wait,
//     and it hands over when all its threads wait at cluster.sync() (emu/cluster.h) or have exited. That is a
//     schedule the hardware may choose too (blocks between two cluster barriers are not ordered), and it makes
//     distributed shared memory (cluster.map_shared_rank) an access to another worker's copy of the array with no
//     other thread touching it at the time.
//
// Semantic choices where CUDA leaves the behaviour undefined:
//   * __activemask() returns the lanes of the calling warp that have not exited, after letting every other
//     lane of the warp run until it exits or blocks at a synchronisation point (the emulator has no
//     instruction-level convergence; this is what a converged warp would report).
//   * A shuffle whose source lane is not taking part in it (not in the mask, or past the end of a block
//     whose last warp is partial) returns the caller's own value.
//   * Lanes past the end of a partial last warp do not exist: a mask may name them, they are ignored.
//   * clock64() counts calls per thread: it is monotonic, but emulator "cycles" are not real cycles.
//
// After an error the fibers still inside the kernel are unwound with an exception (boost::context's
// forced_unwind), so destructors of kernel locals run. Hence: do not call __syncthreads or warp intrinsics
// from noexcept functions or inside catch handlers, and do not swallow exceptions with catch (...) in kernels.
//
// Do not include this header together with cuda_runtime.h in one translation unit.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <source_location>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

// ---- qualifiers -------------------------------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __align__(n)
#define __shared__ thread_local
#define __constant__
#define __managed__
#define __launch_bounds__(...)
// __restrict__ is a GCC/Clang keyword already.

// ---- vector types -----------------------------------------------------------------------------------------
#ifndef __VECTOR_TYPES_H__
struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
#endif

inline constexpr int warpSize = 32;

namespace redlab::emu {

struct SharedArray;  // shared_check.h

// Where in a kernel a launch failure happened, for a trace that keeps the steps before it (exec/traced_run.h): the
// block, the step its reporting thread was in, and the accesses a report names (a race's two, an out-of-bounds
// index's one), each with its thread, step and source line. `kind` none: not inside a kernel (a bad configuration).
struct FaultSite {
  enum class Kind : std::uint8_t { none, race, out_of_bounds, other };
  struct Access {
    long long block = -1;  // the block that made it (linear index in the grid; -1: the fault's block)
    unsigned thread = 0;  // linear index in its block
    int step = -1;
    const char* file = nullptr;  // the indexing expression's file and line (0: unknown)
    unsigned line = 0;
    bool write = false;
  };
  Kind kind = Kind::none;
  unsigned long long block = 0;  // linear index in the grid
  int step = -1;  // -1: before the kernel's first probe.step
  // That step as the block's first thread to reach it noted it (probe.step's phase, label, parameter and line; line
  // 0: not noted). The trace's own record of a step is thread 0's, which may not have reached it when another
  // thread faults there.
  unsigned char step_phase = 0, step_label = 0;
  int step_param = 0;
  unsigned step_line = 0;
  Access accesses[2];
  unsigned access_count = 0;
  std::string element;  // what the accesses used, as the kernel names it: "s[32]", "tile[3][7]"
  long long byte = -1;  // its offset in the block's shared memory as the trace records addresses (-1: none)
  // The block whose shared memory holds the element (-1: the fault's block): another block of the cluster for a race
  // through distributed shared memory.
  long long element_block = -1;
};

// Any launch failure: a bad configuration, a deadlock, a misuse of an intrinsic. One line, says where.
class LaunchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  LaunchError(const std::string& what, const FaultSite& where) : std::runtime_error(what), site(where) {}
  FaultSite site;
};

// A launch stopped because its caller asked (set_cancel_flag): blocks already started finish, no other starts.
class Cancelled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr unsigned kMaxThreadsPerBlock = 1024;
inline constexpr std::size_t kMaxDynamicSmem = 227 * 1024;  // Hopper's per-block maximum
inline constexpr std::size_t kFiberStackBytes = 64 * 1024;
// Blocks in a cluster: Hopper's largest (16, a size the hardware allows only on request; 8 is the portable one).
inline constexpr unsigned kMaxClusterBlocks = 16;

// hardware: __syncthreads completes when every thread of the block that has not exited arrived (default).
// strict:   every thread of the block must reach every barrier; a thread that exits while others wait at a
//           barrier, or a barrier reached after some threads exited, is a LaunchError.
enum class BarrierMode { hardware, strict };

// Runs thread_body once per CUDA thread of every block of the grid and returns when all have finished.
// Throws LaunchError on a bad configuration or a deadlock, or rethrows the first exception a thread threw.
// After any error every fiber of the launch has been unwound and the runtime is ready for the next launch.
// Launches from several host threads are serialised. Calling launch() from inside a kernel is an error.
void launch(dim3 grid, dim3 block, std::size_t dynamic_smem_bytes, const std::function<void()>& thread_body);
// A launch of thread block clusters: `cluster` blocks in each dimension form a cluster (the grid a multiple of it in
// each, at most kMaxClusterBlocks blocks). The blocks of a cluster run at once (the pool grows to a cluster's blocks
// for it); cluster.sync() is a barrier over every thread of the cluster. A cluster of (1,1,1) is the launch above.
void launch(dim3 grid, dim3 block, std::size_t dynamic_smem_bytes, const std::function<void()>& thread_body,
            dim3 cluster);

// CUDA-style kernel launch: each thread calls kernel(args...) with its own copies of the arguments.
template <class... P, class... A>
void launch_kernel(dim3 grid, dim3 block, std::size_t dynamic_smem_bytes, void (*kernel)(P...), A&&... args) {
  launch(grid, block, dynamic_smem_bytes, [&] { kernel(args...); });
}

// Worker threads that run blocks (0: std::thread::hardware_concurrency()). 1 runs every block in turn.
// Takes effect at the next launch. A kernel that waits for another block (a grid-wide spin) needs every
// block it waits for to be running: as on a GPU, that is not guaranteed.
void set_workers(unsigned n);
// Launches from the calling thread stop between blocks, throwing Cancelled, once *flag is true (nullptr: never).
// A GUI's Cancel button and a quitting window use it; a block itself always runs to its end.
void set_cancel_flag(const std::atomic<bool>* flag);
// Launches from the calling thread add one to *counter for each block they have run (nullptr: none).
void set_block_counter(std::atomic<std::uint64_t>* counter);
std::atomic<std::uint64_t>* block_counter();  // the calling thread's (nullptr: none)
// Launches from the calling thread run only the blocks [first, end) of their grid (linear block index), the
// others as if they had run before (end 0: every block). Tracing in chunks uses it: the chunks, run in turn
// without resetting memory in between, are one launch whose blocks ran in chunk order (a legal schedule). A cluster
// launch counts its blocks cluster by cluster (in each, by rank): a range holds whole clusters.
void set_block_range(unsigned long long first, unsigned long long end);
// Launches from the calling thread call before(context, linear block) on the worker that runs a block just before
// it runs, and after(context, linear block) once it has run to its end (nullptr: none). A traced run on the emulator
// clears the block's row of records before and analyses it after: in parallel, in the worker's cache.
using BlockHook = void (*)(void* context, unsigned long long linear_block);
void set_block_hooks(BlockHook before, BlockHook after, void* context);
unsigned workers();
void set_barrier_mode(BarrierMode mode);
BarrierMode barrier_mode();

// A watchdog's view (redlab stats --source: a student's endless loop is stopped and named): while watching, every
// switch to a CUDA thread is noted, and last_position() says which thread of which block ran last.
struct Position {
  bool valid = false;
  unsigned block_x = 0, block_y = 0, block_z = 0, thread_x = 0, thread_y = 0, thread_z = 0, warp = 0, lane = 0;
  int step = -1;
  unsigned step_line = 0;
};
void watch_positions(bool on);
Position last_position();
// Whether `address` is in, or just below, the guard page under the running CUDA thread's stack: the fault of a
// stack overflow (a recursion too deep, a local array larger than kFiberStackBytes). Safe in a signal handler,
// which runs on each worker's alternate signal stack (the fiber's own is used up).
bool in_stack_guard(const void* address);

// The running CUDA thread and its block, as the built-in variables see them.
struct ThreadView {
  uint3 thread_idx;
  unsigned linear;  // x + y*Dx + z*Dx*Dy
  unsigned lane;
  unsigned warp;
  long long clock;
  int step = -1;  // the traced build's probe: its step, and the line of that probe.step call
  unsigned step_line = 0;  // (what a crash or time-limit report names)
};
struct BlockView {
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
  unsigned long long linear;
  // For the traced build's shared-memory checks (shared_check.h): the block's barrier interval, a new value at
  // the block's start and at each __syncthreads it completes (never reused on its worker, so a worker's
  // shadow state of an earlier block or interval never matches), and how many of the probe's steps it noted.
  std::uint64_t sync_epoch = 0;
  unsigned steps_noted = 0;
  // A cluster launch's: the cluster's shape in blocks, this block's rank in it (x + y*X + z*X*Y over the block's
  // position in its cluster) and the cluster's blocks; (1,1,1), 0 and 1 otherwise. cluster_phase: the cluster's
  // barrier interval, a new value (unique in the process) at each cluster.sync it completes, and phase_start_epoch
  // the block's sync_epoch when that interval began (the checks of distributed shared memory, shared_check.h).
  dim3 cluster_dim{1, 1, 1};
  unsigned cluster_rank = 0, cluster_blocks = 1;
  std::uint64_t cluster_phase = 0, phase_start_epoch = 0;
  // The shared arrays the probe has seen on this block's worker (shared_check.cpp keeps them), for another block of
  // the cluster that reaches into this one's shared memory.
  const std::vector<std::unique_ptr<SharedArray>>* shared_arrays = nullptr;
};

namespace detail {
inline constinit thread_local ThreadView* tl_thread = nullptr;
inline constinit thread_local BlockView* tl_block = nullptr;
[[noreturn]] void not_in_kernel();

inline ThreadView& thread() {
  ThreadView* t = tl_thread;
  if (t == nullptr) [[unlikely]]
    not_in_kernel();
  return *t;
}
inline const BlockView& block() {
  const BlockView* b = tl_block;
  if (b == nullptr || tl_thread == nullptr) [[unlikely]]
    not_in_kernel();
  return *b;
}

// "block 3" (a 1D grid) or "block (3,1,0)"; "thread 64 (warp 2, lane 0)" (a 1D block) or "thread (5,1,0) (warp 5,
// lane 5)": how every report of the emulator names where it happened.
std::string block_name(const BlockView& b);
// "kernel line 74 of hang.cu": a source location in a report.
std::string kernel_place(const char* file, unsigned line);
std::string thread_name(const ThreadView& t, const BlockView& b);

enum class Kind : std::uint8_t {
  shfl_idx,
  shfl_up,
  shfl_down,
  shfl_xor,
  ballot,
  any,
  all,
  syncwarp,
  reduce_add,
  reduce_min_u,
  reduce_min_s,
  reduce_max_u,
  reduce_max_s,
  reduce_and,
  reduce_or,
  reduce_xor,
  match_any,
  match_all,
};
const char* kind_name(Kind k);

void syncthreads(const std::source_location& loc);
// __syncthreads_count/and/or: op 0 count, 1 and, 2 or.
int syncthreads_pred(int pred, int op, const std::source_location& loc);
// cluster.sync(): a barrier over every thread of the cluster that has not exited (emu/cluster.h).
void cluster_sync(const std::source_location& loc);
// cluster.map_shared_rank: the address `local` (in the calling block's shared memory) has in the shared memory of the
// cluster's block `rank`. A LaunchError for a rank outside the cluster, an address that is not shared memory, and a
// block that has not reached a cluster.sync (its shared memory may not exist yet) or has exited (it is gone).
void* cluster_map_shared(const void* local, int rank, const std::source_location& loc);
// The calling block's cluster's block `rank` while its shared memory can be reached (it has reached a cluster.sync and
// not exited), else nullptr. The blocks of a cluster take turns (one runs at a time, and only a cluster.sync or its
// end lets another on), so the block it gives is parked and may be read (the checks of distributed shared memory).
const BlockView* cluster_peer(unsigned rank);
// One warp-synchronous rendezvous. `arg`: source lane / delta / lane mask for shuffles, the predicate for
// votes. `value`: the bits this lane contributes. Returns the bits this lane receives.
std::uint64_t warp_op(Kind kind, unsigned mask, std::uint64_t value, unsigned arg, int width,
                      const std::source_location& loc);
unsigned activemask();
void yield();

template <class T>
inline std::uint64_t to_bits(T v) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8);
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T>
inline T from_bits(std::uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}
}  // namespace detail

inline const ThreadView& current() { return detail::thread(); }
inline const BlockView& current_block() { return detail::block(); }

}  // namespace redlab::emu

// ---- built-in variables -----------------------------------------------------------------------------------
#define threadIdx (static_cast<const ::uint3&>(::redlab::emu::current().thread_idx))
#define blockIdx (static_cast<const ::uint3&>(::redlab::emu::current_block().block_idx))
#define blockDim (static_cast<const ::dim3&>(::redlab::emu::current_block().block_dim))
#define gridDim (static_cast<const ::dim3&>(::redlab::emu::current_block().grid_dim))

// ---- dynamic shared memory --------------------------------------------------------------------------------
// Kernels declare `extern __shared__ unsigned char dynamic_smem[];` at block scope in namespace
// redlab::kernels; this is its definition: one window per worker, i.e. per running block.
// Note: g++ 12 compiles a block-scope `extern thread_local` declaration inside a function *template* into an
// unconditional call to the variable's TLS init function, which a constant-initialised variable does not
// have (a jump to address 0). simt.cpp therefore defines that init function as a no-op.
namespace redlab::kernels {
alignas(128) inline thread_local unsigned char dynamic_smem[::redlab::emu::kMaxDynamicSmem];
}

// ---- barriers ---------------------------------------------------------------------------------------------
inline void __syncthreads(std::source_location loc = std::source_location::current()) {
  ::redlab::emu::detail::syncthreads(loc);
}
inline int __syncthreads_count(int predicate, std::source_location loc = std::source_location::current()) {
  return ::redlab::emu::detail::syncthreads_pred(predicate, 0, loc);
}
inline int __syncthreads_and(int predicate, std::source_location loc = std::source_location::current()) {
  return ::redlab::emu::detail::syncthreads_pred(predicate, 1, loc);
}
inline int __syncthreads_or(int predicate, std::source_location loc = std::source_location::current()) {
  return ::redlab::emu::detail::syncthreads_pred(predicate, 2, loc);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, std::source_location loc = std::source_location::current()) {
  ::redlab::emu::detail::warp_op(::redlab::emu::detail::Kind::syncwarp, mask, 0, 0, 32, loc);
}

// ---- warp shuffles ----------------------------------------------------------------------------------------
#define REDLAB_EMU_SHFL(T)                                                                                        \
  inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize,                                   \
                       std::source_location loc = std::source_location::current()) {                              \
    namespace d = ::redlab::emu::detail;                                                                          \
    return d::from_bits<T>(d::warp_op(d::Kind::shfl_idx, mask, d::to_bits(var), unsigned(srcLane), width, loc));  \
  }                                                                                                               \
  inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,                             \
                          std::source_location loc = std::source_location::current()) {                           \
    namespace d = ::redlab::emu::detail;                                                                          \
    return d::from_bits<T>(d::warp_op(d::Kind::shfl_up, mask, d::to_bits(var), delta, width, loc));               \
  }                                                                                                               \
  inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,                           \
                            std::source_location loc = std::source_location::current()) {                         \
    namespace d = ::redlab::emu::detail;                                                                          \
    return d::from_bits<T>(d::warp_op(d::Kind::shfl_down, mask, d::to_bits(var), delta, width, loc));             \
  }                                                                                                               \
  inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize,                              \
                           std::source_location loc = std::source_location::current()) {                          \
    namespace d = ::redlab::emu::detail;                                                                          \
    return d::from_bits<T>(d::warp_op(d::Kind::shfl_xor, mask, d::to_bits(var), unsigned(laneMask), width, loc)); \
  }
REDLAB_EMU_SHFL(int)
REDLAB_EMU_SHFL(unsigned int)
REDLAB_EMU_SHFL(long)
REDLAB_EMU_SHFL(unsigned long)
REDLAB_EMU_SHFL(long long)
REDLAB_EMU_SHFL(unsigned long long)
REDLAB_EMU_SHFL(float)
REDLAB_EMU_SHFL(double)
#undef REDLAB_EMU_SHFL

// ---- votes, warp reductions, matches ----------------------------------------------------------------------
inline unsigned __ballot_sync(unsigned mask, int predicate,
                              std::source_location loc = std::source_location::current()) {
  namespace d = ::redlab::emu::detail;
  return unsigned(d::warp_op(d::Kind::ballot, mask, 0, predicate != 0, 32, loc));
}
inline int __any_sync(unsigned mask, int predicate, std::source_location loc = std::source_location::current()) {
  namespace d = ::redlab::emu::detail;
  return int(d::warp_op(d::Kind::any, mask, 0, predicate != 0, 32, loc));
}
inline int __all_sync(unsigned mask, int predicate, std::source_location loc = std::source_location::current()) {
  namespace d = ::redlab::emu::detail;
  return int(d::warp_op(d::Kind::all, mask, 0, predicate != 0, 32, loc));
}
inline unsigned __activemask() { return ::redlab::emu::detail::activemask(); }

#define REDLAB_EMU_REDUCE(name, kind, T)                                                              \
  inline T name(unsigned mask, T value, std::source_location loc = std::source_location::current()) { \
    namespace d = ::redlab::emu::detail;                                                              \
    return d::from_bits<T>(d::warp_op(d::Kind::kind, mask, d::to_bits(value), 0, 32, loc));           \
  }
REDLAB_EMU_REDUCE(__reduce_add_sync, reduce_add, unsigned)
REDLAB_EMU_REDUCE(__reduce_add_sync, reduce_add, int)
REDLAB_EMU_REDUCE(__reduce_min_sync, reduce_min_u, unsigned)
REDLAB_EMU_REDUCE(__reduce_min_sync, reduce_min_s, int)
REDLAB_EMU_REDUCE(__reduce_max_sync, reduce_max_u, unsigned)
REDLAB_EMU_REDUCE(__reduce_max_sync, reduce_max_s, int)
REDLAB_EMU_REDUCE(__reduce_and_sync, reduce_and, unsigned)
REDLAB_EMU_REDUCE(__reduce_or_sync, reduce_or, unsigned)
REDLAB_EMU_REDUCE(__reduce_xor_sync, reduce_xor, unsigned)
#undef REDLAB_EMU_REDUCE

#define REDLAB_EMU_MATCH(T)                                                                      \
  inline unsigned __match_any_sync(unsigned mask, T value,                                       \
                                   std::source_location loc = std::source_location::current()) { \
    namespace d = ::redlab::emu::detail;                                                         \
    return unsigned(d::warp_op(d::Kind::match_any, mask, d::to_bits(value), 0, 32, loc));        \
  }                                                                                              \
  inline unsigned __match_all_sync(unsigned mask, T value, int* pred,                            \
                                   std::source_location loc = std::source_location::current()) { \
    namespace d = ::redlab::emu::detail;                                                         \
    unsigned r = unsigned(d::warp_op(d::Kind::match_all, mask, d::to_bits(value), 0, 32, loc));  \
    *pred = r != 0;                                                                              \
    return r;                                                                                    \
  }
REDLAB_EMU_MATCH(int)
REDLAB_EMU_MATCH(unsigned int)
REDLAB_EMU_MATCH(long)
REDLAB_EMU_MATCH(unsigned long)
REDLAB_EMU_MATCH(long long)
REDLAB_EMU_MATCH(unsigned long long)
REDLAB_EMU_MATCH(float)
REDLAB_EMU_MATCH(double)
#undef REDLAB_EMU_MATCH

// ---- atomics (real atomics: several workers touch host memory at once; each returns the old value) --------
namespace redlab::emu::detail {
template <class T>
inline T atomic_min(T* address, T val) {
  std::atomic_ref<T> a(*address);
  T old = a.load(std::memory_order_relaxed);
  while (val < old && !a.compare_exchange_weak(old, val)) {}
  return old;
}
template <class T>
inline T atomic_max(T* address, T val) {
  std::atomic_ref<T> a(*address);
  T old = a.load(std::memory_order_relaxed);
  while (old < val && !a.compare_exchange_weak(old, val)) {}
  return old;
}
template <class T>
inline T atomic_cas(T* address, T compare, T val) {
  std::atomic_ref<T>(*address).compare_exchange_strong(compare, val);
  return compare;  // the old value, whether or not the swap happened
}
}  // namespace redlab::emu::detail

#define REDLAB_EMU_ATOMIC_ADD(T)                                                                \
  inline T atomicAdd(T* address, T val) { return std::atomic_ref<T>(*address).fetch_add(val); } \
  inline T atomicSub(T* address, T val) { return std::atomic_ref<T>(*address).fetch_sub(val); }
REDLAB_EMU_ATOMIC_ADD(int)
REDLAB_EMU_ATOMIC_ADD(unsigned int)
REDLAB_EMU_ATOMIC_ADD(unsigned long long)
REDLAB_EMU_ATOMIC_ADD(float)
REDLAB_EMU_ATOMIC_ADD(double)
#undef REDLAB_EMU_ATOMIC_ADD

#define REDLAB_EMU_ATOMIC_INT(T)                                                                    \
  inline T atomicMin(T* address, T val) { return ::redlab::emu::detail::atomic_min(address, val); } \
  inline T atomicMax(T* address, T val) { return ::redlab::emu::detail::atomic_max(address, val); } \
  inline T atomicOr(T* address, T val) { return std::atomic_ref<T>(*address).fetch_or(val); }       \
  inline T atomicAnd(T* address, T val) { return std::atomic_ref<T>(*address).fetch_and(val); }     \
  inline T atomicXor(T* address, T val) { return std::atomic_ref<T>(*address).fetch_xor(val); }     \
  inline T atomicExch(T* address, T val) { return std::atomic_ref<T>(*address).exchange(val); }     \
  inline T atomicCAS(T* address, T compare, T val) { return ::redlab::emu::detail::atomic_cas(address, compare, val); }
REDLAB_EMU_ATOMIC_INT(int)
REDLAB_EMU_ATOMIC_INT(unsigned int)
REDLAB_EMU_ATOMIC_INT(long long)
REDLAB_EMU_ATOMIC_INT(unsigned long long)
#undef REDLAB_EMU_ATOMIC_INT

inline float atomicExch(float* address, float val) { return std::atomic_ref<float>(*address).exchange(val); }
inline double atomicExch(double* address, double val) { return std::atomic_ref<double>(*address).exchange(val); }
inline unsigned short atomicCAS(unsigned short* address, unsigned short compare, unsigned short val) {
  return ::redlab::emu::detail::atomic_cas(address, compare, val);
}
// ((old >= val) ? 0 : old + 1) and (((old == 0) || (old > val)) ? val : old - 1), as in CUDA.
inline unsigned atomicInc(unsigned* address, unsigned val) {
  std::atomic_ref<unsigned> a(*address);
  unsigned old = a.load(std::memory_order_relaxed);
  while (!a.compare_exchange_weak(old, old >= val ? 0u : old + 1u)) {}
  return old;
}
inline unsigned atomicDec(unsigned* address, unsigned val) {
  std::atomic_ref<unsigned> a(*address);
  unsigned old = a.load(std::memory_order_relaxed);
  while (!a.compare_exchange_weak(old, (old == 0u || old > val) ? val : old - 1u)) {}
  return old;
}

// ---- fences, clock, misc ----------------------------------------------------------------------------------
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
// A block's threads share one OS thread: ordering the compiler is enough.
inline void __threadfence_block() { std::atomic_signal_fence(std::memory_order_seq_cst); }
// Emulator "cycles" are not real: a per-thread counter that grows by one per call (monotonic).
inline long long clock64() { return ++::redlab::emu::detail::thread().clock; }
// Lets the block's other threads run (a spinning thread would otherwise keep its worker).
inline void __nanosleep(unsigned) { ::redlab::emu::detail::yield(); }
template <class T>
inline T __ldg(const T* p) {
  return *p;
}

// ---- bit reinterpretation and bit tricks ------------------------------------------------------------------
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline int __popc(unsigned x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(unsigned(x)) + 1; }
inline int __ffsll(long long x) { return x == 0 ? 0 : std::countr_zero((unsigned long long)x) + 1; }
inline int __clz(int x) { return std::countl_zero(unsigned(x)); }
inline int __clzll(long long x) { return std::countl_zero((unsigned long long)x); }
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  unsigned long long r = 0;
  for (int i = 0; i < 64; ++i) r |= ((x >> i) & 1ull) << (63 - i);
  return r;
}
