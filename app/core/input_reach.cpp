#include "core/input_reach.h"

#include <algorithm>
#include <array>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/catalog.h"

namespace redlab {

namespace {

// A set of input elements as sorted, disjoint, non-adjacent ranges [lo, hi): a block's inputs are a few runs of
// consecutive elements (a segment, one run per grid stride), so sets stay small however many elements they hold.
class ElementSet {
 public:
  // Adds [lo, hi); true when the set grew.
  bool add(std::uint64_t lo, std::uint64_t hi) {
    if (lo >= hi) return false;
    if (r_.empty() || lo > r_.back().hi) {  // loads mostly come in increasing order
      r_.push_back({lo, hi});
      count_ += hi - lo;
      return true;
    }
    auto first = std::lower_bound(r_.begin(), r_.end(), lo, [](const Range& r, std::uint64_t v) { return r.hi < v; });
    if (first->lo <= lo && hi <= first->hi) return false;
    Range merged{lo, hi};
    auto last = first;
    for (; last != r_.end() && last->lo <= hi; ++last) {
      merged.lo = std::min(merged.lo, last->lo);
      merged.hi = std::max(merged.hi, last->hi);
      count_ -= last->hi - last->lo;
    }
    r_.insert(r_.erase(first, last), merged);
    count_ += merged.hi - merged.lo;
    return true;
  }
  bool add(const ElementSet& o) {
    if (&o == this || o.r_.empty()) return false;
    if (r_.empty()) {
      *this = o;
      return true;
    }
    std::vector<Range> out;
    out.reserve(r_.size() + o.r_.size());
    std::uint64_t count = 0;
    auto a = r_.cbegin();
    auto b = o.r_.cbegin();
    while (a != r_.cend() || b != o.r_.cend()) {
      const Range next = b == o.r_.cend() || (a != r_.cend() && a->lo <= b->lo) ? *a++ : *b++;
      if (!out.empty() && next.lo <= out.back().hi) {
        if (next.hi > out.back().hi) {
          count += next.hi - out.back().hi;
          out.back().hi = next.hi;
        }
      } else {
        out.push_back(next);
        count += next.hi - next.lo;
      }
    }
    if (count == count_) return false;
    r_ = std::move(out);
    count_ = count;
    return true;
  }
  ElementSet minus(const ElementSet& o) const {
    ElementSet d;
    auto b = o.r_.begin();
    for (Range r : r_) {
      while (b != o.r_.end() && b->hi <= r.lo) ++b;
      for (auto c = b; c != o.r_.end() && c->lo < r.hi; ++c) {
        if (c->lo > r.lo) d.add(r.lo, c->lo);
        r.lo = std::max(r.lo, c->hi);
      }
      d.add(r.lo, r.hi);
    }
    return d;
  }
  std::uint64_t count() const { return count_; }
  std::vector<ElementRange> ranges() const {
    std::vector<ElementRange> v;
    for (const Range& r : r_) v.push_back({r.lo, r.hi - 1});
    return v;
  }

 private:
  struct Range {
    std::uint64_t lo, hi;
  };
  std::vector<Range> r_;
  std::uint64_t count_ = 0;
};

// A word of memory: its space, buffer (global) and 4-byte index.
std::uint64_t word_key(Space space, unsigned buffer, std::uint32_t word) {
  return std::uint64_t(space) << 40 | std::uint64_t(buffer) << 32 | word;
}

class BlockFlow {
 public:
  BlockFlow(const Trace& t, bool in_place)
      : es_(unsigned(elem_size(t.scenario.type))),
        n_(t.scenario.n),
        in_place_(in_place),
        held_(std::size_t(t.warps_per_block) * 32) {}

  // `remote`: the flow of the cluster's block of a rank (a cluster kernel's focus blocks analysed together), or
  // nullptr (not in focus: what it holds is not known, as a partial another block wrote).
  void step(const Step& step, const std::vector<WarpStep>& warps,
            const std::function<BlockFlow*(unsigned rank)>& remote = nullptr);
  BlockReach reach(std::uint32_t block) const {
    BlockReach r;
    r.block = block;
    r.inputs = inputs_.count();
    r.input_ranges = inputs_.ranges();
    const ElementSet lost = inputs_.minus(result_);
    r.lost = lost.count();
    r.lost_ranges = lost.ranges();
    r.wrote_result = wrote_result_;
    return r;
  }

 private:
  struct Op {
    std::uint32_t thread;
    AccessKind kind;
    Space space;
    std::uint8_t buffer;
    std::uint32_t addr;  // bytes; reg: the source lane
    std::uint8_t width;
  };
  // The input element a global word holds before anything writes it, or none (n_: past every element).
  std::uint64_t initial_element(Space space, unsigned buffer, std::uint32_t word) const {
    const bool holds_input = space == Space::global && (buffer == unsigned(rec::Buffer::input) ||
                                                        (in_place_ && buffer == unsigned(rec::Buffer::scratch)));
    if (!holds_input) return n_;
    const std::uint64_t element = std::uint64_t(word) * 4 / es_;
    return element < n_ ? element : n_;
  }
  bool is_result(const Op& op) const {
    return op.space == Space::global &&
           (op.buffer == unsigned(rec::Buffer::output) || (!in_place_ && op.buffer == unsigned(rec::Buffer::scratch)));
  }
  // Adds what `key`'s word holds (written, or its initial element) to `to`.
  bool add_word(ElementSet& to, std::uint64_t key, Space space, unsigned buffer, std::uint32_t word) const {
    if (auto it = words_.find(key); it != words_.end()) return to.add(it->second);
    const std::uint64_t e = initial_element(space, buffer, word);
    return e < n_ && to.add(e, e + 1);
  }

  unsigned es_;
  std::uint64_t n_;
  bool in_place_;
  std::vector<ElementSet> held_;  // [thread]
  std::unordered_map<std::uint64_t, ElementSet> words_;  // written words
  ElementSet inputs_, result_;
  bool wrote_result_ = false;
};

void BlockFlow::step(const Step& step, const std::vector<WarpStep>& warps,
                     const std::function<BlockFlow*(unsigned rank)>& remote) {
  std::vector<Op> ops;
  for (const WarpStep& w : warps)
    for (const WarpAccess& a : w.accesses)
      for (std::uint32_t m = a.mask; m; m &= m - 1) {
        const unsigned lane = unsigned(__builtin_ctz(m));
        ops.push_back({w.warp * 32 + lane, a.kind, a.space, a.buffer, a.addr[lane], a.width});
      }
  // Inputs: the input words the step loads that nothing wrote before it.
  for (const Op& op : ops) {
    if (op.kind != AccessKind::load || op.space != Space::global) continue;
    for (std::uint32_t word = op.addr / 4; word < (op.addr + op.width + 3) / 4; ++word)
      if (!words_.count(word_key(op.space, op.buffer, word))) {
        const std::uint64_t e = initial_element(op.space, op.buffer, word);
        if (e < n_) inputs_.add(e, e + 1);
      }
  }
  // The step's stores and atomics, gathered apart from the words as they were, which every load of the step may
  // still see (the header: order within a step). Repeated until no set grows.
  std::unordered_map<std::uint64_t, ElementSet> stored;
  std::unordered_set<std::uint64_t> added;  // atomics: the word keeps what it held
  const bool warp_reduce = step.label_kind == rec::Label::warp_reduce;
  for (bool grew = true; grew;) {
    grew = false;
    for (const Op& op : ops) {
      ElementSet& mine = held_[op.thread];
      if (op.kind == AccessKind::value) {
        const std::uint32_t source = op.thread / 32 * 32 + op.addr;
        if (source < held_.size()) grew |= mine.add(held_[source]);
        continue;
      }
      if (op.space == Space::remote_shared) {  // another block's shared memory (distributed shared memory)
        BlockFlow* other = remote ? remote(rec::remote_rank(op.addr)) : nullptr;
        if (!other) continue;
        const std::uint32_t at = rec::remote_offset(op.addr);
        for (std::uint32_t word = at / 4; word < (at + op.width + 3) / 4; ++word) {
          const std::uint64_t key = word_key(Space::shared, 0, word);
          if (op.kind == AccessKind::load) {
            // What it gives away is that block's result: the kernel's way out of it.
            if (auto it = other->words_.find(key); it != other->words_.end()) {
              grew |= mine.add(it->second);
              other->result_.add(it->second);
              other->wrote_result_ = true;
            }
          } else {
            grew |= other->words_[key].add(mine);
          }
        }
        continue;
      }
      for (std::uint32_t word = op.addr / 4; word < (op.addr + op.width + 3) / 4; ++word) {
        const std::uint64_t key = word_key(op.space, op.buffer, word);
        if (op.kind == AccessKind::load || op.kind == AccessKind::atomic) {
          grew |= add_word(mine, key, op.space, op.buffer, word);
          if (auto it = stored.find(key); it != stored.end()) grew |= mine.add(it->second);
        }
        if (op.kind == AccessKind::store || op.kind == AccessKind::atomic) {
          grew |= stored[key].add(mine);
          if (op.kind == AccessKind::atomic) added.insert(key);
        }
      }
    }
    if (warp_reduce)
      for (const WarpStep& w : warps) {
        ElementSet all;
        for (std::uint32_t m = w.active; m; m &= m - 1) all.add(held_[w.warp * 32 + unsigned(__builtin_ctz(m))]);
        for (std::uint32_t m = w.active; m; m &= m - 1)
          grew |= held_[w.warp * 32 + unsigned(__builtin_ctz(m))].add(all);
      }
  }
  for (const Op& op : ops)
    if ((op.kind == AccessKind::store || op.kind == AccessKind::atomic) && is_result(op)) {
      result_.add(held_[op.thread]);
      wrote_result_ = true;
    }
  for (auto& [key, set] : stored) {
    if (added.count(key)) {
      const auto space = Space(key >> 40);
      add_word(set, key, space, unsigned(key >> 32 & 0xff), std::uint32_t(key));
    }
    words_[key] = std::move(set);
  }
}

std::string range_text(const ElementRange& r) {
  return r.first == r.last ? std::to_string(r.first) : std::to_string(r.first) + "-" + std::to_string(r.last);
}

std::string ranges_text(const std::vector<ElementRange>& ranges, std::size_t max_ranges) {
  std::string s;
  for (std::size_t i = 0; i < ranges.size() && i < max_ranges; ++i) s += (i ? ", " : "") + range_text(ranges[i]);
  if (ranges.size() > max_ranges) s += " and " + std::to_string(ranges.size() - max_ranges) + " more ranges";
  return s;
}

}  // namespace

std::vector<BlockReach> input_reach(const Trace& t) {
  const KernelRecord* k = find_kernel(t.scenario.kernel);
  const bool in_place = k && k->in_place_global;
  std::vector<const FocusBlock*> focus;
  for (const FocusBlock& f : t.focus)
    if (f.steps.size() == t.steps.size() && !t.steps.empty()) focus.push_back(&f);
  std::vector<BlockFlow> flows(focus.size(), BlockFlow(t, in_place));
  // A cluster kernel's blocks pass values through each other's shared memory: the focus blocks go step by step
  // together, a remote access reaching the flow of the block of its rank in the same cluster.
  const std::uint32_t cluster = k && k->clustered ? std::max(1u, t.scenario.cluster) : 1;
  for (std::size_t s = 0; s < t.steps.size(); ++s)
    for (std::size_t i = 0; i < focus.size(); ++i) {
      const std::uint32_t first = focus[i]->block / cluster * cluster;
      flows[i].step(t.steps[s], focus[i]->steps[s], [&](unsigned rank) -> BlockFlow* {
        for (std::size_t j = 0; j < focus.size(); ++j)
          if (focus[j]->block == first + rank) return &flows[j];
        return nullptr;
      });
    }
  std::vector<BlockReach> out;
  for (std::size_t i = 0; i < focus.size(); ++i) {
    // A block whose partial leaves through another block's reads is judged only with that block in focus: its whole
    // cluster.
    if (cluster > 1) {
      const std::uint32_t first = focus[i]->block / cluster * cluster;
      std::uint32_t present = 0;
      for (const FocusBlock* f : focus) present += f->block >= first && f->block < first + cluster;
      if (present < cluster && focus[i]->block != first) continue;
    }
    out.push_back(flows[i].reach(focus[i]->block));
  }
  return out;
}

std::string describe_reach(const BlockReach& r, std::size_t max_ranges) {
  const std::string block = "block " + std::to_string(r.block) + ": ";
  if (r.inputs == 0) return block + "loaded no input element";
  if (r.lost == 0)
    return block + "all " + std::to_string(r.inputs) + " inputs (" + ranges_text(r.input_ranges, max_ranges) +
           ") reached its result";
  return block + "inputs " + ranges_text(r.lost_ranges, max_ranges) + " (" + std::to_string(r.lost) + " of " +
         std::to_string(r.inputs) + ") never reached its result" +
         (r.wrote_result ? "" : " (it wrote no result to the output or the partials)");
}

}  // namespace redlab
