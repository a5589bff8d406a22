// The raw trace a traced kernel writes: plain structs shared by device code (CUDA or the emulator), the
// trace analysis (trace_analysis.h, on the same device) and the host-side decoder in app/core. One record
// per lane per warp-level access; the analysis groups lanes into requests and sums every statistic.
// The layout of each array is given beside it.
#pragma once
#include <cstdint>

namespace redlab::rec {

enum class Phase : std::uint8_t {
  load = 0, tree = 1, warp = 2, store = 3, tile_load = 4, tile_store = 5,
  // An all-reduce's steps across GPUs (app/core/allreduce.h): the ring's two halves, and the gather-then-spread of
  // the naive and tree algorithms.
  reduce_scatter = 6, all_gather = 7, reduce = 8, broadcast = 9,
  // A step across the blocks of a thread block cluster: partials read from other blocks' shared memory (distributed
  // shared memory) and combined.
  cluster = 10
};
// What a step's numeric parameter means: shown as "stride 4", "offset 16", or nothing.
enum class Label : std::uint8_t {
  none = 0, stride = 1, offset = 2, warp_sums_store = 3, warp_sums_load = 4,
  last_warp = 5,      // the last 32 threads start their warp tree: s[tid] + s[tid + 32]
  grid_stride = 6,    // iteration `param` of a grid-stride loop
  to_shared = 7,      // each thread's running value into shared memory
  warp_reduce = 8,    // a whole warp reduction in registers (shuffles or __reduce_*_sync)
  partials_load = 9,  // the last block to finish loads every block's partial
  tail = 10,          // the elements past the last whole 16-byte vector
  barrier = 11,       // a kernel file that names no steps: the code after its `param`-th __syncthreads
                      // (core/kernel_file.h, add_barrier_steps)
  // An all-reduce's steps (app/core/allreduce.h): the ring's k-th step of a half, the tree's steps at distance
  // `param`, the naive's gather to and spread from GPU 0.
  exchange = 12, distance = 13, root = 14,
  // A cluster's steps: one block reads the partial of every block of its cluster; blocks `param` ranks apart combine
  // (a tree over the cluster's blocks).
  cluster_gather = 15, rank_stride = 16,
};

// Access classes: each has its own slots per (step, warp). A lane's k-th access of a class within a step
// belongs to the warp's k-th request of that class. This matches the SASS instruction for our kernels,
// where the accesses of one class inside a step sit in straight-line code under one guard.
// Atomics are their own classes (never counted as loads or stores): a read-modify-write in the L1's or
// L2's atomic unit, with its own instructions (ATOMS, ATOMG/RED) and cost. A shared atomic still hits banks.
// Distributed shared memory (a thread block cluster's blocks reading and writing each other's shared memory) has
// classes of its own: its requests cross the SM-to-SM network, not the requesting SM's banks. A lane's address there
// says whose memory it touched: remote_address below.
enum class Class : std::uint8_t {
  shared_load = 0, shared_store = 1, global_load = 2, global_store = 3, reg = 4, shared_atomic = 5,
  global_atomic = 6, remote_shared_load = 7, remote_shared_store = 8
};
constexpr int kClasses = 9;

// Global buffers a kernel touches, numbered so that sectors are counted per buffer. `ticket`: a single-pass
// kernel's count of finished blocks.
enum class Buffer : std::uint8_t { input = 0, output = 1, scratch = 2, ticket = 3 };
constexpr unsigned kBuffers = 4;

// The operation of an atomic record (meta bits 5-7): what the lanes did to the word.
enum class AtomicOp : std::uint8_t { none = 0, add = 1, min = 2, max = 3, cas = 4 };

struct LaneRecord {
  std::uint32_t addr;   // byte offset in its space; for Class::reg, the lane the value came from; for the remote
                        // classes, remote_address(rank, offset)
  std::uint16_t meta;   // bit 15: written; bits 0-4: width in bytes; bits 5-7: atomic op; bits 8-11: buffer
  // Where in the source the access was made (0: not known): the emulator's build records the number of the indexing
  // expression's place (file, line and column: emu::place_number); the GPU's records 0 (probe.cuh says why).
  std::uint16_t site;
  std::uint64_t bits;   // the value loaded, stored or held, zero-extended bit pattern
};
static_assert(sizeof(LaneRecord) == 16);

struct StepRecord {
  std::uint8_t phase;
  std::uint8_t label;
  std::uint16_t pad;
  std::int32_t param;
  std::uint32_t line;   // source line of the probe.step() call in the kernel's file
};

struct Layout {
  std::uint32_t block_lo = 0, block_hi = 0;   // blocks [lo, hi) record; others run untraced
  std::uint32_t warps = 0;                    // warps per block
  std::uint32_t max_steps = 0;                // steps a block may record
  std::uint32_t slots[kClasses] = {};         // requests per class per (step, warp)
  std::uint32_t slot_base[kClasses] = {};     // prefix sums of slots
  std::uint32_t slots_total = 0;
  // 1 for single-pass kernels: the raw arrays hold one more row of records (row blocks()) for the block
  // that finishes the launch. Its steps after the ticket go there in every chunk's run, whatever the
  // block range, and never to its own row, so the host counts them exactly once.
  std::uint32_t launch_row = 0;

  void finish_slots() {
    slots_total = 0;
    for (int c = 0; c < kClasses; ++c) { slot_base[c] = slots_total; slots_total += slots[c]; }
  }
  std::uint32_t blocks() const { return block_hi - block_lo; }
  std::uint32_t rows() const { return blocks() + launch_row; }   // per-block arrays: [row]...
  std::uint64_t lane_records_per_row() const { return std::uint64_t(max_steps) * warps * slots_total * 32; }
  std::uint64_t lane_records() const { return rows() * lane_records_per_row(); }
  std::uint64_t warp_steps() const { return std::uint64_t(rows()) * max_steps * warps; }
  // Clocks hold one more step: the end of the last.
  std::uint64_t clock_entries() const { return std::uint64_t(rows()) * (max_steps + 1) * warps; }
  std::uint64_t bytes() const;   // raw arrays plus the analysis arrays (below)
};

struct Buffers {
  // Rows are the chunk's blocks, then the launch row (Layout::launch_row).
  LaneRecord* lanes = nullptr;      // [row][step][warp][slot][lane]
  std::uint32_t* active = nullptr;  // [row][step][warp]: lanes that called probe.active()
  long long* clocks = nullptr;      // [row][step (0..max_steps)][warp]: clock64 of lane 0 at the step's start
  StepRecord* steps = nullptr;      // [row][step], written by thread 0
  std::uint32_t* steps_min = nullptr;  // [block]: fewest steps any thread recorded (starts at ~0)
  std::uint32_t* steps_max = nullptr;  // [block]: most (starts at 0); min != max means non-uniform steps
  std::uint32_t* overflow = nullptr;   // 1: a thread ran past max_steps or a class's slots
  std::uint32_t* last_block = nullptr; // the block that wrote the launch row (starts at ~0)
  // The emulator's (nullptr on a GPU, whose rows are cleared before the launch): [row][step][warp][class], how many
  // of the class's slots the warp has written in the step. Its probe clears a slot's 32 records as the warp first
  // writes it, so that no row of records is cleared whole (a row is sized for every slot of every step, and a
  // kernel writes a fraction of it); past the count a slot holds what an earlier chunk left, and readers read only
  // the counted slots (trace_analysis.h, slots_in_use).
  std::uint16_t* slots_written = nullptr;
};

// The per-step sums the trace analysis (trace_analysis.h) adds up over every warp of every block:
// the integer fields of StepStats (app/core/trace.h), in its order.
enum Sum : unsigned {
  active_threads, active_warps, divergent_warps,
  smem_load_requests, smem_load_wavefronts, smem_load_ideal,
  smem_store_requests, smem_store_wavefronts, smem_store_ideal,
  gmem_load_requests, gmem_load_sectors, gmem_store_requests, gmem_store_sectors,
  smem_atomic_requests, smem_atomic_wavefronts, gmem_atomic_requests, gmem_atomic_sectors,
  dsmem_load_requests, dsmem_load_bytes, dsmem_store_requests, dsmem_store_bytes,
  kSums
};

// What the analysis of one chunk writes, next to the raw arrays on the same device.
struct Analysis {
  unsigned long long* sums = nullptr;        // [step][Sum], added to: zero it before a chunk
  unsigned long long* warp_hash = nullptr;   // [block][step][warp]: hash of one warp's records in one step
  unsigned long long* block_hash = nullptr;  // [block]: hash of the block's warp hashes, in order
};

inline std::uint64_t Layout::bytes() const {
  const std::uint64_t raw = lane_records() * sizeof(LaneRecord) + warp_steps() * 4 + clock_entries() * 8 +
                            std::uint64_t(rows()) * max_steps * sizeof(StepRecord) + std::uint64_t(blocks()) * 8 + 8;
  const std::uint64_t analysis = std::uint64_t(max_steps) * kSums * 8 + warp_steps() * 8 + blocks() * 8;
  return raw + analysis;
}

// A lane's address in another block's shared memory: the block's rank in the cluster (bits 24-27: at most 16 blocks)
// and the byte offset in its shared memory (bits 0-23; a block has at most 228 KB).
inline constexpr std::uint32_t remote_address(unsigned rank, std::uint32_t offset) {
  return std::uint32_t(rank) << 24 | (offset & 0xffffffu);
}
inline constexpr unsigned remote_rank(std::uint32_t addr) { return addr >> 24; }
inline constexpr std::uint32_t remote_offset(std::uint32_t addr) { return addr & 0xffffffu; }

constexpr std::uint16_t kWritten = 0x8000;
inline constexpr std::uint16_t meta(unsigned width, Buffer b, AtomicOp op = AtomicOp::none) {
  return std::uint16_t(kWritten | (width & 31u) | ((unsigned(op) & 7u) << 5) | (unsigned(b) << 8));
}
inline constexpr unsigned meta_width(std::uint16_t m) { return m & 31u; }
inline constexpr unsigned meta_op(std::uint16_t m) { return (m >> 5) & 7u; }
inline constexpr unsigned meta_buffer(std::uint16_t m) { return (m >> 8) & 15u; }

}  // namespace redlab::rec
