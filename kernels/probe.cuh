// Instrumentation as a compile-time policy.
//
// Every kernel takes a `Probe` by value and routes its memory through `probe.shared(...)` and
// `probe.global(...)`. With `NoProbe` (the timed build) those return the raw pointers and every other call is
// an empty inline function: nothing is left in the SASS (tests/test_sass.sh checks this with cuobjdump).
// With `TraceProbe` they return array views that record each lane's address and value, and `step()` /
// `active()` record the step structure and which threads did the step's work.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda_compat.cuh"
#include "ops.cuh"
#include "trace_record.h"
#if !REDLAB_ON_GPU
#include <source_location>
#include <string>

#include "emu/shared_check.h"
#include "step_label.h"
#endif

namespace redlab::kernels {
inline namespace REDLAB_BACKEND_NS {  // see cuda_compat.cuh

using rec::Buffer;
using rec::Label;
using rec::Phase;

#if !REDLAB_ON_GPU
// A step as the emulator's reports name it: the emulator sits below the kernels and is given the names with each
// step it is told of.
inline std::string step_mark_name(const ::redlab::emu::StepMark& n) {
  return rec::describe_step(Phase(n.phase), Label(n.label), n.param);
}
#endif

// The hardware operation behind atomic_combine(Op, ...): integer min/max and every sum have one; float
// min/max are a compare-and-swap loop.
template <class Op>
constexpr rec::AtomicOp atomic_op_of() {
  using T = typename Op::value_type;
  if constexpr (std::is_same_v<Op, Sum<T>>) return rec::AtomicOp::add;
  else if constexpr (!std::is_integral_v<T>) return rec::AtomicOp::cas;
  else if constexpr (std::is_same_v<Op, Min<T>>) return rec::AtomicOp::min;
  else return rec::AtomicOp::max;
}

struct NoProbe {
  static constexpr bool traced = false;
  template <class T> REDLAB_DEVICE T* shared(T* p) const { return p; }
  template <class T> REDLAB_DEVICE T* shared_flag(T* p, std::size_t) const { return p; }
  template <class T> REDLAB_DEVICE T* global(T* p, Buffer) const { return p; }
  // Shared array `p` of the cluster's block `rank` (distributed shared memory): the address cluster.map_shared_rank
  // gives.
  template <class Cluster, class T> REDLAB_DEVICE T* remote_shared(const Cluster& cluster, T* p, unsigned rank) const {
    return cluster.map_shared_rank(p, int(rank));
  }
  template <class T> REDLAB_DEVICE T load_cg(const T* p, std::uint64_t i, Buffer) const { return ld_cg(p + i); }
  REDLAB_DEVICE void step(Phase, Label = Label::none, int = 0, unsigned = 0) const {}
  REDLAB_DEVICE void active() const {}
  REDLAB_DEVICE void active_when_accessing() const {}
  template <class T> REDLAB_DEVICE void shuffled(const T&, unsigned) const {}
  // Atomics: the operation itself, nothing recorded.
  template <class Op, class T> REDLAB_DEVICE void atomic(Op op, T* p, T v, Buffer) const { atomic_combine(op, p, v); }
  REDLAB_DEVICE unsigned ticket(unsigned* p) const { return atomicAdd(p, 1u); }
  REDLAB_DEVICE void last_block() const {}
  REDLAB_DEVICE void finish() const {}
};

template <class T>
REDLAB_DEVICE std::uint64_t value_bits(const T& v) {
  // 16-byte vectors keep their first 8 bytes: enough to follow them, not to rebuild them.
  static_assert(std::is_trivially_copyable_v<T>);
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T) < 8 ? sizeof(T) : 8);
  return bits;
}

struct TraceProbe {
  static constexpr bool traced = true;
#if !REDLAB_ON_GPU
  // Where an access was made: its file, line and column (the emulator's build numbers the place for the record).
  using Site = ::redlab::emu::Where;
  static std::uint16_t site_number(const Site& at) { return ::redlab::emu::place_number(at); }
  // What a shared Ref carries for the emulator's checks: the array (nullptr: none) and the element, rows flattened.
  struct SharedElement {
    ::redlab::emu::SharedArray* array = nullptr;
    std::uint64_t element = 0;
    void access(bool write, const Site& at) const {
      if (array) ::redlab::emu::shared_access(*array, element, write, at);
    }
  };
  // An element of another block's shared array (distributed shared memory): the array's start as cluster.map_shared_rank
  // gave it, and that block's rank.
  struct RemoteElement {
    const void* start = nullptr;
    unsigned elem_size = 0;
    std::uint64_t element = 0;
    unsigned rank = 0;
    void access(bool write, const Site& at) const {
      if (start) ::redlab::emu::remote_shared_access(start, elem_size, element, rank, write, at);
    }
  };
  struct NoElement {};
  // An index as the emulator's build takes it: the value and where the indexing expression is (a default argument
  // of the conversion, so that s[tid] in the kernel's file is what the checks' reports and the trace name: line, and
  // the column of a bracket).
  struct Index {
    std::uint64_t i;
    Site at;
    template <class I, class = std::enable_if_t<std::is_convertible_v<const I&, std::uint64_t>>>
    Index(const I& v, std::source_location where = std::source_location::current())
        : i(std::uint64_t(v)), at{where.file_name(), where.line(), where.column()} {}
  };
#else
  // The GPU's build does not know where an access was made: nvcc and NVRTC give __builtin_LINE() in the default
  // argument of an implicit conversion the line of the conversion's declaration, not of the indexing expression (on
  // an H100, every access said "line 103" of this file), and have no std::source_location. Its records say 0,
  // and the run names a GPU trace's accesses from the emulator's run of its focus blocks (exec/run.cpp).
  struct Site {};
  static REDLAB_DEVICE std::uint16_t site_number(const Site&) { return 0; }
  struct Index {
    std::uint64_t i;
    Site at;
    template <class I, class = std::enable_if_t<std::is_convertible_v<const I&, std::uint64_t>>>
    REDLAB_DEVICE Index(const I& v) : i(std::uint64_t(v)) {}
  };
#endif

  rec::Layout layout;
  rec::Buffers buf;

  // Per-thread state: the probe is a by-value kernel argument, so each thread owns its copy.
  bool on = false;                 // this block's row is in the chunk
  bool last = false;               // this block finishes the launch: later steps go to the launch row
  std::uint32_t local_block = 0;
  int step_index = -1;
  std::uint8_t seq[rec::kClasses] = {};
  bool active_by_access = false;   // active_when_accessing(): every recorded access marks the lane active

  // Warps are formed from the linear thread index (x fastest), as the hardware does for 2D/3D blocks;
  // blocks are numbered linearly too (x fastest).
  REDLAB_DEVICE unsigned linear_thread() const {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  }
  REDLAB_DEVICE unsigned linear_block() const { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
  REDLAB_DEVICE unsigned lane() const { return linear_thread() % kWarpSize; }
  REDLAB_DEVICE unsigned warp() const { return linear_thread() / kWarpSize; }

  REDLAB_DEVICE void start() {
    const unsigned b = linear_block();
    on = b >= layout.block_lo && b < layout.block_hi;
    local_block = b - layout.block_lo;
  }
  REDLAB_DEVICE void flag_overflow() {
    atomicOr(buf.overflow, 1u);
    on = last = false;
  }

  // Begins a step. Every thread of the block calls it for every step (steps are block-uniform).
  REDLAB_DEVICE void step(Phase phase, Label label = Label::none, int param = 0,
                          unsigned line = __builtin_LINE()) {
    if (step_index < 0) start();
    ++step_index;
    for (auto& s : seq) s = 0;
#if !REDLAB_ON_GPU
    // The emulator notes the step: a crash's or a time limit's report names it (app/cli/source.cpp), and so do the
    // shared-memory checks' (app/emu/shared_check.h).
    ::redlab::emu::mark_step(step_index, {std::uint8_t(phase), std::uint8_t(label), param, line, &step_mark_name});
#endif
    if (!on && !last) return;
    if (unsigned(step_index) >= layout.max_steps) { flag_overflow(); return; }
    if (lane() == 0)
      write_step_start(buf.steps, buf.clocks, layout.max_steps, layout.warps, warp(), step_index,
                       on ? int(local_block) : -1, last ? int(launch_row()) : -1, linear_thread() == 0,
                       {std::uint8_t(phase), std::uint8_t(label), 0, param, line});
  }

  // What lane 0 of each warp writes as a step starts: the warp's clock, and (thread 0) the step's record, in the
  // block's row (`on_row`) and the launch row (`launch`; -1: not this one). Out of line on the GPU, with its values
  // as arguments (the probe stays in registers), and lane 0 alone makes the call: inlined into every probe.step (13
  // in vectorized), NVRTC spent a fifth of a traced kernel's compile optimising the copies (vectorized's file 0.60
  // -> 0.47 s). The clock is read inside it, the same few cycles after every step's start, so a step's cycles (one
  // start to the next) keep their meaning.
#if REDLAB_ON_GPU
  static __device__ __noinline__
#else
  static
#endif
  void write_step_start(rec::StepRecord* steps, long long* clocks, unsigned max_steps, unsigned warps, unsigned w,
                        int s, int on_row, int launch, bool thread0, rec::StepRecord r) {
    const long long now = clock64();
    const int rows[2] = {on_row, launch};
    for (const int row : rows) {
      if (row < 0) continue;
      if (thread0) steps[std::uint64_t(row) * max_steps + s] = r;
      clocks[clock_slot(max_steps, warps, std::uint32_t(row), s, w)] = now;
    }
  }

  // Single-pass kernels: every thread of the block that took the last ticket calls this once, before the
  // steps only that block does. Those steps are recorded in the launch row in every chunk's run (and not in
  // the block's own row), so however the chunks fall, the host sees them exactly once.
  REDLAB_DEVICE void last_block() {
    if (!layout.launch_row) return;
    last = true;
    if (linear_thread() == 0) *buf.last_block = linear_block();
  }

  // A kernel that never says which threads do a step's work (a kernel file without probe.active: core/kernel_file.h
  // adds this call at its start): a lane is active in a step where it makes a recorded access.
  REDLAB_DEVICE void active_when_accessing() { active_by_access = true; }

  // This thread does the current step's work (its guard is true).
  REDLAB_DEVICE void active() {
    if ((!on && !last) || step_index < 0) return;
#if REDLAB_ON_GPU
    atomicOr(&buf.active[warp_step(row())], 1u << lane());
#else
    // The emulator runs a block's threads on one OS thread, and a row is one block's (the launch row the last
    // block's alone): no other thread writes this word, and a locked OR would wait for every record before it.
    buf.active[warp_step(row())] |= 1u << lane();
#endif
  }

  // The value this lane holds after a shuffle-down by `delta`, and the lane it came from.
  template <class T>
  REDLAB_DEVICE void shuffled(const T& v, unsigned delta) {
    unsigned src = lane() + delta < kWarpSize ? lane() + delta : lane();
    record(rec::Class::reg, src, sizeof(T), Buffer::input, value_bits(v));
  }

  // A cache-global load of p[i] (data other blocks wrote in this launch), recorded like any global load.
  template <class T>
  REDLAB_DEVICE T load_cg(const T* p, std::uint64_t i, Buffer b) {
    T v = ld_cg(p + i);
    record(rec::Class::global_load, std::uint32_t(i * sizeof(T)), sizeof(T), b, value_bits(v));
    return v;
  }

  // `v` combined atomically into p[0] (a block's result into out[0]): one global atomic of the operation, at
  // p's offset 0 in buffer `b`, with the value the lane brought.
  template <class Op, class T>
  REDLAB_DEVICE void atomic(Op op, T* p, T v, Buffer b) {
    atomic_combine(op, p, v);
    record(rec::Class::global_atomic, 0, sizeof(T), b, value_bits(v), atomic_op_of<Op>());
  }
  // A single-pass kernel's ticket: atomicAdd(p, 1) on the count of finished blocks, returning the count
  // before; recorded as a global atomic add of 1 on the ticket buffer (the operand: the count a block gets
  // depends on the schedule, and a trace must not).
  REDLAB_DEVICE unsigned ticket(unsigned* p) {
    const unsigned before = atomicAdd(p, 1u);
    record(rec::Class::global_atomic, 0, sizeof(unsigned), Buffer::ticket, 1, rec::AtomicOp::add);
    return before;
  }

  REDLAB_DEVICE void finish() {
    if (step_index < 0) start();
    const unsigned steps = unsigned(step_index + 1);
    if (lane() == 0 && steps <= layout.max_steps) {
      const long long now = clock64();
      if (on) buf.clocks[clock_index(local_block, int(steps))] = now;
      if (last) buf.clocks[clock_index(launch_row(), int(steps))] = now;
    }
    if (!on) return;
    atomicMin(&buf.steps_min[local_block], steps);
    atomicMax(&buf.steps_max[local_block], steps);
  }

  REDLAB_DEVICE void record(rec::Class cls, std::uint32_t addr, unsigned width, Buffer b, std::uint64_t bits,
                            rec::AtomicOp op = rec::AtomicOp::none, const Site& at = Site{}) {
    if ((!on && !last) || step_index < 0) return;
    unsigned c = unsigned(cls);
    unsigned n = seq[c]++;
    if (n >= layout.slots[c]) { flag_overflow(); return; }
    const std::uint64_t ws = warp_step(row());
    std::uint64_t slot = ws * layout.slots_total + layout.slot_base[c] + n;
#if !REDLAB_ON_GPU
    if (buf.slots_written) {   // the warp's first record in slots [written, n]: they are cleared (Buffers says why)
      std::uint16_t& written = buf.slots_written[ws * rec::kClasses + c];
      if (n >= written) {
        std::memset(buf.lanes + (slot - (n - written)) * kWarpSize, 0,
                    std::size_t(n + 1 - written) * kWarpSize * sizeof(rec::LaneRecord));
        written = std::uint16_t(n + 1);
      }
    }
#endif
    rec::LaneRecord r{};
    r.addr = addr;
    r.meta = rec::meta(width, b, op);
    r.bits = bits;
    r.site = site_number(at);
    buf.lanes[slot * kWarpSize + lane()] = r;
    if (active_by_access) active();
  }

  // Where this thread's records go: the launch row once it finishes the launch, else its block's row.
  REDLAB_DEVICE std::uint32_t row() const { return last ? launch_row() : local_block; }
  REDLAB_DEVICE std::uint32_t launch_row() const { return layout.block_hi - layout.block_lo; }
  REDLAB_DEVICE std::uint64_t warp_step(std::uint32_t r) const {
    return (std::uint64_t(r) * layout.max_steps + step_index) * layout.warps + warp();
  }
  REDLAB_DEVICE std::uint64_t clock_index(std::uint32_t r, int s) const {
    return clock_slot(layout.max_steps, layout.warps, r, s, warp());
  }
  // Clocks are [row][step (0..max_steps)][warp] (rec::Buffers).
  static REDLAB_DEVICE std::uint64_t clock_slot(unsigned max_steps, unsigned warps, std::uint32_t r, int s, unsigned w) {
    return (std::uint64_t(r) * (max_steps + 1) + s) * warps + w;
  }

  template <class T, rec::Class Load, rec::Class Store>
  struct Ref {
    T* p;
    std::uint32_t addr;
    Buffer buffer;
    TraceProbe* probe;
    bool values = true;   // false: the value depends on the schedule and is not recorded (shared_flag)
    Site at{};            // the indexing expression
#if !REDLAB_ON_GPU
    // Shared memory in the emulator: the element the checks watch (shared_check.h); nothing for global memory.
    [[no_unique_address]] std::conditional_t<
        Load == rec::Class::shared_load, SharedElement,
        std::conditional_t<Load == rec::Class::remote_shared_load, RemoteElement, NoElement>> checked{};
#endif
    REDLAB_DEVICE operator T() const {
#if !REDLAB_ON_GPU
      if constexpr (Load == rec::Class::shared_load || Load == rec::Class::remote_shared_load)
        checked.access(false, at);
#endif
      T v = *p;
      probe->record(Load, addr, sizeof(T), buffer, values ? value_bits(v) : 0, rec::AtomicOp::none, at);
      return v;
    }
    REDLAB_DEVICE Ref& operator=(const T& v) {
#if !REDLAB_ON_GPU
      if constexpr (Load == rec::Class::shared_load || Load == rec::Class::remote_shared_load)
        checked.access(true, at);
#endif
      *p = v;
      probe->record(Store, addr, sizeof(T), buffer, values ? value_bits(v) : 0, rec::AtomicOp::none, at);
      return *this;
    }
    REDLAB_DEVICE Ref& operator=(const Ref& other) { return *this = T(other); }
  };

  // An array view that records each element access. `base` is the start of the address space the
  // offsets are measured from: the block's shared window, or the global buffer.
  template <class T, rec::Class Load, rec::Class Store>
  struct View {
    T* p;
    const void* base;
    Buffer buffer;
    TraceProbe* probe;
    bool values = true;
#if !REDLAB_ON_GPU
    ::redlab::emu::SharedArray* array = nullptr;   // a shared view in the emulator: its array, checked
    std::int64_t row = -1;                         // a 2D array's row view: which row (-1: a 1D view)
#endif
    REDLAB_DEVICE Ref<T, Load, Store> operator[](Index index) const {
      const std::uint64_t i = index.i;
      auto offset = std::uint32_t(reinterpret_cast<const char*>(p + i) - static_cast<const char*>(base));
      if constexpr (Load == rec::Class::remote_shared_load) offset = rec::remote_address(unsigned(buffer), offset);
#if !REDLAB_ON_GPU
      if constexpr (Load == rec::Class::shared_load)
        if (array) {   // the index is checked before the access: a bad one is reported, not performed
          ::redlab::emu::check_index(*array, row, i, index.at);
          return {p + i, offset, buffer, probe, values, index.at,
                  {array, row < 0 ? i : std::uint64_t(row) * array->row_length + i}};
        }
      // Another block's copy of an array has the extent of this block's: its index is checked against it, and the
      // access against the other accesses of that element (shared_check.h).
      if constexpr (Load == rec::Class::remote_shared_load) {
        if (array) ::redlab::emu::check_index(*array, row, i, index.at);
        return {p + i, offset, buffer, probe, values, index.at, {p, unsigned(sizeof(T)), i, unsigned(buffer)}};
      }
#endif
      return {p + i, offset, buffer, probe, values, index.at};
    }
  };

  // A 2D array (T tile[R][C], seen as a pointer to rows): tile[r] is a row view, tile[r][c] records like
  // any element access, its offset measured from the array's start.
  template <class T, std::size_t C, rec::Class Load, rec::Class Store>
  struct View<T[C], Load, Store> {
    T (*p)[C];
    const void* base;
    Buffer buffer;
    TraceProbe* probe;
#if !REDLAB_ON_GPU
    ::redlab::emu::SharedArray* array = nullptr;
#endif
    REDLAB_DEVICE View<T, Load, Store> operator[](Index index) const {
      const std::uint64_t r = index.i;
#if !REDLAB_ON_GPU
      if (array) {
        ::redlab::emu::check_index(*array, -1, r, index.at);
        return {p[r], base, buffer, probe, true, array, std::int64_t(r)};
      }
#endif
      return {p[r], base, buffer, probe};
    }
  };

#if REDLAB_ON_GPU
  // The kernel's main shared array starts the block's shared window (offset 0, 128-byte aligned).
  template <class T>
  REDLAB_DEVICE View<T, rec::Class::shared_load, rec::Class::shared_store> shared(T* p) {
    return {p, p, Buffer::input, this};
  }
  // A shared flag whose value depends on the schedule (whether this block took the last ticket), `offset` bytes
  // into the window: after the main array, as the kernel says, so that the bank grid and the tree do not take
  // it for the main array's first element. Its accesses are recorded, their values are not: a trace of one
  // launch is the same however its blocks were scheduled (the GPU and the emulator agree, digest included).
  template <class T>
  REDLAB_DEVICE View<T, rec::Class::shared_load, rec::Class::shared_store> shared_flag(T* p, std::size_t offset) {
    return {p, reinterpret_cast<const char*>(p) - offset, Buffer::input, this, false};
  }
#else
  // The emulator's build records as the GPU's does, and checks as well (app/emu/shared_check.h): given the array
  // itself (T s_mem[N], T tile[R][C]), every index is checked against its extent; given a pointer (an extern
  // __shared__ array), none is. Either way every access is watched for races between warps. One template takes
  // both, so every call site compiles as it does for the GPU (an overload for arrays beside one for pointers would
  // be ambiguous: both bind an array argument with an exact match).
  template <class A>
  REDLAB_DEVICE auto shared(A&& a, std::source_location where = std::source_location::current()) {
    using Arg = std::remove_reference_t<A>;
    const std::decay_t<A> p = a;   // T* (T[N] or a pointer), or T(*)[C] (T[R][C])
    using Element = std::remove_pointer_t<std::decay_t<A>>;   // T, or a row T[C]
    View<Element, rec::Class::shared_load, rec::Class::shared_store> v{p, p, Buffer::input, this};
    constexpr std::uint64_t rows = std::is_array_v<Arg> ? std::extent_v<Arg> : 0;
    constexpr std::uint64_t row_length = std::is_array_v<Element> ? std::extent_v<Element> : 0;
    v.array = ::redlab::emu::shared_array(p, sizeof(std::remove_all_extents_t<Element>), rows, row_length, 0, false,
                                          where);
    return v;
  }
  // The flag (above) is one variable: its index is checked against 1.
  template <class T>
  REDLAB_DEVICE View<T, rec::Class::shared_load, rec::Class::shared_store> shared_flag(
      T* p, std::size_t offset, std::source_location where = std::source_location::current()) {
    // The window's start as an address (p - offset as pointer arithmetic would leave the flag's object).
    const auto* window = reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) - offset);
    View<T, rec::Class::shared_load, rec::Class::shared_store> v{p, window, Buffer::input, this, false};
    v.array = ::redlab::emu::shared_array(p, sizeof(T), 1, 0, offset, true, where);
    return v;
  }
#endif
  template <class T>
  REDLAB_DEVICE View<T, rec::Class::global_load, rec::Class::global_store> global(T* p, Buffer b) {
    return {p, p, b, this};
  }

  // Shared array `a` of the cluster's block `rank` (distributed shared memory, cluster.map_shared_rank): its accesses
  // are recorded in the remote classes at rec::remote_address(rank, offset from the array's start: the other block's
  // window as this block's is measured), the rank also in the buffer field. The emulator checks the index against the
  // array's extent, and each access for a race with the other block's own accesses and the cluster's other blocks'
  // (shared_check.h).
#if REDLAB_ON_GPU
  template <class Cluster, class T>
  REDLAB_DEVICE View<T, rec::Class::remote_shared_load, rec::Class::remote_shared_store> remote_shared(
      const Cluster& cluster, T* p, unsigned rank) {
    T* q = cluster.map_shared_rank(p, int(rank));
    return {q, q, Buffer(rank), this};
  }
#else
  template <class Cluster, class A>
  REDLAB_DEVICE auto remote_shared(const Cluster& cluster, A&& a, unsigned rank,
                                   std::source_location where = std::source_location::current()) {
    using Arg = std::remove_reference_t<A>;
    const std::decay_t<A> p = a;
    using Element = std::remove_pointer_t<std::decay_t<A>>;
    static_assert(!std::is_array_v<Element>, "remote_shared takes a one-dimensional shared array");
    Element* q = cluster.map_shared_rank(p, int(rank));
    View<Element, rec::Class::remote_shared_load, rec::Class::remote_shared_store> v{q, q, Buffer(rank), this};
    constexpr std::uint64_t rows = std::is_array_v<Arg> ? std::extent_v<Arg> : 0;
    if constexpr (rows > 0) v.array = ::redlab::emu::shared_array(p, sizeof(Element), rows, 0, 0, false, where);
    return v;
  }
#endif
};

}  // namespace REDLAB_BACKEND_NS
}  // namespace redlab::kernels
