#include "trace_builder.h"

#include <algorithm>
#include <stdexcept>

#include "bank_model.h"

namespace redlab {

void RawTrace::resize(const rec::Layout& l) {
  layout = l;
  lanes.resize(l.lane_records());
  active.resize(l.warp_steps());
  clocks.resize(l.clock_entries());
  steps.resize(std::size_t(l.blocks()) * l.max_steps);
  steps_min.resize(l.blocks());
  steps_max.resize(l.blocks());
  clear();
}

void RawTrace::clear() {
  std::fill(lanes.begin(), lanes.end(), rec::LaneRecord{});
  std::fill(active.begin(), active.end(), 0u);
  std::fill(clocks.begin(), clocks.end(), 0ll);
  std::fill(steps.begin(), steps.end(), rec::StepRecord{});
  std::fill(steps_min.begin(), steps_min.end(), ~0u);
  std::fill(steps_max.begin(), steps_max.end(), 0u);
  overflow = 0;
}

std::string step_label(rec::Phase phase, rec::Label label, std::int32_t param) {
  switch (label) {
    case rec::Label::stride: return "stride " + std::to_string(param);
    case rec::Label::offset:
      return (phase == rec::Phase::warp ? "shuffle offset " : "offset ") + std::to_string(param);
    case rec::Label::warp_sums_store: return "warp sums to shared";
    case rec::Label::warp_sums_load: return "first warp loads warp sums";
    case rec::Label::last_warp: return "last warp: s[tid] + s[tid+32]";
    case rec::Label::grid_stride: return "grid-stride " + std::to_string(param);
    case rec::Label::to_shared: return "running value to shared";
    case rec::Label::warp_reduce: return "warp reduce";
    case rec::Label::partials_load: return "last block loads the partials";
    case rec::Label::tail: return "tail (n mod vector width)";
    case rec::Label::none: break;
  }
  return to_string(phase);
}

TraceBuilder::TraceBuilder(const Scenario& s, const KernelInfo& k, std::uint32_t grid, bool measured_clocks)
    : kernel_(k), measured_clocks_(measured_clocks) {
  trace_.scenario = s;
  trace_.grid = grid;
  trace_.block = s.block;
  trace_.warps_per_block = s.block / 32;
  trace_.elems_per_block = elems_per_block(k, s);
  shape_ = trace_shape(k, s);
  steps_ = shape_.steps;
  trace_.steps.resize(steps_);
  cycles_.resize(steps_);
  for (auto b : s.focus_blocks) {
    FocusBlock f;
    f.block = b;
    f.steps.resize(steps_);
    trace_.focus.push_back(std::move(f));
  }
}

rec::Layout TraceBuilder::layout(std::uint32_t lo, std::uint32_t hi) const {
  rec::Layout l;
  l.block_lo = lo;
  l.block_hi = hi;
  l.warps = trace_.warps_per_block;
  l.max_steps = steps_;
  for (int c = 0; c < rec::kClasses; ++c) l.slots[c] = shape_.slots[c];
  l.finish_slots();
  return l;
}

std::uint32_t TraceBuilder::blocks_per_chunk(std::size_t budget) const {
  const std::uint64_t per_block = layout(0, 1).bytes();
  return std::uint32_t(std::clamp<std::uint64_t>(budget / per_block, 1, trace_.grid));
}

namespace {
void mix(std::uint64_t& h, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) {
    h ^= (v >> (8 * i)) & 0xff;
    h *= 1099511628211ull;
  }
}
}  // namespace

void TraceBuilder::add(const RawTrace& raw) {
  const rec::Layout& l = raw.layout;
  if (l.block_lo != next_block_) throw std::logic_error("trace chunks out of order");
  if (raw.overflow)
    throw std::runtime_error("trace: the kernel recorded more steps or requests than the catalog allows for " +
                             kernel_.id + " (a probe rule is broken)");
  const unsigned warps = l.warps;
  for (std::uint32_t b = 0; b < l.blocks(); ++b) {
    const std::uint32_t block = l.block_lo + b;
    if (raw.steps_min[b] != raw.steps_max[b] || raw.steps_max[b] != steps_)
      throw std::runtime_error("trace: block " + std::to_string(block) + " recorded " +
                               std::to_string(raw.steps_min[b]) + ".." + std::to_string(raw.steps_max[b]) +
                               " steps per thread, expected " + std::to_string(steps_) +
                               " for every thread (steps must be block-uniform)");
    FocusBlock* focus = nullptr;
    for (auto& f : trace_.focus)
      if (f.block == block) focus = &f;
    for (unsigned s = 0; s < steps_; ++s) {
      const rec::StepRecord& sr = raw.steps[std::size_t(b) * l.max_steps + s];
      Step& step = trace_.steps[s];
      if (block == 0) {
        step.phase = rec::Phase(sr.phase);
        step.label_kind = rec::Label(sr.label);
        step.param = sr.param;
        step.line = sr.line;
        step.label = step_label(step.phase, step.label_kind, step.param);
      } else if (step.phase != rec::Phase(sr.phase) || step.param != sr.param || step.line != sr.line) {
        throw std::runtime_error("trace: block " + std::to_string(block) + " step " + std::to_string(s) +
                                 " differs from block 0's (steps must be the same in every block)");
      }
      StepStats& st = step.stats;
      if (focus) focus->steps[s].resize(warps);
      for (unsigned w = 0; w < warps; ++w) {
        const std::uint64_t ws = (std::uint64_t(b) * l.max_steps + s) * warps + w;
        const std::uint32_t active = raw.active[ws];
        const unsigned count = unsigned(__builtin_popcount(active));
        st.active_threads += count;
        st.active_warps += count ? 1 : 0;
        st.divergent_warps += count && count < 32 ? 1 : 0;
        mix(hash_, (std::uint64_t(block) << 32) ^ (std::uint64_t(s) << 8) ^ w);
        mix(hash_, active);
        if (measured_clocks_) {
          const long long t0 = raw.clocks[(std::uint64_t(b) * (l.max_steps + 1) + s) * warps + w];
          const long long t1 = raw.clocks[(std::uint64_t(b) * (l.max_steps + 1) + s + 1) * warps + w];
          if (t0 && t1 && t1 >= t0) cycles_[s].push_back(t1 - t0);
        }
        WarpStep* detail = nullptr;
        if (focus) {
          detail = &focus->steps[s][w];
          detail->warp = w;
          detail->active = active;
          detail->accesses.clear();
        }
        std::vector<WarpAccess> accesses;
        for (int c = 0; c < rec::kClasses; ++c) {
          for (unsigned k = 0; k < l.slots[c]; ++k) {
            const rec::LaneRecord* lanes = &raw.lanes[(ws * l.slots_total + l.slot_base[c] + k) * 32];
            WarpAccess a;
            for (unsigned lane = 0; lane < 32; ++lane) {
              if (!(lanes[lane].meta & rec::kWritten)) continue;
              a.mask |= 1u << lane;
              a.addr[lane] = lanes[lane].addr;
              a.bits[lane] = lanes[lane].bits;
              a.width = std::uint8_t(rec::meta_width(lanes[lane].meta));
              a.buffer = std::uint8_t(rec::meta_buffer(lanes[lane].meta));
            }
            if (!a.mask) continue;
            const auto cls = rec::Class(c);
            a.space = cls == rec::Class::reg ? Space::reg
                      : (cls == rec::Class::shared_load || cls == rec::Class::shared_store) ? Space::shared
                                                                                            : Space::global;
            a.kind = cls == rec::Class::reg ? AccessKind::value
                     : (cls == rec::Class::shared_load || cls == rec::Class::global_load) ? AccessKind::load
                                                                                          : AccessKind::store;
            WarpAddresses wa;
            wa.mask = a.mask;
            wa.addr = a.addr;
            wa.width = a.width;
            wa.store = a.kind == AccessKind::store;
            if (a.space == Space::shared) {
              const BankCost cost = bank_cost(wa);
              a.wavefronts = cost.wavefronts;
              a.ideal = cost.ideal;
            } else if (a.space == Space::global) {
              a.sectors = sectors(wa);
            }
            accesses.push_back(a);
          }
        }
        // Canonical order: class (space, kind), then the first active lane's address. Two compilers may
        // evaluate op(s[a], s[b])'s loads in either order; the trace must not depend on that.
        std::stable_sort(accesses.begin(), accesses.end(), [](const WarpAccess& x, const WarpAccess& y) {
          if (x.space != y.space) return x.space < y.space;
          if (x.kind != y.kind) return x.kind < y.kind;
          const unsigned lx = unsigned(__builtin_ctz(x.mask)), ly = unsigned(__builtin_ctz(y.mask));
          return x.addr[lx] < y.addr[ly];
        });
        for (auto& a : accesses) {
          mix(hash_, (std::uint64_t(a.space) << 40) ^ (std::uint64_t(a.kind) << 32) ^ a.mask);
          for (unsigned lane = 0; lane < 32; ++lane) {
            if (!(a.mask >> lane & 1u)) continue;
            mix(hash_, a.addr[lane]);
            mix(hash_, a.bits[lane]);
          }
          if (a.space == Space::shared) {
            if (a.kind == AccessKind::load) {
              ++st.smem_load_requests;
              st.smem_load_wavefronts += a.wavefronts;
            } else {
              ++st.smem_store_requests;
              st.smem_store_wavefronts += a.wavefronts;
            }
            (a.kind == AccessKind::load ? st.smem_load_ideal : st.smem_store_ideal) += a.ideal;
          } else if (a.space == Space::global) {
            if (a.kind == AccessKind::load) {
              ++st.gmem_load_requests;
              st.gmem_load_sectors += a.sectors;
            } else {
              ++st.gmem_store_requests;
              st.gmem_store_sectors += a.sectors;
            }
          }
        }
        if (detail) detail->accesses = std::move(accesses);
      }
    }
    if (focus && measured_clocks_) {
      for (unsigned s = 0; s < steps_; ++s)
        for (unsigned w = 0; w < warps; ++w) {
          const long long t0 = raw.clocks[(std::uint64_t(b) * (l.max_steps + 1) + s) * warps + w];
          const long long t1 = raw.clocks[(std::uint64_t(b) * (l.max_steps + 1) + s + 1) * warps + w];
          focus->steps[s][w].cycles = t0 && t1 && t1 >= t0 ? t1 - t0 : -1;
        }
    }
  }
  next_block_ = l.block_hi;
  trace_.traced_blocks = next_block_;
  trace_.trace_bytes_peak = std::max<std::uint64_t>(trace_.trace_bytes_peak, l.bytes());
  ++trace_.trace_chunks;
}

Trace TraceBuilder::finish() {
  if (next_block_ != trace_.grid)
    throw std::logic_error("trace: " + std::to_string(next_block_) + " of " + std::to_string(trace_.grid) +
                           " blocks decoded");
  for (unsigned s = 0; s < steps_; ++s) {
    auto& c = cycles_[s];
    if (!measured_clocks_ || c.empty()) continue;
    std::nth_element(c.begin(), c.begin() + c.size() / 2, c.end());
    double median = double(c[c.size() / 2]);
    if (c.size() % 2 == 0) {
      const auto lower = *std::max_element(c.begin(), c.begin() + c.size() / 2);
      median = (median + double(lower)) / 2;
    }
    trace_.steps[s].stats.cycles = median;
  }
  trace_.digest = hash_;
  return std::move(trace_);
}

}  // namespace redlab
