// The analysis of a raw trace (trace_record.h), written once for the host and the GPU. Traced runs at
// large n record gigabytes of lane records; copying them to the host to decode would take seconds. So the
// device that ran the kernel also analyses its records where they lie: one thread per (block, step, warp)
// groups lanes into requests, applies the bank and sector models, adds the step's sums,
// and hashes the records. Only the sums, one hash per block and the focus blocks' records go to the host.
// The CPU emulator runs the same functions on the host (analyse_chunk_on_host), so GPU and CPU traces
// agree on every figure and on the digest.
#pragma once
#include <cstdint>

#include "trace_record.h"

#if defined(__CUDACC__)
#define REDLAB_HD __host__ __device__
#else
#define REDLAB_HD
#endif

namespace redlab::rec {

REDLAB_HD inline unsigned popcount32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return unsigned(__popc(x));
#else
  return unsigned(__builtin_popcount(x));
#endif
}
REDLAB_HD inline unsigned lowest_lane(std::uint32_t x) {   // x != 0
#if defined(__CUDA_ARCH__)
  return unsigned(__ffs(int(x)) - 1);
#else
  return unsigned(__builtin_ctz(x));
#endif
}

// ---- The bank model, the two totals only ------------------------------------------------------------
// app/core/bank_model.cpp's bank_report() builds the per-bank lists the bank lab draws; these give the
// same totals without them, and tests hold the two to each other and to the H200 reference.

struct BankTotals {
  unsigned wavefronts = 0, ideal = 0;
};

// Loads only: the hardware serves a warp's 8- and 16-byte loads in twice as many lanes per phase when
// lanes pair up on one address (lane n with n^1, or with n^2), the partner being inactive counting as a
// match. Found by the H200 measurements in assets/reference/h200-shared-wavefronts.csv.
REDLAB_HD inline bool lanes_pair(std::uint32_t mask, const std::uint32_t* addr, unsigned partner_xor) {
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1u)) continue;
    const unsigned p = lane ^ partner_xor;
    if ((mask >> p & 1u) && addr[p] != addr[lane]) return false;
  }
  return true;
}

// Wavefronts of one shared request: per phase, the busiest bank's distinct 32-bit words; ideal: per phase
// ceil(distinct words / 32), at least 1. `addr`: byte offsets of the 32 lanes (inactive ones ignored).
REDLAB_HD inline BankTotals bank_totals(std::uint32_t mask, const std::uint32_t* addr, unsigned width, bool store) {
  constexpr unsigned kBankCount = 32;
  width = width == 8 || width == 16 ? width : 4;
  unsigned lanes_per_phase = 32 / (width / 4);
  if (!store && width > 4 && (lanes_pair(mask, addr, 1) || lanes_pair(mask, addr, 2)))
    lanes_per_phase = lanes_per_phase * 2 < 32 ? lanes_per_phase * 2 : 32;
  const unsigned words_per_lane = width / 4;
  BankTotals totals;
  for (unsigned first = 0; first < 32; first += lanes_per_phase) {
    std::uint32_t words[64];   // a phase holds at most 64 words (16 paired lanes x 4, or 32 x 2)
    unsigned count = 0;
    for (unsigned lane = first; lane < first + lanes_per_phase; ++lane) {
      if (!(mask >> lane & 1u)) continue;
      for (unsigned k = 0; k < words_per_lane; ++k) {
        // Insertion sort: the words of a request mostly arrive in order already.
        const std::uint32_t word = addr[lane] / 4 + k;
        unsigned i = count++;
        while (i > 0 && words[i - 1] > word) {
          words[i] = words[i - 1];
          --i;
        }
        words[i] = word;
      }
    }
    if (!count) continue;
    unsigned per_bank[kBankCount] = {};
    unsigned worst = 0, distinct = 0;
    for (unsigned i = 0; i < count; ++i) {
      if (i > 0 && words[i] == words[i - 1]) continue;   // broadcast or merged write: one word
      ++distinct;
      const unsigned c = ++per_bank[words[i] % kBankCount];
      worst = c > worst ? c : worst;
    }
    totals.wavefronts += worst;
    totals.ideal += distinct > kBankCount ? (distinct + kBankCount - 1) / kBankCount : 1;
  }
  return totals;
}

// Global memory: distinct 32-byte sectors the active lanes' accesses touch.
REDLAB_HD inline unsigned sector_count(std::uint32_t mask, const std::uint32_t* addr, unsigned width) {
  std::uint32_t seen[64];   // 32 lanes, each within two sectors (16 bytes at most)
  unsigned count = 0;
  width = width ? width : 4;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1u)) continue;
    for (std::uint32_t s = addr[lane] / 32; s <= (addr[lane] + width - 1) / 32; ++s) {
      bool found = false;
      for (unsigned i = 0; i < count && !found; ++i) found = seen[i] == s;
      if (!found) seen[count++] = s;
    }
  }
  return count;
}

// ---- Hashing --------------------------------------------------------------------------------------------
// A 64-bit hash taken a word at a time: each word is xored in, then multiplied and folded (the multiplier of
// MurmurHash3's 64-bit finaliser), one multiply a word where FNV-1a over its bytes took eight; the analysis
// hashes two words per lane of every request, and the digest only has to tell two traces apart. The digest
// of a trace is the hash of its block hashes in block order; a block hash is the hash of its warp hashes in
// (step, warp) order; a warp hash covers (block, step, warp), the active mask and every request in canonical
// order with each lane's address and value.
constexpr std::uint64_t kHashBasis = 1469598103934665603ull;
REDLAB_HD inline void hash_mix(std::uint64_t& h, std::uint64_t v) {
  h ^= v;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 32;
}

// ---- One warp in one step ---------------------------------------------------------------------------

// What a class of records is, in the numbering of app/core/trace.h's Space (shared, global, reg, remote_shared) and
// AccessKind (load, store, value, atomic).
struct Access {
  unsigned space, kind;
  REDLAB_HD bool store() const { return kind == 1; }
  REDLAB_HD bool atomic() const { return kind == 3; }
};
REDLAB_HD inline Access access_of(Class c) {
  switch (c) {
    case Class::shared_load: return {0, 0};
    case Class::shared_store: return {0, 1};
    case Class::global_load: return {1, 0};
    case Class::global_store: return {1, 1};
    case Class::reg: break;
    case Class::shared_atomic: return {0, 3};
    case Class::global_atomic: return {1, 3};
    case Class::remote_shared_load: return {3, 0};
    case Class::remote_shared_store: return {3, 1};
  }
  return {2, 2};
}

// A class's requests are ordered by their first active lane's address (canonical order: two compilers
// may evaluate op(s[a], s[b])'s loads in either order, and the trace must not depend on that). The trace
// builder and the decoder of focus blocks use the same order.
constexpr unsigned kMaxSlots = 128;

struct WarpStepResult {
  std::uint32_t sums[kSums] = {};
  std::uint64_t hash = kHashBasis;
};

// Records of warp `w` in step `s` of chunk-relative block `b`: slot `k` of class `c` starts at
// lane_records(l, b, s, w) + (l.slot_base[c] + k) * 32.
REDLAB_HD inline std::uint64_t warp_step_index(const Layout& l, std::uint32_t b, unsigned s, unsigned w) {
  return (std::uint64_t(b) * l.max_steps + s) * l.warps + w;
}

// The mask of the lanes that wrote slot `lanes[0..32)`, and the first of them's address.
REDLAB_HD inline std::uint32_t slot_mask(const LaneRecord* lanes, std::uint32_t* first_addr) {
  std::uint32_t mask = 0;
  for (unsigned lane = 0; lane < 32; ++lane)
    if (lanes[lane].meta & kWritten) mask |= 1u << lane;
  *first_addr = mask ? lanes[lowest_lane(mask)].addr : 0;
  return mask;
}

// The slots of class `c` that warp step `ws` may hold records in: the count the emulator's probe kept
// (Buffers::slots_written), or every slot of the class where none is kept.
REDLAB_HD inline unsigned slots_in_use(const Layout& l, const Buffers& raw, std::uint64_t ws, unsigned c) {
  return raw.slots_written ? raw.slots_written[ws * kClasses + c] : l.slots[c];
}

// Of the first `slots` slots of class `c`, those that hold a request, in canonical order; returns how many. The
// order is the first lane's address, then its buffer: two requests of one class at the same offset of different
// buffers (an all-reduce's own[i] and peer[i]) come in the same order whichever the compiler issued first.
REDLAB_HD inline unsigned canonical_slots(const Layout& l, const LaneRecord* ws_lanes, unsigned c, unsigned slots,
                                          unsigned* order /* [kMaxSlots] */) {
  std::uint64_t keys[kMaxSlots];
  unsigned count = 0;
  for (unsigned k = 0; k < slots && k < l.slots[c] && k < kMaxSlots; ++k) {
    std::uint32_t first_addr = 0;
    const LaneRecord* lanes = ws_lanes + std::uint64_t(l.slot_base[c] + k) * 32;
    const std::uint32_t mask = slot_mask(lanes, &first_addr);
    if (!mask) continue;
    const std::uint64_t first = std::uint64_t(first_addr) << 4 | meta_buffer(lanes[lowest_lane(mask)].meta);
    unsigned i = count++;   // stable insertion by first address and buffer
    while (i > 0 && keys[i - 1] > first) {
      keys[i] = keys[i - 1];
      order[i] = order[i - 1];
      --i;
    }
    keys[i] = first;
    order[i] = k;
  }
  return count;
}

// Everything the statistics need from one warp in one step.
REDLAB_HD inline WarpStepResult analyse_warp_step(const Layout& l, const Buffers& raw, std::uint32_t b, unsigned s,
                                                   unsigned w) {
  WarpStepResult r;
  const std::uint64_t ws = warp_step_index(l, b, s, w);
  const std::uint32_t active = raw.active[ws];
  const unsigned count = popcount32(active);
  r.sums[active_threads] = count;
  r.sums[active_warps] = count ? 1 : 0;
  r.sums[divergent_warps] = count && count < 32 ? 1 : 0;
  hash_mix(r.hash, (std::uint64_t(l.block_lo + b) << 32) ^ (std::uint64_t(s) << 8) ^ w);
  hash_mix(r.hash, active);

  const LaneRecord* ws_lanes = raw.lanes + ws * l.slots_total * 32;
  for (unsigned c = 0; c < unsigned(kClasses); ++c) {
    unsigned order[kMaxSlots];
    const unsigned requests = canonical_slots(l, ws_lanes, c, slots_in_use(l, raw, ws, c), order);
    const Access access = access_of(Class(c));
    for (unsigned i = 0; i < requests; ++i) {
      const LaneRecord* lanes = ws_lanes + std::uint64_t(l.slot_base[c] + order[i]) * 32;
      std::uint32_t mask = 0, addr[32] = {};
      unsigned width = 4, op = 0;
      for (unsigned lane = 0; lane < 32; ++lane) {
        if (!(lanes[lane].meta & kWritten)) continue;
        mask |= 1u << lane;
        addr[lane] = lanes[lane].addr;
        width = meta_width(lanes[lane].meta);
        op = meta_op(lanes[lane].meta);
      }
      hash_mix(r.hash, (std::uint64_t(op) << 44) ^ (std::uint64_t(access.space) << 40) ^
                           (std::uint64_t(access.kind) << 32) ^ mask);
      for (unsigned lane = 0; lane < 32; ++lane) {
        if (!(mask >> lane & 1u)) continue;
        hash_mix(r.hash, addr[lane]);
        hash_mix(r.hash, lanes[lane].bits);
      }
      const bool store = access.store();
      if (access.atomic()) {
        // A shared atomic's banks as a store's (one word per lane written; lanes on one word serialise in
        // the atomic unit, not in the banks); a global atomic's sectors as any access's.
        if (access.space == 0) {
          r.sums[smem_atomic_requests] += 1;
          r.sums[smem_atomic_wavefronts] += bank_totals(mask, addr, width, true).wavefronts;
        } else {
          r.sums[gmem_atomic_requests] += 1;
          r.sums[gmem_atomic_sectors] += sector_count(mask, addr, width);
        }
      } else if (access.space == 0) {
        const BankTotals t = bank_totals(mask, addr, width, store);
        r.sums[store ? smem_store_requests : smem_load_requests] += 1;
        r.sums[store ? smem_store_wavefronts : smem_load_wavefronts] += t.wavefronts;
        r.sums[store ? smem_store_ideal : smem_load_ideal] += t.ideal;
      } else if (access.space == 1) {
        r.sums[store ? gmem_store_requests : gmem_load_requests] += 1;
        r.sums[store ? gmem_store_sectors : gmem_load_sectors] += sector_count(mask, addr, width);
      } else if (access.space == 3) {   // distributed shared memory: requests and the bytes they move
        r.sums[store ? dsmem_store_requests : dsmem_load_requests] += 1;
        r.sums[store ? dsmem_store_bytes : dsmem_load_bytes] += popcount32(mask) * width;
      }   // register values: hashed, not counted
    }
  }
  return r;
}

REDLAB_HD inline std::uint64_t block_hash(const unsigned long long* warp_hashes, std::uint64_t count) {
  std::uint64_t h = kHashBasis;
  for (std::uint64_t i = 0; i < count; ++i) hash_mix(h, warp_hashes[i]);
  return h;
}

// The analysis of one chunk on the host (the CPU emulator's device memory is host memory). The CUDA
// kernel (app/exec/cuda_trace_analysis.cu) does the same with one thread per (step, warp).
// Blocks [first, end) of the chunk, their sums added to `sums` ([max_steps][kSums]): blocks are independent, so
// the host may split a chunk between threads, each with sums of its own, and add them after.
inline void analyse_blocks_on_host(const Layout& l, const Buffers& raw, const Analysis& out, std::uint32_t first,
                                   std::uint32_t end, unsigned long long* sums) {
  const std::uint64_t per_block = std::uint64_t(l.max_steps) * l.warps;
  for (std::uint32_t b = first; b < end; ++b) {
    for (unsigned s = 0; s < l.max_steps; ++s)
      for (unsigned w = 0; w < l.warps; ++w) {
        const WarpStepResult r = analyse_warp_step(l, raw, b, s, w);
        for (unsigned k = 0; k < kSums; ++k) sums[std::uint64_t(s) * kSums + k] += r.sums[k];
        out.warp_hash[warp_step_index(l, b, s, w)] = r.hash;
      }
    out.block_hash[b] = block_hash(out.warp_hash + b * per_block, per_block);
  }
}

inline void analyse_chunk_on_host(const Layout& l, const Buffers& raw, const Analysis& out) {
  analyse_blocks_on_host(l, raw, out, 0, l.blocks(), out.sums);
}

}  // namespace redlab::rec
