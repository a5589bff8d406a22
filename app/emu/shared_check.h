// The traced build's checks of shared memory on the emulator: an index past the end of a
// shared array, and a data race between threads of different warps. kernels/probe.cuh calls these from its
// shared-memory views in the emulator's build only (every shared access of a traced kernel goes through them;
// tests/probe_audit.py sees to that); the GPU's traced and timed builds do not have them.
//
// Bounds. Given the array itself (`probe.shared(s_mem)` with `T s_mem[N]` or `T tile[R][C]`), the probe knows its
// extent, and every index into it is checked (row and column of a 2D array) before the access: a bad one ends the
// launch with a LaunchError naming the array and its size, the index, the thread and the step. A pointer (an
// `extern __shared__` array, `reinterpret_cast<T*>(dynamic_smem)`) carries no extent: no bounds check.
//
// Races. Per element of each shared array a worker has seen, a shadow: the last write and the reads since, each
// with its thread, its step and the block's barrier interval then (BlockView::sync_epoch: new at the block's start
// and at every __syncthreads it completes). Two accesses to one element conflict when at least one of them writes,
// they come from threads of different warps, and they fall in the same interval: no __syncthreads between them.
// Lanes of one warp are taken as ordered. The emulator runs a warp's lanes in lock-step wherever they meet (every
// shuffle, vote and __syncwarp is a rendezvous), and the catalog's kernels pass values inside a warp through
// those; a kernel that shares shared-memory values between lanes with no __syncwarp relies on an order that
// Volta and later GPUs do not promise, and this detector does not see that.
// Atomics on shared memory do not go through the probe's views, so they are neither checked nor taken for
// races. The first conflict ends the launch with a LaunchError naming both threads, the element and the steps.
//
// Distributed shared memory (a cluster launch: probe.remote_shared, cluster.map_shared_rank). Only cluster.sync()
// orders an access of one block with an access of another to the same element; __syncthreads orders a block's own
// threads, as above. So two accesses to an element of block A's shared memory, at least one a write, conflict when no
// cluster.sync() came between them and either they come from different blocks, or from different warps of one block
// with no __syncthreads between them. A's own accesses are its shadow's; another block's accesses are kept beside it
// for the element (RemoteShadow) with the cluster barrier's interval they were made in (BlockView::cluster_phase),
// and the element's shadow notes that interval, so that A's next access of it in the same interval looks there (one
// compare on A's common path). A remote access looks at A's shadow directly: the cluster's blocks take turns
// (simt.h: cluster_peer), so A is parked while another block runs. An access of the block's own rank through
// distributed shared memory is a local access. An array the other block never handed to the probe is not checked.
//
// Cost (docs/gallery.md, "What the checks cost"): a few loads and compares per shared access of the traced build.
#pragma once

#include <atomic>
#include <cstdint>
#include <source_location>
#include <string>
#include <unordered_map>
#include <vector>

#include "emu/simt.h"

namespace redlab::emu {

// Where a kernel's expression is: its file, line and column (std::source_location at the call; for an indexing
// expression the column of one of its brackets).
struct Where {
  const char* file = nullptr;
  unsigned line = 0;
  unsigned column = 0;
};

// The traced build's table of the places accesses were made from: a lane's record holds the place's number
// (rec::LaneRecord::site), the trace the place. Numbers from 1 (0: not known) for the process's life, at most
// 65535 places (later ones get 0). A file is kept by its name's pointer: __builtin_FILE's string lives as long as the
// code that made it, the catalog's or a loaded kernel file's library (which stays loaded until the process ends).
struct AccessPlace {
  std::string file;
  unsigned line = 0, column = 0;
};
std::uint16_t place_number(const Where&);
AccessPlace place_of(std::uint16_t number);

// A step as probe.step recorded it (kernels/trace_record.h's Phase and Label), for the reports.
struct StepMark {
  std::uint8_t phase = 0, label = 0;
  std::int32_t param = 0;
  unsigned line = 0;  // the probe.step call's line in the kernel's file
  // The step's name as a report gives it ("offset 128"): the kernels' floor, above the emulator, knows the names
  // (kernels/step_label.h) and gives the emulator this function with each mark. nullptr: "step N".
  std::string (*name)(const StepMark&) = nullptr;
};

// One element's accesses in the race detector: the last write, and the reads since that fall in one barrier
// interval (the first reader, and the first from another warp than its, so that a writer of either warp meets a
// reader of another). Threads by their linear index in the block; steps as ThreadView::step (-1: before the first).
struct SharedShadow {
  std::uint64_t write_epoch = 0, read_epoch = 0;
  std::uint32_t read_warps = 0;  // warps that read the element in read_epoch (a block has at most 32)
  std::uint16_t writer = 0, reader = 0, other_reader = kNoThread;
  std::int32_t writer_step = -1, reader_step = -1, other_reader_step = -1;
  // Where each indexed the element (the expression's file and line).
  std::uint32_t writer_line = 0, reader_line = 0, other_reader_line = 0;
  const char* writer_file = nullptr;
  const char* reader_file = nullptr;
  const char* other_reader_file = nullptr;
  // The cluster barrier interval (BlockView::cluster_phase) of the last access another block of the cluster made to
  // the element (0: none): while it is the block's own interval, SharedArray::remote holds what they did.
  std::uint64_t remote_phase = 0;
  static constexpr std::uint16_t kNoThread = 0xffff;
};

// An access another block of the cluster made to an element through distributed shared memory: its block (linear in
// the grid, and its rank in the cluster), thread, barrier interval then (that block's sync_epoch), step and place.
struct RemoteAccess {
  unsigned long long block = 0;
  unsigned rank = 0;
  std::uint16_t thread = 0;
  std::uint64_t epoch = 0;
  std::int32_t step = -1;
  std::uint32_t line = 0;
  const char* file = nullptr;
  // Whether `other` is ordered before this access without a cluster.sync: the same block, and the same warp or a
  // __syncthreads between them.
  bool follows(const RemoteAccess& other) const {
    return other.rank == rank && (other.thread / 32u == thread / 32u || other.epoch != epoch);
  }
};
// The other blocks' accesses to one element in one cluster barrier interval: the last write (the ones before it were
// ordered before it, or reported), and the last read of each warp of each block.
struct RemoteShadow {
  std::uint64_t phase = 0;
  bool written = false;
  RemoteAccess writer;
  std::vector<RemoteAccess> readers;
};

// A shared array (or flag) as the probe sees it on one worker: where it starts, its shape (rows: its extent, 0
// when unknown; row_length: the elements of a 2D array's row, 0 for 1D), the byte offset the probe records for its
// first element, where the kernel handed it to the probe, and one shadow per element.
struct SharedArray {
  const void* start = nullptr;
  unsigned elem_size = 0;
  std::uint64_t rows = 0, row_length = 0;
  std::uint64_t window_offset = 0;
  bool flag = false;  // probe.shared_flag: one variable
  const char* file = nullptr;  // the probe.shared call
  unsigned line = 0;
  std::uint64_t declared_in = 0;  // the launch (its number) whose declarations name it last
  std::vector<SharedShadow> shadow;
  SharedShadow* shadows = nullptr;  // shadow's elements and count, as the checks read them on every access
  std::uint64_t shadow_count = 0;
  std::unordered_map<std::uint64_t, RemoteShadow> remote;  // by element: other blocks' accesses through DSMEM
};

// The calling worker's record of an array, made at its first probe.shared and kept (its shadows' old intervals
// never match a later block's).
SharedArray* shared_array(const void* start, unsigned elem_size, std::uint64_t rows, std::uint64_t row_length,
                          std::uint64_t window_offset, bool flag, const std::source_location& where);

// A shared array as one emulator launch was given it (its first probe.shared on any worker): what the kernel
// declared, for the views that draw it (the transposes' tile: its rows and its padded row length).
struct DeclaredShared {
  std::string view, array;  // the kernel's names for it ("t", "tile"); empty where its probe call does not say
  std::string file;  // the probe.shared call
  unsigned line = 0;
  unsigned elem_size = 0;
  std::uint64_t rows = 0, row_length = 0, window_offset = 0;  // as SharedArray
  bool flag = false;
  bool operator==(const DeclaredShared&) const = default;
};
// The shared arrays the calling thread's last emulator launch declared, each once, in the order first met (empty
// before any launch, and for a kernel that has none); their names not yet read (name_shared_arrays).
std::vector<DeclaredShared> last_launch_shared_arrays();
// Each array's names, read from its probe call's line (one read of the file per array: once per trace, not per
// launch).
void name_shared_arrays(std::vector<DeclaredShared>& arrays);

// The race detector is on unless turned off (a measurement of its cost; every launch after the call).
void set_race_check(bool on);
bool race_check();

namespace detail {
extern std::atomic<bool> g_race_check;
// launch() around its blocks: a new launch's list of declarations, and the list handed to the launching thread.
void begin_launch_declarations();
void end_launch_declarations();
void add_step_mark(unsigned index, const StepMark& mark);
// `site`'s step as the block running on this worker noted it (FaultSite::step_phase ...), where it did.
void name_fault_step(FaultSite& site);
// The shadow of `element` of an array of unknown extent, grown to hold it; nullptr past the largest shared window
// a block may have (kMaxDynamicSmem), where no shared array can be.
SharedShadow* grow_shadow(SharedArray& a, std::uint64_t element);
[[noreturn]] void report_out_of_bounds(const SharedArray& a, std::int64_t row, std::uint64_t index, const Where& at);
// `element` conflicts with the calling thread's access (a write or a read, at `at`) in `e`, still as it was before.
[[noreturn]] void report_race(const SharedArray& a, std::uint64_t element, const SharedShadow& e, bool write,
                              const Where& at);
// The calling thread's access (a write or a read, at `at`) to `element`, whose shadow says another block of the
// cluster reached it in this cluster barrier interval: reported if it conflicts with one of those accesses.
void check_against_remote(SharedArray& a, std::uint64_t element, bool write, const Where& at);
}  // namespace detail

// probe.step in the emulator's build: the thread's step (for a crash's or a time limit's report), and the block's
// list of steps, noted by the first thread to reach each (steps are the same for every thread of a block).
inline void mark_step(int index, const StepMark& mark) {
  ThreadView& t = detail::thread();
  t.step = index;
  t.step_line = mark.line;
  BlockView* b = detail::tl_block;
  if (index >= 0 && unsigned(index) == b->steps_noted) {
    detail::add_step_mark(unsigned(index), mark);
    ++b->steps_noted;
  }
}

// An index into a shared array: `row` < 0 for a 1D array or a 2D array's row index (i: the row), else i is a
// column of row `row`; `at`: the indexing expression.
[[gnu::always_inline]] inline void check_index(const SharedArray& a, std::int64_t row, std::uint64_t i,
                                               const Where& at) {
  const std::uint64_t extent = row < 0 ? a.rows : a.row_length;
  if (extent && i >= extent) [[unlikely]]
    detail::report_out_of_bounds(a, row, i, at);
}

// A read or write of one element (its index in the array, rows flattened) by the calling thread, inside a kernel, by
// the expression at `at`. Inlined: it runs at every shared access of the traced build, and its common path is a
// few compares.
[[gnu::always_inline]] inline void shared_access(SharedArray& a, std::uint64_t element, bool write, const Where& at) {
  if (!detail::g_race_check.load(std::memory_order_relaxed)) return;
  SharedShadow* e = element < a.shadow_count ? a.shadows + element : detail::grow_shadow(a, element);
  if (e == nullptr) return;
  if (e->remote_phase == detail::tl_block->cluster_phase) [[unlikely]]
    detail::check_against_remote(a, element, write, at);
  const ThreadView& t = *detail::tl_thread;
  const std::uint64_t epoch = detail::tl_block->sync_epoch;
  const std::uint32_t warp_bit = 1u << t.warp;
  if (e->write_epoch == epoch && e->writer / 32u != t.warp) [[unlikely]]
    detail::report_race(a, element, *e, write, at);
  if (write) {
    if (e->read_epoch == epoch && (e->read_warps & ~warp_bit)) [[unlikely]]
      detail::report_race(a, element, *e, write, at);
    e->write_epoch = epoch;
    e->writer = std::uint16_t(t.linear);
    e->writer_step = t.step;
    e->writer_line = at.line;
    e->writer_file = at.file;
  } else if (e->read_epoch != epoch) {
    e->read_epoch = epoch;
    e->read_warps = warp_bit;
    e->reader = std::uint16_t(t.linear);
    e->reader_step = t.step;
    e->reader_line = at.line;
    e->reader_file = at.file;
    e->other_reader = SharedShadow::kNoThread;
  } else if (!(e->read_warps & warp_bit)) {
    e->read_warps |= warp_bit;
    if (e->other_reader == SharedShadow::kNoThread) {
      e->other_reader = std::uint16_t(t.linear);
      e->other_reader_step = t.step;
      e->other_reader_line = at.line;
      e->other_reader_file = at.file;
    }
  }
}

// A read or write through distributed shared memory: `element` of the shared array that starts at `start` (an address
// cluster.map_shared_rank gave) in the cluster's block `rank`, by the calling thread, at `at`. Checked against that
// block's own accesses and the other blocks' (the comment at the top says when they conflict).
void remote_shared_access(const void* start, unsigned elem_size, std::uint64_t element, unsigned rank, bool write,
                          const Where& at);

}  // namespace redlab::emu
