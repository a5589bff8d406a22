// The emulator's runtime: worker pool, per-block fiber scheduler, barriers, warp rendezvous, diagnostics.
//
// Scheduling. A worker runs one block at a time. Each CUDA thread of the block is a fiber with its own
// pooled stack; fibers persist across blocks and launches (a thread that finishes its body parks, and the
// next block reuses it), so a launch allocates nothing per thread. Runnable threads sit in a FIFO queue; a
// thread runs until it blocks (barrier, warp rendezvous) or exits, then switches directly to the next
// runnable fiber (one context switch per wait, no trip through a scheduler). When the queue runs dry with
// threads still alive, nothing can ever wake them: that is a deadlock, diagnosed from the recorded waits.
//
// Barrier: arrivals are counted against the threads still alive; the last to arrive releases the others
// into the queue and carries on. Warp rendezvous: lanes that call a warp intrinsic with the same (effective)
// mask form a group; each deposits its value and argument; the last to arrive computes every lane's result
// and releases the rest. Exited lanes never arrive, so a mask that names one leaves the group waiting:
// the deadlock report then says which lanes exited.
//
// Clusters. Each block of a cluster runs on a worker of its own; the cluster's baton (a mutex) is held by the block
// whose threads run, so the blocks take turns, in rank order: between two cluster barriers rank 0 runs first, then
// rank 1, and so on, so that a cluster's run (and the race or fault it reports) is the same at every launch whatever
// the workers' timing. A block whose live threads all wait at cluster.sync returns to its worker's main context,
// which arrives at the cluster's barrier, hands the turn to the next rank and, unless it is the last to arrive, waits
// there with the baton given up. Distributed shared memory is the other worker's copy of the same thread_local variable:
// its address there is the same offset in that worker's block of the variable's module's TLS (dl_iterate_phdr),
// noted by each block as it arrives at a cluster barrier.
#include "emu/simt.h"
#include "emu/shared_check.h"

#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <boost/context/fiber.hpp>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

// The TLS init function of redlab::kernels::dynamic_smem (Itanium C++ ABI name), a no-op: the array needs no
// initialisation, but g++ 12 calls this function unconditionally from function templates that declare
// `extern thread_local unsigned char dynamic_smem[];` at block scope (see simt.h). Weak, so a compiler that
// ever emits its own wins.
#if defined(__ELF__)
extern "C" __attribute__((weak)) void _ZTHN6redlab7kernels12dynamic_smemE() {}
#endif

namespace redlab::emu {
namespace detail {
namespace bctx = boost::context;

namespace {

enum class State : std::uint8_t { runnable, wait_barrier, wait_warp, in_activemask, wait_cluster, exited };
// cluster_wait: every live thread of the block waits at cluster.sync (the worker's main context takes it from there).
enum class Status : std::uint8_t { running, done, deadlock, error, aborted, cluster_wait };

// A fiber's saved context. On x86-64 (not in the sanitizer build) the emulator switches fibers itself
// (redlab_emu_fiber_switch below) without saving the x87 and SSE control words, which Debian's Boost.Context saves
// and restores at every switch: no CUDA thread changes them, and a block switches fibers thousands of times.
// Boost.Context keeps the fibers elsewhere: on other processors, and in the sanitizer build, whose ucontext fibers
// tell ASan about each switch.
#if defined(__x86_64__) && defined(__ELF__) && !defined(BOOST_USE_UCONTEXT)
#define REDLAB_EMU_OWN_SWITCH 1
#else
#define REDLAB_EMU_OWN_SWITCH 0
#endif

// Where a fiber resumes: a thread's own, or the worker's main context.
struct FiberContext {
#if REDLAB_EMU_OWN_SWITCH
  // Where redlab_emu_fiber_switch left the callee-saved registers; nullptr: no context (yet, or unwound).
  void* sp = nullptr;
  bool has_context() const { return sp != nullptr; }
#else
  bctx::fiber f;
  bool has_context() const { return bool(f); }
#endif
};

struct alignas(64) Thread : ThreadView, FiberContext {
  std::uint16_t index = 0;
  State state = State::exited;
  Kind kind = Kind::syncwarp;  // what it waits in (state wait_warp)
  std::uint32_t group_mask = 0;
  const char* file = nullptr;  // where it waits
  unsigned line = 0;
  std::uint64_t result = 0;  // warp-op result delivered by the last arriver
  bool activemask_ready = false;
  void* stack = nullptr;  // mapping: guard page + stack
};

struct Group {
  std::uint32_t mask;
  std::uint32_t arrived;
  Kind kind;
  const char* file;
  unsigned line;
};

struct Warp {
  std::uint32_t exists = 0;  // lanes the block has
  std::uint32_t exited = 0;
  unsigned ngroups = 0;
  Group groups[32];
  std::uint64_t value[32];
  std::uint32_t arg[32];
};

// One thread-local storage block of a loaded module (the executable, a library, a kernel file's library) as one OS
// thread has it: a __shared__ variable (thread_local) of a module lies at the same offset in every thread's block.
struct TlsBlock {
  std::size_t module = 0;
  std::uintptr_t start = 0, size = 0;
};
std::vector<TlsBlock> tls_blocks_of_this_thread() {
  std::vector<TlsBlock> blocks;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        if (info->dlpi_tls_modid == 0 || info->dlpi_tls_data == nullptr) return 0;
        for (unsigned i = 0; i < info->dlpi_phnum; ++i)
          if (info->dlpi_phdr[i].p_type == PT_TLS)
            static_cast<std::vector<TlsBlock>*>(out)->push_back({info->dlpi_tls_modid,
                                                                 reinterpret_cast<std::uintptr_t>(info->dlpi_tls_data),
                                                                 std::uintptr_t(info->dlpi_phdr[i].p_memsz)});
        return 0;
      },
      &blocks);
  return blocks;
}

// The cluster barrier's intervals, numbered for the process (BlockView::cluster_phase).
std::atomic<std::uint64_t> g_cluster_phases{0};

// A cluster while its blocks run (a cluster launch). Its members take turns holding the baton, the turn going by
// rank; one that arrives at the barrier waits on `released` until the last arrives (or the launch stops), then for
// its turn again.
struct ClusterState {
  std::mutex baton;
  std::condition_variable released;  // a new phase, or a new turn
  unsigned size = 1, finished = 0, arrived = 0;
  unsigned turn = 0;  // the rank whose threads run
  // Not run: it was to start after a block that faulted (LaunchState::skip). Decided once, as the cluster's state is
  // made, so that its blocks are all run or none is (a block run alone would wait for the others at its barrier).
  bool skipped = false;
  std::uint64_t phase = 0;
  struct Member {
    bool synced = false;  // reached a cluster.sync: its shared memory exists
    bool exited = false;
    bool waiting = false;  // arrived at the cluster barrier of this phase
    std::vector<TlsBlock> tls;  // its worker's TLS blocks, noted at its last arrival
    const BlockView* block = nullptr;  // the block, as its worker holds it (set with tls)
  };
  Member members[kMaxClusterBlocks];

  // The turn to the lowest rank still to run in this phase (none when all have arrived or ended).
  void pass_turn() {
    turn = size;
    for (unsigned r = 0; r < size; ++r)
      if (!members[r].exited && !members[r].waiting) {
        turn = r;
        break;
      }
    released.notify_all();
  }
  void release() {
    arrived = 0;
    phase = ++g_cluster_phases;
    for (unsigned r = 0; r < size; ++r) members[r].waiting = false;
    pass_turn();
  }
  // Rank `rank` ends (or never runs): the barrier the others wait at no longer waits for it, and the turn moves on.
  // True when it was the cluster's last block.
  bool leave(unsigned rank) {
    members[rank].exited = true;
    ++finished;
    if (arrived && arrived == size - finished)
      release();
    else
      pass_turn();
    return finished == size;
  }
};

struct LaunchState {
  dim3 grid, block;
  dim3 cluster{1, 1, 1};
  unsigned cluster_blocks = 1;
  unsigned nthreads = 0;
  unsigned long long nblocks = 0;
  const std::function<void()>* body = nullptr;
  BarrierMode mode = BarrierMode::hardware;
  std::atomic<unsigned long long> next{0};
  unsigned long long end = 0;  // blocks [next's start, end) run (set_block_range)
  std::atomic<bool> abort{false};
  const std::atomic<bool>* cancel = nullptr;  // the launching thread's cancel flag
  std::atomic<std::uint64_t>* blocks_run = nullptr;  // the launching thread's block counter
  BlockHook before = nullptr, after = nullptr;  // the launching thread's (set_block_hooks)
  void* hook_context = nullptr;
  std::mutex error_mutex;
  std::exception_ptr error;
  std::mutex clusters_mutex;
  std::map<unsigned long long, std::shared_ptr<ClusterState>> clusters;  // the clusters whose blocks have started

  // Cluster `index`'s state, made by its first block to start (or to be skipped).
  std::shared_ptr<ClusterState> cluster_state(unsigned long long index) {
    std::lock_guard lk(clusters_mutex);
    return cluster_state_locked(index);
  }
  std::shared_ptr<ClusterState> cluster_state_locked(unsigned long long index) {
    auto& c = clusters[index];
    if (!c) {
      c = std::make_shared<ClusterState>();
      c->size = cluster_blocks;
      c->phase = ++g_cluster_phases;
      c->skipped = past_fault(index * cluster_blocks);
    }
    return c;
  }
  // Whether the block handed out as `item` is left out: it comes after a block that faulted (for a cluster launch,
  // its cluster was decided to, when the cluster's state was made). A skipped cluster's blocks never run.
  bool skip(unsigned long long item) {
    if (cluster_blocks == 1) return past_fault(item);
    std::lock_guard lk(clusters_mutex);
    const unsigned long long index = item / cluster_blocks;
    const std::shared_ptr<ClusterState> c = cluster_state_locked(index);
    if (!c->skipped) return false;
    if (++c->finished == c->size) clusters.erase(index);
    return true;
  }
  // The linear index of the block handed out as `item` (Worker::run_block).
  unsigned long long block_of(unsigned long long item) const {
    if (cluster_blocks == 1) return item;
    const unsigned long long index = item / cluster_blocks;
    const unsigned rank = unsigned(item % cluster_blocks);
    const unsigned long long across = grid.x / cluster.x, down = grid.y / cluster.y;
    const unsigned long long x = (index % across) * cluster.x + rank % cluster.x;
    const unsigned long long y = (index / across % down) * cluster.y + rank / cluster.x % cluster.y;
    const unsigned long long z = (index / (across * down)) * cluster.z + rank / (cluster.x * cluster.y);
    return x + y * grid.x + z * grid.x * grid.y;
  }
  void forget_cluster(unsigned long long index) {
    std::lock_guard lk(clusters_mutex);
    clusters.erase(index);
  }

  // Stops the launch: every block ends at its next wait, none starts (a cancel, a cluster barrier that cannot open).
  void record(std::exception_ptr e) {
    std::lock_guard lk(error_mutex);
    if (!error) error = std::move(e);
    abort.store(true, std::memory_order_relaxed);
  }
  // A block's own fault (a race, a bad index, a deadlock): the launch reports the fault of the first block (in the
  // order blocks are handed out) that has one, whichever worker got there first, so that a kernel faults the same way
  // at every launch. Blocks after it are not started; those before it, already running, run on and may report theirs.
  void record_fault(unsigned long long item, std::exception_ptr e) {
    std::lock_guard lk(error_mutex);
    if (abort.load(std::memory_order_relaxed)) return;  // stopped: the error that stopped it stands
    if (error && item >= fault_item.load(std::memory_order_relaxed)) return;
    error = std::move(e);
    fault_item.store(item, std::memory_order_relaxed);
  }
  // Past the first block that faulted (for a cluster launch, in a later cluster: the rest of the faulting block's
  // cluster runs, its blocks waiting for one another at the cluster's barriers).
  bool past_fault(unsigned long long item) const {
    const unsigned long long fault = fault_item.load(std::memory_order_relaxed);
    return fault != kNoFault && item / cluster_blocks > fault / cluster_blocks;
  }
  bool faulted() const { return fault_item.load(std::memory_order_relaxed) != kNoFault; }

  static constexpr unsigned long long kNoFault = ~0ull;
  std::atomic<unsigned long long> fault_item{kNoFault};  // the first faulting block's item (record_fault)
};

constexpr unsigned kQueue = 2048;  // > kMaxThreadsPerBlock: every thread fits, running or not
constexpr std::size_t kGuard = 4096;
// Each fiber's stack starts at its own offset within a page (64 bytes apart, by thread index): stacks a page-multiple
// apart would put every thread's hot frames in the same cache sets, and a block's threads take turns on one core.
constexpr std::size_t kStackColors = 64, kColorBytes = 64;
constexpr std::size_t kStackMapping = kGuard + kFiberStackBytes + kStackColors * kColorBytes;

struct Block : BlockView {
  unsigned n = 0, live = 0, exited = 0, nwarps = 0;
  Status status = Status::done;
  std::exception_ptr error;
  // barrier
  unsigned bar_count = 0;
  const char* bar_file = nullptr;
  unsigned bar_line = 0;
  unsigned bar_column = 0;
  int bar_acc[3] = {0, 1, 0};  // count, and, or
  int bar_result[3] = {0, 0, 0};
  std::uint16_t bar_waiters[kMaxThreadsPerBlock];
  // cluster barrier: the threads waiting at cluster.sync, and the cluster (nullptr: not a cluster launch)
  unsigned cluster_count = 0;
  std::uint16_t cluster_waiters[kMaxThreadsPerBlock];
  ClusterState* cluster = nullptr;
  // run queue
  std::uint16_t q[kQueue];
  unsigned qh = 0, qt = 0;
  Warp warps[kMaxThreadsPerBlock / 32];
};

#if REDLAB_EMU_OWN_SWITCH
// Saves the callee-saved registers on the running stack, stores that stack pointer in *from, and continues
// the context saved at `to`: for the caller, it returns when another switch names *from. The x87 and SSE
// control words are not saved: no code the emulator runs changes them, and every fiber of a worker runs on
// the same OS thread, which has one of each. A new fiber's context is a frame that "returns" into fiber_start
// (make_fiber).
extern "C" void redlab_emu_fiber_switch(void** from, void* to);
asm(R"(
  .text
  .p2align 4
  .globl redlab_emu_fiber_switch
  .hidden redlab_emu_fiber_switch
  .type redlab_emu_fiber_switch, @function
redlab_emu_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size redlab_emu_fiber_switch, .-redlab_emu_fiber_switch
)");

// What a fiber that is made to unwind throws from the switch it was waiting in: its frames' destructors run,
// and fiber_start catches it.
struct FiberUnwind {};
[[noreturn]] void fiber_start();
#else
struct NoDealloc {  // stacks belong to their Thread; the fiber only borrows one
  void deallocate(bctx::stack_context&) noexcept {}
};
using FiberUnwind = bctx::detail::forced_unwind;
bctx::fiber fiber_main(bctx::fiber&& caller);
#endif

struct Worker {
  FiberContext main;
#if REDLAB_EMU_OWN_SWITCH
  // The fiber unwind_fiber resumes to unwind (FiberUnwind). Kept here, not in the Thread: every switch asks, and the
  // worker's line is in the cache where the resumed thread's is not.
  const FiberContext* unwinding = nullptr;
#else
  FiberContext* prev = nullptr;  // the context that just switched away: its continuation lands here
#endif
  LaunchState* L = nullptr;
  dim3 shape{0, 0, 0};  // block shape the threads' indices were computed for
  std::uint64_t epochs = 0;  // barrier intervals begun on this worker (BlockView::sync_epoch)
  std::vector<TlsBlock> tls;  // this worker's TLS blocks as last looked up (cluster_map_shared)
  Block block;
  Thread threads[kMaxThreadsPerBlock];

  Worker() {
    for (unsigned i = 0; i < kMaxThreadsPerBlock; ++i) threads[i].index = std::uint16_t(i);
  }
  ~Worker();
  // `item`: the block's place in the order blocks are handed out (its linear index; for a cluster launch, cluster by
  // cluster and by rank in each).
  void run_block(unsigned long long item);

 private:
  // Waits (the baton given up meanwhile) until it is this block's turn to run in its cluster; false: the launch stopped.
  bool wait_for_turn(ClusterState* cs, std::unique_lock<std::mutex>& baton);
  // Waits at the cluster barrier (the baton given up meanwhile) until every block of the cluster has arrived; false:
  // the launch stopped first.
  bool wait_for_cluster(ClusterState* cs, std::unique_lock<std::mutex>& baton);
};

thread_local Worker* tl_worker = nullptr;

inline Thread* self_thread() { return static_cast<Thread*>(tl_thread); }

void make_fiber(Thread& t) {
  if (t.stack == nullptr) {
    void* p = mmap(nullptr, kStackMapping, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw LaunchError("emulator: cannot map a fiber stack");
    mprotect(p, kGuard, PROT_NONE);  // overflow faults instead of corrupting a neighbour
    t.stack = p;
  }
  const std::size_t color = (t.index % kStackColors) * kColorBytes;
  char* const top = static_cast<char*>(t.stack) + kGuard + kFiberStackBytes + color;
#if REDLAB_EMU_OWN_SWITCH
  // The frame redlab_emu_fiber_switch pops: six registers (zero), then fiber_start as the address it returns to, above
  // it a null return address for fiber_start (the end of the stack for an unwinder), 16-byte aligned as a call
  // leaves it.
  auto* frame = reinterpret_cast<void**>(reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t(15)) - 8;
  for (int i = 0; i < 6; ++i) frame[i] = nullptr;
  frame[6] = reinterpret_cast<void*>(&fiber_start);
  frame[7] = nullptr;
  t.sp = frame;
#else
  bctx::stack_context sc;
  sc.size = kFiberStackBytes + color;
  sc.sp = top;
  t.f = bctx::fiber(std::allocator_arg, bctx::preallocated(sc.sp, sc.size, sc), NoDealloc{}, fiber_main);
#endif
}

std::atomic<bool> g_watch{false};
std::atomic<const ThreadView*> g_watch_thread{nullptr};
std::atomic<const BlockView*> g_watch_block{nullptr};

// Switch from the running context `from` to thread `to` (nullptr: the worker's main context).
inline void transfer(Worker& w, FiberContext* from, Thread* to) {
  FiberContext* target = to ? static_cast<FiberContext*>(to) : &w.main;
  tl_thread = to;
  if (to && g_watch.load(std::memory_order_relaxed)) [[unlikely]] {
    g_watch_thread.store(to, std::memory_order_relaxed);
    g_watch_block.store(tl_block, std::memory_order_relaxed);
  }
  if (to && !to->has_context()) make_fiber(*to);
#if REDLAB_EMU_OWN_SWITCH
  redlab_emu_fiber_switch(&from->sp, target->sp);
  if (w.unwinding == from) [[unlikely]]
    throw FiberUnwind{};
#else
  w.prev = from;
  bctx::fiber f = std::move(target->f).resume();
  w.prev->f = std::move(f);
#endif
}

// Unwinds a fiber that waits in a switch (inside the kernel, or parked after it): the destructors of its frames run,
// and it has no context after.
void unwind_fiber(Worker& w, Thread& t) {
  if (!t.has_context()) return;
  tl_thread = &t;
#if REDLAB_EMU_OWN_SWITCH
  w.unwinding = &t;
  redlab_emu_fiber_switch(&w.main.sp, t.sp);
#else
  (void)w;
  bctx::fiber dead = std::move(t.f);
#endif
  tl_thread = nullptr;
}

inline void push(Block& b, std::uint16_t i) { b.q[b.qt++ & (kQueue - 1)] = i; }
inline Thread* pop(Worker& w) {
  Block& b = w.block;
  if (b.qh == b.qt) return nullptr;
  return &w.threads[b.q[b.qh++ & (kQueue - 1)]];
}

void fail(Worker& w, std::exception_ptr e) {
  if (!w.block.error) w.block.error = std::move(e);
  w.block.status = Status::error;
}

// The running thread waits: run the next runnable thread, or tell main there is none.
void suspend(Worker& w, Thread* self) {
  Block& b = w.block;
  Thread* next = pop(w);
  if (next == nullptr) {
    b.status = Status::deadlock;
  } else if (w.L->abort.load(std::memory_order_relaxed)) {
    b.status = Status::aborted;
    next = nullptr;
  }
  transfer(w, self, next);
}

// ---- messages ---------------------------------------------------------------------------------------------

std::string lanes(std::uint32_t m) {
  std::string s;
  int i = 0;
  while (i < 32) {
    if (!((m >> i) & 1u)) {
      ++i;
      continue;
    }
    int j = i;
    while (j + 1 < 32 && ((m >> (j + 1)) & 1u)) ++j;
    if (!s.empty()) s += ",";
    s += std::to_string(i);
    if (j > i) {
      s += '-';
      s += std::to_string(j);
    }
    i = j + 1;
  }
  return s;
}

std::string hex(std::uint32_t m) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", m);
  return buf;
}

std::string plural(unsigned n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string thread_name(const Thread& t) { return detail::thread_name(t, *tl_block); }

// "wait at X (where)" for a set of waiting threads, grouped by what they wait in.
std::string describe_waits(const std::vector<const Thread*>& ts) {
  struct Item {
    bool barrier, cluster;
    Kind kind;
    const char* file;
    unsigned line;
    std::uint32_t mask;
    unsigned count;
  };
  std::vector<Item> items;
  for (const Thread* t : ts) {
    bool barrier = t->state != State::wait_warp;
    bool cluster = t->state == State::wait_cluster;
    bool found = false;
    for (auto& it : items)
      if (it.barrier == barrier && it.cluster == cluster && it.line == t->line && it.file == t->file &&
          (barrier || (it.kind == t->kind && it.mask == t->group_mask))) {
        ++it.count;
        found = true;
        break;
      }
    if (!found) items.push_back({barrier, cluster, t->kind, t->file, t->line, t->group_mask, 1});
  }
  std::string s = ts.size() == 1 ? "waits at " : "wait at ";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) s += i + 1 == items.size() ? " and " : ", ";
    const auto& it = items[i];
    s += it.barrier ? (it.cluster ? "cluster.sync" : "__syncthreads") : kind_name(it.kind);
    s += " (" + kernel_place(it.file, it.line);
    if (!it.barrier) s += ", mask " + hex(it.mask);
    s += ")";
    if (items.size() > 1) s += " x" + std::to_string(it.count);
  }
  return s;
}

std::string describe_deadlock(Worker& w) {
  Block& b = w.block;
  // Tallies over the block.
  unsigned at_barrier = 0, in_warp = 0;
  for (unsigned i = 0; i < b.n; ++i) {
    const Thread& t = w.threads[i];
    if (t.state == State::wait_barrier || t.state == State::wait_cluster) ++at_barrier;
    if (t.state == State::wait_warp) ++in_warp;
  }
  // The root cause: a warp group whose missing lanes exited, else the first waiting group.
  const Warp* gw = nullptr;
  const Group* g = nullptr;
  unsigned gwi = 0;
  for (unsigned wi = 0; wi < b.nwarps && !g; ++wi)
    for (unsigned k = 0; k < b.warps[wi].ngroups; ++k) {
      const Group& c = b.warps[wi].groups[k];
      if ((c.mask & ~c.arrived) & b.warps[wi].exited) {
        gw = &b.warps[wi];
        g = &c;
        gwi = wi;
        break;
      }
    }
  for (unsigned wi = 0; wi < b.nwarps && !g; ++wi)
    if (b.warps[wi].ngroups) {
      gw = &b.warps[wi];
      g = &b.warps[wi].groups[0];
      gwi = wi;
    }

  std::ostringstream os;
  os << "deadlock in " << block_name(b) << ": ";
  if (g) {
    std::uint32_t missing = g->mask & ~g->arrived;
    std::uint32_t gone = missing & gw->exited;
    std::vector<const Thread*> elsewhere;
    for (unsigned l = 0; l < 32; ++l)
      if (((missing & ~gone) >> l) & 1u) elsewhere.push_back(&w.threads[gwi * 32 + l]);
    os << kind_name(g->kind) << " (" << kernel_place(g->file, g->line) << ") in warp " << gwi << " names lane"
       << (std::popcount(missing) == 1 ? " " : "s ") << lanes(missing) << " in its mask " << hex(g->mask) << ", but ";
    if (gone == missing) {
      os << (std::popcount(gone) == 1 ? "it" : "they") << " exited without calling it";
    } else if (gone) {
      os << "lane" << (std::popcount(gone) == 1 ? " " : "s ") << lanes(gone) << " exited without calling it and lane"
         << (elsewhere.size() == 1 ? " " : "s ") << lanes(missing & ~gone) << " " << describe_waits(elsewhere);
    } else {
      os << (elsewhere.size() == 1 ? "it " : "they ") << describe_waits(elsewhere)
         << " (every lane named in a mask must call the same intrinsic with the same mask)";
    }
    os << " [" << std::popcount(g->arrived) << " arrived, " << b.exited << " exited, "
       << (at_barrier + in_warp - unsigned(std::popcount(g->arrived))) << " wait elsewhere]";
  } else if (b.bar_count) {
    os << "__syncthreads (" << kernel_place(b.bar_file, b.bar_line) << ") reached by " << b.bar_count << " of " << b.n
       << " threads [" << b.bar_count << " arrived, " << b.exited << " exited, " << (b.live - b.bar_count)
       << " wait elsewhere]";
    if (b.cluster_count)
      os << "; " << b.cluster_count << " of those wait at cluster.sync ("
         << kernel_place(w.threads[b.cluster_waiters[0]].file, w.threads[b.cluster_waiters[0]].line)
         << "), which needs every thread of the block";
  } else if (b.cluster_count) {
    os << "cluster.sync (" << kernel_place(w.threads[b.cluster_waiters[0]].file, w.threads[b.cluster_waiters[0]].line)
       << ") reached by " << b.cluster_count << " of " << b.n << " threads [" << b.cluster_count << " arrived, "
       << b.exited << " exited, " << (b.live - b.cluster_count) << " wait elsewhere]";
  } else {
    os << b.live << " threads blocked with nothing to wake them";
  }
  return os.str();
}

// ---- thread lifecycle -------------------------------------------------------------------------------------

void release_barrier(Worker& w, Thread* keep) {
  Block& b = w.block;
  for (unsigned i = 0; i < b.bar_count; ++i) {
    std::uint16_t idx = b.bar_waiters[i];
    if (keep && idx == keep->index) continue;
    w.threads[idx].state = State::runnable;
    push(b, idx);
  }
  b.bar_count = 0;
  b.sync_epoch = ++w.epochs;  // accesses on either side of the barrier are ordered (shared_check.h)
  b.bar_result[0] = b.bar_acc[0];
  b.bar_result[1] = b.bar_acc[1];
  b.bar_result[2] = b.bar_acc[2];
  b.bar_acc[0] = 0;
  b.bar_acc[1] = 1;
  b.bar_acc[2] = 0;
}

void on_exit(Worker& w, Thread* self) {
  Block& b = w.block;
  self->state = State::exited;
  --b.live;
  ++b.exited;
  b.warps[self->warp].exited |= 1u << self->lane;
  Thread* next = nullptr;
  if (b.status == Status::running) {
    if (b.bar_count) {
      if (w.L->mode == BarrierMode::strict) {
        fail(w,
             std::make_exception_ptr(LaunchError(
                 "divergent barrier in " + block_name(b) + ": __syncthreads (" + kernel_place(b.bar_file, b.bar_line) +
                 ") reached by " + std::to_string(b.bar_count) + " of " + std::to_string(b.n) + " threads, but " +
                 thread_name(*self) + " exited without reaching it (strict barrier mode)")));
      } else if (b.bar_count == b.live) {
        release_barrier(w, nullptr);
      }
    }
    if (b.cluster_count && b.status == Status::running) {
      if (w.L->mode == BarrierMode::strict) {
        fail(w, std::make_exception_ptr(
                    LaunchError("divergent cluster barrier in " + block_name(b) + ": cluster.sync() reached by " +
                                std::to_string(b.cluster_count) + " of " + std::to_string(b.n) + " threads, but " +
                                thread_name(*self) + " exited without reaching it (strict barrier mode)")));
      } else if (b.cluster_count == b.live) {
        b.status = Status::cluster_wait;  // the worker's main context arrives for the block
      }
    }
    if (b.status == Status::running) {
      next = pop(w);
      if (next == nullptr) b.status = b.live ? Status::deadlock : Status::done;
    }
  }
  transfer(w, self, next);
}

void run_body(Worker& w) {
  try {
    (*w.L->body)();
  } catch (const FiberUnwind&) {
    throw;
  } catch (LaunchError& e) {  // a report from inside the kernel: where it happened, unless it says more itself
    if (e.site.kind == FaultSite::Kind::none) {
      e.site.kind = FaultSite::Kind::other;
      e.site.block = w.block.linear;
      e.site.step = tl_thread ? tl_thread->step : -1;
    }
    detail::name_fault_step(e.site);
    fail(w, std::current_exception());
  } catch (...) { fail(w, std::current_exception()); }
}

#if REDLAB_EMU_OWN_SWITCH
void fiber_start() {
  Worker& w = *tl_worker;
  Thread* self = self_thread();
  try {
    for (;;) {
      run_body(w);
      on_exit(w, self);  // parks; resumes when a later block needs this thread
    }
  } catch (const FiberUnwind&) {}
  // Unwound (unwind_fiber, from the worker's main context): back there, never to return; the thread's next run
  // starts a new context on the same stack.
  self->sp = nullptr;
  w.unwinding = nullptr;
  void* discarded = nullptr;
  redlab_emu_fiber_switch(&discarded, w.main.sp);
  __builtin_unreachable();
}
#else
bctx::fiber fiber_main(bctx::fiber&& caller) {
  Worker& w = *tl_worker;
  w.prev->f = std::move(caller);
  Thread* self = self_thread();
  for (;;) {
    run_body(w);
    on_exit(w, self);  // parks; resumes when a later block needs this thread
  }
}
#endif

Worker::~Worker() {
  for (auto& t : threads) {
    unwind_fiber(*this, t);  // a parked fiber: nothing of the kernel's is left on its stack, but its frames end
    if (t.stack) munmap(t.stack, kStackMapping);
  }
}

bool Worker::wait_for_cluster(ClusterState* cs, std::unique_lock<std::mutex>& baton) {
  Block& b = block;
  if (cs == nullptr) {  // a block alone: its own threads are the cluster
    b.cluster_phase = ++g_cluster_phases;
    b.sync_epoch = ++epochs;  // the cluster barrier orders the block's own threads too
    b.phase_start_epoch = b.sync_epoch;
    return true;
  }
  ClusterState::Member& me = cs->members[b.cluster_rank];
  me.synced = true;
  me.waiting = true;
  me.tls = tls_blocks_of_this_thread();  // where this block's shared memory is, for the others
  me.block = &b;
  const std::uint64_t phase = cs->phase;
  if (++cs->arrived == cs->size - cs->finished) {
    cs->release();
  } else {
    cs->pass_turn();
    // A stopped launch (an error in another block, a cancel) does not notify: look now and then.
    while (cs->phase == phase && !L->abort.load(std::memory_order_relaxed))
      cs->released.wait_for(baton, std::chrono::milliseconds(20));
  }
  if (cs->phase == phase) return false;
  // The new interval begins for this block now, while it waits for its turn: the blocks that run before it see its
  // accesses of the last interval as ordered before theirs (and the barrier orders the block's own threads too).
  b.cluster_phase = cs->phase;
  b.sync_epoch = ++epochs;
  b.phase_start_epoch = b.sync_epoch;
  return wait_for_turn(cs, baton);
}

bool Worker::wait_for_turn(ClusterState* cs, std::unique_lock<std::mutex>& baton) {
  for (;;) {  // a stopped launch first: a block whose turn comes after the stop does not run on
    if (L->abort.load(std::memory_order_relaxed)) return false;
    if (cs->turn == block.cluster_rank) return true;
    cs->released.wait_for(baton, std::chrono::milliseconds(20));
  }
}

void Worker::run_block(unsigned long long item) {
  Block& b = block;
  const LaunchState& l = *L;
  b.block_dim = l.block;
  b.grid_dim = l.grid;
  b.cluster_dim = l.cluster;
  b.cluster_blocks = l.cluster_blocks;
  unsigned long long linear = item;
  std::shared_ptr<ClusterState> cluster;
  std::unique_lock<std::mutex> baton;
  if (l.cluster_blocks > 1) {
    linear = l.block_of(item);
    b.cluster_rank = unsigned(item % l.cluster_blocks);
    cluster = L->cluster_state(item / l.cluster_blocks);
    baton = std::unique_lock(cluster->baton);
    if (!wait_for_turn(cluster.get(), baton)) {  // the launch stopped before this block's turn came
      const bool last = cluster->leave(b.cluster_rank);
      baton.unlock();
      if (last) L->forget_cluster(item / l.cluster_blocks);
      return;
    }
    b.cluster_phase = cluster->phase;
  } else {
    b.cluster_rank = 0;
    b.cluster_phase = ++g_cluster_phases;
  }
  b.cluster = cluster.get();
  b.cluster_count = 0;
  b.linear = linear;
  b.block_idx.x = unsigned(linear % l.grid.x);
  b.block_idx.y = unsigned((linear / l.grid.x) % l.grid.y);
  b.block_idx.z = unsigned(linear / (static_cast<unsigned long long>(l.grid.x) * l.grid.y));
  const unsigned n = l.nthreads;
  b.n = n;
  b.live = n;
  b.exited = 0;
  b.error = nullptr;
  b.bar_count = 0;
  b.bar_acc[0] = 0;
  b.bar_acc[1] = 1;
  b.bar_acc[2] = 0;
  b.sync_epoch = ++epochs;
  b.phase_start_epoch = b.sync_epoch;
  b.steps_noted = 0;
  b.nwarps = (n + 31) / 32;
  for (unsigned wi = 0; wi < b.nwarps; ++wi) {
    Warp& wp = b.warps[wi];
    unsigned lanes_here = n - wi * 32 >= 32 ? 32 : n - wi * 32;
    wp.exists = lanes_here == 32 ? 0xffffffffu : ((1u << lanes_here) - 1u);
    wp.exited = 0;
    wp.ngroups = 0;
  }
  if (shape.x != l.block.x || shape.y != l.block.y || shape.z != l.block.z) {
    for (unsigned i = 0; i < n; ++i) {
      Thread& t = threads[i];
      t.thread_idx = {i % l.block.x, (i / l.block.x) % l.block.y, i / (l.block.x * l.block.y)};
      t.linear = i;
      t.lane = i % 32;
      t.warp = i / 32;
    }
    shape = l.block;
  }
  for (unsigned i = 0; i < n; ++i) {
    threads[i].state = State::runnable;
    threads[i].clock = 0;
    threads[i].step = -1;  // no probe.step yet in this block (a report must not name the last block's)
    threads[i].step_line = 0;
    threads[i].activemask_ready = false;
    b.q[i] = std::uint16_t(i);
  }
  b.qh = 1;
  b.qt = n;
  b.status = Status::running;
  tl_block = &b;
  Thread* first = &threads[0];
  for (;;) {
    transfer(*this, &main, first);
    tl_thread = nullptr;
    if (b.status != Status::cluster_wait) break;
    // Every live thread waits at cluster.sync: arrive for the block, and once the cluster's barrier opens let them on.
    if (!wait_for_cluster(cluster.get(), baton)) {
      b.status = Status::aborted;
      break;
    }
    for (unsigned i = 0; i < b.cluster_count; ++i) {
      threads[b.cluster_waiters[i]].state = State::runnable;
      push(b, b.cluster_waiters[i]);
    }
    b.cluster_count = 0;
    b.status = Status::running;
    first = pop(*this);
  }
  // Leave the cluster: a barrier its other blocks wait at no longer waits for this one.
  auto leave_cluster = [&] {
    if (!cluster) return;
    // In strict mode a block that ends while others wait at the barrier stops the launch (the waiting blocks see the
    // stop before their turn comes again).
    if (cluster->arrived && L->mode == BarrierMode::strict && b.status == Status::done)
      L->record(std::make_exception_ptr(
          LaunchError("divergent cluster barrier: " + block_name(b) + " (rank " + std::to_string(b.cluster_rank) +
                      " in its cluster) ended while " + std::to_string(cluster->arrived) +
                      " of the cluster's blocks wait at cluster.sync (strict barrier mode)")));
    const bool last = cluster->leave(b.cluster_rank);
    baton.unlock();
    if (last) L->forget_cluster(item / l.cluster_blocks);
    b.cluster = nullptr;
  };

  if (b.status == Status::done) {
    leave_cluster();
    return;
  }
  if (b.status == Status::deadlock) {  // the furthest step any thread of the block reached
    FaultSite site;
    site.kind = FaultSite::Kind::other;
    site.block = linear;
    site.step = int(b.steps_noted) - 1;
    detail::name_fault_step(site);
    fail(*this, std::make_exception_ptr(LaunchError(describe_deadlock(*this), site)));
  }
  if (b.status == Status::error) L->record_fault(item, b.error);
  leave_cluster();
  // Unwind every thread that is still inside the kernel (destructors run); parked ones stay parked.
  for (unsigned i = 0; i < n; ++i)
    if (threads[i].state != State::exited) unwind_fiber(*this, threads[i]);
  tl_thread = nullptr;
  b.status = Status::done;
}

// ---- worker pool ------------------------------------------------------------------------------------------

class Pool {
 public:
  ~Pool() { resize(0); }

  void resize(unsigned n) {
    {
      std::lock_guard lk(m_);
      stop_ = true;
    }
    start_.notify_all();
    for (auto& t : threads_) t.join();
    threads_.clear();
    stop_ = false;
    grow(n);
  }
  // Workers are only added: a cluster launch wants one per block of a cluster (16 at most) and the next launch
  // perhaps two. Making and ending workers at every such change cost more than the launches (mapping and unmapping
  // every fiber stack: selftest's cluster kernels spent two thirds of their time in the kernel's mmap and munmap).
  void grow(unsigned n) {
    for (unsigned i = unsigned(threads_.size()); i < n; ++i)
      threads_.emplace_back([this, g = generation_, i] { worker_main(g, i); });
  }
  unsigned size() const { return unsigned(threads_.size()); }

  // The launch runs on the first `workers` workers (at most size()); the others sit it out.
  void run(LaunchState& l, unsigned workers) {
    std::unique_lock lk(m_);
    launch_ = &l;
    active_ = std::min(workers, unsigned(threads_.size()));
    busy_ = active_;
    ++generation_;
    start_.notify_all();
    done_.wait(lk, [&] { return busy_ == 0; });
    launch_ = nullptr;
  }

 private:
  // `seen`: the generation when the worker was made; it runs every launch posted after that in which its `index` is
  // among the active workers.
  void worker_main(std::uint64_t seen, unsigned index) {
    auto w = std::make_unique<Worker>();
    tl_worker = w.get();
    // A stack of its own for signal handlers: a fault from a fiber's overflowed stack can still be reported.
    constexpr std::size_t kAltStack = 64 * 1024;
    void* alt_memory = mmap(nullptr, kAltStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    stack_t alt{};
    if (alt_memory != MAP_FAILED) {
      alt.ss_sp = alt_memory;
      alt.ss_size = kAltStack;
      sigaltstack(&alt, nullptr);
    }
    for (;;) {
      LaunchState* l;
      {
        std::unique_lock lk(m_);
        start_.wait(lk, [&] { return stop_ || generation_ != seen; });
        if (stop_) break;
        seen = generation_;
        l = launch_;
        if (index >= active_) continue;
      }
      w->L = l;
      while (!l->abort.load(std::memory_order_relaxed)) {
        if (l->cancel && l->cancel->load(std::memory_order_relaxed)) {
          l->record(std::make_exception_ptr(Cancelled("cancelled")));
          break;
        }
        const unsigned long long item = l->next.fetch_add(1, std::memory_order_relaxed);
        if (item >= l->end) break;
        if (l->skip(item)) {
          if (l->cluster_blocks == 1) break;  // (a cluster launch goes on: a skipped cluster's blocks end it)
          continue;
        }
        const unsigned long long b = l->block_of(item);
        if (l->before) l->before(l->hook_context, b);
        w->run_block(item);
        if (l->after && !l->abort.load(std::memory_order_relaxed) && !l->faulted()) l->after(l->hook_context, b);
        if (l->blocks_run) l->blocks_run->fetch_add(1, std::memory_order_relaxed);
      }
      tl_block = nullptr;
      {
        std::lock_guard lk(m_);
        if (--busy_ == 0) done_.notify_all();
      }
    }
    w.reset();
    tl_worker = nullptr;
    if (alt_memory != MAP_FAILED) {
      stack_t off{};
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
      munmap(alt_memory, kAltStack);
    }
  }

  std::mutex m_;
  std::condition_variable start_, done_;
  std::vector<std::thread> threads_;
  std::uint64_t generation_ = 0;
  unsigned busy_ = 0, active_ = 0;
  bool stop_ = false;
  LaunchState* launch_ = nullptr;
};

std::mutex g_launch_mutex;
thread_local const std::atomic<bool>* tl_cancel = nullptr;  // set_cancel_flag: the calling thread's
thread_local std::atomic<std::uint64_t>* tl_blocks_run = nullptr;  // set_block_counter
thread_local BlockHook tl_before = nullptr, tl_after = nullptr;  // set_block_hooks
thread_local void* tl_hook_context = nullptr;
thread_local unsigned long long tl_first_block = 0, tl_end_block = 0;  // set_block_range
std::atomic<unsigned> g_workers{0};  // 0: hardware_concurrency
unsigned g_smaller_launches = 0;  // launches in a row that wanted fewer workers than the pool has (g_launch_mutex)
std::atomic<BarrierMode> g_mode{BarrierMode::hardware};

Pool& pool() {
  static Pool p;
  return p;
}

unsigned wanted_workers() {
  if (unsigned n = g_workers.load()) return n;
  unsigned h = std::thread::hardware_concurrency();
  return h ? h : 1;
}

}  // namespace

// ---- intrinsics -------------------------------------------------------------------------------------------

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::shfl_idx: return "__shfl_sync";
    case Kind::shfl_up: return "__shfl_up_sync";
    case Kind::shfl_down: return "__shfl_down_sync";
    case Kind::shfl_xor: return "__shfl_xor_sync";
    case Kind::ballot: return "__ballot_sync";
    case Kind::any: return "__any_sync";
    case Kind::all: return "__all_sync";
    case Kind::syncwarp: return "__syncwarp";
    case Kind::reduce_add: return "__reduce_add_sync";
    case Kind::reduce_min_u:
    case Kind::reduce_min_s: return "__reduce_min_sync";
    case Kind::reduce_max_u:
    case Kind::reduce_max_s: return "__reduce_max_sync";
    case Kind::reduce_and: return "__reduce_and_sync";
    case Kind::reduce_or: return "__reduce_or_sync";
    case Kind::reduce_xor: return "__reduce_xor_sync";
    case Kind::match_any: return "__match_any_sync";
    case Kind::match_all: return "__match_all_sync";
  }
  return "?";
}

std::string kernel_place(const char* file, unsigned line) {
  const char* base = file ? std::strrchr(file, '/') : nullptr;
  return "kernel line " + std::to_string(line) + " of " + (base ? base + 1 : file ? file : "?");
}

std::string block_name(const BlockView& b) {
  if (b.grid_dim.y == 1 && b.grid_dim.z == 1) return "block " + std::to_string(b.block_idx.x);
  return "block (" + std::to_string(b.block_idx.x) + "," + std::to_string(b.block_idx.y) + "," +
         std::to_string(b.block_idx.z) + ")";
}

std::string thread_name(const ThreadView& t, const BlockView& b) {
  std::string s = "thread ";
  if (b.block_dim.y == 1 && b.block_dim.z == 1)
    s += std::to_string(t.linear);
  else
    s += "(" + std::to_string(t.thread_idx.x) + "," + std::to_string(t.thread_idx.y) + "," +
         std::to_string(t.thread_idx.z) + ")";
  return s + " (warp " + std::to_string(t.warp) + ", lane " + std::to_string(t.lane) + ")";
}

void not_in_kernel() {
  throw LaunchError(
      "a CUDA built-in (threadIdx, __syncthreads, ...) was used outside a kernel launched by redlab::emu::launch");
}

namespace {

inline void barrier_arrive(Worker& w, Thread* self, const std::source_location& loc) {
  Block& b = w.block;
  if (b.bar_count == 0) {
    b.bar_file = loc.file_name();
    b.bar_line = loc.line();
    b.bar_column = loc.column();
  } else if (b.bar_line != loc.line() || b.bar_column != loc.column() ||
             (b.bar_file != loc.file_name() && std::strcmp(b.bar_file, loc.file_name()) != 0)) {
    const bool same_line = b.bar_line == loc.line();
    auto site = [&](const char* file, unsigned line, unsigned column) {
      return kernel_place(file, line) + (same_line ? ", column " + std::to_string(column) : std::string());
    };
    throw LaunchError(
        "deadlock in " + block_name(b) + ": __syncthreads reached at different " +
        (same_line ? "call sites of one line: " : "lines: ") + plural(b.bar_count, "thread waits", "threads wait") +
        " at " + site(b.bar_file, b.bar_line, b.bar_column) + ", " + thread_name(*self) + " arrived at " +
        site(loc.file_name(), loc.line(), loc.column()) + " (every thread must reach the same __syncthreads) [" +
        std::to_string(b.bar_count) + " arrived, " + std::to_string(b.exited) + " exited]");
  }
  if (w.L->mode == BarrierMode::strict && b.exited) {
    throw LaunchError("divergent barrier in " + block_name(b) + ": " + thread_name(*self) + " reached __syncthreads (" +
                      kernel_place(loc.file_name(), loc.line()) + ") but " + plural(b.exited, "thread", "threads") +
                      " of the block already exited without reaching it "
                      "(strict barrier mode)");
  }
  self->file = loc.file_name();
  self->line = loc.line();
  b.bar_waiters[b.bar_count++] = self->index;
}

}  // namespace

void syncthreads(const std::source_location& loc) {
  Thread* self = self_thread();
  if (self == nullptr) not_in_kernel();
  Worker& w = *tl_worker;
  Block& b = w.block;
  barrier_arrive(w, self, loc);
  if (b.bar_count == b.live) {
    release_barrier(w, self);
    return;
  }
  self->state = State::wait_barrier;
  suspend(w, self);
}

int syncthreads_pred(int pred, int op, const std::source_location& loc) {
  Thread* self = self_thread();
  if (self == nullptr) not_in_kernel();
  Worker& w = *tl_worker;
  Block& b = w.block;
  barrier_arrive(w, self, loc);
  b.bar_acc[0] += pred != 0;
  b.bar_acc[1] &= pred != 0;
  b.bar_acc[2] |= pred != 0;
  if (b.bar_count == b.live) {
    release_barrier(w, self);
  } else {
    self->state = State::wait_barrier;
    suspend(w, self);
  }
  return b.bar_result[op];
}

void cluster_sync(const std::source_location& loc) {
  Thread* self = self_thread();
  if (self == nullptr) not_in_kernel();
  Worker& w = *tl_worker;
  Block& b = w.block;
  if (w.L->mode == BarrierMode::strict && b.exited)
    throw LaunchError("divergent cluster barrier in " + block_name(b) + ": " + thread_name(*self) +
                      " reached cluster.sync() (" + kernel_place(loc.file_name(), loc.line()) + ") but " +
                      plural(b.exited, "thread", "threads") +
                      " of the block already exited without reaching it (strict barrier mode)");
  self->file = loc.file_name();
  self->line = loc.line();
  self->state = State::wait_cluster;
  b.cluster_waiters[b.cluster_count++] = self->index;
  if (b.cluster_count == b.live) {
    b.status = Status::cluster_wait;  // the worker's main context arrives for the block and lets the threads on
    transfer(w, self, nullptr);
  } else {
    suspend(w, self);
  }
}

void* cluster_map_shared(const void* local, int rank, const std::source_location& loc) {
  Thread* self = self_thread();
  if (self == nullptr) not_in_kernel();
  Worker& w = *tl_worker;
  Block& b = w.block;
  auto where = [&] {
    return thread_name(*self) + " of " + block_name(b) + " (" + kernel_place(loc.file_name(), loc.line()) + ")";
  };
  if (rank < 0 || unsigned(rank) >= b.cluster_blocks)
    throw LaunchError("cluster.map_shared_rank: rank " + std::to_string(rank) + " is outside the cluster, whose " +
                      plural(b.cluster_blocks, "block has rank", "blocks have ranks") + " 0" +
                      (b.cluster_blocks > 1 ? " to " + std::to_string(b.cluster_blocks - 1) : std::string()) + ": " +
                      where());
  // Which module's thread-local storage holds the address, and where in it.
  const auto at = reinterpret_cast<std::uintptr_t>(local);
  auto find = [&](const std::vector<TlsBlock>& blocks) -> const TlsBlock* {
    for (const TlsBlock& t : blocks)
      if (at >= t.start && at - t.start < t.size) return &t;
    return nullptr;
  };
  const TlsBlock* mine = find(w.tls);
  if (mine == nullptr) {
    w.tls = tls_blocks_of_this_thread();
    mine = find(w.tls);
  }
  if (mine == nullptr)
    throw LaunchError(
        "cluster.map_shared_rank: the address it was given is not in the block's shared memory (a "
        "__shared__ variable's address is): " +
        where());
  if (unsigned(rank) == b.cluster_rank) return const_cast<void*>(local);
  ClusterState::Member& other = b.cluster->members[rank];
  if (other.exited)
    throw LaunchError("cluster.map_shared_rank: block rank " + std::to_string(rank) +
                      " of the cluster has already exited, and its shared memory with it (a cluster.sync() before "
                      "a block ends keeps it while the others still read it): " +
                      where());
  if (!other.synced)
    throw LaunchError("cluster.map_shared_rank: block rank " + std::to_string(rank) +
                      " of the cluster has not reached a cluster.sync() yet, so its shared memory may not exist (a "
                      "block may start after the others: cluster.sync() first): " +
                      where());
  for (const TlsBlock& t : other.tls)
    if (t.module == mine->module) return reinterpret_cast<void*>(t.start + (at - mine->start));
  throw LaunchError("cluster.map_shared_rank: block rank " + std::to_string(rank) +
                    " has no copy of this shared variable's module: " + where());
}

const BlockView* cluster_peer(unsigned rank) {
  const Block* b = tl_block ? static_cast<const Block*>(tl_block) : nullptr;
  if (b == nullptr || b->cluster == nullptr || rank >= b->cluster_blocks) return nullptr;
  const ClusterState::Member& m = b->cluster->members[rank];
  return m.synced && !m.exited ? m.block : nullptr;
}

namespace {

// The source lane of a shuffle, per the PTX shfl.sync definition (c = ((32-width)<<8) | clamp).
inline unsigned shuffle_source(Kind kind, unsigned lane, unsigned arg, int width) {
  const unsigned seg = unsigned(32 - width) & 31u;  // segment mask
  const unsigned min_lane = lane & seg;
  const unsigned max_lane = min_lane | (31u & ~seg);
  const unsigned b = arg & 31u;
  switch (kind) {
    case Kind::shfl_idx: return min_lane | (b & ~seg & 31u);
    case Kind::shfl_up: return int(lane) - int(b) >= int(min_lane) ? lane - b : lane;
    case Kind::shfl_down: return lane + b <= max_lane ? lane + b : lane;
    case Kind::shfl_xor: return (lane ^ b) <= max_lane ? (lane ^ b) : lane;
    default: return lane;
  }
}

void complete(Worker& w, unsigned warp_index, Warp& wp, const Group& g) {
  Thread* base = &w.threads[warp_index * 32];
  const std::uint32_t m = g.mask;
  std::uint32_t ballot = 0;
  switch (g.kind) {
    case Kind::shfl_idx:
    case Kind::shfl_up:
    case Kind::shfl_down:
    case Kind::shfl_xor:
      for (std::uint32_t r = m; r; r &= r - 1) {
        unsigned l = unsigned(std::countr_zero(r));
        unsigned j = wp.arg[l];
        base[l].result = ((m >> j) & 1u) ? wp.value[j] : wp.value[l];
      }
      return;
    case Kind::ballot:
    case Kind::any:
    case Kind::all: {
      for (std::uint32_t r = m; r; r &= r - 1) {
        unsigned l = unsigned(std::countr_zero(r));
        if (wp.arg[l]) ballot |= 1u << l;
      }
      std::uint64_t v = g.kind == Kind::ballot ? ballot : g.kind == Kind::any ? (ballot != 0) : (ballot == m);
      for (std::uint32_t r = m; r; r &= r - 1) base[std::countr_zero(r)].result = v;
      return;
    }
    case Kind::syncwarp: return;
    case Kind::match_any:
      for (std::uint32_t r = m; r; r &= r - 1) {
        unsigned l = unsigned(std::countr_zero(r));
        std::uint32_t same = 0;
        for (std::uint32_t s = m; s; s &= s - 1) {
          unsigned k = unsigned(std::countr_zero(s));
          if (wp.value[k] == wp.value[l]) same |= 1u << k;
        }
        base[l].result = same;
      }
      return;
    case Kind::match_all: {
      bool eq = true;
      std::uint64_t first = wp.value[std::countr_zero(m)];
      for (std::uint32_t s = m; s; s &= s - 1) eq = eq && wp.value[std::countr_zero(s)] == first;
      for (std::uint32_t r = m; r; r &= r - 1) base[std::countr_zero(r)].result = eq ? m : 0;
      return;
    }
    default: {
      std::uint32_t acc_u = 0;
      bool first = true;
      for (std::uint32_t s = m; s; s &= s - 1) {
        std::uint32_t v = std::uint32_t(wp.value[std::countr_zero(s)]);
        if (first) {
          acc_u = v;
          first = false;
          continue;
        }
        switch (g.kind) {
          case Kind::reduce_add: acc_u += v; break;
          case Kind::reduce_min_u: acc_u = v < acc_u ? v : acc_u; break;
          case Kind::reduce_max_u: acc_u = v > acc_u ? v : acc_u; break;
          case Kind::reduce_min_s: acc_u = std::int32_t(v) < std::int32_t(acc_u) ? v : acc_u; break;
          case Kind::reduce_max_s: acc_u = std::int32_t(v) > std::int32_t(acc_u) ? v : acc_u; break;
          case Kind::reduce_and: acc_u &= v; break;
          case Kind::reduce_or: acc_u |= v; break;
          case Kind::reduce_xor: acc_u ^= v; break;
          default: break;
        }
      }
      for (std::uint32_t r = m; r; r &= r - 1) base[std::countr_zero(r)].result = acc_u;
      return;
    }
  }
}

bool is_shuffle(Kind k) {
  return k == Kind::shfl_idx || k == Kind::shfl_up || k == Kind::shfl_down || k == Kind::shfl_xor;
}

}  // namespace

std::uint64_t warp_op(Kind kind, unsigned mask, std::uint64_t value, unsigned arg, int width,
                      const std::source_location& loc) {
  Thread* self = self_thread();
  if (self == nullptr) not_in_kernel();
  Worker& w = *tl_worker;
  Block& b = w.block;
  const unsigned lane = self->lane;
  const std::uint32_t bit = 1u << lane;
  if (!(mask & bit))
    throw LaunchError("in " + block_name(b) + ": " + thread_name(*self) + " called " + kind_name(kind) + " (" +
                      kernel_place(loc.file_name(), loc.line()) + ") with mask " + hex(mask) +
                      ", which does not name its own lane");
  if (is_shuffle(kind)) {
    if (width < 1 || width > 32 || (width & (width - 1)) != 0)
      throw LaunchError("in " + block_name(b) + ": " + kind_name(kind) + " (" +
                        kernel_place(loc.file_name(), loc.line()) + ") with width " + std::to_string(width) +
                        ": width must be a power of two in 1..32");
    arg = shuffle_source(kind, lane, arg, width);
  }
  Warp& wp = b.warps[self->warp];
  const std::uint32_t eff = mask & wp.exists;
  Group* g = nullptr;
  for (unsigned k = 0; k < wp.ngroups; ++k)
    if (wp.groups[k].mask == eff) {
      g = &wp.groups[k];
      break;
    }
  if (g == nullptr) {
    g = &wp.groups[wp.ngroups++];
    *g = Group{eff, 0, kind, loc.file_name(), loc.line()};
  } else if (g->kind != kind) {
    throw LaunchError("deadlock in " + block_name(b) + ": lanes of warp " + std::to_string(self->warp) +
                      " called different warp intrinsics with mask " + hex(mask) + ": lane" +
                      (std::popcount(g->arrived) == 1 ? " " : "s ") + lanes(g->arrived) + " " + kind_name(g->kind) +
                      " (" + kernel_place(g->file, g->line) + "), lane " + std::to_string(lane) + " " +
                      kind_name(kind) + " (" + kernel_place(loc.file_name(), loc.line()) + ")");
  }
  wp.value[lane] = value;
  wp.arg[lane] = arg;
  g->arrived |= bit;
  if (g->arrived == g->mask) {
    const Group done = *g;
    *g = wp.groups[--wp.ngroups];
    complete(w, self->warp, wp, done);
    for (std::uint32_t r = done.mask & ~bit; r; r &= r - 1) {
      Thread& t = w.threads[self->warp * 32 + unsigned(std::countr_zero(r))];
      t.state = State::runnable;
      push(b, t.index);
    }
    return self->result;
  }
  self->state = State::wait_warp;
  self->kind = kind;
  self->group_mask = eff;
  self->file = loc.file_name();
  self->line = loc.line();
  suspend(w, self);
  return self->result;
}

namespace {
void yield_self(Worker& w, Thread* self, State as) {
  Block& b = w.block;
  if (b.qh == b.qt) return;  // nobody else can run
  self->state = as;
  push(b, self->index);
  suspend(w, self);
  self->state = State::runnable;
}
}  // namespace

unsigned activemask() {
  Thread* self = self_thread();
  if (self == nullptr) not_in_kernel();
  Worker& w = *tl_worker;
  Block& b = w.block;
  Warp& wp = b.warps[self->warp];
  // Let the warp's other lanes run until each has exited or waits somewhere (a converged warp). The lane that
  // finds the warp settled answers for every lane waiting in __activemask, so they all see the same mask.
  for (;;) {
    if (self->activemask_ready) {
      self->activemask_ready = false;
      return unsigned(self->result);
    }
    bool others_running = false;
    for (std::uint32_t r = wp.exists & ~wp.exited & ~(1u << self->lane); r; r &= r - 1) {
      const Thread& t = w.threads[self->warp * 32 + unsigned(std::countr_zero(r))];
      if (t.state == State::runnable) {
        others_running = true;
        break;
      }
    }
    if (!others_running) break;
    yield_self(w, self, State::in_activemask);
  }
  const unsigned m = wp.exists & ~wp.exited;
  for (std::uint32_t r = m & ~(1u << self->lane); r; r &= r - 1) {
    Thread& t = w.threads[self->warp * 32 + unsigned(std::countr_zero(r))];
    if (t.state == State::in_activemask) {
      t.result = m;
      t.activemask_ready = true;
      t.state = State::runnable;
    }
  }
  return m;
}

void yield() {
  Thread* self = self_thread();
  if (self == nullptr) not_in_kernel();
  yield_self(*tl_worker, self, State::runnable);
}

}  // namespace detail

// ---- public API -------------------------------------------------------------------------------------------

void launch(dim3 grid, dim3 block, std::size_t dynamic_smem_bytes, const std::function<void()>& thread_body) {
  launch(grid, block, dynamic_smem_bytes, thread_body, dim3(1, 1, 1));
}

void launch(dim3 grid, dim3 block, std::size_t dynamic_smem_bytes, const std::function<void()>& thread_body,
            dim3 cluster) {
  using detail::LaunchState;
  if (detail::tl_thread != nullptr || detail::tl_worker != nullptr)
    throw LaunchError("launch() called from inside a kernel (dynamic parallelism is not emulated)");
  auto dims = [](dim3 d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
  };
  if (block.x == 0 || block.y == 0 || block.z == 0)
    throw LaunchError("invalid launch: block " + dims(block) + " has a zero dimension");
  if (block.x > 1024 || block.y > 1024 || block.z > 64)
    throw LaunchError("invalid launch: block " + dims(block) + " exceeds the per-dimension limits (1024, 1024, 64)");
  const unsigned long long nthreads = 1ull * block.x * block.y * block.z;
  if (nthreads > kMaxThreadsPerBlock)
    throw LaunchError("invalid launch: block " + dims(block) + " has " + std::to_string(nthreads) +
                      " threads; at most 1024 are allowed");
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    throw LaunchError("invalid launch: grid " + dims(grid) + " has a zero dimension");
  if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
    throw LaunchError("invalid launch: grid " + dims(grid) + " exceeds the limits (2^31-1, 65535, 65535)");
  if (dynamic_smem_bytes > kMaxDynamicSmem)
    throw LaunchError("invalid launch: " + std::to_string(dynamic_smem_bytes) +
                      " bytes of dynamic shared memory requested; at most " + std::to_string(kMaxDynamicSmem) +
                      " (227 KiB) per block");
  if (!thread_body) throw LaunchError("invalid launch: empty thread body");
  if (cluster.x == 0 || cluster.y == 0 || cluster.z == 0)
    throw LaunchError("invalid launch: cluster " + dims(cluster) + " has a zero dimension");
  const unsigned long long cluster_blocks = 1ull * cluster.x * cluster.y * cluster.z;
  if (cluster_blocks > kMaxClusterBlocks)
    throw LaunchError("invalid launch: a cluster of " + dims(cluster) + " has " + std::to_string(cluster_blocks) +
                      " blocks; at most " + std::to_string(kMaxClusterBlocks) +
                      " are allowed (8 portably, 16 where the card allows it)");
  if (grid.x % cluster.x || grid.y % cluster.y || grid.z % cluster.z)
    throw LaunchError("invalid launch: grid " + dims(grid) + " is not a multiple of the cluster " + dims(cluster) +
                      " in every dimension");

  std::lock_guard lk(detail::g_launch_mutex);
  auto& pool = detail::pool();
  // A cluster's blocks run at once, each on a worker of its own.
  const unsigned workers = std::max(detail::wanted_workers(), unsigned(cluster_blocks));
  // Extra workers (a cluster's) go once eight launches in a row wanted fewer: a window that moved on from the cluster
  // kernels does not keep their fibers' stacks, and launches that alternate between the two keep them.
  if (workers >= pool.size()) {
    detail::g_smaller_launches = 0;
    pool.grow(workers);
  } else if (++detail::g_smaller_launches == 8) {
    detail::g_smaller_launches = 0;
    pool.resize(workers);
  }
  LaunchState l;
  l.grid = grid;
  l.block = block;
  l.cluster = cluster;
  l.cluster_blocks = unsigned(cluster_blocks);
  l.nthreads = unsigned(nthreads);
  l.nblocks = 1ull * grid.x * grid.y * grid.z;
  l.body = &thread_body;
  l.mode = detail::g_mode.load();
  l.cancel = detail::tl_cancel;
  l.blocks_run = detail::tl_blocks_run;
  l.before = detail::tl_before;
  l.after = detail::tl_after;
  l.hook_context = detail::tl_hook_context;
  l.end = detail::tl_end_block ? std::min(detail::tl_end_block, l.nblocks) : l.nblocks;
  l.next.store(std::min(detail::tl_first_block, l.end));
  if (cluster_blocks > 1 && (l.next.load() % cluster_blocks || l.end % cluster_blocks))
    throw LaunchError("invalid launch: the block range [" + std::to_string(l.next.load()) + ", " +
                      std::to_string(l.end) + ") splits a cluster of " + std::to_string(cluster_blocks) + " blocks");
  detail::begin_launch_declarations();
  pool.run(l, workers);
  detail::end_launch_declarations();
  if (l.error) std::rethrow_exception(l.error);
}

bool in_stack_guard(const void* address) {
  const detail::Thread* t = detail::self_thread();
  if (t == nullptr || t->stack == nullptr) return false;
  // The guard page, and a frame large enough to step over it into what lies below.
  const auto at = reinterpret_cast<std::uintptr_t>(address), low = reinterpret_cast<std::uintptr_t>(t->stack);
  return at < low + detail::kGuard && at + kFiberStackBytes >= low;
}

void set_workers(unsigned n) { detail::g_workers.store(n); }  // takes effect at the next launch

void watch_positions(bool on) { detail::g_watch.store(on); }
Position last_position() {
  Position p;
  const ThreadView* t = detail::g_watch_thread.load();
  const BlockView* b = detail::g_watch_block.load();
  if (!t || !b) return p;
  p.valid = true;
  p.block_x = b->block_idx.x, p.block_y = b->block_idx.y, p.block_z = b->block_idx.z;
  p.thread_x = t->thread_idx.x, p.thread_y = t->thread_idx.y, p.thread_z = t->thread_idx.z;
  p.warp = t->warp;
  p.lane = t->lane;
  p.step = t->step;
  p.step_line = t->step_line;
  return p;
}
void set_cancel_flag(const std::atomic<bool>* flag) { detail::tl_cancel = flag; }
void set_block_counter(std::atomic<std::uint64_t>* counter) { detail::tl_blocks_run = counter; }
std::atomic<std::uint64_t>* block_counter() { return detail::tl_blocks_run; }
void set_block_hooks(BlockHook before, BlockHook after, void* context) {
  detail::tl_before = before;
  detail::tl_after = after;
  detail::tl_hook_context = context;
}
void set_block_range(unsigned long long first, unsigned long long end) {
  detail::tl_first_block = end ? first : 0;
  detail::tl_end_block = end;
}
unsigned workers() { return detail::wanted_workers(); }
void set_barrier_mode(BarrierMode mode) { detail::g_mode.store(mode); }
BarrierMode barrier_mode() { return detail::g_mode.load(); }

}  // namespace redlab::emu
