// Per-step statistics of the six foundation kernels, on the CPU emulator, against figures computed here
// from each kernel's definition: guards give the active threads, index formulas give
// the addresses, the bank model (tested separately against the H200) gives wavefronts.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/bank_model.h"
#include "core/stats_json.h"
#include "exec/executor.h"

using namespace redlab;

namespace {

struct Expect {
  std::vector<StepStats> steps;
  std::vector<std::string> labels;
};

// Accumulates one warp-level request from a per-lane predicate and address function.
struct Warp {
  unsigned es;
  void shared(StepStats& st, bool store, const std::function<bool(unsigned)>& on,
              const std::function<std::uint64_t(unsigned)>& addr) const {
    WarpAddresses a;
    a.width = es;
    a.store = store;
    for (unsigned l = 0; l < 32; ++l)
      if (on(l)) {
        a.mask |= 1u << l;
        a.addr[l] = std::uint32_t(addr(l));
      }
    if (!a.mask) return;
    const BankCost c = bank_cost(a);
    if (store) {
      ++st.smem_store_requests;
      st.smem_store_wavefronts += c.wavefronts;
      st.smem_store_ideal += c.ideal;
    } else {
      ++st.smem_load_requests;
      st.smem_load_wavefronts += c.wavefronts;
      st.smem_load_ideal += c.ideal;
    }
  }
  void global(StepStats& st, bool store, const std::function<bool(unsigned)>& on,
              const std::function<std::uint64_t(unsigned)>& addr) const {
    WarpAddresses a;
    a.width = es;
    for (unsigned l = 0; l < 32; ++l)
      if (on(l)) {
        a.mask |= 1u << l;
        a.addr[l] = std::uint32_t(addr(l));
      }
    if (!a.mask) return;
    (store ? st.gmem_store_requests : st.gmem_load_requests) += 1;
    (store ? st.gmem_store_sectors : st.gmem_load_sectors) += sectors(a);
  }
  // A global atomic (a block's result combined into out[0]): its own kind, never a store.
  void global_atomic(StepStats& st, const std::function<bool(unsigned)>& on,
                     const std::function<std::uint64_t(unsigned)>& addr) const {
    StepStats as_store;
    global(as_store, true, on, addr);
    st.gmem_atomic_requests += as_store.gmem_store_requests;
    st.gmem_atomic_sectors += as_store.gmem_store_sectors;
  }
  static void threads(StepStats& st, const std::function<bool(unsigned)>& on) {
    unsigned c = 0;
    for (unsigned l = 0; l < 32; ++l) c += on(l);
    st.active_threads += c;
    st.active_warps += c > 0;
    st.divergent_warps += c > 0 && c < 32;
  }
};

// neighbored_modulo, neighbored_strided, interleaved: load s[tid], tree over s, store s[0].
Expect shared_tree(const std::string& kernel, std::uint64_t n, unsigned B, unsigned es, bool atomic) {
  const unsigned grid = unsigned((n + B - 1) / B), W = B / 32;
  Warp w{es};
  Expect e;
  StepStats load;
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned wi = 0; wi < W; ++wi) {
      auto tid = [&](unsigned l) { return wi * 32 + l; };
      Warp::threads(load, [](unsigned) { return true; });
      w.global(
          load, false, [&](unsigned l) { return std::uint64_t(b) * B + tid(l) < n; },
          [&](unsigned l) { return (std::uint64_t(b) * B + tid(l)) * es; });
      w.shared(
          load, true, [](unsigned) { return true; }, [&](unsigned l) { return tid(l) * es; });
    }
  e.steps.push_back(load);
  e.labels.push_back("load");
  std::vector<unsigned> params;
  if (kernel == "interleaved")
    for (unsigned o = B / 2; o > 0; o /= 2) params.push_back(o);
  else
    for (unsigned s = 1; s < B; s *= 2) params.push_back(s);
  for (unsigned p : params) {
    StepStats st;
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned wi = 0; wi < W; ++wi) {
        auto tid = [&](unsigned l) { return wi * 32 + l; };
        std::function<bool(unsigned)> on;
        std::function<std::uint64_t(unsigned)> a, partner;
        if (kernel == "neighbored_modulo") {
          on = [&](unsigned l) { return tid(l) % (2 * p) == 0; };
          a = [&](unsigned l) { return std::uint64_t(tid(l)) * es; };
        } else if (kernel == "neighbored_strided") {
          on = [&](unsigned l) { return 2ull * p * tid(l) < B; };
          a = [&](unsigned l) { return 2ull * p * tid(l) * es; };
        } else {
          on = [&](unsigned l) { return tid(l) < p; };
          a = [&](unsigned l) { return std::uint64_t(tid(l)) * es; };
        }
        partner = [&](unsigned l) { return a(l) + std::uint64_t(p) * es; };
        Warp::threads(st, on);
        w.shared(st, false, on, a);
        w.shared(st, false, on, partner);
        w.shared(st, true, on, a);
      }
    e.steps.push_back(st);
    e.labels.push_back((kernel == "interleaved" ? "offset " : "stride ") + std::to_string(p));
  }
  StepStats store;
  for (unsigned b = 0; b < grid; ++b) {
    auto first = [](unsigned l) { return l == 0; };
    Warp::threads(store, first);
    for (unsigned wi = 1; wi < W; ++wi) Warp::threads(store, [](unsigned) { return false; });
    w.shared(store, false, first, [](unsigned) { return 0ull; });
    if (atomic)
      w.global_atomic(store, first, [&](unsigned) { return 0ull; });
    else
      w.global(store, true, first, [&](unsigned) { return std::uint64_t(b) * es; });
  }
  e.steps.push_back(store);
  e.labels.push_back("store");
  return e;
}

// pmpp_simple and pmpp_convergent: the tree in place over x (2B elements per block), then the store.
Expect pmpp(const std::string& kernel, std::uint64_t n, unsigned B, unsigned es) {
  const unsigned grid = unsigned((n + 2ull * B - 1) / (2ull * B)), W = B / 32;
  Warp w{es};
  Expect e;
  std::vector<unsigned> strides;
  if (kernel == "pmpp_simple")
    for (unsigned s = 1; s <= B; s *= 2) strides.push_back(s);
  else
    for (unsigned s = B; s > 0; s /= 2) strides.push_back(s);
  for (unsigned s : strides) {
    StepStats st;
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned wi = 0; wi < W; ++wi) {
        auto tid = [&](unsigned l) { return wi * 32 + l; };
        const std::uint64_t segment = 2ull * B * b;
        std::function<bool(unsigned)> on;
        std::function<std::uint64_t(unsigned)> i;
        if (kernel == "pmpp_simple") {
          on = [&](unsigned l) { return tid(l) % s == 0; };
          i = [&](unsigned l) { return segment + 2ull * tid(l); };
        } else {
          on = [&](unsigned l) { return tid(l) < s; };
          i = [&](unsigned l) { return segment + tid(l); };
        }
        Warp::threads(st, on);
        w.global(st, false, on, [&](unsigned l) { return i(l) * es; });
        w.global(st, false, on, [&](unsigned l) { return (i(l) + s) * es; });
        w.global(st, true, on, [&](unsigned l) { return i(l) * es; });
      }
    e.steps.push_back(st);
    e.labels.push_back("stride " + std::to_string(s));
  }
  StepStats store;
  for (unsigned b = 0; b < grid; ++b) {
    auto first = [](unsigned l) { return l == 0; };
    Warp::threads(store, first);
    w.global(store, false, first, [&](unsigned) { return 2ull * B * b * es; });
    w.global(store, true, first, [&](unsigned) { return std::uint64_t(b) * es; });
  }
  e.steps.push_back(store);
  e.labels.push_back("store");
  return e;
}

// warp_shuffle: load into registers, five shuffle levels, lane 0 -> warp_sums, the first warp reduces.
Expect warp_shuffle(std::uint64_t n, unsigned B, unsigned es) {
  const unsigned grid = unsigned((n + B - 1) / B), W = B / 32;
  Warp w{es};
  Expect e;
  auto all = [](unsigned) { return true; };
  StepStats load;
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned wi = 0; wi < W; ++wi) {
      Warp::threads(load, all);
      w.global(
          load, false, [&](unsigned l) { return std::uint64_t(b) * B + wi * 32 + l < n; },
          [&](unsigned l) { return (std::uint64_t(b) * B + wi * 32 + l) * es; });
    }
  e.steps.push_back(load);
  e.labels.push_back("load");
  for (unsigned o = 16; o > 0; o /= 2) {
    StepStats st;
    for (unsigned k = 0; k < grid * W; ++k) Warp::threads(st, all);
    e.steps.push_back(st);
    e.labels.push_back("shuffle offset " + std::to_string(o));
  }
  StepStats sums;
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned wi = 0; wi < W; ++wi) {
      auto first = [](unsigned l) { return l == 0; };
      Warp::threads(sums, first);
      w.shared(sums, true, first, [&](unsigned) { return std::uint64_t(wi) * es; });
    }
  e.steps.push_back(sums);
  e.labels.push_back("warp sums to shared");
  StepStats gather;
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned wi = 0; wi < W; ++wi) {
      Warp::threads(gather, [&](unsigned) { return wi == 0; });
      if (wi == 0)
        w.shared(
            gather, false, [&](unsigned l) { return l < W; }, [&](unsigned l) { return l * es; });
    }
  e.steps.push_back(gather);
  e.labels.push_back("first warp loads warp sums");
  for (unsigned o = W / 2; o > 0; o /= 2) {
    StepStats st;
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned wi = 0; wi < W; ++wi) Warp::threads(st, [&](unsigned) { return wi == 0; });
    e.steps.push_back(st);
    e.labels.push_back("shuffle offset " + std::to_string(o));
  }
  StepStats store;
  for (unsigned b = 0; b < grid; ++b) {
    auto first = [](unsigned l) { return l == 0; };
    Warp::threads(store, first);
    for (unsigned wi = 1; wi < W; ++wi) Warp::threads(store, [](unsigned) { return false; });
    w.global(store, true, first, [&](unsigned) { return std::uint64_t(b) * es; });
  }
  e.steps.push_back(store);
  e.labels.push_back("store");
  return e;
}

// load_add, atomic_segmented, coarsened, unroll_last_warp, unroll_complete: each thread combines `loads`
// elements j_k = per_block*b + tid + k*B on the way into s[tid]; then a tree over s.
Expect loading_tree(const std::string& kernel, std::uint64_t n, unsigned B, unsigned es, unsigned loads) {
  const std::uint64_t per_block = std::uint64_t(loads) * B;
  const unsigned grid = unsigned((n + per_block - 1) / per_block), W = B / 32;
  const bool atomic = kernel == "atomic_segmented" || kernel == "coarsened";
  const bool last_warp = kernel == "unroll_last_warp" || kernel == "unroll_complete";
  Warp w{es};
  Expect e;
  auto all = [](unsigned) { return true; };
  StepStats load;
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned wi = 0; wi < W; ++wi) {
      Warp::threads(load, all);
      for (unsigned k = 0; k < loads; ++k) {
        auto j = [&](unsigned l) { return per_block * b + wi * 32 + l + std::uint64_t(k) * B; };
        w.global(
            load, false, [&](unsigned l) { return j(l) < n; }, [&](unsigned l) { return j(l) * es; });
      }
      w.shared(load, true, all, [&](unsigned l) { return (wi * 32 + l) * es; });
    }
  e.steps.push_back(load);
  e.labels.push_back("load");
  const char* word = kernel == "load_add" || last_warp ? "offset " : "stride ";
  for (unsigned o = B / 2; o > (last_warp ? 32u : 0u); o /= 2) {
    StepStats st;
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned wi = 0; wi < W; ++wi) {
        auto on = [&](unsigned l) { return wi * 32 + l < o; };
        auto a = [&](unsigned l) { return std::uint64_t(wi * 32 + l) * es; };
        Warp::threads(st, on);
        w.shared(st, false, on, a);
        w.shared(st, false, on, [&](unsigned l) { return a(l) + std::uint64_t(o) * es; });
        w.shared(st, true, on, a);
      }
    e.steps.push_back(st);
    e.labels.push_back(word + std::to_string(o));
  }
  if (last_warp) {
    StepStats lw;
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned wi = 0; wi < W; ++wi) {
        Warp::threads(lw, [&](unsigned) { return wi == 0; });
        if (wi != 0) continue;
        w.shared(lw, false, all, [&](unsigned l) { return std::uint64_t(l) * es; });
        if (B >= 64) w.shared(lw, false, all, [&](unsigned l) { return std::uint64_t(l + 32) * es; });
      }
    e.steps.push_back(lw);
    e.labels.push_back("last warp: s[tid] + s[tid+32]");
    for (unsigned o = 16; o > 0; o /= 2) {
      StepStats st;
      for (unsigned b = 0; b < grid; ++b)
        for (unsigned wi = 0; wi < W; ++wi) Warp::threads(st, [&](unsigned) { return wi == 0; });
      e.steps.push_back(st);
      e.labels.push_back("shuffle offset " + std::to_string(o));
    }
  }
  StepStats store;
  for (unsigned b = 0; b < grid; ++b) {
    auto first = [](unsigned l) { return l == 0; };
    Warp::threads(store, first);
    if (!last_warp) w.shared(store, false, first, [](unsigned) { return 0ull; });
    if (atomic)
      w.global_atomic(store, first, [&](unsigned) { return 0ull; });
    else
      w.global(store, true, first, [&](unsigned) { return std::uint64_t(b) * es; });
  }
  e.steps.push_back(store);
  e.labels.push_back("store");
  return e;
}

// global_inplace: the interleaved tree in place over x (B elements per block) in global memory.
Expect global_inplace(std::uint64_t n, unsigned B, unsigned es) {
  const unsigned grid = unsigned((n + B - 1) / B), W = B / 32;
  Warp w{es};
  Expect e;
  for (unsigned o = B / 2; o > 0; o /= 2) {
    StepStats st;
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned wi = 0; wi < W; ++wi) {
        auto on = [&](unsigned l) { return wi * 32 + l < o; };
        auto a = [&](unsigned l) { return (std::uint64_t(b) * B + wi * 32 + l) * es; };
        Warp::threads(st, on);
        w.global(st, false, on, a);
        w.global(st, false, on, [&](unsigned l) { return a(l) + std::uint64_t(o) * es; });
        w.global(st, true, on, a);
      }
    e.steps.push_back(st);
    e.labels.push_back("offset " + std::to_string(o));
  }
  StepStats store;
  for (unsigned b = 0; b < grid; ++b) {
    auto first = [](unsigned l) { return l == 0; };
    Warp::threads(store, first);
    w.global(store, false, first, [&](unsigned) { return std::uint64_t(b) * B * es; });
    w.global(store, true, first, [&](unsigned) { return std::uint64_t(b) * es; });
  }
  e.steps.push_back(store);
  e.labels.push_back("store");
  return e;
}

struct Case {
  std::string kernel;
  std::uint64_t n;
  unsigned block;
  ElemType type;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.kernel << " n=" << c.n << " block=" << c.block << " " << to_string(c.type);
}

class KernelStats : public ::testing::TestWithParam<Case> {};

TEST_P(KernelStats, EqualTheDefinition) {
  const Case& c = GetParam();
  Scenario s;
  s.kernel = c.kernel;
  s.n = c.n;
  s.block = c.block;
  s.type = c.type;
  s.op = OpKind::max;
  s.input = InputKind::ramp;
  s.backend = BackendChoice::cpu;
  const Trace t = make_cpu_executor()->run(s);
  EXPECT_TRUE(t.correct) << t.result << " vs " << t.reference;
  const unsigned es = unsigned(elem_size(c.type));
  Expect e;
  if (c.kernel.rfind("pmpp", 0) == 0)
    e = pmpp(c.kernel, c.n, c.block, es);
  else if (c.kernel == "warp_shuffle")
    e = warp_shuffle(c.n, c.block, es);
  else if (c.kernel == "global_inplace")
    e = global_inplace(c.n, c.block, es);
  else if (c.kernel == "coarsened")
    e = loading_tree(c.kernel, c.n, c.block, es, 2 * 4);  // --coarse 4 (the default)
  else if (c.kernel == "load_add" || c.kernel == "atomic_segmented" || c.kernel == "unroll_last_warp" ||
           c.kernel == "unroll_complete")
    e = loading_tree(c.kernel, c.n, c.block, es, 2);
  else
    e = shared_tree(c.kernel, c.n, c.block, es, false);
  ASSERT_EQ(t.steps.size(), e.steps.size());
  for (std::size_t i = 0; i < e.steps.size(); ++i) {
    SCOPED_TRACE("step " + std::to_string(i) + " " + e.labels[i]);
    EXPECT_EQ(t.steps[i].label, e.labels[i]);
    const StepStats& a = t.steps[i].stats;
    const StepStats& x = e.steps[i];
    EXPECT_EQ(a.active_threads, x.active_threads);
    EXPECT_EQ(a.active_warps, x.active_warps);
    EXPECT_EQ(a.divergent_warps, x.divergent_warps);
    EXPECT_EQ(a.smem_load_requests, x.smem_load_requests);
    EXPECT_EQ(a.smem_load_wavefronts, x.smem_load_wavefronts);
    EXPECT_EQ(a.smem_load_ideal, x.smem_load_ideal);
    EXPECT_EQ(a.smem_store_requests, x.smem_store_requests);
    EXPECT_EQ(a.smem_store_wavefronts, x.smem_store_wavefronts);
    EXPECT_EQ(a.gmem_load_requests, x.gmem_load_requests);
    EXPECT_EQ(a.gmem_load_sectors, x.gmem_load_sectors);
    EXPECT_EQ(a.gmem_store_requests, x.gmem_store_requests);
    EXPECT_EQ(a.gmem_store_sectors, x.gmem_store_sectors);
    EXPECT_FALSE(a.cycles.has_value()) << "the emulator must not report cycles";
  }
}

std::vector<Case> cases() {
  std::vector<Case> v;
  for (const char* k :
       {"neighbored_modulo", "neighbored_strided", "interleaved", "pmpp_simple", "pmpp_convergent", "warp_shuffle",
        "global_inplace", "load_add", "atomic_segmented", "coarsened", "unroll_last_warp", "unroll_complete"})
    for (auto [n, b] : {std::pair<std::uint64_t, unsigned>{256, 128}, {1000, 32}, {4097, 256}, {3000, 1024}})
      for (ElemType t : {ElemType::int32, ElemType::float64}) v.push_back({k, n, b, t});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Reductions, KernelStats, ::testing::ValuesIn(cases()), [](const auto& info) {
  return info.param.kernel + "_n" + std::to_string(info.param.n) + "_b" + std::to_string(info.param.block) + "_" +
         to_string(info.param.type);
});

Trace run_cpu(const std::string& kernel, std::uint64_t n, unsigned block) {
  Scenario s;
  s.kernel = kernel;
  s.n = n;
  s.block = block;
  s.backend = BackendChoice::cpu;
  return make_cpu_executor()->run(s);
}

TEST(SimdEfficiency, PmppExactFigures) {
  const Summary conv = summarize(run_cpu("pmpp_convergent", 256, 128));
  ASSERT_TRUE(conv.tree_simd_efficiency);
  EXPECT_EQ(conv.tree_active_threads, 255u);
  EXPECT_EQ(conv.tree_active_warps, 12u);
  EXPECT_NEAR(*conv.tree_simd_efficiency, 0.6641, 5e-5);
  const Trace simple = run_cpu("pmpp_simple", 256, 128);
  const Summary s = summarize(simple);
  EXPECT_EQ(s.tree_active_threads, 255u);
  EXPECT_EQ(s.tree_active_warps, 27u);
  EXPECT_NEAR(*s.tree_simd_efficiency, 0.2951, 5e-5);
  const std::string note = simd_efficiency_note(simple);
  EXPECT_NE(note.find("255/864"), std::string::npos) << note;
  EXPECT_NE(note.find("35%"), std::string::npos) << note;
}

TEST(Finish, AtomicStoreIsOneRequestPerBlockAtOffsetZero) {
  Scenario s;
  s.kernel = "interleaved";
  s.n = 5000;
  s.block = 256;
  s.finish = Finish::atomic;
  s.backend = BackendChoice::cpu;
  const Trace t = make_cpu_executor()->run(s);
  EXPECT_TRUE(t.correct);
  const Expect e = shared_tree("interleaved", 5000, 256, 4, true);
  EXPECT_EQ(t.steps.back().stats.gmem_store_requests, e.steps.back().gmem_store_requests);
  EXPECT_EQ(t.steps.back().stats.gmem_store_sectors, e.steps.back().gmem_store_sectors);
  ASSERT_EQ(t.passes.size(), 1u);
}

}  // namespace
