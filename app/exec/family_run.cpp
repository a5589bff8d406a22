#include "exec/family_run.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "exec/device_memory.h"

namespace redlab {

std::uint64_t host_fold(const Scenario& s, const void* input) {
  const std::size_t es = elem_size(s.type);
  const auto* in = static_cast<const std::uint8_t*>(input);
  std::uint64_t acc = identity_bits(s.type, s.op);
  for (std::uint64_t i = 0; i < s.n; ++i) {
    std::uint64_t v = 0;
    std::memcpy(&v, in + i * es, es);
    acc = combine_bits(s.type, s.op, acc, v);
  }
  return acc;
}

namespace {

// ---- Reductions: the first launch, then the finish (relaunches over the partials, the host's fold, or
// nothing for atomic and single-pass kernels), as the plan's passes say.

// A host buffer of `count` identity elements with `data` (n elements) copied to its front.
std::vector<std::uint8_t> padded(ElemType t, OpKind op, const void* data, std::uint64_t n, std::uint64_t count) {
  const std::size_t es = elem_size(t);
  std::vector<std::uint8_t> v(count * es);
  const std::uint64_t id = identity_bits(t, op);
  for (std::uint64_t i = n; i < count; ++i) std::memcpy(v.data() + i * es, &id, es);
  if (n) std::memcpy(v.data(), data, n * es);
  return v;
}

class ReductionRun final : public PlanRun {
 public:
  ReductionRun(Device& dev, const Plan& p, const void* input, std::size_t copies)
      : dev_(dev),
        p_(p),
        input_(input),
        es_(elem_size(p.scenario.type)),
        id_(identity_bits(p.scenario.type, p.scenario.op)) {
    const Scenario& s = p.scenario;
    const KernelRecord& k = *p.kernel;
    LaunchArgs first = *first_launch_args(p);
    if (k.in_place_global) {
      // The kernel overwrites its input: every run starts from a pristine copy padded to whole blocks.
      const auto pad = padded(s.type, s.op, input, s.n, std::uint64_t(p.grid) * p.elems_per_block);
      pristine_ = DeviceBuffer(dev, pad.size());
      pristine_bytes_ = pad.size();
      dev.upload(pristine_.p, pad.data(), pad.size());
      scratch_.emplace_back(dev, pad.size());
      first.in = scratch_[0].p;
    } else {
      for (std::size_t c = 0; c < std::max<std::size_t>(copies, 1); ++c) {
        inputs_.emplace_back(dev, (s.n * es_ + 15) / 16 * 16);
        dev.upload(inputs_.back().p, input, s.n * es_);
      }
      first.in = inputs_[0].p;
    }
    buffers_.emplace_back(dev, std::size_t(p.grid) * es_);  // partials, or out[0]
    first.out = buffers_[0].p;
    if (k.single_pass) {  // per-block partials and the last-block ticket, which the kernel leaves at 0
      buffers_.emplace_back(dev, std::size_t(p.grid) * es_);
      buffers_.emplace_back(dev, 4);
      dev.fill(buffers_.back().p, 0, 4);
      first.partials = buffers_[1].p;
      first.blocks_done = static_cast<unsigned*>(buffers_[2].p);
    }
    launches_.push_back(first);
    result_ = buffers_[0].p;
    // The finish, pass by pass: the host's fold, or the same kernel (uninstrumented) over the partials.
    void* src = buffers_[0].p;
    for (std::size_t i = 1; i < p.passes.size(); ++i) {
      const Pass& pass = p.passes[i];
      if (pass.on_host) {
        host_finish_ = true;
        break;
      }
      LaunchArgs a = first;
      a.n = pass.n;
      a.grid = pass.grid;
      a.atomic = false;
      if (k.in_place_global) {
        const auto pad = padded(s.type, s.op, nullptr, 0, std::uint64_t(pass.grid) * p.elems_per_block);
        scratch_.emplace_back(dev, pad.size());
        dev.upload(scratch_.back().p, pad.data(), pad.size());
        copies_.push_back({scratch_.back().p, src, pass.n * es_, launches_.size()});
        a.in = scratch_.back().p;
      } else {
        a.in = src;
      }
      buffers_.emplace_back(dev, std::size_t(pass.grid) * es_);
      a.out = buffers_.back().p;
      launches_.push_back(a);
      src = a.out;
    }
    if (!host_finish_) result_ = src;
  }

  void prepare() override {
    if (p_.kernel->in_place_global) dev_.copy(scratch_[0].p, pristine_.p, pristine_bytes_);
    if (p_.atomic()) dev_.upload(buffers_[0].p, &id_, es_);
  }

  void run_first(const rec::Layout* layout, const rec::Buffers* buffers) override {
    LaunchArgs a = launches_[0];
    if (!inputs_.empty() && !layout) a.in = inputs_[next_input_++ % inputs_.size()].p;
    dev_.launch(*p_.kernel, p_.scenario.type, a, layout, buffers);
  }

  void finish(bool traced_build) override {
    static const rec::Layout kNothing{};  // no block records: the probe's every call returns at once
    static const rec::Buffers kNowhere{};
    for (std::size_t i = 1; i < launches_.size(); ++i) {
      for (const Copy& c : copies_)
        if (c.before_launch == i) dev_.copy(c.dst, c.src, c.bytes);
      if (traced_build)
        dev_.launch(*p_.kernel, p_.scenario.type, launches_[i], &kNothing, &kNowhere);
      else
        dev_.launch(*p_.kernel, p_.scenario.type, launches_[i]);
    }
    if (host_finish_) {  // copy the partials back and combine them on the CPU (note 002)
      std::vector<std::uint8_t> partials(std::size_t(first_partials()) * es_);
      dev_.download(partials.data(), buffers_[0].p, partials.size());
      host_result_ = id_;
      for (std::uint64_t b = 0; b < first_partials(); ++b) {
        std::uint64_t v = 0;
        std::memcpy(&v, partials.data() + std::size_t(b) * es_, es_);
        host_result_ = combine_bits(p_.scenario.type, p_.scenario.op, host_result_, v);
      }
    }
  }

  Check check() override {
    std::uint64_t bits = host_result_;
    if (!host_finish_) dev_.download(&bits, result_, es_);
    return check_result(p_.scenario, input_, bits, sequential_adds());
  }

 private:
  std::uint64_t first_partials() const { return reduction_partials(*p_.kernel, p_.scenario, p_.grid); }
  // Partials a finish combines one after another (the float error bound of check_result).
  std::uint64_t sequential_adds() const {
    if (p_.atomic() || host_finish_) return first_partials();
    if (p_.kernel->single_pass) return (p_.grid + p_.scenario.block - 1) / p_.scenario.block;
    return 0;
  }

  struct Copy {  // partials into an in-place pass's scratch, before launch `before_launch`
    void* dst;
    const void* src;
    std::size_t bytes;
    std::size_t before_launch;
  };
  Device& dev_;
  const Plan p_;
  const void* input_;
  std::size_t es_;
  std::uint64_t id_;
  bool host_finish_ = false;
  std::uint64_t host_result_ = 0;
  DeviceBuffer pristine_;  // the padded original of an in-place scratch
  std::size_t pristine_bytes_ = 0;
  std::vector<DeviceBuffer> inputs_;  // the input's copies (not in-place kernels)
  std::size_t next_input_ = 0;
  std::vector<DeviceBuffer> scratch_, buffers_;  // in-place scratches; partials, ticket, pass outputs
  std::vector<LaunchArgs> launches_;  // [0] the first launch, then the relaunches
  std::vector<Copy> copies_;
  void* result_ = nullptr;
};

// The sequential host loop: no device, no launch.
class HostRun final : public PlanRun {
 public:
  HostRun(const Plan& p, const void* input) : p_(p), input_(input) {}
  void run_first(const rec::Layout*, const rec::Buffers*) override { result_ = host_fold(p_.scenario, input_); }
  Check check() override { return check_result(p_.scenario, input_, result_, p_.scenario.n); }
  std::string device_name(const Device&) const override {
    return "host CPU (the loop runs on the host whatever the backend)";
  }

 private:
  const Plan p_;
  const void* input_;
  std::uint64_t result_ = 0;
};

std::size_t reduction_copy_bytes(const Plan& p) { return p.scenario.n * elem_size(p.scenario.type); }

double reduction_device_bytes(const Plan& p, std::size_t copies) {
  if (p.kernel->host_only) return 0;
  const double es = double(elem_size(p.scenario.type));
  // The input's copies (or the padded scratch and its original), partials (twice for a relaunch).
  const double input = p.kernel->in_place_global ? 2.0 * double(p.grid) * double(p.elems_per_block) * es
                                                 : double(copies) * double(p.scenario.n) * es;
  return input + 2.0 * double(p.grid) * es;
}

std::unique_ptr<PlanRun> make_reduction_run(Device& dev, const Plan& p, const void* input, std::size_t copies) {
  if (p.kernel->host_only) return std::make_unique<HostRun>(p, input);
  return std::make_unique<ReductionRun>(dev, p, input, copies);
}

// ---- Transposes: one launch, then the output against a CPU transpose, bit for bit.

class TransposeRun final : public PlanRun {
 public:
  TransposeRun(Device& dev, const Plan& p, const void* input, std::size_t copies)
      : dev_(dev), p_(p), input_(input), bytes_(std::size_t(p.scenario.n) * elem_size(p.scenario.type)) {
    for (std::size_t c = 0; c < std::max<std::size_t>(copies, 1); ++c) {
      ins_.emplace_back(dev, bytes_);
      dev.upload(ins_.back().p, input, bytes_);
      // All ones: a NaN pattern no input holds, so an element the kernel never wrote is a mismatch.
      outs_.emplace_back(dev, bytes_);
      dev.fill(outs_.back().p, 0xff, bytes_);
    }
    args_ = *first_launch_args(p);
  }

  void run_first(const rec::Layout* layout, const rec::Buffers* buffers) override {
    last_ = layout ? 0 : next_++ % ins_.size();
    LaunchArgs a = args_;
    a.in = ins_[last_].p;
    a.out = outs_[last_].p;
    dev_.launch(*p_.kernel, p_.scenario.type, a, layout, buffers);
  }

  // out[c][r] == in[r][c] (copies: out == in), bit for bit.
  Check check() override {
    const Scenario& s = p_.scenario;
    const std::size_t es = elem_size(s.type);
    std::vector<std::uint8_t> output(bytes_);
    dev_.download(output.data(), outs_[last_].p, bytes_);
    const auto* input = static_cast<const std::uint8_t*>(input_);
    const bool copies = p_.kernel->copies;
    std::uint64_t mismatches = 0;
    for (std::uint64_t r = 0; r < s.rows; ++r)
      for (std::uint64_t c = 0; c < s.cols; ++c) {
        const std::uint64_t from = r * s.cols + c, to = copies ? from : c * s.rows + r;
        mismatches += std::memcmp(input + from * es, output.data() + to * es, es) != 0;
      }
    const std::string shape = std::to_string(s.rows) + "x" + std::to_string(s.cols);
    const std::string out_shape = copies ? shape : std::to_string(s.cols) + "x" + std::to_string(s.rows);
    Check c;
    c.result_text = std::string(copies ? "copied " : "transposed ") + shape + ", " + std::to_string(mismatches) +
                    (mismatches == 1 ? " mismatch" : " mismatches");
    c.reference_text = (copies ? "the " + shape + " input" : "CPU transpose, " + out_shape) + ", compared bit for bit";
    c.abs_error = double(mismatches);
    c.bound = 0;
    c.correct = mismatches == 0;
    return c;
  }

 private:
  Device& dev_;
  const Plan p_;
  const void* input_;
  std::size_t bytes_;
  std::vector<DeviceBuffer> ins_, outs_;  // the matrix and its output, one pair per copy
  std::size_t next_ = 0, last_ = 0;
  LaunchArgs args_;
};

std::size_t transpose_copy_bytes(const Plan& p) { return 2 * std::size_t(p.scenario.n) * elem_size(p.scenario.type); }

double transpose_device_bytes(const Plan& p, std::size_t copies) {
  return double(copies) * double(transpose_copy_bytes(p));
}

std::unique_ptr<PlanRun> make_transpose_run(Device& dev, const Plan& p, const void* input, std::size_t copies) {
  return std::make_unique<TransposeRun>(dev, p, input, copies);
}

const FamilyRunner kReductionRunner{reduction_copy_bytes, reduction_device_bytes, make_reduction_run};
const FamilyRunner kTransposeRunner{transpose_copy_bytes, transpose_device_bytes, make_transpose_run};

// All-reduce: G buffers of n elements. Its runs are many launches on many GPUs (exec/allreduce_run.cpp, which
// run_plan hands them to), not one device's PlanRun; bench times them across GPUs (bench --gpus).
std::size_t allreduce_copy_bytes(const Plan& p) { return p.scenario.n * elem_size(p.scenario.type) * p.scenario.gpus; }
double allreduce_device_bytes(const Plan& p, std::size_t copies) {
  return double(allreduce_copy_bytes(p)) * double(copies);
}
std::unique_ptr<PlanRun> allreduce_make(Device&, const Plan& p, const void*, std::size_t) {
  throw ScenarioError("--kernel " + p.kernel->id + ": an all-reduce is timed across GPUs by `redlab bench --gpus G`");
}
const FamilyRunner kAllReduceRunner{allreduce_copy_bytes, allreduce_device_bytes, allreduce_make};

}  // namespace

std::optional<LaunchArgs> first_launch_args(const Plan& p) {
  const Scenario& s = p.scenario;
  LaunchArgs a;
  switch (p.kernel->family) {
    case Family::reduction:
      if (p.kernel->host_only) return std::nullopt;
      a.op = s.op;
      a.grid = p.grid;
      a.block = s.block;
      a.n = s.n;
      a.atomic = p.atomic();
      a.dynamic_smem = s.dynamic_smem;
      a.coarse = s.coarse;
      a.algo = s.algo;
      a.cluster = s.cluster ? s.cluster : 1;
      return a;
    case Family::transpose:
      a.rows = s.rows;
      a.cols = s.cols;
      a.block_rows = s.block_rows;
      a.block = s.block;
      return a;
    case Family::allreduce: break;
  }
  return std::nullopt;
}

const FamilyRunner& family_runner(const Plan& p) {
  if (p.kernel->family == Family::allreduce) return kAllReduceRunner;
  return p.kernel->family == Family::transpose ? kTransposeRunner : kReductionRunner;
}

}  // namespace redlab
