#include "core/family.h"

#include <algorithm>
#include <sstream>

#include "core/allreduce.h"
#include "core/catalog.h"

namespace redlab {

std::uint64_t reduction_partials(const KernelRecord& k, const Scenario& s, std::uint32_t grid) {
  return k.clustered ? grid / std::max(1u, s.cluster) : grid;
}

KernelShape kernel_shape(const Scenario& s) {
  KernelShape k;
  k.n = s.n;
  k.block = s.block;
  k.elem_size = unsigned(elem_size(s.type));
  k.coarse = s.coarse;
  k.rows = s.rows;
  k.cols = s.cols;
  k.block_rows = s.block_rows;
  k.cluster = s.cluster ? s.cluster : 1;
  return k;
}

std::uint32_t allreduce_launch_grid(std::uint64_t count, unsigned block) {
  return std::uint32_t(std::clamp<std::uint64_t>((count + block - 1) / block, 1, kBoundedGrid));
}

namespace {

// --gpus on a kernel that runs on one GPU.
std::string one_gpu(const KernelRecord& k) {
  std::string with;
  for (const KernelRecord* other : catalog())
    if (other->family == Family::allreduce) with += (with.empty() ? "" : ", ") + other->id;
  return "--gpus: kernel '" + k.id + "' runs on one GPU; the all-reduce kernels take --gpus: " + with;
}

// --cluster: a power of two up to 16 for the kernels that launch clusters; refused by every other kernel.
std::string cluster_refusal(const KernelRecord& k, const Scenario& s) {
  if (k.clustered) {  // (0: not given, the default)
    if (s.cluster > 16 || (s.cluster & (s.cluster - 1)) != 0)
      return "--cluster: " + std::to_string(s.cluster) +
             " is not accepted; use 1, 2, 4, 8 or 16 blocks per cluster (16 only where the card allows it)";
    return {};
  }
  if (!s.cluster) return {};
  std::string with;
  for (const KernelRecord* other : catalog())
    if (other->clustered) with += (with.empty() ? "" : ", ") + other->id;
  return "--cluster: kernel '" + k.id + "' launches no thread block clusters; the kernels that do: " + with;
}

// ---- Reductions: n elements of one type combined by one operator into one value.

void reduction_resolve(Scenario& s) {
  const KernelRecord* k = find_kernel(s.kernel);
  if (k && k->clustered && s.cluster == 0) s.cluster = kDefaultCluster;
}

std::string reduction_validate(const KernelRecord& k, const Scenario& s) {
  if (s.n < 1 || s.n > kMaxN)
    return "--n: " + std::to_string(s.n) + " is out of range; use 1.." + std::to_string(kMaxN);
  if (!is_block_size(s.block))
    return "--block: " + std::to_string(s.block) + " is not accepted; use a power of two from 32 to 1024";
  if (s.coarse < 1 || s.coarse > 64) return "--coarse: " + std::to_string(s.coarse) + " is out of range; use 1..64";
  if (k.no_atomic && s.finish == Finish::atomic)
    return "--finish atomic: kernel '" + k.id + "' writes one partial per block; use --finish relaunch or host";
  if (s.dynamic_smem && !k.has_dynamic_smem) {
    std::string with;
    for (const KernelRecord* other : catalog())
      if (other->has_dynamic_smem) with += (with.empty() ? "" : ", ") + other->id;
    return "--dynamic-smem: kernel '" + k.id + "' has no dynamic shared-memory variant; kernels that have one: " + with;
  }
  if (k.gpu_only && s.backend == BackendChoice::cpu)
    return "--backend cpu: kernel '" + k.id +
           "' runs on the GPU only (it uses CUDA library code the "
           "emulator cannot run); use --backend cuda or auto";
  if (s.gpus) return one_gpu(k);
  return cluster_refusal(k, s);
}

std::uint32_t reduction_grid(const KernelRecord& k, const Scenario& s) {
  const std::uint64_t per_block = k.elems_per_block(kernel_shape(s));
  std::uint64_t grid = (s.n + per_block - 1) / per_block;
  if (k.bounded_grid && grid > k.bounded_grid) {
    // Balanced: with `strides` grid strides needed anyway, ceil(grid / strides) blocks do them all and the
    // last stride is (nearly) full, instead of a last stride in which most blocks have nothing to load.
    const std::uint64_t strides = (grid + k.bounded_grid - 1) / k.bounded_grid;
    grid = k.balanced_grid ? (grid + strides - 1) / strides : k.bounded_grid;
  }
  // A cluster kernel's grid is whole clusters (CUDA refuses another); the blocks past n reduce identities.
  if (k.clustered) {
    const std::uint64_t c = std::max(1u, s.cluster);  // (0: not resolved yet, as one block)
    grid = (grid + c - 1) / c * c;
  }
  return std::uint32_t(grid);
}

std::vector<Pass> reduction_passes(const KernelRecord& k, const Scenario& s, std::uint32_t grid) {
  if (k.host_only) return {{.on_host = true, .n = s.n}};
  const bool atomic = !k.no_atomic && (s.finish == Finish::atomic || k.always_atomic);
  std::vector<Pass> passes{{.kernel = k.id, .n = s.n, .grid = grid, .block = s.block, .atomic = atomic}};
  const std::uint64_t partials = reduction_partials(k, s, grid);
  if (atomic || k.single_pass || partials == 1) return passes;
  if (s.finish == Finish::host) {  // the partials back to the host, combined there (seed 002)
    passes.push_back({.on_host = true, .n = partials});
    return passes;
  }
  // Relaunch the same kernel (uninstrumented) on the partials until one value is left.
  for (std::uint64_t count = partials; count > 1;) {
    Scenario over_partials = s;
    over_partials.n = count;
    const std::uint32_t g = reduction_grid(k, over_partials);
    passes.push_back({.kernel = k.id, .n = count, .grid = g, .block = s.block});
    count = reduction_partials(k, s, g);
  }
  return passes;
}

std::string reduction_describe(const Scenario& s) {
  std::ostringstream o;
  o << s.kernel << (s.dynamic_smem ? " (dynamic smem)" : "") << ' ' << to_string(s.type) << ' ' << to_string(s.op)
    << " n=" << s.n << " block=" << s.block << ' ' << to_string(s.input);
  if (s.input == InputKind::random) o << " seed " << s.seed;
  o << " finish " << to_string(s.finish);
  if (s.cluster) o << " cluster " << s.cluster;
  return o.str();
}

std::string reduction_size(const Scenario& s) { return "--n: " + std::to_string(s.n) + " elements need"; }

// ---- Transposes: a rows x cols matrix moved through 32 x 32 tiles (the record's tile.dim) by blocks of
// 32 x block_rows threads.

void transpose_resolve(Scenario& s) {
  s.n = std::uint64_t(s.rows) * s.cols;
  s.block = 32 * s.block_rows;
}

std::string transpose_validate(const KernelRecord& k, const Scenario& s) {
  if (s.rows < 1 || s.rows > kMaxSide)
    return "--rows: " + std::to_string(s.rows) + " is out of range; use 1.." + std::to_string(kMaxSide);
  if (s.cols < 1 || s.cols > kMaxSide)
    return "--cols: " + std::to_string(s.cols) + " is out of range; use 1.." + std::to_string(kMaxSide);
  if (std::uint64_t(s.rows) * s.cols > kMaxN)
    return "--rows/--cols: " + std::to_string(s.rows) + " x " + std::to_string(s.cols) + " is more than " +
           std::to_string(kMaxN) + " elements; use a smaller matrix";
  if (s.block_rows < 1 || s.block_rows > 32 || (s.block_rows & (s.block_rows - 1)) != 0)
    return "--block-rows: " + std::to_string(s.block_rows) + " is not accepted; use a power of two from 1 to 32";
  if (s.type == ElemType::int32)
    return "--type: transposes move float32 or float64 matrices, not int32; use float32|float64";
  if (s.gpus) return one_gpu(k);
  return cluster_refusal(k, s);
}

std::uint32_t transpose_grid(const KernelRecord& k, const Scenario& s) {
  const std::uint64_t dim = k.tile.dim;
  return std::uint32_t((s.cols + dim - 1) / dim * ((s.rows + dim - 1) / dim));
}

std::vector<Pass> transpose_passes(const KernelRecord& k, const Scenario& s, std::uint32_t grid) {
  return {{.kernel = k.id, .n = s.n, .grid = grid, .block = s.block}};
}

std::string transpose_describe(const Scenario& s) {
  std::ostringstream o;
  o << s.kernel << ' ' << to_string(s.type) << ' ' << s.rows << 'x' << s.cols << " block 32x" << s.block_rows << ' '
    << to_string(s.input);
  if (s.input == InputKind::random) o << " seed " << s.seed;
  return o.str();
}

std::string transpose_size(const Scenario& s) {
  return "--rows/--cols: a " + std::to_string(s.rows) + " x " + std::to_string(s.cols) + " matrix needs";
}

const FamilyRecord kReduction{
    .id = Family::reduction,
    .name = "reduction",
    .view = FamilyView::tree,
    .checked_against = "the CPU's reduction of the same input (int32, min and max exact; float sums within a bound)",
    .default_compare = "interleaved",
    .takes_matrix = false,
    .takes_op = true,
    .traffic = 1,
    .bench_pairs = true,
    .resolve = reduction_resolve,
    .validate = reduction_validate,
    .first_grid = reduction_grid,
    .passes = reduction_passes,
    .describe = reduction_describe,
    .size_text = reduction_size,
    .smaller = "use a smaller --n"};

const FamilyRecord kTranspose{.id = Family::transpose,
                              .name = "transpose",
                              .view = FamilyView::tile,
                              .checked_against = "a CPU transpose of the same matrix (copies: the matrix), bit for bit",
                              .default_compare = "transpose_padded",
                              .takes_matrix = true,
                              .takes_op = false,
                              .traffic = 2,
                              .bench_pairs = false,
                              .resolve = transpose_resolve,
                              .validate = transpose_validate,
                              .first_grid = transpose_grid,
                              .passes = transpose_passes,
                              .describe = transpose_describe,
                              .size_text = transpose_size,
                              .smaller = "use a smaller matrix"};

// ---- All-reduce: G GPUs with n elements each; every GPU ends with the element-wise combination of all G buffers.
// The first launch is the schedule's largest transfer (its grid is what one launch of it uses).

void allreduce_resolve(Scenario& s) {
  if (s.gpus == 0) s.gpus = 2;  // not given: the smallest machine with more than one GPU
}

std::string allreduce_validate(const KernelRecord& k, const Scenario& s) {
  if (s.gpus < 2 || s.gpus > 8) return "--gpus: " + std::to_string(s.gpus) + " is out of range; use 2..8";
  if (s.n < 1 || s.n > kMaxN / s.gpus)
    return "--n: " + std::to_string(s.n) + " elements on each of " + std::to_string(s.gpus) +
           " GPUs is out of range; use 1.." + std::to_string(kMaxN / s.gpus);
  if (!is_block_size(s.block))
    return "--block: " + std::to_string(s.block) + " is not accepted; use a power of two from 32 to 1024";
  if (s.finish != Finish::relaunch)
    return "--finish: kernel '" + k.id + "' leaves the result on every GPU; it has no finishing pass";
  if (s.coarse != Scenario{}.coarse) return "--coarse: kernel '" + k.id + "' moves one element per thread per stride";
  if (s.dynamic_smem) return "--dynamic-smem: kernel '" + k.id + "' uses no shared memory";
  return cluster_refusal(k, s);
}

std::uint32_t allreduce_grid(const KernelRecord& k, const Scenario& s) {
  std::uint64_t most = 0;
  for (const allreduce::Step& step : allreduce::schedule(allreduce::Algorithm(k.algorithm), s.gpus, s.n))
    for (const allreduce::Transfer& t : step.transfers) most = std::max(most, t.elements());
  return allreduce_launch_grid(most, s.block);
}

std::vector<Pass> allreduce_passes(const KernelRecord& k, const Scenario& s, std::uint32_t grid) {
  return {{.kernel = k.id, .n = s.n, .grid = grid, .block = s.block}};
}

std::string allreduce_describe(const Scenario& s) {
  std::ostringstream o;
  o << s.kernel << ' ' << to_string(s.type) << ' ' << to_string(s.op) << " n=" << s.n << " block=" << s.block
    << " gpus=" << s.gpus << ' ' << to_string(s.input);
  if (s.input == InputKind::random) o << " seed " << s.seed;
  return o.str();
}

std::string allreduce_size(const Scenario& s) {
  return "--n: " + std::to_string(s.n) + " elements on each of " + std::to_string(s.gpus) + " GPUs need";
}

const FamilyRecord kAllReduce{
    .id = Family::allreduce,
    .name = "allreduce",
    .view = FamilyView::ring,
    .checked_against =
        "the CPU's element-wise combination of every GPU's input, on every GPU (int32, min and max "
        "exact; float sums within a bound)",
    .default_compare = "allreduce_naive",
    .takes_matrix = false,
    .takes_op = true,
    .traffic = 2,
    .bench_pairs = false,
    .resolve = allreduce_resolve,
    .validate = allreduce_validate,
    .first_grid = allreduce_grid,
    .passes = allreduce_passes,
    .describe = allreduce_describe,
    .size_text = allreduce_size,
    .smaller = "use a smaller --n or fewer --gpus"};

}  // namespace

const FamilyRecord& family_record(Family f) {
  switch (f) {
    case Family::reduction: return kReduction;
    case Family::transpose: return kTranspose;
    case Family::allreduce: return kAllReduce;
  }
  return kReduction;
}

const FamilyRecord& family_of(const Scenario& s) {
  const KernelRecord* k = find_kernel(s.kernel);
  return family_record(k ? k->family : Family::reduction);
}

}  // namespace redlab
