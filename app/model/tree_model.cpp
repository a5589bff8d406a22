#include "model/tree_model.h"

#include "model/i18n.h"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_map>
#include <utility>

namespace redlab::model {

std::string step_label_text(const Trace& t, unsigned s) {
  if (s >= t.steps.size()) return {};
  // In the UI's language: what the label says (stride / offset / warp sums); a label of the kernel file's own as it
  // is; no label: the phase.
  const Step& st = t.steps[s];
  const std::string phase = redlab::to_string(st.phase);
  switch (st.label_kind) {
    case rec::Label::stride: return trf("label.stride", {std::to_string(st.param)});
    case rec::Label::offset: return trf("label.offset", {std::to_string(st.param)});
    case rec::Label::warp_sums_store: return tr("label.warp_sums_store");
    case rec::Label::warp_sums_load: return tr("label.warp_sums_load");
    case rec::Label::barrier: return trf("label.barrier", {std::to_string(st.param)});
    case rec::Label::last_warp: return tr("label.last_warp");
    case rec::Label::grid_stride: return trf("label.grid_stride", {std::to_string(st.param)});
    case rec::Label::to_shared: return tr("label.to_shared");
    case rec::Label::warp_reduce: return tr("label.warp_reduce");
    case rec::Label::partials_load: return tr("label.partials_load");
    case rec::Label::tail: return tr("label.tail");
    case rec::Label::exchange: return trf("label.exchange", {std::to_string(st.param)});
    case rec::Label::distance: return trf("label.distance", {std::to_string(st.param)});
    case rec::Label::root: return tr("label.root");
    case rec::Label::cluster_gather: return tr("label.cluster_gather");
    case rec::Label::rank_stride: return trf("label.rank_stride", {std::to_string(st.param)});
    default: return st.label == phase || st.label.empty() ? std::string(tr(("phase." + phase).c_str())) : st.label;
  }
}

std::string step_name(const Trace& t, unsigned s) {
  if (s >= t.steps.size()) return {};
  // In the UI's language: phase, then what the label says.
  const Step& st = t.steps[s];
  const std::string phase = redlab::to_string(st.phase);
  const std::string name = tr(("phase." + phase).c_str());
  const bool labelled = st.label_kind != rec::Label::none || (st.label != phase && !st.label.empty());
  return labelled ? name + ": " + step_label_text(t, s) : name;
}

namespace {
// Bookkeeping, not the reduction's data: a single-pass kernel's ticket (and its reset), or a shared flag narrower
// than an element (`last_block`). The tree leaves them out; the per-step figures and the bank grid count them.
bool is_bookkeeping(const WarpAccess& a, std::size_t elem) {
  return (a.space == Space::global && a.buffer == unsigned(rec::Buffer::ticket)) ||
         (a.space == Space::shared && a.width < elem);
}
bool is_array_access(const WarpAccess& a, bool global, unsigned buffer, std::size_t elem) {
  if (is_bookkeeping(a, elem)) return false;
  if (global) return a.space == Space::global && a.buffer == buffer;
  return a.space == Space::shared;
}
std::uint64_t elem_of(const WarpAccess& a, unsigned lane) { return a.addr[lane] / std::max<unsigned>(1, a.width); }
// The model holds cells x rows entries of each array: at most 2^24 (about 250 MB), checked before allocating.
// A recorded trace stays far below (256 focus blocks x 1024 threads x 12 steps is 3.1 M); a crafted one is
// shown without its tree instead of exhausting memory.
bool fits(std::uint64_t cells, std::uint64_t rows) { return cells >= 1 && rows >= 1 && cells * rows <= (1u << 24); }
}  // namespace

// Warp-shuffle kernels: one cell per thread holding its register value. A shuffle moves a value from the
// source lane; a shared store then load moves it from the storing thread to the loading one.
static TreeModel build_register_tree(const Trace& t, TreeModel m) {
  const unsigned nf = unsigned(t.focus.size());
  m.registers = true;
  m.global = false;
  m.per_block = std::max(1u, t.block);
  if (!fits(std::uint64_t(m.per_block) * nf, m.rows())) return m;
  m.cells = m.per_block * nf;
  const std::size_t rows = m.rows();
  m.bits.assign(rows * m.cells, 0);
  m.known.assign(rows * m.cells, 0);
  m.writer.assign(rows * m.cells, -1);
  m.wstep.assign(rows * m.cells, -1);
  m.edges.assign(m.steps, {});
  m.warp_divergent.assign(m.steps, std::vector<std::uint8_t>(std::size_t(nf) * m.warps, 0));
  m.warp_active.assign(m.steps, std::vector<std::uint8_t>(std::size_t(nf) * m.warps, 0));
  std::vector<std::unordered_map<std::uint32_t, std::uint32_t>> owner(nf);  // shared byte address -> cell
  for (unsigned s = 0; s < m.steps; ++s) {
    std::size_t prev = std::size_t(s) * m.cells, cur = prev + m.cells;
    std::copy_n(m.bits.begin() + prev, m.cells, m.bits.begin() + cur);
    std::copy_n(m.known.begin() + prev, m.cells, m.known.begin() + cur);
    std::copy_n(m.writer.begin() + prev, m.cells, m.writer.begin() + cur);
    std::copy_n(m.wstep.begin() + prev, m.cells, m.wstep.begin() + cur);
    for (unsigned f = 0; f < nf; ++f) {
      if (s >= t.focus[f].steps.size()) continue;
      for (auto& ws : t.focus[f].steps[s]) {
        if (ws.warp < m.warps) {
          m.warp_active[s][f * m.warps + ws.warp] = ws.active != 0;
          m.warp_divergent[s][f * m.warps + ws.warp] = ws.active != 0 && ws.active != 0xffffffffu;
        }
        for (auto& a : ws.accesses)
          for (unsigned l = 0; l < 32; ++l) {
            if (!(a.mask >> l & 1u) || is_bookkeeping(a, elem_size(t.scenario.type))) continue;
            const std::uint32_t tid = ws.warp * 32 + l;
            if (tid >= m.per_block) continue;
            const std::uint32_t c = f * m.per_block + tid;
            auto set = [&](std::uint64_t bits) {
              m.bits[cur + c] = bits;
              m.known[cur + c] = 1;
              m.writer[cur + c] = std::int32_t(tid);
              m.wstep[cur + c] = std::int16_t(s);
            };
            // A store is the thread's step too: its register value leaves for shared memory (the warp sums)
            // or for the output (the block's result), so its cell lights at that step.
            if (a.space == Space::shared && a.kind == AccessKind::store) {
              owner[f][a.addr[l]] = c;
              set(a.bits[l]);
            } else if (a.space == Space::global && (a.kind == AccessKind::store || a.kind == AccessKind::atomic)) {
              set(a.bits[l]);
            } else if (a.space == Space::shared && a.kind == AccessKind::load) {
              set(a.bits[l]);
              auto it = owner[f].find(a.addr[l]);
              if (it != owner[f].end() && it->second != c) m.edges[s].push_back({it->second, c, tid});
            } else if (a.space == Space::global && a.kind == AccessKind::load) {
              set(a.bits[l]);
            } else if (a.space == Space::reg) {
              set(a.bits[l]);
              const std::uint32_t src = ws.warp * 32 + a.addr[l];
              if (a.addr[l] < 32 && a.addr[l] != l && src < m.per_block)
                m.edges[s].push_back({f * m.per_block + src, c, tid});
            }
          }
      }
    }
  }
  m.valid = true;
  return m;
}

TreeModel build_tree(const Trace& t) {
  TreeModel m;
  if (t.focus.empty()) return m;
  m.type = t.scenario.type;
  m.steps = unsigned(t.steps.size());
  m.warps = t.warps_per_block;
  for (auto& fb : t.focus) m.blocks.push_back(fb.block);
  const unsigned nf = unsigned(t.focus.size());

  // Which array is the tree in? The space with the most stores: shared, or one global buffer.
  std::uint64_t shared_stores = 0, global_stores[4] = {};
  for (auto& fb : t.focus)
    for (auto& step : fb.steps)
      for (auto& ws : step)
        for (auto& a : ws.accesses) {
          if (a.kind != AccessKind::store || is_bookkeeping(a, elem_size(t.scenario.type))) continue;
          if (a.space == Space::shared)
            shared_stores += __builtin_popcount(a.mask);
          else if (a.space == Space::global && a.buffer < 4)
            global_stores[a.buffer] += __builtin_popcount(a.mask);
        }
  std::uint64_t reg_values = 0;
  for (auto& fb : t.focus)
    for (auto& step : fb.steps)
      for (auto& ws : step)
        for (auto& a : ws.accesses)
          if (a.space == Space::reg) reg_values += __builtin_popcount(a.mask);
  unsigned best_buf = 2;
  for (unsigned b = 0; b < 4; ++b)
    if (global_stores[b] > global_stores[best_buf]) best_buf = b;
  m.global = global_stores[best_buf] > shared_stores;
  m.buffer = best_buf;
  if (reg_values > shared_stores && reg_values > global_stores[best_buf]) return build_register_tree(t, std::move(m));
  if (!m.global && shared_stores == 0) return m;

  // Range of element indices touched.
  std::uint64_t lo = std::numeric_limits<std::uint64_t>::max(), hi = 0;
  for (auto& fb : t.focus)
    for (auto& step : fb.steps)
      for (auto& ws : step)
        for (auto& a : ws.accesses) {
          if (!is_array_access(a, m.global, m.buffer, elem_size(t.scenario.type)) || a.kind == AccessKind::value)
            continue;
          for (unsigned l = 0; l < 32; ++l)
            if (a.mask >> l & 1u) {
              lo = std::min(lo, elem_of(a, l));
              hi = std::max(hi, elem_of(a, l));
            }
        }
  if (lo > hi) return m;
  if (m.global) {
    m.per_block = unsigned(std::max<std::uint64_t>(1, t.elems_per_block));
    lo = (lo / m.per_block) * m.per_block;
    std::uint64_t count = std::max<std::uint64_t>(hi - lo + 1, std::uint64_t(m.per_block) * nf);
    m.cells = std::uint32_t(std::min<std::uint64_t>(count, 1u << 21));
    if (!fits(m.cells, m.rows())) return m;
    m.base_elem = lo;
  } else {
    // 64-bit, and bounded before anything is allocated (a file may claim any address).
    if (hi >= (1u << 20) || !fits((hi + 1) * nf, m.rows())) return m;
    m.per_block = std::uint32_t(hi + 1);
    m.cells = m.per_block * nf;
  }
  auto cell_of = [&](unsigned f, std::uint64_t e, std::uint32_t* c) {
    if (m.global) {
      if (e < lo || e - lo >= m.cells) return false;
      *c = std::uint32_t(e - lo);
    } else {
      if (e >= m.per_block) return false;
      *c = std::uint32_t(f * m.per_block + e);
    }
    return true;
  };

  const std::size_t rows = m.rows();
  m.bits.assign(rows * m.cells, 0);
  m.known.assign(rows * m.cells, 0);
  m.writer.assign(rows * m.cells, -1);
  m.wstep.assign(rows * m.cells, -1);
  m.edges.resize(m.steps);
  m.warp_divergent.assign(m.steps, std::vector<std::uint8_t>(std::size_t(nf) * m.warps, 0));
  m.warp_active.assign(m.steps, std::vector<std::uint8_t>(std::size_t(nf) * m.warps, 0));

  // Row 0: values loaded before anything stored them (the input of in-place kernels).
  std::vector<std::uint8_t> stored(m.cells, 0);
  for (unsigned s = 0; s < m.steps; ++s)
    for (unsigned f = 0; f < nf; ++f) {
      if (s >= t.focus[f].steps.size()) continue;
      for (auto& ws : t.focus[f].steps[s])
        for (auto& a : ws.accesses) {
          if (!is_array_access(a, m.global, m.buffer, elem_size(t.scenario.type))) continue;
          for (unsigned l = 0; l < 32; ++l) {
            std::uint32_t c;
            if (!(a.mask >> l & 1u) || !cell_of(f, elem_of(a, l), &c)) continue;
            if (a.kind == AccessKind::store)
              stored[c] = 1;
            else if (a.kind == AccessKind::load && !stored[c] && !m.known[c]) {
              m.known[c] = 1;
              m.bits[c] = a.bits[l];
              m.has_input_row = true;
            }
          }
        }
    }

  for (unsigned s = 0; s < m.steps; ++s) {
    std::size_t prev = std::size_t(s) * m.cells, cur = prev + m.cells;
    std::copy_n(m.bits.begin() + prev, m.cells, m.bits.begin() + cur);
    std::copy_n(m.known.begin() + prev, m.cells, m.known.begin() + cur);
    std::copy_n(m.writer.begin() + prev, m.cells, m.writer.begin() + cur);
    std::copy_n(m.wstep.begin() + prev, m.cells, m.wstep.begin() + cur);
    for (unsigned f = 0; f < nf; ++f) {
      if (s >= t.focus[f].steps.size()) continue;
      for (auto& ws : t.focus[f].steps[s]) {
        if (ws.warp < m.warps) {
          m.warp_active[s][f * m.warps + ws.warp] = ws.active != 0;
          m.warp_divergent[s][f * m.warps + ws.warp] = ws.active != 0 && ws.active != 0xffffffffu;
        }
        for (auto& a : ws.accesses) {
          if (!is_array_access(a, m.global, m.buffer, elem_size(t.scenario.type)) || a.kind != AccessKind::store)
            continue;
          for (unsigned l = 0; l < 32; ++l) {
            std::uint32_t c;
            if (!(a.mask >> l & 1u) || !cell_of(f, elem_of(a, l), &c)) continue;
            std::uint32_t thread = ws.warp * 32 + l;
            m.bits[cur + c] = a.bits[l];
            m.known[cur + c] = 1;
            m.writer[cur + c] = std::int32_t(thread);
            m.wstep[cur + c] = std::int16_t(s);
            // The elements this lane read in the same step combined into c.
            for (auto& b : ws.accesses) {
              if (!is_array_access(b, m.global, m.buffer, elem_size(t.scenario.type)) || b.kind != AccessKind::load ||
                  !(b.mask >> l & 1u))
                continue;
              std::uint32_t src;
              if (!cell_of(f, elem_of(b, l), &src) || src == c) continue;
              m.edges[s].push_back({src, c, thread});
            }
          }
        }
      }
    }
  }
  m.valid = true;
  return m;
}

ValuesZoom values_zoom(const std::vector<std::uint32_t>& written, std::uint32_t cells, float label_px, float canvas_px,
                       float min_cells) {
  ValuesZoom z;
  z.vis = float(cells);
  if (written.empty() || cells == 0 || canvas_px <= 0) return z;
  // The closest two written cells set the zoom: their centres one label apart.
  std::uint32_t gap = cells;
  for (std::size_t i = 1; i < written.size(); ++i) gap = std::min(gap, written[i] - written[i - 1]);
  const float px = label_px / float(std::max<std::uint32_t>(gap, 1));
  z.vis = std::clamp(canvas_px / std::max(px, 1e-3f), std::min(min_cells, float(cells)), float(cells));
  // From the first written cell (half a label's room before it), within the array.
  z.x0 = std::clamp(float(written.front()) + 0.5f - 0.5f * label_px * z.vis / canvas_px, 0.0f, float(cells) - z.vis);
  return z;
}

}  // namespace redlab::model
