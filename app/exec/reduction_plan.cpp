#include "reduction_plan.h"

#include <cstring>

#include "../core/reference.h"

namespace redlab {
namespace {

// A host buffer of `count` identity elements with `data` (n elements) copied to its front.
std::vector<std::uint8_t> padded(ElemType t, OpKind op, const void* data, std::uint64_t n, std::uint64_t count) {
  const std::size_t es = elem_size(t);
  std::vector<std::uint8_t> v(count * es);
  const std::uint64_t id = identity_bits(t, op);
  for (std::uint64_t i = n; i < count; ++i) std::memcpy(v.data() + i * es, &id, es);
  if (n) std::memcpy(v.data(), data, n * es);
  return v;
}

}  // namespace

ReductionPlan::ReductionPlan(Device& dev, const KernelInfo& k, const Scenario& s, const void* input)
    : dev_(dev), k_(k), s_(s), es_(elem_size(s.type)), id_(identity_bits(s.type, s.op)) {
  const std::uint64_t per_block = elems_per_block(k, s);
  const std::uint32_t grid = first_grid(k, s);

  LaunchArgs first;
  first.kernel = s.kernel;
  first.type = s.type;
  first.op = s.op;
  first.grid = grid;
  first.block = s.block;
  first.n = s.n;
  first.atomic = !k.no_atomic && (s.finish == Finish::atomic || k.always_atomic);
  first.dynamic_smem = s.dynamic_smem;
  first.coarse = s.coarse;
  first.algo = s.algo;
  if (k.in_place_global) {
    // The kernel overwrites its input: every run starts from a pristine copy padded to whole blocks.
    const auto pad = padded(s.type, s.op, input, s.n, std::uint64_t(grid) * per_block);
    pristine_ = DeviceBuffer(dev, pad.size());
    pristine_bytes_ = pad.size();
    dev.upload(pristine_.p, pad.data(), pad.size());
    scratch_.emplace_back(dev, pad.size());
    first.in = scratch_[0].p;
  } else {
    input_ = DeviceBuffer(dev, s.n * es_);
    dev.upload(input_.p, input, s.n * es_);
    first.in = input_.p;
  }
  buffers_.emplace_back(dev, std::size_t(grid) * es_);  // partials, or out[0]
  first.out = buffers_[0].p;
  if (k.single_pass) {  // per-block partials and the last-block ticket, which the kernel leaves at 0
    buffers_.emplace_back(dev, std::size_t(grid) * es_);
    buffers_.emplace_back(dev, 4);
    dev.fill(buffers_.back().p, 0, 4);
    first.partials = buffers_[1].p;
    first.blocks_done = static_cast<unsigned*>(buffers_[2].p);
  }
  launches_.push_back(first);
  passes_.push_back({s.kernel, s.n, grid, s.block, first.atomic});
  result_ = buffers_[0].p;
  if (first.atomic || k.single_pass || grid == 1) return;
  if (s.finish == Finish::host) {
    host_finish_ = true;
    passes_.push_back({"host", grid, 0, 0, false});
    return;
  }
  // Relaunch the same kernel (uninstrumented) on the partials until one value is left.
  std::uint64_t count = grid;
  void* src = buffers_[0].p;
  while (count > 1) {
    Scenario over_partials = s;
    over_partials.n = count;
    const std::uint32_t g = first_grid(k, over_partials);
    LaunchArgs pass = first;
    pass.n = count;
    pass.grid = g;
    pass.atomic = false;
    if (k.in_place_global) {
      const auto pad = padded(s.type, s.op, nullptr, 0, std::uint64_t(g) * per_block);
      scratch_.emplace_back(dev, pad.size());
      dev.upload(scratch_.back().p, pad.data(), pad.size());
      copies_.push_back({scratch_.back().p, src, count * es_, launches_.size()});
      pass.in = scratch_.back().p;
    } else {
      pass.in = src;
    }
    buffers_.emplace_back(dev, std::size_t(g) * es_);
    pass.out = buffers_.back().p;
    launches_.push_back(pass);
    passes_.push_back({s.kernel, count, g, s.block, false});
    src = pass.out;
    count = g;
  }
  result_ = src;
}

void ReductionPlan::prepare() {
  if (k_.in_place_global) dev_.copy(scratch_[0].p, pristine_.p, pristine_bytes_);
  if (atomic()) dev_.upload(buffers_[0].p, &id_, es_);
}

void ReductionPlan::run_first(const rec::Layout* layout, const rec::Buffers* buffers, const void* in) {
  LaunchArgs a = launches_[0];
  if (in && !k_.in_place_global) a.in = in;
  dev_.launch(a, layout, buffers);
}

void ReductionPlan::finish() {
  for (std::size_t i = 1; i < launches_.size(); ++i) {
    for (const Copy& c : copies_)
      if (c.before_launch == i) dev_.copy(c.dst, c.src, c.bytes);
    dev_.launch(launches_[i], nullptr, nullptr);
  }
  if (host_finish_) {  // copy the partials back and combine them on the CPU (seed 002)
    std::vector<std::uint8_t> partials(std::size_t(grid()) * es_);
    dev_.download(partials.data(), buffers_[0].p, partials.size());
    host_result_ = id_;
    for (std::uint32_t b = 0; b < grid(); ++b) {
      std::uint64_t v = 0;
      std::memcpy(&v, partials.data() + std::size_t(b) * es_, es_);
      host_result_ = combine_bits(s_.type, s_.op, host_result_, v);
    }
  }
}

std::uint64_t ReductionPlan::result() {
  if (host_finish_) return host_result_;
  std::uint64_t bits = 0;
  dev_.download(&bits, result_, es_);
  return bits;
}

std::uint64_t ReductionPlan::sequential_adds() const {
  if (atomic() || host_finish_) return grid();
  if (k_.single_pass) return (grid() + s_.block - 1) / s_.block;
  return 0;
}

}  // namespace redlab
