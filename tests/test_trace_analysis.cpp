// The trace analysis (kernels/trace_analysis.h) that runs where the records lie: its step sums against
// sums recomputed here from the full detail of every block (bank_report, a sector set), independence from
// the chunk size, and what the hashes cover (values count; the order of a class's requests does not).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "core/allreduce.h"
#include "core/bank_model.h"
#include "core/catalog.h"
#include "core/plan.h"
#include "core/trace_builder.h"
#include "exec/device.h"
#include "exec/emulator_scope.h"
#include "exec/executor.h"
#include "exec/family_run.h"

using namespace redlab;

namespace {

Scenario scenario_for(const KernelRecord& k) {
  Scenario s;
  s.kernel = k.id;
  s.backend = BackendChoice::cpu;
  s.input = InputKind::random;
  if (k.family == Family::transpose) {
    s.type = ElemType::float32;
    s.rows = 70;
    s.cols = 100;
    s.block_rows = 4;
    resolve_shape(s);
  } else {
    s.n = 6000 + 7;  // several blocks and a ragged tail
    s.block = 128;
  }
  return s;
}

// The scenario traced twice on the emulator: one block per chunk (the budget of a single block), then
// everything in one chunk.
struct ChunkedAndWhole {
  Trace per_block, whole;
};
ChunkedAndWhole trace_per_block_and_whole(const Scenario& s) {
  RunOptions small, large;
  small.trace_budget = 1;
  large.trace_budget = std::size_t(1) << 30;
  return {make_cpu_executor()->run(s, small), make_cpu_executor()->run(s, large)};
}

std::vector<const KernelRecord*> traced_kernels() {
  std::vector<const KernelRecord*> out;
  for (const KernelRecord* k : catalog())
    // (One launch of one GPU each; an all-reduce is many launches, checked by its own tests below.)
    if (k->traceable && !k->gpu_only && !k->host_only && k->family != Family::allreduce) out.push_back(k);
  return out;
}

// Every block in focus: the step sums the analysis produced must equal the same sums taken over the full
// detail, with the detailed bank model (per-bank word lists) and a set of sectors.
TEST(TraceAnalysis, StepSumsEqualTheFullDetailOfEveryBlock) {
  for (const KernelRecord* k : traced_kernels()) {
    SCOPED_TRACE(k->id);
    Scenario s = scenario_for(*k);
    const std::uint32_t grid = make_plan(s).grid;
    s.focus_blocks.clear();
    for (std::uint32_t b = 0; b < grid; ++b) s.focus_blocks.push_back(b);
    const Trace t = make_cpu_executor()->run(s);
    ASSERT_TRUE(t.correct);
    ASSERT_EQ(t.focus.size(), grid);
    std::vector<StepStats> sums(t.steps.size());
    for (const FocusBlock& f : t.focus)
      for (std::size_t st = 0; st < f.steps.size(); ++st)
        for (const WarpStep& w : f.steps[st]) {
          StepStats& x = sums[st];
          const unsigned count = unsigned(__builtin_popcount(w.active));
          x.active_threads += count;
          x.active_warps += count ? 1 : 0;
          x.divergent_warps += count && count < 32 ? 1 : 0;
          for (const WarpAccess& a : w.accesses) {
            const WarpAddresses wa = addresses_of(a);
            if (a.kind == AccessKind::atomic) {  // atomics: their own kind (banks as a store, sectors as any)
              if (a.space == Space::shared) {
                x.smem_atomic_requests += 1;
                x.smem_atomic_wavefronts += bank_report(wa).wavefronts;
              } else {
                std::set<std::uint32_t> sectors;
                for (unsigned l = 0; l < 32; ++l)
                  if (a.mask >> l & 1u)
                    for (std::uint32_t byte = a.addr[l]; byte < a.addr[l] + a.width; ++byte) sectors.insert(byte / 32);
                x.gmem_atomic_requests += 1;
                x.gmem_atomic_sectors += sectors.size();
              }
            } else if (a.space == Space::shared) {
              const BankReport r = bank_report(wa);
              (wa.store ? x.smem_store_requests : x.smem_load_requests) += 1;
              (wa.store ? x.smem_store_wavefronts : x.smem_load_wavefronts) += r.wavefronts;
              (wa.store ? x.smem_store_ideal : x.smem_load_ideal) += r.ideal;
            } else if (a.space == Space::global) {
              std::set<std::uint32_t> sectors;
              for (unsigned l = 0; l < 32; ++l)
                if (a.mask >> l & 1u)
                  for (std::uint32_t byte = a.addr[l]; byte < a.addr[l] + a.width; ++byte) sectors.insert(byte / 32);
              (wa.store ? x.gmem_store_requests : x.gmem_load_requests) += 1;
              (wa.store ? x.gmem_store_sectors : x.gmem_load_sectors) += sectors.size();
            } else if (a.space == Space::remote_shared) {  // another block's shared memory: requests and bytes
              const bool store = a.kind == AccessKind::store;
              (store ? x.dsmem_store_requests : x.dsmem_load_requests) += 1;
              (store ? x.dsmem_store_bytes : x.dsmem_load_bytes) += std::uint64_t(__builtin_popcount(a.mask)) * a.width;
            }
          }
        }
    for (std::size_t st = 0; st < t.steps.size(); ++st) {
      SCOPED_TRACE("step " + std::to_string(st));
      StepStats got = t.steps[st].stats;
      got.cycles.reset();
      EXPECT_EQ(got, sums[st]);
    }
  }
}

// One block per chunk (the budget of a single block) and everything in one chunk give the same trace.
// vectorized's last steps run in whichever block takes the last ticket, which differs between runs on the
// multi-threaded emulator as on a GPU; they are recorded once per run in the launch row, so its figures
// and digest must not change either (its focus blocks' detail may: the last block differs).
TEST(TraceAnalysis, ChunkSizeChangesNoFigure) {
  for (const char* id : {"interleaved", "vectorized", "atomic_segmented", "transpose_padded"}) {
    SCOPED_TRACE(id);
    Scenario s = scenario_for(*find_kernel(id));
    s.focus_blocks = {0, 2};
    const auto [a, b] = trace_per_block_and_whole(s);
    EXPECT_EQ(a.trace_chunks, a.grid);
    EXPECT_EQ(b.trace_chunks, 1u);
    EXPECT_EQ(a.traced_blocks, b.traced_blocks);
    EXPECT_LE(a.trace_bytes_peak, b.trace_bytes_peak);
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (std::size_t i = 0; i < a.steps.size(); ++i) EXPECT_EQ(a.steps[i].stats, b.steps[i].stats);
    EXPECT_EQ(a.digest, b.digest);
    if (find_kernel(id)->single_pass) continue;
    ASSERT_EQ(a.focus.size(), 2u);
    for (std::size_t f = 0; f < 2; ++f)
      for (std::size_t st = 0; st < a.focus[f].steps.size(); ++st)
        for (std::size_t w = 0; w < a.focus[f].steps[st].size(); ++w) {
          const WarpStep &x = a.focus[f].steps[st][w], &y = b.focus[f].steps[st][w];
          EXPECT_EQ(x.active, y.active);
          ASSERT_EQ(x.accesses.size(), y.accesses.size());
          for (std::size_t i = 0; i < x.accesses.size(); ++i) {
            EXPECT_EQ(x.accesses[i].addr, y.accesses[i].addr);
            EXPECT_EQ(x.accesses[i].bits, y.accesses[i].bits);
          }
        }
  }
}

// A hand-made chunk: 2 blocks, 1 step, 1 warp, two shared-load slots.
RawTrace two_block_chunk() {
  rec::Layout l;
  l.block_lo = 0;
  l.block_hi = 2;
  l.warps = 1;
  l.max_steps = 1;
  l.slots[int(rec::Class::shared_load)] = 2;
  l.finish_slots();
  RawTrace raw;
  raw.resize(l);
  for (std::uint32_t b = 0; b < 2; ++b) {
    raw.active[b] = ~0u;
    raw.steps_min[b] = raw.steps_max[b] = 1;
    for (unsigned slot = 0; slot < 2; ++slot)
      for (unsigned lane = 0; lane < 32; ++lane) {
        rec::LaneRecord& r = raw.lanes[(b * 2 + slot) * 32 + lane];
        r.addr = slot * 128 + lane * 4 * (slot + 1);  // slot 1: stride 8 bytes, a 2-way conflict
        r.meta = rec::meta(4, rec::Buffer::input);
        r.bits = b * 1000 + slot * 100 + lane;
      }
  }
  return raw;
}

TEST(TraceAnalysis, HashesCoverValuesButNotTheOrderOfAClassesRequests) {
  const RawTrace raw = two_block_chunk();
  const ChunkSummary base = summarise(raw);
  const unsigned long long* sums = base.sums.data();
  EXPECT_EQ(sums[rec::smem_load_requests], 4u);
  EXPECT_EQ(sums[rec::smem_load_wavefronts], 2u * (1 + 2));
  EXPECT_EQ(sums[rec::active_threads], 64u);

  RawTrace changed = raw;
  changed.lanes[(1 * 2 + 1) * 32 + 5].bits ^= 1;  // one bit of one value in block 1
  const ChunkSummary c = summarise(changed);
  EXPECT_EQ(c.block_hash[0], base.block_hash[0]);
  EXPECT_NE(c.block_hash[1], base.block_hash[1]);

  RawTrace swapped = raw;  // block 0's two loads recorded in the other order
  for (unsigned lane = 0; lane < 32; ++lane) std::swap(swapped.lanes[lane], swapped.lanes[32 + lane]);
  EXPECT_EQ(summarise(swapped).block_hash[0], base.block_hash[0]);

  // Two loads at the same offsets of two buffers (an all-reduce's own[i] and peer[i]) with different values: the
  // order the compiler issued them in (the GPU's and the emulator's differ) changes no hash.
  RawTrace two_buffers = raw;
  for (unsigned lane = 0; lane < 32; ++lane) {
    two_buffers.lanes[lane].addr = two_buffers.lanes[32 + lane].addr = lane * 4;
    two_buffers.lanes[lane].meta = rec::meta(4, rec::Buffer::output);
  }
  RawTrace issued_the_other_way = two_buffers;
  for (unsigned lane = 0; lane < 32; ++lane)
    std::swap(issued_the_other_way.lanes[lane], issued_the_other_way.lanes[32 + lane]);
  EXPECT_EQ(summarise(issued_the_other_way).block_hash[0], summarise(two_buffers).block_hash[0]);
}

// The emulator's device splits a large chunk's analysis between its threads: the same sums and the same hash of
// every warp-step and block as one pass over the chunk (random records in 301 blocks, an uneven split).
TEST(TraceAnalysis, TheEmulatorsAnalysisSplitBetweenThreadsEqualsOnePass) {
  rec::Layout l;
  l.block_lo = 0;
  l.block_hi = 301;
  l.warps = 4;
  l.max_steps = 3;
  l.slots[int(rec::Class::shared_load)] = 2;
  l.slots[int(rec::Class::global_store)] = 1;
  l.finish_slots();
  RawTrace raw;
  raw.resize(l);
  std::mt19937 rng(11);
  for (auto& a : raw.active) a = rng();
  for (auto& r : raw.lanes) {
    if (rng() % 3 == 0) continue;  // a lane that made no request in that slot
    r.addr = (rng() % 1024) * 4;
    r.meta = rec::meta(4, rng() % 2 ? rec::Buffer::input : rec::Buffer::output);
    r.bits = rng();
  }
  const ChunkSummary one_pass = summarise(raw);
  std::vector<unsigned long long> sums(std::size_t(l.max_steps) * rec::kSums, 0), warp_hash(l.warp_steps()),
      block_hash(l.blocks());
  rec::Buffers buffers;
  buffers.lanes = raw.lanes.data();
  buffers.active = raw.active.data();
  make_cpu_device()->analyse_trace(l, buffers, {sums.data(), warp_hash.data(), block_hash.data()});
  EXPECT_EQ(sums, one_pass.sums);
  EXPECT_EQ(block_hash, one_pass.block_hash);
  EXPECT_GT(std::count(sums.begin(), sums.end(), 0ull), 0);  // some figures are zero, most are not
  EXPECT_LT(std::count(sums.begin(), sums.end(), 0ull), long(sums.size()));
}

TEST(TraceAnalysis, BankTotalsEqualTheReportOnRandomRequests) {
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {
    WarpAddresses a;
    a.mask = rng() | (rng() & 1 ? ~0u : 0u);
    const unsigned widths[] = {4, 8, 16};
    a.width = widths[rng() % 3];
    a.store = rng() & 1;
    const unsigned span = 1u << (rng() % 12 + 2);
    for (auto& x : a.addr) x = (rng() % span) / a.width * a.width;
    if (rng() % 4 == 0)  // pairs: lane n and n^1 share an address
      for (unsigned l = 0; l < 32; l += 2) a.addr[l + 1] = a.addr[l];
    const BankReport r = bank_report(a);
    const BankCost c = bank_cost(a);
    ASSERT_EQ(c.wavefronts, r.wavefronts) << i;
    ASSERT_EQ(c.ideal, r.ideal) << i;
  }
}

}  // namespace

// The emulator traces a chunk by running only its blocks, memory carried from chunk to chunk.
// For every kernel the emulator runs: one block per chunk (a cluster kernel's: one cluster) gives the same figures,
// digest and result as one chunk, and a correct result.
TEST(TraceAnalysis, EveryKernelTracesTheSameWhenEachChunkRunsOnlyItsBlocks) {
  int checked = 0;
  for (const KernelRecord* k : catalog()) {
    if (k->gpu_only || !k->traceable || k->family == Family::allreduce) continue;
    SCOPED_TRACE(k->id);
    Scenario s = scenario_for(*k);
    const auto [a, b] = trace_per_block_and_whole(s);
    // (A cluster kernel's smallest chunk is one cluster: its blocks run together.)
    EXPECT_EQ(a.trace_chunks, k->clustered ? a.grid / a.scenario.cluster : a.grid);
    EXPECT_TRUE(a.correct);
    EXPECT_EQ(a.result, b.result);
    EXPECT_EQ(a.digest, b.digest);
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (std::size_t i = 0; i < a.steps.size(); ++i) EXPECT_EQ(a.steps[i].stats, b.steps[i].stats);
    ++checked;
  }
  EXPECT_GT(checked, 15);
}

// A GPU's records name no place; the emulator's run of the focus blocks names them. Here the emulator's own trace,
// its names taken away, gets them back from that run: every access of every focus block, for every kernel (a block
// other than the first included), the same file, line and column. The last block too: in a single-pass kernel the
// block that takes the last ticket (whichever finishes last, on the emulator's threads as on a GPU) also does the
// finish, which it does not do when run alone; those accesses are named too.
TEST(TraceAnalysis, AGpuTracesAccessesAreNamedByTheEmulatorsRunOfTheFocusBlocks) {
  int kernels = 0;
  for (const KernelRecord* k : traced_kernels()) {
    SCOPED_TRACE(k->id);
    Scenario s = scenario_for(*k);
    const Plan plan = make_plan(s);
    s.focus_blocks = {0, plan.grid / 2, plan.grid - 1};
    const Trace named = make_cpu_executor()->run(s);
    ASSERT_FALSE(named.access_files.empty());
    Trace bare = named;
    bare.access_files.clear();
    for (FocusBlock& f : bare.focus)
      for (auto& step : f.steps)
        for (WarpStep& w : step)
          for (WarpAccess& a : w.accesses) a.line = a.column = a.file = 0;
    std::vector<std::uint8_t> input(s.n * elem_size(s.type));
    fill_input(s, input.data());
    // Inside a GPU run's scope (its progress counts the blocks it runs): the emulator's runs of the focus blocks
    // count none of theirs into it.
    RunControl control;
    {
      const EmulatorRunScope gpu_run(&control);
      name_accesses_from_emulator(make_plan(s), input.data(), std::size_t(128) << 20, bare);
    }
    EXPECT_EQ(control.blocks_run.load(), 0u);
    auto file_of = [](const Trace& t, const WarpAccess& a) {
      return a.file ? t.access_files.at(a.file - 1) : std::string();
    };
    std::size_t accesses = 0, same = 0;
    for (std::size_t b = 0; b < named.focus.size(); ++b)
      for (std::size_t st = 0; st < named.focus[b].steps.size(); ++st)
        for (std::size_t w = 0; w < named.focus[b].steps[st].size(); ++w)
          for (std::size_t i = 0; i < named.focus[b].steps[st][w].accesses.size(); ++i) {
            const WarpAccess& x = named.focus[b].steps[st][w].accesses[i];
            const WarpAccess& y = bare.focus[b].steps[st][w].accesses[i];
            if (x.line == 0) continue;  // a shuffle's or an atomic's: the emulator names none either
            ++accesses;
            const bool agree = x.line == y.line && x.column == y.column && file_of(named, x) == file_of(bare, y);
            same += agree;
            if (!agree)
              ADD_FAILURE() << "block " << named.focus[b].block << " step " << st << " warp " << w << " access " << i
                            << ": line " << x.line << " named " << y.line;
          }
    EXPECT_GT(accesses, 0u);
    EXPECT_EQ(same, accesses);
    ++kernels;
  }
  EXPECT_GT(kernels, 15);
}

// All-reduce on the emulator's virtual GPUs: every algorithm, 2 to 8 GPUs, sizes that G does not divide, every type
// and operator: every GPU ends with the element-wise combination (the run's check), the bytes each GPU sent and
// received are the schedule's, a step's figures are its transfers' launches summed, and each launch had one active
// thread per element it moved.
TEST(AllReduceRun, EveryAlgorithmOnTwoToEightVirtualGpusCombinesEveryElementAndMovesTheSchedulesBytes) {
  int runs = 0;
  for (const KernelRecord* k : catalog()) {
    if (k->family != Family::allreduce || k->gpu_only) continue;
    for (unsigned g = 2; g <= 8; ++g)
      for (ElemType type : {ElemType::int32, ElemType::float32, ElemType::float64})
        for (OpKind op : {OpKind::sum, OpKind::min, OpKind::max})
          for (std::uint64_t n : {1ull, 1001ull}) {
            if (type != ElemType::int32 && op != OpKind::sum && g % 3) continue;  // fewer, every kind still met
            Scenario s;
            s.kernel = k->id;
            s.backend = BackendChoice::cpu;
            s.gpus = g;
            s.type = type;
            s.op = op;
            s.n = n;
            s.block = 64;
            SCOPED_TRACE(describe(s));
            const Trace t = make_cpu_executor()->run(s);
            ASSERT_TRUE(t.correct) << t.result << " vs " << t.reference;
            ASSERT_EQ(t.gpus, g);
            const auto steps = allreduce::schedule(allreduce::Algorithm(k->algorithm), g, n);
            ASSERT_EQ(t.steps.size(), steps.size());
            ASSERT_EQ(t.transfers.size(), steps.size());
            const allreduce::Traffic want = allreduce::traffic(steps, g, unsigned(elem_size(type)));
            std::vector<std::uint64_t> sent(g, 0), received(g, 0);
            for (std::size_t i = 0; i < steps.size(); ++i) {
              ASSERT_EQ(t.transfers[i].size(), steps[i].transfers.size());
              StepStats sum;
              for (std::size_t x = 0; x < steps[i].transfers.size(); ++x) {
                const GpuTransfer& moved = t.transfers[i][x];
                const allreduce::Transfer& planned = steps[i].transfers[x];
                EXPECT_EQ(moved.from, planned.from);
                EXPECT_EQ(moved.to, planned.to);
                EXPECT_EQ(moved.lo, planned.lo);
                EXPECT_EQ(moved.hi, planned.hi);
                EXPECT_EQ(moved.combine, planned.combine);
                EXPECT_EQ(moved.stats.active_threads, planned.elements());
                // A combine loads both values and stores one; a copy loads one.
                EXPECT_EQ(moved.stats.gmem_load_requests, (planned.combine ? 2 : 1) * moved.stats.gmem_store_requests);
                sent[moved.from] += moved.bytes;
                received[moved.to] += moved.bytes;
                sum.active_threads += moved.stats.active_threads;
                sum.gmem_load_requests += moved.stats.gmem_load_requests;
                sum.gmem_store_sectors += moved.stats.gmem_store_sectors;
              }
              EXPECT_EQ(t.steps[i].stats.active_threads, sum.active_threads);
              EXPECT_EQ(t.steps[i].stats.gmem_load_requests, sum.gmem_load_requests);
              EXPECT_EQ(t.steps[i].stats.gmem_store_sectors, sum.gmem_store_sectors);
              EXPECT_EQ(t.steps[i].label, steps[i].label);
            }
            EXPECT_EQ(sent, want.sent);
            EXPECT_EQ(received, want.received);
            ++runs;
          }
  }
  EXPECT_GT(runs, 100);
}

// A traced all-reduce keeps its GPUs and transfers through a trace file.
// The focus block's accesses in an all-reduce name their expression: GPU 0's own range and the peer's, at the lines
// of kernels/allreduce/peer_range.cuh that index them (a combine on line 23, a copy on line 35).
TEST(AllReduceRun, FocusAccessesAreNamedByLineAndFile) {
  for (const char* id : {"allreduce_ring", "allreduce_naive", "allreduce_tree"}) {
    SCOPED_TRACE(id);
    Scenario s;
    s.kernel = id;
    s.backend = BackendChoice::cpu;
    s.gpus = 4;
    s.n = 1000;
    s.block = 64;
    s.focus_blocks = {0};
    const Trace t = make_cpu_executor()->run(s);
    ASSERT_TRUE(t.correct);
    ASSERT_EQ(t.focus.size(), 1u);
    std::size_t named = 0, accesses = 0;
    for (const auto& step : t.focus[0].steps)
      for (const WarpStep& w : step)
        for (const WarpAccess& a : w.accesses) {
          ++accesses;
          if (a.line == 0) continue;
          ASSERT_GT(a.file, 0u);
          ASSERT_LE(a.file, t.access_files.size());
          EXPECT_NE(t.access_files[a.file - 1].find("peer_range.cuh"), std::string::npos) << t.access_files[a.file - 1];
          EXPECT_TRUE(a.line == 23 || a.line == 35) << a.line;
          ++named;
        }
    EXPECT_GT(accesses, 0u);
    EXPECT_EQ(named, accesses);
  }
}

TEST(AllReduceRun, TraceFilesKeepTheTransfers) {
  Scenario s;
  s.kernel = "allreduce_ring";
  s.backend = BackendChoice::cpu;
  s.gpus = 3;
  s.n = 100;
  const Trace t = make_cpu_executor()->run(s);
  const std::string path = ::testing::TempDir() + std::to_string(getpid()) + "_ring.rltrace";
  save_trace(t, path);
  const Trace back = load_trace(path);
  EXPECT_EQ(back.gpus, 3u);
  EXPECT_EQ(back.transfers, t.transfers);
  EXPECT_EQ(back.scenario.gpus, 3u);
  std::remove(path.c_str());
}

namespace {

// A device that says only its backend and free memory: what trace_budget_for reads.
class FreeMemoryDevice final : public Device {
 public:
  FreeMemoryDevice(Backend b, std::size_t free) : backend_(b), free_(free) {}
  std::string name() const override { return "free memory only"; }
  bool measures_clocks() const override { return false; }
  std::size_t free_memory() const override { return free_; }
  void* alloc(std::size_t) override { return nullptr; }
  void release(void*) override {}
  void upload(void*, const void*, std::size_t) override {}
  void download(void*, const void*, std::size_t) override {}
  void fill(void*, int, std::size_t) override {}
  void copy(void*, const void*, std::size_t) override {}
  Backend backend() const override { return backend_; }
  void analyse_trace(const rec::Layout&, const rec::Buffers&, const rec::Analysis&) override {}

 protected:
  void invoke(LaunchFn, const LaunchArgs&, const rec::Layout*, const rec::Buffers*) override {}

 private:
  Backend backend_;
  std::size_t free_;
};

}  // namespace

// The trace memory of a run whose options name none: 128 MiB on the emulator (host memory, and its chunks run only
// their own blocks), and on a GPU a sixteenth of the free memory between 128 and 512 MiB (each chunk reruns the
// whole launch there). A budget the options name is kept.
TEST(TraceBudget, LargerChunksOnAGpuWithRoom) {
  constexpr std::size_t MiB = std::size_t(1) << 20, GiB = MiB << 10;
  const RunOptions unnamed;
  EXPECT_EQ(trace_budget_for(FreeMemoryDevice(Backend::emulator, 64 * GiB), unnamed), 128 * MiB);
  EXPECT_EQ(trace_budget_for(FreeMemoryDevice(Backend::cuda, 79 * GiB), unnamed), 512 * MiB);
  EXPECT_EQ(trace_budget_for(FreeMemoryDevice(Backend::cuda, 4 * GiB), unnamed), 256 * MiB);
  EXPECT_EQ(trace_budget_for(FreeMemoryDevice(Backend::cuda, 1 * GiB), unnamed), 128 * MiB);
  RunOptions named;
  named.trace_budget = MiB;
  EXPECT_EQ(trace_budget_for(FreeMemoryDevice(Backend::cuda, 79 * GiB), named), MiB);
  EXPECT_EQ(trace_budget_for(FreeMemoryDevice(Backend::emulator, 64 * GiB), named), MiB);
}

namespace {

// The emulator, with every launch's layout noted: what a run's relaunches are given.
class LayoutNotingDevice final : public Device {
 public:
  std::vector<const rec::Layout*> layouts;
  std::string name() const override { return inner_->name(); }
  bool measures_clocks() const override { return false; }
  std::size_t free_memory() const override { return inner_->free_memory(); }
  void* alloc(std::size_t n) override { return inner_->alloc(n); }
  void release(void* p) override { inner_->release(p); }
  void upload(void* d, const void* s, std::size_t n) override { inner_->upload(d, s, n); }
  void download(void* d, const void* s, std::size_t n) override { inner_->download(d, s, n); }
  void fill(void* d, int v, std::size_t n) override { inner_->fill(d, v, n); }
  void copy(void* d, const void* s, std::size_t n) override { inner_->copy(d, s, n); }
  Backend backend() const override { return Backend::emulator; }
  void analyse_trace(const rec::Layout& l, const rec::Buffers& b, const rec::Analysis& a) override {
    inner_->analyse_trace(l, b, a);
  }

 protected:
  void invoke(LaunchFn fn, const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) override {
    layouts.push_back(layout);
    Device::invoke(fn, a, layout, buffers);
  }

 private:
  std::unique_ptr<Device> inner_ = make_cpu_device();
};

}  // namespace

// A traced run on a GPU finishes on the traced build, recording nothing, so that it needs one build (a kernel file's
// other one is then never compiled for it): asked to, the relaunches over the partials get a layout that records
// no block, and the result is the timed build's.
TEST(FinishPasses, RunTheTracedBuildRecordingNothingWhenAsked) {
  Scenario s;
  s.kernel = "interleaved";
  s.n = 100003;
  s.block = 128;
  s.type = ElemType::int32;
  s.input = InputKind::random;
  s.backend = BackendChoice::cpu;
  const Plan p = make_plan(s);
  std::vector<std::int32_t> input(s.n);
  ASSERT_TRUE(fill_input(s, input.data()));
  for (bool traced_build : {false, true}) {
    SCOPED_TRACE(traced_build ? "traced build" : "timed build");
    LayoutNotingDevice dev;
    const std::unique_ptr<PlanRun> run = family_runner(p).make(dev, p, input.data(), 1);
    run->prepare();
    run->run_first();
    run->finish(traced_build);
    EXPECT_TRUE(run->check().correct);
    ASSERT_EQ(dev.layouts.size(), p.passes.size());  // 100003 -> 782 -> 7 -> 1: the first launch and two more
    EXPECT_EQ(dev.layouts[0], nullptr);
    for (std::size_t i = 1; i < dev.layouts.size(); ++i) {
      ASSERT_EQ(dev.layouts[i] != nullptr, traced_build);
      if (traced_build) EXPECT_EQ(dev.layouts[i]->blocks() + dev.layouts[i]->launch_row, 0u);
    }
  }
}
