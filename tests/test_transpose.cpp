// The transposes: per-step figures of each kernel on the CPU emulator against figures
// computed here from the kernel's definition (guards, index formulas, the bank and sector models), the
// swizzle's proof under the bank model, correctness on awkward shapes, and the command line's refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <tuple>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/arguments.h"
#include "core/bank_model.h"
#include "core/catalog.h"
#include "core/stats_json.h"
#include "exec/executor.h"
#include "exec/family_run.h"
#include "core/plan.h"
#include "model/side.h"

using namespace redlab;

namespace redlab {
std::unique_ptr<Device> make_cpu_device();
}

namespace {

const char* const kKernels[] = {"copy",
                                "copy_shared",
                                "transpose_naive",
                                "transpose_tiled",
                                "transpose_padded",
                                "transpose_swizzled",
                                "transpose_vectorized"};

// One warp-level request from a per-lane guard and address.
WarpAddresses request(unsigned es, bool store, const std::function<bool(unsigned)>& on,
                      const std::function<std::uint64_t(unsigned)>& addr) {
  WarpAddresses a;
  a.width = es;
  a.store = store;
  for (unsigned l = 0; l < 32; ++l)
    if (on(l)) {
      a.mask |= 1u << l;
      a.addr[l] = std::uint32_t(addr(l));
    }
  return a;
}
void add_shared(StepStats& st, const WarpAddresses& a) {
  if (!a.mask) return;
  const BankCost c = bank_cost(a);
  if (a.store) {
    ++st.smem_store_requests;
    st.smem_store_wavefronts += c.wavefronts;
    st.smem_store_ideal += c.ideal;
  } else {
    ++st.smem_load_requests;
    st.smem_load_wavefronts += c.wavefronts;
    st.smem_load_ideal += c.ideal;
  }
}
void add_global(StepStats& st, const WarpAddresses& a) {
  if (!a.mask) return;
  (a.store ? st.gmem_store_requests : st.gmem_load_requests) += 1;
  (a.store ? st.gmem_store_sectors : st.gmem_load_sectors) += sectors(a);
}

// One warp's step with `lanes` active threads.
void add_active(StepStats& st, unsigned lanes) {
  st.active_threads += lanes;
  st.active_warps += lanes > 0;
  st.divergent_warps += lanes > 0 && lanes < 32;
}

// Byte offset of tile element (r, c) in each kernel's shared layout.
std::uint64_t tile_offset(const std::string& kernel, unsigned r, unsigned c, unsigned es) {
  if (kernel == "transpose_padded") return (std::uint64_t(r) * 33 + c) * es;
  if (kernel == "transpose_swizzled") return (std::uint64_t(r) * 32 + (c ^ r)) * es;
  return (std::uint64_t(r) * 32 + c) * es;
}

// tile_load and tile_store of `kernel` over a rows x cols matrix, blocks (32, K), from the kernels'
// definitions: thread (tx, ty) of block (bx, by) moves rows ty + j (j = 0, K, 2K, ...) of its tile.
std::vector<StepStats> expected(const std::string& kernel, unsigned rows, unsigned cols, unsigned K, unsigned es) {
  const bool staged = kernel != "copy" && kernel != "transpose_naive";
  const bool transposes = kernel.rfind("transpose_", 0) == 0;
  const bool through_tile = transposes && kernel != "transpose_naive";
  std::vector<StepStats> steps(2);
  for (unsigned by = 0; by < (rows + 31) / 32; ++by)
    for (unsigned bx = 0; bx < (cols + 31) / 32; ++bx)
      for (unsigned ty = 0; ty < K; ++ty) {
        // tile_load: row by*32+ty+j, column bx*32+lane.
        auto in_load = [&](unsigned j, unsigned l) { return by * 32 + ty + j < rows && bx * 32 + l < cols; };
        // tile_store: through the tile, output row bx*32+ty+j, column by*32+lane; otherwise as the load.
        auto in_store = [&](unsigned j, unsigned l) {
          return through_tile ? bx * 32 + ty + j < cols && by * 32 + l < rows : in_load(j, l);
        };
        unsigned load_lanes = 0, store_lanes = 0;
        for (unsigned l = 0; l < 32; ++l) {
          bool a = false, b = false;
          for (unsigned j = 0; j < 32; j += K) a |= in_load(j, l), b |= in_store(j, l);
          load_lanes += a;
          store_lanes += b;
        }
        add_active(steps[0], load_lanes);
        add_active(steps[1], store_lanes);
        for (unsigned j = 0; j < 32; j += K) {
          const unsigned r = ty + j;  // tile row this iteration loads (and, through the tile, column it stores)
          auto on_load = [&](unsigned l) { return in_load(j, l); };
          auto on_store = [&](unsigned l) { return in_store(j, l); };
          add_global(steps[0], request(es, false, on_load, [&](unsigned l) {
                       return (std::uint64_t(by * 32 + r) * cols + bx * 32 + l) * es;
                     }));
          if (staged)
            add_shared(steps[0], request(es, true, on_load, [&](unsigned l) { return tile_offset(kernel, r, l, es); }));
          if (through_tile) {
            add_shared(steps[1],
                       request(es, false, on_store, [&](unsigned l) { return tile_offset(kernel, l, r, es); }));
            add_global(steps[1], request(es, true, on_store, [&](unsigned l) {
                         return (std::uint64_t(bx * 32 + r) * rows + by * 32 + l) * es;
                       }));
          } else if (kernel == "transpose_naive") {
            add_global(steps[1], request(es, true, on_store, [&](unsigned l) {
                         return (std::uint64_t(bx * 32 + l) * rows + by * 32 + r) * es;
                       }));
          } else {  // copy, copy_shared
            if (staged)
              add_shared(steps[1],
                         request(es, false, on_store, [&](unsigned l) { return tile_offset(kernel, r, l, es); }));
            add_global(steps[1], request(es, true, on_store, [&](unsigned l) {
                         return (std::uint64_t(by * 32 + r) * cols + bx * 32 + l) * es;
                       }));
          }
        }
      }
  return steps;
}

// transpose_vectorized's tile: 64 rows of 32 pairs, logical pair u of row r kept at u ^ (r / 2); byte offset of
// pair u of row r for elements of `es` bytes.
std::uint64_t pair_offset(unsigned r, unsigned u, unsigned es) {
  return (std::uint64_t(r) * 32 + (u ^ (r / 2))) * 2 * es;
}

// transpose_vectorized from its definition: 64 x 64 tiles; thread (tx, ty) loads the pair at columns 2tx, 2tx+1 of
// rows ty + j (j = 0, K, ... < 64), and stores, for p = ty + j (< 32), output rows 2p and 2p+1 at columns 2tx, 2tx+1
// from tile rows 2tx and 2tx+1. Pairs are single accesses when rows and cols are even, else two element accesses.
std::vector<StepStats> expected_pairs(unsigned rows, unsigned cols, unsigned K, unsigned es) {
  constexpr unsigned D = 64;
  const bool aligned = rows % 2 == 0 && cols % 2 == 0;
  const unsigned pw = 2 * es;
  std::vector<StepStats> steps(2);
  for (unsigned by = 0; by < (rows + D - 1) / D; ++by)
    for (unsigned bx = 0; bx < (cols + D - 1) / D; ++bx)
      for (unsigned ty = 0; ty < K; ++ty) {
        auto in_load = [&](unsigned r, unsigned l) { return by * D + r < rows && bx * D + 2 * l < cols; };
        auto in_store = [&](unsigned p, unsigned l) { return bx * D + 2 * p < cols && by * D + 2 * l < rows; };
        unsigned load_lanes = 0, store_lanes = 0;
        for (unsigned l = 0; l < 32; ++l) {
          bool a = false, b = false;
          for (unsigned r = ty; r < D; r += K) a |= in_load(r, l);
          for (unsigned p = ty; p < D / 2; p += K) b |= in_store(p, l);
          load_lanes += a;
          store_lanes += b;
        }
        add_active(steps[0], load_lanes);
        add_active(steps[1], store_lanes);
        for (unsigned r = ty; r < D; r += K) {
          auto on = [&](unsigned l) { return in_load(r, l); };
          auto elem = [&](unsigned l) { return std::uint64_t(by * D + r) * cols + bx * D + 2 * l; };
          if (aligned) {
            add_global(steps[0], request(pw, false, on, [&](unsigned l) { return elem(l) * es; }));
          } else {
            add_global(steps[0], request(es, false, on, [&](unsigned l) { return elem(l) * es; }));
            add_global(steps[0], request(
                                     es, false, [&](unsigned l) { return on(l) && bx * D + 2 * l + 1 < cols; },
                                     [&](unsigned l) { return (elem(l) + 1) * es; }));
          }
          add_shared(steps[0], request(pw, true, on, [&](unsigned l) { return pair_offset(r, l, es); }));
        }
        for (unsigned p = ty; p < D / 2; p += K) {
          const unsigned row = bx * D + 2 * p;
          const bool second_row = row + 1 < cols;
          auto on = [&](unsigned l) { return in_store(p, l); };
          auto second_col = [&](unsigned l) { return on(l) && by * D + 2 * l + 1 < rows; };
          auto elem = [&](unsigned rr, unsigned l) { return std::uint64_t(rr) * rows + by * D + 2 * l; };
          add_shared(steps[1], request(pw, false, on, [&](unsigned l) { return pair_offset(2 * l, p, es); }));
          add_shared(steps[1],
                     request(pw, false, second_col, [&](unsigned l) { return pair_offset(2 * l + 1, p, es); }));
          auto none = [](unsigned) { return false; };
          if (aligned) {
            add_global(steps[1], request(pw, true, on, [&](unsigned l) { return elem(row, l) * es; }));
            add_global(steps[1], request(pw, true, second_row ? std::function<bool(unsigned)>(on) : none,
                                         [&](unsigned l) { return elem(row + 1, l) * es; }));
          } else {
            add_global(steps[1], request(es, true, on, [&](unsigned l) { return elem(row, l) * es; }));
            add_global(steps[1], request(es, true, second_col, [&](unsigned l) { return (elem(row, l) + 1) * es; }));
            add_global(steps[1], request(es, true, second_row ? std::function<bool(unsigned)>(on) : none,
                                         [&](unsigned l) { return elem(row + 1, l) * es; }));
            add_global(steps[1], request(es, true, second_row ? std::function<bool(unsigned)>(second_col) : none,
                                         [&](unsigned l) { return (elem(row + 1, l) + 1) * es; }));
          }
        }
      }
  return steps;
}

Scenario transpose(const std::string& kernel, unsigned rows, unsigned cols, unsigned K, ElemType type) {
  Scenario s;
  s.kernel = kernel;
  s.rows = rows;
  s.cols = cols;
  s.block_rows = K;
  s.type = type;
  s.input = InputKind::ramp;
  s.backend = BackendChoice::cpu;
  resolve_shape(s);
  return s;
}

struct Case {
  std::string kernel;
  unsigned rows, cols, K;
  ElemType type;
};
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.kernel << ' ' << c.rows << 'x' << c.cols << " K=" << c.K << ' ' << to_string(c.type);
}

class TransposeStats : public ::testing::TestWithParam<Case> {};

TEST_P(TransposeStats, EqualTheDefinition) {
  const Case& c = GetParam();
  const Trace t = make_cpu_executor()->run(transpose(c.kernel, c.rows, c.cols, c.K, c.type));
  EXPECT_TRUE(t.correct) << t.result;
  const unsigned dim = c.kernel == "transpose_vectorized" ? 64 : 32;
  EXPECT_EQ(t.grid, ((c.cols + dim - 1) / dim) * ((c.rows + dim - 1) / dim));
  const unsigned es = unsigned(elem_size(c.type));
  const auto e = c.kernel == "transpose_vectorized" ? expected_pairs(c.rows, c.cols, c.K, es)
                                                    : expected(c.kernel, c.rows, c.cols, c.K, es);
  ASSERT_EQ(t.steps.size(), 2u);
  const char* labels[] = {"tile_load", "tile_store"};
  for (std::size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE(labels[i]);
    EXPECT_EQ(t.steps[i].label, labels[i]);
    EXPECT_EQ(t.steps[i].phase, i == 0 ? Phase::tile_load : Phase::tile_store);
    StepStats a = t.steps[i].stats;
    EXPECT_FALSE(a.cycles.has_value());
    EXPECT_EQ(a, e[i]) << "active " << a.active_threads << "/" << e[i].active_threads << " smem ld "
                       << a.smem_load_requests << "/" << e[i].smem_load_requests << " wf " << a.smem_load_wavefronts
                       << "/" << e[i].smem_load_wavefronts << " st " << a.smem_store_requests << "/"
                       << e[i].smem_store_requests << " wf " << a.smem_store_wavefronts << "/"
                       << e[i].smem_store_wavefronts << " gm ld " << a.gmem_load_requests << "/"
                       << e[i].gmem_load_requests << " sec " << a.gmem_load_sectors << "/" << e[i].gmem_load_sectors
                       << " gm st " << a.gmem_store_requests << "/" << e[i].gmem_store_requests << " sec "
                       << a.gmem_store_sectors << "/" << e[i].gmem_store_sectors;
  }
}

std::vector<Case> cases() {
  std::vector<Case> v;
  for (const char* k : kKernels)
    for (auto [rows, cols, K] :
         {std::tuple{64u, 64u, 8u}, {33u, 31u, 1u}, {100u, 257u, 32u}, {1u, 1u, 8u}, {70u, 45u, 4u}, {130u, 66u, 16u}})
      for (ElemType t : {ElemType::float32, ElemType::float64}) v.push_back({k, rows, cols, K, t});
  return v;
}

INSTANTIATE_TEST_SUITE_P(SevenKernels, TransposeStats, ::testing::ValuesIn(cases()), [](const auto& info) {
  const Case& c = info.param;
  return c.kernel + "_" + std::to_string(c.rows) + "x" + std::to_string(c.cols) + "_K" + std::to_string(c.K) + "_" +
         to_string(c.type);
});

const Step& store_step(const Trace& t) { return t.steps.at(1); }

// The figures the lesson is about, on a 64 x 64 float32 matrix (4 tiles, K = 8: 4 requests per warp).
TEST(TransposeFigures, TiledColumnReadIs32WayPaddedAndSwizzledOne) {
  auto ex = make_cpu_executor();
  const Trace tiled = ex->run(transpose("transpose_tiled", 64, 64, 8, ElemType::float32));
  const Trace padded = ex->run(transpose("transpose_padded", 64, 64, 8, ElemType::float32));
  const Trace swizzled = ex->run(transpose("transpose_swizzled", 64, 64, 8, ElemType::float32));
  for (const Trace* t : {&tiled, &padded, &swizzled}) {
    EXPECT_TRUE(t->correct);
    EXPECT_EQ(store_step(*t).stats.smem_load_requests, 4u * 8 * 4);  // 4 blocks x 8 warps x 32/8 rows
    EXPECT_EQ(t->steps[0].stats.smem_store_wavefronts, t->steps[0].stats.smem_store_requests);  // row writes
    EXPECT_EQ(t->steps[0].stats.gmem_load_sectors, 4 * t->steps[0].stats.gmem_load_requests);  // coalesced
    EXPECT_EQ(store_step(*t).stats.gmem_store_sectors, 4 * store_step(*t).stats.gmem_store_requests);
  }
  EXPECT_EQ(store_step(tiled).stats.smem_load_wavefronts, 32 * store_step(tiled).stats.smem_load_requests);
  EXPECT_EQ(store_step(padded).stats.smem_load_wavefronts, store_step(padded).stats.smem_load_requests);
  EXPECT_EQ(store_step(swizzled).stats.smem_load_wavefronts, store_step(swizzled).stats.smem_load_requests);
}

TEST(TransposeFigures, NaiveWritesTouch32SectorsPerRequest) {
  const Trace t = make_cpu_executor()->run(transpose("transpose_naive", 64, 64, 8, ElemType::float32));
  EXPECT_TRUE(t.correct);
  const StepStats& st = store_step(t).stats;
  EXPECT_EQ(st.gmem_store_requests, 4u * 8 * 4);
  EXPECT_EQ(st.gmem_store_sectors, 32 * st.gmem_store_requests);
  EXPECT_EQ(t.steps[0].stats.gmem_load_sectors, 4 * t.steps[0].stats.gmem_load_requests);
  EXPECT_EQ(t.steps[0].stats.smem_store_requests + st.smem_load_requests, 0u);
}

TEST(TransposeFigures, SwizzledIsConflictFreeInBothTypes) {
  for (ElemType type : {ElemType::float32, ElemType::float64}) {
    SCOPED_TRACE(to_string(type));
    const Trace t = make_cpu_executor()->run(transpose("transpose_swizzled", 96, 64, 8, type));
    EXPECT_TRUE(t.correct);
    for (const Step& s : t.steps) {
      EXPECT_EQ(s.stats.smem_load_wavefronts, s.stats.smem_load_ideal) << s.label;
      EXPECT_EQ(s.stats.smem_store_wavefronts, s.stats.smem_store_ideal) << s.label;
    }
    const unsigned per_request = type == ElemType::float64 ? 2 : 1;  // 8-byte: one wavefront per half-warp
    EXPECT_EQ(store_step(t).stats.smem_load_wavefronts, per_request * store_step(t).stats.smem_load_requests);
  }
}

// Pairs and a 64 x 64 tile, float32, 128 x 128 (4 tiles, K = 8): half the global requests of the padded tile, each
// touching 8 sectors (256 bytes), and every shared request at the 8-byte minimum of 2 wavefronts.
TEST(TransposeFigures, VectorizedMovesPairsWithoutConflicts) {
  auto ex = make_cpu_executor();
  const Trace pairs = ex->run(transpose("transpose_vectorized", 128, 128, 8, ElemType::float32));
  const Trace padded = ex->run(transpose("transpose_padded", 128, 128, 8, ElemType::float32));
  ASSERT_TRUE(pairs.correct);
  EXPECT_EQ(pairs.grid, 4u);
  for (const Step& s : pairs.steps) {
    SCOPED_TRACE(s.label);
    const StepStats& st = s.stats;
    EXPECT_EQ(st.gmem_load_requests + st.gmem_store_requests, 4u * 8 * 8);  // 4 blocks x 8 warps x 64/8 rows
    EXPECT_EQ(st.gmem_load_sectors + st.gmem_store_sectors, 8 * (st.gmem_load_requests + st.gmem_store_requests));
    EXPECT_EQ(st.smem_load_requests + st.smem_store_requests, 4u * 8 * 8);
    EXPECT_EQ(st.smem_load_wavefronts, 2 * st.smem_load_requests);
    EXPECT_EQ(st.smem_store_wavefronts, 2 * st.smem_store_requests);
  }
  EXPECT_EQ(2 * pairs.steps[0].stats.gmem_load_requests, padded.steps[0].stats.gmem_load_requests);
  EXPECT_EQ(2 * store_step(pairs).stats.gmem_store_requests, store_step(padded).stats.gmem_store_requests);
}

// The pair tile's proof: writing any row r (lane l: pair l) and reading any pair column p of rows 2l and 2l + 1,
// with any number of leading lanes, costs the ideal under the bank model: 2 wavefronts per full request for
// float32 pairs (8 bytes, per half-warp), 4 for float64 pairs (16 bytes, per quarter-warp). Without the swizzle
// the column read costs 32: every lane's pair in the same banks.
TEST(SwizzleProof, PairTileAtTheIdealForFloat32AndFloat64) {
  for (unsigned es : {4u, 8u}) {
    for (unsigned active = 1; active <= 32; ++active) {
      auto on = [&](unsigned l) { return l < active; };
      for (unsigned i = 0; i < 64; ++i) {
        SCOPED_TRACE("width " + std::to_string(es) + " lanes " + std::to_string(active) + " row/pair " +
                     std::to_string(i));
        const BankCost w = bank_cost(request(2 * es, true, on, [&](unsigned l) { return pair_offset(i, l, es); }));
        EXPECT_EQ(w.wavefronts, w.ideal);
        if (active == 32) { EXPECT_EQ(w.wavefronts, es / 2); }
        if (i >= 32) continue;
        for (unsigned half : {0u, 1u}) {
          const BankCost r =
              bank_cost(request(2 * es, false, on, [&](unsigned l) { return pair_offset(2 * l + half, i, es); }));
          EXPECT_EQ(r.wavefronts, r.ideal);
          if (active == 32) {
            EXPECT_EQ(r.wavefronts, es / 2);
            const auto plain =
                request(2 * es, false, on, [&](unsigned l) { return (std::uint64_t(2 * l + half) * 32 + i) * 2 * es; });
            EXPECT_EQ(wavefronts(plain), 32u);
          }
        }
      }
    }
  }
}

// The proof: for every tile row r (the write in tile_load) and every tile column c (the read in tile_store),
// with any number of leading lanes active (edge tiles), the swizzled layout costs the ideal under the bank
// model: 1 wavefront per request for 4-byte elements, 2 for 8-byte ones (one per half-warp). The unpadded
// layout's column read costs 32 in both types, the padded one the ideal.
TEST(SwizzleProof, EveryRowAndColumnAtTheIdealForFloat32AndFloat64) {
  for (unsigned es : {4u, 8u}) {
    for (unsigned active = 1; active <= 32; ++active) {
      auto on = [&](unsigned l) { return l < active; };
      for (unsigned i = 0; i < 32; ++i) {
        SCOPED_TRACE("width " + std::to_string(es) + " lanes " + std::to_string(active) + " row/col " +
                     std::to_string(i));
        const auto write =
            request(es, true, on, [&](unsigned l) { return tile_offset("transpose_swizzled", i, l, es); });
        const auto read =
            request(es, false, on, [&](unsigned l) { return tile_offset("transpose_swizzled", l, i, es); });
        const BankCost w = bank_cost(write), r = bank_cost(read);
        EXPECT_EQ(w.wavefronts, w.ideal);
        EXPECT_EQ(r.wavefronts, r.ideal);
        if (active == 32) {
          EXPECT_EQ(w.wavefronts, es / 4);
          EXPECT_EQ(r.wavefronts, es / 4);
          const auto plain =
              request(es, false, on, [&](unsigned l) { return tile_offset("transpose_tiled", l, i, es); });
          EXPECT_EQ(wavefronts(plain), 32u);
          const auto pad =
              request(es, false, on, [&](unsigned l) { return tile_offset("transpose_padded", l, i, es); });
          EXPECT_EQ(wavefronts(pad), es / 4);
        }
      }
    }
  }
}

// Every kernel, both types, shapes with partial tiles on either side, several K: bit-exact results.
TEST(TransposeCorrectness, EdgeShapesOnTheEmulator) {
  auto ex = make_cpu_executor();
  RunOptions timed;
  timed.trace = false;
  for (const char* k : kKernels)
    for (ElemType type : {ElemType::float32, ElemType::float64})
      for (auto [rows, cols] : {std::pair{1u, 1u}, {1u, 37u}, {37u, 1u}, {31u, 33u}, {33u, 31u}, {65u, 97u}})
        for (unsigned K : {1u, 2u, 32u}) {
          Scenario s = transpose(k, rows, cols, K, type);
          s.input = InputKind::random;
          const Trace t = ex->run(s, timed);
          EXPECT_TRUE(t.correct) << describe(s) << ": " << t.result;
          const bool copies = std::string(k).rfind("copy", 0) == 0;
          EXPECT_EQ(t.result, std::string(copies ? "copied " : "transposed ") + std::to_string(rows) + "x" +
                                  std::to_string(cols) + ", 0 mismatches");
        }
}

TEST(TransposeCatalog, EntriesAndJson) {
  for (const char* k : kKernels) {
    const KernelRecord* info = find_kernel(k);
    ASSERT_NE(info, nullptr) << k;
    EXPECT_EQ(info->family, Family::transpose);
    EXPECT_NE(info->launcher(Backend::emulator, ElemType::float32), nullptr);
    EXPECT_NE(info->launcher(Backend::emulator, ElemType::float64), nullptr);
    EXPECT_EQ(info->launcher(Backend::emulator, ElemType::int32), nullptr);  // float matrices only
    EXPECT_EQ(info->group, "8 transposes");
    // The course note 002's kernels (their sources); ours says so.
    EXPECT_TRUE(info->sources.substr(0, 3) == "002" || info->sources.substr(0, 4) == "ours") << info->sources;
    EXPECT_EQ(info->source_file, std::string("kernels/transpose/") + k + ".cuh");
  }
  const Trace t = make_cpu_executor()->run(transpose("transpose_padded", 40, 70, 4, ElemType::float64));
  const auto j = stats_json(t);
  EXPECT_EQ(j.at("rows"), 40);
  EXPECT_EQ(j.at("cols"), 70);
  EXPECT_EQ(j.at("block_rows"), 4);
  EXPECT_EQ(j.at("n"), 2800);
  EXPECT_EQ(j.at("block"), 128);
  EXPECT_EQ(j.at("correct"), true);
  EXPECT_EQ(j.at("steps").size(), 2u);
  EXPECT_EQ(j.at("steps")[0].at("phase"), "tile_load");
  EXPECT_NE(stats_text(t).find("40x70"), std::string::npos);
}

TEST(TransposeTraceFile, KeepsTheMatrixShape) {
  const Trace t = make_cpu_executor()->run(transpose("transpose_tiled", 40, 70, 2, ElemType::float32));
  const std::string path = ::testing::TempDir() + "transpose.rltrace";
  save_trace(t, path);
  const Trace u = load_trace(path);
  EXPECT_EQ(u.scenario.rows, 40u);
  EXPECT_EQ(u.scenario.cols, 70u);
  EXPECT_EQ(u.scenario.block_rows, 2u);
  EXPECT_EQ(u.digest, t.digest);
  ASSERT_TRUE(t.shared_arrays && u.shared_arrays);
  EXPECT_EQ(*u.shared_arrays, *t.shared_arrays);
  std::remove(path.c_str());
}

// The tile the view draws is the one the kernel declared (the emulator's record of its probe.shared arrays), and
// every catalog transpose's record says the same of its own tile.
TEST(TransposeTile, EachKernelDeclaresTheTileItsRecordDescribes) {
  auto ex = make_cpu_executor();
  int transposes = 0;
  for (const KernelRecord* k : catalog()) {
    if (k->family != Family::transpose) continue;
    ++transposes;
    for (ElemType type : {ElemType::float32, ElemType::float64}) {
      const Trace t = ex->run(transpose(k->id, 64, 64, 8, type));
      ASSERT_TRUE(t.shared_arrays) << k->id;
      const model::TileShape s = model::tile_shape(t);
      EXPECT_EQ(s.shared, k->tile.shared) << k->id;
      if (!k->tile.shared) {
        EXPECT_TRUE(t.shared_arrays->empty()) << k->id;
        continue;
      }
      EXPECT_EQ(s.dim, k->tile.dim) << k->id;
      EXPECT_EQ(s.pitch, k->tile.pitch) << k->id;
      EXPECT_EQ(s.vector, k->tile.vector) << k->id;
      EXPECT_EQ(s.swizzled, k->tile.swizzled) << k->id;
      EXPECT_EQ(s.decl, k->tile.decl) << k->id;
    }
  }
  EXPECT_GE(transposes, 6);
  const Trace padded = ex->run(transpose("transpose_padded", 64, 64, 8, ElemType::float32));
  ASSERT_EQ(padded.shared_arrays->size(), 1u);
  const SharedDeclaration& d = padded.shared_arrays->front();
  EXPECT_EQ(d.rows, 32u);
  EXPECT_EQ(d.row_length, 33u);
  EXPECT_EQ(d.elem_bytes, 4u);
  EXPECT_FALSE(d.flag);
  EXPECT_FALSE(d.name.empty());
}

// A trace whose kernel declared another tile than its record says is drawn as declared, under the declared name.
TEST(TransposeTile, TheDeclarationWinsOverTheRecord) {
  Trace t = make_cpu_executor()->run(transpose("transpose_tiled", 64, 64, 8, ElemType::float32));
  ASSERT_TRUE(t.shared_arrays && t.shared_arrays->size() == 1u);
  (*t.shared_arrays)[0].row_length = 33;
  (*t.shared_arrays)[0].name = "mine";
  model::TileShape s = model::tile_shape(t);
  EXPECT_TRUE(s.shared);
  EXPECT_EQ(s.dim, 32u);
  EXPECT_EQ(s.pitch, 33u);
  EXPECT_EQ(s.decl, "mine[32][33]");
  // A 1D array of whole rows: its rows' length from its extent.
  (*t.shared_arrays)[0].rows = 32 * 33;
  (*t.shared_arrays)[0].row_length = 0;
  s = model::tile_shape(t);
  EXPECT_EQ(s.pitch, 33u);
  EXPECT_EQ(s.decl, "mine[1056]");
  // Nothing shared: no tile; nothing known (an older file): the record's.
  t.shared_arrays->clear();
  EXPECT_FALSE(model::tile_shape(t).shared);
  t.shared_arrays.reset();
  EXPECT_TRUE(model::tile_shape(t).shared);
  EXPECT_EQ(model::tile_shape(t).pitch, 32u);
}

TEST(TransposeTiming, NeedsACudaDeviceAndRotatesMatrixAndOutput) {
  auto cpu = make_cpu_device();
  const Plan p = make_plan(transpose("copy", 64, 64, 8, ElemType::float32));
  // What bench rotates past the L2 is the matrix and its output.
  EXPECT_EQ(family_runner(p).bytes_per_copy(p), 2u * 64 * 64 * 4);
  EXPECT_DOUBLE_EQ(family_runner(p).device_bytes(p, 3), 3.0 * 2 * 64 * 64 * 4);
  EXPECT_THROW(cpu->time_ms([](int) {}, [](int) {}, 1, 3), ScenarioError);
}

// ---- the command line's refusals (ScenarioArgs, as `redlab stats` parses them)
std::string parse_error(std::function<void(cli::ScenarioArgs&)> set) {
  cli::ScenarioArgs a;
  a.kernel = "transpose_tiled";
  a.backend = "cpu";
  set(a);
  Scenario s;
  return a.parse(s);
}

TEST(TransposeCli, Defaults) {
  cli::ScenarioArgs a;
  a.kernel = "transpose_swizzled";
  Scenario s;
  EXPECT_EQ(a.parse(s), "");
  EXPECT_EQ(s.type, ElemType::float32);
  EXPECT_EQ(s.rows, 1024u);
  EXPECT_EQ(s.cols, 1024u);
  EXPECT_EQ(s.block_rows, 8u);
  EXPECT_EQ(s.n, 1024u * 1024u);
  EXPECT_EQ(s.block, 256u);
  a.type = "float64";
  a.rows = "2^10+3";
  a.cols = "17";
  a.block_rows = "32";
  EXPECT_EQ(a.parse(s), "");
  EXPECT_EQ(s.type, ElemType::float64);
  EXPECT_EQ(s.n, 1027u * 17u);
  EXPECT_EQ(s.block, 1024u);
}

TEST(TransposeCli, BadValuesNameTheOptionAndTheRange) {
  struct Bad {
    std::function<void(cli::ScenarioArgs&)> set;
    std::string needle;
  };
  const Bad bad[] = {
      {[](auto& a) { a.rows = "0"; }, "--rows: '0' is not accepted; use 1..1048576"},
      {[](auto& a) { a.rows = "2000000"; }, "--rows: '2000000' is not accepted; use 1..1048576"},
      {[](auto& a) { a.rows = "ten"; }, "--rows"},
      {[](auto& a) { a.cols = "0"; }, "--cols: '0' is not accepted; use 1..1048576"},
      {[](auto& a) { a.cols = "-5"; }, "--cols"},
      {[](auto& a) {
         a.rows = "65536";
         a.cols = "65536";
       },
       "--rows/--cols"},
      {[](auto& a) { a.block_rows = "3"; }, "--block-rows: '3' is not accepted; use a power of two from 1 to 32"},
      {[](auto& a) { a.block_rows = "64"; }, "--block-rows"},
      {[](auto& a) { a.block_rows = "0"; }, "--block-rows"},
      {[](auto& a) { a.type = "int32"; }, "--type: transposes move float32 or float64"},
      {[](auto& a) { a.n = "4096"; }, "--n: transposes take their size from --rows and --cols"},
      {[](auto& a) { a.block = "256"; }, "--block: transposes use blocks of 32 x K threads"},
      {[](auto& a) {
         a.focus = "4";
         a.rows = "64";
         a.cols = "64";
       },
       "--focus: block 4 does not exist"},
      {[](auto& a) {
         a.kernel = "interleaved";
         a.rows = "64";
       },
       "--rows: only the transposes"},
      {[](auto& a) {
         a.kernel = "interleaved";
         a.block_rows = "8";
       },
       "--block-rows: only the transposes"},
  };
  for (const Bad& b : bad) {
    const std::string err = parse_error(b.set);
    EXPECT_NE(err.find(b.needle), std::string::npos) << "got: " << err << "\nwanted: " << b.needle;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
}

#ifdef REDLAB_BIN
// The same through the executable: exit code 2 and exactly one line on stderr.
TEST(TransposeCli, ExitCodeTwoAndOneLine) {
  for (const char* args : {"--rows 0", "--cols 99999999", "--block-rows 5", "--type int32"}) {
    const std::string cmd = std::string(REDLAB_BIN) + " stats --backend cpu --kernel transpose_tiled " + args +
                            " 2>&1 >/dev/null; echo \"exit=$?\"";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
    EXPECT_NE(out.find("exit=2"), std::string::npos) << args << ": " << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2) << args << ": " << out;  // the error, then exit=2
  }
}
#endif

}  // namespace
