#include "core/trace_builder.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "kernels/step_label.h"
#include "kernels/trace_analysis.h"

namespace redlab {

void RawTrace::resize(const rec::Layout& l) {
  layout = l;
  lanes.resize(l.lane_records());
  active.resize(l.warp_steps());
  clocks.resize(l.clock_entries());
  steps.resize(std::size_t(l.rows()) * l.max_steps);
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
  last_block = ~0u;
}

std::string step_label(rec::Phase phase, rec::Label label, std::int32_t param) {
  return rec::describe_step(phase, label, param);
}

// A step as its probe.step recorded it: phase, label, parameter, line, and its name.
static void name_step(Step& step, const rec::StepRecord& sr) {
  step.phase = rec::Phase(sr.phase);
  step.label_kind = rec::Label(sr.label);
  step.param = sr.param;
  step.line = sr.line;
  step.label = step_label(step.phase, step.label_kind, step.param);
}

std::uint64_t CycleCounts::smallest(std::uint64_t k) {
  std::uint64_t below = 0;
  for (std::uint32_t d = 0; d < counts_.size(); ++d) {
    below += counts_[d];
    if (k < below) return d;
  }
  const auto kth = longer_.begin() + std::ptrdiff_t(k - below);
  std::nth_element(longer_.begin(), kth, longer_.end());
  return *kth;
}

std::optional<double> CycleCounts::median() {
  if (total_ == 0) return std::nullopt;
  const double upper = double(smallest(total_ / 2));
  return total_ % 2 ? upper : (upper + double(smallest(total_ / 2 - 1))) / 2;
}

TraceBuilder::TraceBuilder(const Plan& p, bool measured_clocks) : plan_(p), measured_clocks_(measured_clocks) {
  const Scenario& s = p.scenario;
  trace_.scenario = s;
  trace_.grid = p.grid;
  trace_.block = s.block;
  trace_.warps_per_block = s.block / 32;
  trace_.elems_per_block = p.elems_per_block;
  shape_ = p.trace;
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
  l.max_steps = shape_.steps;  // the room; steps_ is what block 0 recorded
  for (int c = 0; c < rec::kClasses; ++c) l.slots[c] = shape_.slots[c];
  l.finish_slots();
  l.launch_row = plan_.kernel->single_pass ? 1 : 0;
  return l;
}

std::uint32_t TraceBuilder::blocks_per_chunk(std::size_t budget) const {
  // bytes(k blocks) = fixed + k * per_block (the fixed part: step sums, the launch row, flags).
  const std::uint64_t one = layout(0, 1).bytes(), per_block = layout(0, 2).bytes() - one;
  const std::uint64_t fixed = one - per_block;
  std::uint64_t fit = budget > fixed ? (budget - fixed) / per_block : 0;
  // A cluster kernel's chunk holds whole clusters: the emulator runs a cluster's blocks together (its grid is whole
  // clusters).
  if (plan_.kernel->clustered) {
    const std::uint64_t c = std::max(1u, plan_.scenario.cluster);
    fit = std::max(c, fit / c * c);
  }
  return std::uint32_t(std::clamp<std::uint64_t>(fit, 1, trace_.grid));
}

rec::Layout one_block_layout(const rec::Layout& l, std::uint32_t block) {
  rec::Layout one = l;
  one.block_lo = block;
  one.block_hi = block + 1;
  one.launch_row = 0;
  return one;
}

ChunkSummary summarise(const RawTrace& raw) {
  const rec::Layout& l = raw.layout;
  ChunkSummary c;
  c.layout = l;
  c.sums.assign(std::size_t(l.max_steps) * rec::kSums, 0);
  c.block_hash.resize(l.blocks());
  std::vector<unsigned long long> warp_hash(l.warp_steps());
  rec::Buffers buffers;
  buffers.lanes = const_cast<rec::LaneRecord*>(raw.lanes.data());
  buffers.active = const_cast<std::uint32_t*>(raw.active.data());
  rec::analyse_chunk_on_host(l, buffers, {c.sums.data(), warp_hash.data(), c.block_hash.data()});
  c.steps = raw.steps;
  c.steps_min = raw.steps_min;
  c.steps_max = raw.steps_max;
  c.clocks = raw.clocks;
  c.overflow = raw.overflow;
  c.last_block = raw.last_block;
  return c;
}

bool TraceBuilder::grow(std::size_t budget) {
  TraceShape room = plan_.trace;
  if (room.steps >= kMaxRoomSteps) return false;
  room.steps = std::min(kMaxRoomSteps, std::max(1u, room.steps * 2));
  for (std::uint32_t& n : room.slots) n = std::min(rec::kMaxSlots, std::max(1u, n * 2));
  Plan p = plan_;
  p.trace = room;
  TraceBuilder larger(p, measured_clocks_);
  if (larger.layout(0, 1).bytes() > budget) return false;
  *this = std::move(larger);
  return true;
}

void TraceBuilder::add(const ChunkSummary& c) {
  const rec::Layout& l = c.layout;
  if (l.block_lo != next_block_) throw std::logic_error("trace chunks out of order");
  if (c.overflow)
    throw TraceRoomShort("trace: " + plan_.kernel->id + " recorded more than " + std::to_string(l.max_steps) +
                         " steps, or more requests of a kind in a step than its trace had room for");
  // The steps are block 0's count (the room may be larger); every other block must make as many.
  if (l.block_lo == 0 && l.blocks() > 0 && c.steps_min[0] == c.steps_max[0] && c.steps_max[0] >= 1 &&
      c.steps_max[0] < steps_) {
    steps_ = c.steps_max[0];
    trace_.steps.resize(steps_);
    cycles_.resize(steps_);
    for (FocusBlock& f : trace_.focus) f.steps.resize(steps_);
  }
  const unsigned warps = l.warps;
  for (std::uint32_t b = 0; b < l.blocks(); ++b) {
    const std::uint32_t block = l.block_lo + b;
    if (c.steps_min[b] != c.steps_max[b] || c.steps_max[b] != steps_)
      throw std::runtime_error("trace: block " + std::to_string(block) + " recorded " + std::to_string(c.steps_min[b]) +
                               ".." + std::to_string(c.steps_max[b]) + " steps per thread, block 0 " +
                               std::to_string(steps_) +
                               " (every thread of every block must call probe.step for every step)");
    for (unsigned s = 0; s < steps_; ++s) {
      const rec::StepRecord& sr = c.steps[std::size_t(b) * l.max_steps + s];
      Step& step = trace_.steps[s];
      if (block == 0) {
        name_step(step, sr);
      } else if (step.phase != rec::Phase(sr.phase) || step.param != sr.param || step.line != sr.line) {
        throw std::runtime_error("trace: block " + std::to_string(block) + " step " + std::to_string(s) +
                                 " differs from block 0's (steps must be the same in every block)");
      }
      if (measured_clocks_ && !c.clocks.empty())
        for (unsigned w = 0; w < warps; ++w) {
          const long long t0 = c.clocks[(std::uint64_t(b) * (l.max_steps + 1) + s) * warps + w];
          const long long t1 = c.clocks[(std::uint64_t(b) * (l.max_steps + 1) + s + 1) * warps + w];
          if (t0 && t1 && t1 >= t0) cycles_[s].add(std::uint64_t(t1 - t0));
        }
    }
    rec::hash_mix(hash_, c.block_hash[b]);
  }
  add_sums(c.sums);
  next_block_ = l.block_hi;
  trace_.traced_blocks = next_block_;
  trace_.trace_bytes_peak = std::max<std::uint64_t>(trace_.trace_bytes_peak, l.bytes());
  ++trace_.trace_chunks;
}

void TraceBuilder::add_sums(const std::vector<unsigned long long>& sums) {
  for (unsigned s = 0; s < steps_; ++s) {
    const unsigned long long* v = &sums[std::size_t(s) * rec::kSums];
    StepStats& st = trace_.steps[s].stats;
    st.active_threads += v[rec::active_threads];
    st.active_warps += v[rec::active_warps];
    st.divergent_warps += v[rec::divergent_warps];
    st.smem_load_requests += v[rec::smem_load_requests];
    st.smem_load_wavefronts += v[rec::smem_load_wavefronts];
    st.smem_load_ideal += v[rec::smem_load_ideal];
    st.smem_store_requests += v[rec::smem_store_requests];
    st.smem_store_wavefronts += v[rec::smem_store_wavefronts];
    st.smem_store_ideal += v[rec::smem_store_ideal];
    st.gmem_load_requests += v[rec::gmem_load_requests];
    st.gmem_load_sectors += v[rec::gmem_load_sectors];
    st.gmem_store_requests += v[rec::gmem_store_requests];
    st.gmem_store_sectors += v[rec::gmem_store_sectors];
    st.smem_atomic_requests += v[rec::smem_atomic_requests];
    st.smem_atomic_wavefronts += v[rec::smem_atomic_wavefronts];
    st.gmem_atomic_requests += v[rec::gmem_atomic_requests];
    st.gmem_atomic_sectors += v[rec::gmem_atomic_sectors];
    st.dsmem_load_requests += v[rec::dsmem_load_requests];
    st.dsmem_load_bytes += v[rec::dsmem_load_bytes];
    st.dsmem_store_requests += v[rec::dsmem_store_requests];
    st.dsmem_store_bytes += v[rec::dsmem_store_bytes];
  }
}

void TraceBuilder::add_launch_row(const RawTrace& row, std::uint32_t block) {
  if (has_launch_row_) throw std::logic_error("trace: two launch rows");
  has_launch_row_ = true;
  const ChunkSummary c = summarise(row);
  add_sums(c.sums);
  launch_hash_ = c.block_hash[0];
  for (std::uint32_t b : focus_blocks())
    if (b == block) {
      launch_block_ = block;
      launch_detail_ = decode(row);
    }
}

void TraceBuilder::add_fault(const RawTrace& row, const Fault& fault) {
  const rec::Layout& l = row.layout;
  if (l.blocks() != 1 || l.block_lo != fault.block) throw std::logic_error("add_fault: the faulting block's row");
  if (row.overflow)
    throw TraceRoomShort("trace: " + plan_.kernel->id + " recorded more than its trace had room for before its fault");
  // The steps the block began, up to the fault's (its threads noted them as they reached each).
  steps_ = std::min(fault.step + 1, l.max_steps);
  trace_.steps.assign(steps_, Step{});
  cycles_.assign(steps_, {});
  for (unsigned s = 0; s < steps_; ++s) name_step(trace_.steps[s], row.steps[s]);
  // The fault's step, where thread 0 had not reached it to write its record (a record always has probe.step's
  // line): named as the emulator noted it.
  if (steps_ && fault.step + 1 == steps_ && row.steps[steps_ - 1].line == 0 && fault.step_line != 0)
    name_step(trace_.steps[steps_ - 1], {fault.step_phase, fault.step_label, 0, fault.step_param, fault.step_line});
  add_sums(summarise(row).sums);
  FocusBlock f;
  f.block = fault.block;
  f.steps = decode(row);
  trace_.focus.assign(1, std::move(f));
  trace_.traced_blocks = 1;
  trace_.trace_bytes_peak = std::max<std::uint64_t>(trace_.trace_bytes_peak, l.bytes());
  trace_.fault = fault;
  trace_.fault->step = steps_ - 1;
  has_launch_row_ = false;
}

void TraceBuilder::add_focus(const RawTrace& raw) {
  const rec::Layout& l = raw.layout;
  if (l.blocks() != 1) throw std::logic_error("add_focus: one block at a time");
  FocusBlock* focus = nullptr;
  for (auto& f : trace_.focus)
    if (f.block == l.block_lo) focus = &f;
  if (!focus) throw std::logic_error("add_focus: block " + std::to_string(l.block_lo) + " is not in focus");
  focus->steps = decode(raw);
}

// rec::access_of numbers spaces and kinds as trace.h does.
static_assert(unsigned(Space::shared) == 0 && unsigned(Space::global) == 1 && unsigned(Space::reg) == 2 &&
              unsigned(Space::remote_shared) == 3);
static_assert(unsigned(AccessKind::load) == 0 && unsigned(AccessKind::store) == 1 && unsigned(AccessKind::value) == 2 &&
              unsigned(AccessKind::atomic) == 3);

void TraceBuilder::place_access(WarpAccess& a, std::uint16_t site) {
  if (site == 0) return;
  if (!site_names_) {
    a.line = site;
    return;
  }
  const SourcePlace place = site_names_(site);
  a.line = place.line;
  a.column = std::uint16_t(std::min<std::uint32_t>(place.column, 0xffff));
  if (place.file.empty()) return;
  auto& files = trace_.access_files;
  auto it = std::find(files.begin(), files.end(), place.file);
  if (it == files.end()) {
    if (files.size() >= 256) return;  // as many as a trace file may name
    it = files.insert(files.end(), place.file);
  }
  a.file = std::uint16_t(it - files.begin() + 1);
}

std::vector<std::vector<WarpStep>> TraceBuilder::decode(const RawTrace& raw) {
  const rec::Layout& l = raw.layout;
  const unsigned warps = l.warps;
  std::vector<std::vector<WarpStep>> steps(steps_);
  for (unsigned s = 0; s < steps_; ++s) {
    steps[s].resize(warps);
    for (unsigned w = 0; w < warps; ++w) {
      const std::uint64_t ws = rec::warp_step_index(l, 0, s, w);
      WarpStep& detail = steps[s][w];
      detail.warp = w;
      detail.active = raw.active[ws];
      detail.accesses.clear();
      if (measured_clocks_ && !raw.clocks.empty()) {
        const long long t0 = raw.clocks[(std::uint64_t(s)) * warps + w];
        const long long t1 = raw.clocks[(std::uint64_t(s) + 1) * warps + w];
        detail.cycles = t0 && t1 && t1 >= t0 ? t1 - t0 : -1;
      }
      const rec::LaneRecord* ws_lanes = &raw.lanes[ws * l.slots_total * 32];
      for (unsigned c = 0; c < unsigned(rec::kClasses); ++c) {
        unsigned order[rec::kMaxSlots];
        const unsigned requests = rec::canonical_slots(l, ws_lanes, c, l.slots[c], order);
        for (unsigned i = 0; i < requests; ++i) {
          const rec::LaneRecord* lanes = ws_lanes + std::uint64_t(l.slot_base[c] + order[i]) * 32;
          WarpAccess a;
          std::uint16_t site = 0;
          for (unsigned lane = 0; lane < 32; ++lane) {
            if (!(lanes[lane].meta & rec::kWritten)) continue;
            if (a.mask == 0) site = lanes[lane].site;
            a.mask |= 1u << lane;
            a.addr[lane] = lanes[lane].addr;
            a.bits[lane] = lanes[lane].bits;
            a.width = std::uint8_t(rec::meta_width(lanes[lane].meta));
            a.buffer = std::uint8_t(rec::meta_buffer(lanes[lane].meta));
            a.op = rec::AtomicOp(rec::meta_op(lanes[lane].meta));
          }
          const rec::Access kind = rec::access_of(rec::Class(c));
          a.space = Space(kind.space);
          a.kind = AccessKind(kind.kind);
          if (a.space == Space::shared) {  // an atomic's banks as a store's (trace_analysis.h)
            const rec::BankTotals cost =
                rec::bank_totals(a.mask, a.addr.data(), a.width, kind.store() || kind.atomic());
            a.wavefronts = cost.wavefronts;
            a.ideal = cost.ideal;
          } else if (a.space == Space::global) {
            a.sectors = rec::sector_count(a.mask, a.addr.data(), a.width);
          }
          place_access(a, site);
          detail.accesses.push_back(a);
        }
      }
    }
  }
  return steps;
}

Trace TraceBuilder::finish() {
  if (trace_.fault) {  // one block up to its fault: no digest of the launch
    trace_.digest = 0;
    return std::move(trace_);
  }
  if (next_block_ != trace_.grid)
    throw std::logic_error("trace: " + std::to_string(next_block_) + " of " + std::to_string(trace_.grid) +
                           " blocks decoded");
  for (unsigned s = 0; s < steps_ && measured_clocks_; ++s)
    if (const std::optional<double> median = cycles_[s].median()) trace_.steps[s].stats.cycles = *median;
  // The launch row (single-pass kernels) comes last: its hash names no block, so the digest does not
  // depend on which block took the last ticket.
  if (has_launch_row_) rec::hash_mix(hash_, launch_hash_);
  if (has_launch_row_) focus_with_launch_row(launch_block_);
  trace_.digest = hash_;
  return std::move(trace_);
}

const FocusBlock* TraceBuilder::focus_with_launch_row(std::uint32_t block) {
  for (FocusBlock& f : trace_.focus) {
    if (f.block != block) continue;
    if (has_launch_row_ && f.block == launch_block_ && !launch_detail_.empty()) {
      for (unsigned s = 0; s < steps_ && s < f.steps.size() && s < launch_detail_.size(); ++s)
        for (std::size_t w = 0; w < f.steps[s].size() && w < launch_detail_[s].size(); ++w) {
          const WarpStep& from = launch_detail_[s][w];
          if (from.active || !from.accesses.empty()) f.steps[s][w] = from;
        }
      launch_detail_.clear();  // once
    }
    return &f;
  }
  return nullptr;
}

}  // namespace redlab
