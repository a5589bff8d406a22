#include "catalog.h"

#include <array>
#include <algorithm>
#include <bit>

namespace redlab {
namespace {

// slots: requests per (step, warp) in each class: shared load, shared store, global load, global store, reg.
KernelInfo reduce(std::string id, std::string title, std::string group, std::string seed, std::string teaches,
                  std::array<std::uint32_t, rec::kClasses> slots, bool in_place = false, unsigned per_thread = 1,
                  bool implemented = true, bool gpu_only = false) {
  KernelInfo k;
  k.id = id;
  k.title = std::move(title);
  k.group = std::move(group);
  k.seed = std::move(seed);
  k.teaches = std::move(teaches);
  k.source_file = "kernels/reduce/" + id + ".cuh";
  k.gpu_only = gpu_only;
  k.in_place_global = in_place;
  k.elems_per_thread = per_thread;
  for (int c = 0; c < rec::kClasses; ++c) k.slots[c] = slots[c];
  k.implemented = implemented;
  return k;
}

std::vector<KernelInfo> build() {
  std::vector<KernelInfo> v;
  const std::array<std::uint32_t, 5> shared_tree = {2, 1, 1, 1, 0};
  const std::array<std::uint32_t, 5> global_tree = {0, 0, 2, 1, 0};
  const std::array<std::uint32_t, 5> none = {0, 0, 0, 0, 0};
  v.push_back(reduce("global_inplace", "Tree in global memory", "1 naive", "002 reduce_global, 000 native",
                     "every level reads and writes global memory: the cost shared memory removes", global_tree,
                     true, 1));
  v.push_back(reduce("neighbored_modulo", "Neighbored pairs, tid % (2*stride)", "2 shared-memory tree",
                     "000 相邻归约, 001 reduce0, Harris 1",
                     "active threads scattered over every warp: divergence at every level", shared_tree));
  v.push_back(reduce("neighbored_strided", "Neighbored pairs, strided index", "2 shared-memory tree",
                     "001 reduce2, Harris 2",
                     "no divergence, but lanes 2*stride words apart collide in the same banks", shared_tree));
  v.push_back(reduce("interleaved", "Interleaved pairs (sequential addressing)", "2 shared-memory tree",
                     "000 交错归约, 001 reduce3, 002 reduce_shared, Harris 3",
                     "contiguous active threads and consecutive words: no divergence, no bank conflicts",
                     shared_tree));
  v.push_back(reduce("pmpp_simple", "PMPP simple (divergent) kernel", "3 PMPP chapter 10", "003 §10.3",
                     "PMPP's divergent tree: SIMD efficiency 255/864 on 256 elements", global_tree, true, 2));
  v.push_back(reduce("pmpp_convergent", "PMPP convergent kernel", "3 PMPP chapter 10", "003 §10.4",
                     "PMPP's convergent tree: whole warps retire, efficiency 255/384", global_tree, true, 2));
  v.push_back(reduce("load_add", "First add during load", "4 more work per thread", "003 §10.5, Harris 4",
                     "each thread adds two elements as it loads: half the blocks, no idle first level", {2, 1, 2, 1, 0},
                     false, 2));
  v.push_back(reduce("atomic_segmented", "Segmented, atomic finish", "4 more work per thread", "003 §10.6",
                     "one launch for any n: blocks combine their results with one atomic each", {2, 1, 2, 1, 0},
                     false, 2));
  v.back().always_atomic = true;
  v.push_back(reduce("coarsened", "Thread coarsening", "4 more work per thread", "003 §10.7",
                     "each thread first combines 2C elements: fewer blocks, less tree overhead", {2, 1, 8, 1, 0},
                     false, 8));
  v.back().always_atomic = true;
  v.push_back(reduce("warp_shuffle", "Warp shuffles", "5 warp level", "000 线程束内函数",
                     "registers and __shfl_down_sync instead of a shared-memory tree; the seed's mask bug",
                     {1, 1, 1, 1, 1}));
  v.push_back(reduce("unroll_last_warp", "Unrolled last warp", "5 warp level", "Harris 5, samples reduce4",
                     "once 32 threads remain, one warp finishes without barriers", {2, 1, 2, 1, 1}, false, 2));
  v.push_back(reduce("unroll_complete", "Completely unrolled", "5 warp level", "Harris 6, samples reduce5",
                     "block size as a template parameter: the compiler unrolls the whole tree", {2, 1, 2, 1, 1},
                     false, 2));
  v.push_back(reduce("multi_element", "Many elements per thread", "6 bandwidth", "Harris 7, samples reduce6",
                     "a bounded grid; each thread sums many elements first (grid-stride)", {2, 1, 2, 1, 1}, false, 2));
  v.back().bounded_grid = kBoundedGrid;
  v.push_back(reduce("grid_stride_warp", "Grid-stride + warp reduce", "6 bandwidth", "samples reduce7",
                     "grid-stride loads, warp reduce, one shared value per warp", {1, 1, 2, 1, 0}, false, 2));
  v.back().bounded_grid = kBoundedGrid;
  v.push_back(reduce("cg_reduce", "Cooperative groups reduce", "6 bandwidth", "samples cg_reduce",
                     "cg::reduce does the warp tree for you", none, false, 2, true, true));
  v.back().traceable = false;
  v.back().no_atomic = true;
  v.back().bounded_grid = kBoundedGrid;
  v.push_back(reduce("vectorized", "16-byte loads, one value per block", "6 bandwidth", "ours",
                     "16-byte loads, grid-stride, warp reduce, one launch: as fast as CUB", {1, 1, 4, 1, 0}, false,
                     16));
  v.back().bounded_grid = kBoundedGrid;
  v.back().balanced_grid = true;
  v.back().single_pass = true;
  v.push_back(reduce("cub_block", "cub::BlockReduce", "7 libraries", "001 (CUB)",
                     "CUB's block-level reduction (--algo warp_reductions, raking, raking_commutative)", none, false,
                     2, true, true));
  v.back().traceable = false;
  v.back().no_atomic = true;
  v.push_back(reduce("cub_device", "cub::DeviceReduce", "7 libraries", "001 (CUB)",
                     "the library reduction every kernel is measured against", none, false, 1, true, true));
  v.back().traceable = false;
  v.back().single_pass = true;
  v.push_back(reduce("cpu_sequential", "Sequential host loop", "7 libraries", "003 §10.1",
                     "the loop everything starts from, timed on the CPU", none, false, 1, true));
  v.back().traceable = false;
  v.back().host_only = true;
  // Transposes (002): slots are per row a thread moves; trace_shape multiplies them by 32 / block_rows.
  auto transpose = [&](std::string id, std::string title, std::string seed, std::string teaches, bool shared) {
    KernelInfo k = reduce(id, std::move(title), "8 transposes", std::move(seed), std::move(teaches),
                          shared ? std::array<std::uint32_t, 5>{1, 1, 1, 1, 0} : std::array<std::uint32_t, 5>{0, 0, 1, 1, 0});
    k.source_file = "kernels/transpose/" + id + ".cuh";
    k.transpose = true;
    v.push_back(std::move(k));
  };
  transpose("copy", "Matrix copy", "002 (the bandwidth ceiling)",
            "coalesced reads and writes: the bandwidth every transpose is measured against", false);
  transpose("copy_shared", "Copy through a shared tile", "002 (staging without transposing)",
            "what the shared tile and its barrier cost before any transposing", true);
  transpose("transpose_naive", "Naive transpose", "002 (out[x][y] = in[y][x])",
            "coalesced reads, scattered writes: each store request touches 32 sectors", false);
  transpose("transpose_tiled", "Tiled transpose, tile[32][32]", "002 transpose1 (使用共享内存实现矩阵转置)",
            "coalesced both ways through a shared tile, but reading a tile column is a 32-way bank conflict", true);
  transpose("transpose_padded", "Padded tile, tile[32][33]", "002 (避免共享内存的 bank 冲突)",
            "one padding column shifts each row by a bank: the column read is conflict-free", true);
  transpose("transpose_swizzled", "XOR-swizzled tile", "002 (bank conflicts; swizzle is ours)",
            "column c of row r stored at c ^ r: conflict-free for float32 and float64 without padding", true);
  return v;
}

}  // namespace

const std::vector<KernelInfo>& catalog() {
  static const std::vector<KernelInfo> c = build();
  return c;
}

const KernelInfo* find_kernel(const std::string& id) {
  for (auto& k : catalog())
    if (k.id == id) return &k;
  return nullptr;
}

std::string kernel_ids(bool only_implemented) {
  std::string s;
  for (auto& k : catalog()) {
    if (only_implemented && !k.implemented) continue;
    s += s.empty() ? "" : ", ";
    s += k.id;
  }
  return s;
}

std::uint64_t elems_per_block(const KernelInfo& k, const Scenario& s) {
  if (k.transpose) return 32 * 32;  // one tile
  std::uint64_t per_thread = k.elems_per_thread;
  if (k.id == "coarsened") per_thread = 2ull * s.coarse;
  if (k.id == "vectorized") per_thread = 4 * (16 / elem_size(s.type));  // 4 loads of 16 bytes
  return per_thread * s.block;
}

std::uint32_t first_grid(const KernelInfo& k, const Scenario& s) {
  if (k.transpose) return std::uint32_t((std::uint64_t(s.cols) + 31) / 32 * ((std::uint64_t(s.rows) + 31) / 32));
  const std::uint64_t per_block = elems_per_block(k, s);
  std::uint64_t grid = (s.n + per_block - 1) / per_block;
  if (k.bounded_grid && grid > k.bounded_grid) {
    // Balanced: with `strides` grid strides needed anyway, ceil(grid / strides) blocks do them all and the
    // last stride is (nearly) full, instead of a last stride in which most blocks have nothing to load.
    const std::uint64_t strides = (grid + k.bounded_grid - 1) / k.bounded_grid;
    grid = k.balanced_grid ? (grid + strides - 1) / strides : k.bounded_grid;
  }
  return std::uint32_t(grid);
}

namespace {
// Iterations of a grid-stride loop: the same in every block.
unsigned grid_strides(const KernelInfo& k, const Scenario& s) {
  const std::uint64_t per_stride = elems_per_block(k, s) * first_grid(k, s);
  std::uint64_t n = s.n;
  if (k.id == "vectorized") n = s.n / (16 / elem_size(s.type)) * (16 / elem_size(s.type));  // whole vectors
  return unsigned((n + per_stride - 1) / per_stride);
}
}  // namespace

TraceShape trace_shape(const KernelInfo& k, const Scenario& s) {
  TraceShape t;
  for (int c = 0; c < rec::kClasses; ++c) t.slots[c] = k.slots[c];
  if (k.transpose) {  // steps tile_load and tile_store; a thread moves 32 / block_rows rows in each
    for (auto& slots : t.slots) slots *= 32 / (s.block_rows ? s.block_rows : 1);
    t.steps = 2;
    return t;
  }
  auto& global_loads = t.slots[int(rec::Class::global_load)];
  if (k.id == "coarsened") global_loads = 2 * s.coarse;
  if (k.id == "vectorized") global_loads = std::max(4u, (first_grid(k, s) + s.block - 1) / s.block);
  const unsigned levels = unsigned(std::countr_zero(s.block));  // log2(block)
  const unsigned above_warp = levels > 6 ? levels - 6 : 0;       // tree levels with offset > 32
  if (k.id == "pmpp_simple" || k.id == "pmpp_convergent")
    t.steps = levels + 1 + 1;  // tree to stride B, store
  else if (k.id == "warp_shuffle")
    t.steps = 1 + 5 + 1 + 1 + (levels - 5) + 1;
  else if (k.id == "global_inplace")
    t.steps = levels + 1;  // tree, store
  else if (k.id == "unroll_last_warp" || k.id == "unroll_complete")
    t.steps = 1 + above_warp + 1 + 5 + 1;  // load, tree while offset > 32, last warp, shuffles, store
  else if (k.id == "multi_element")
    t.steps = grid_strides(k, s) + 1 + above_warp + 1 + 5 + 1;
  else if (k.id == "grid_stride_warp")
    t.steps = grid_strides(k, s) + 4 + 1;
  else if (k.id == "vectorized")  // one block stores its value; more meet through partials and a ticket
    t.steps = grid_strides(k, s) + 1 + 4 + 1 + (first_grid(k, s) == 1 ? 0 : 1 + 4 + 1);
  else
    t.steps = 1 + levels + 1;  // load, tree, store
  return t;
}

}  // namespace redlab
