// How a record becomes a launcher: the runtime choices of a launch (operator, probe, block size, block rows)
// turned into template arguments, once per family, and the registration a record's file ends with.
//
// Compiled once per backend and element type: the translation units that cmake/redlab_kernels.cmake
// generates include the backend's launch macro (exec/cuda_launch.h or exec/cpu_launch.h), define
// REDLAB_RECORD_ELEMENT (std::int32_t, float or double) and include every record. A record file included
// anywhere else registers its record only.
//
// What a record provides, by family:
//   reductions: template <unsigned B, class T, class Op, class Probe>
//               static void launch(const LaunchArgs&, const Probe&);   B = the block size
//   transposes: template <unsigned BR, class T, class Probe>
//               static void launch(const LaunchArgs&, const Probe&);   BR = block rows (K)
// and static KernelRecord record(), static constexpr bool traceable / gpu_only, and the formulas
// elems_per_block(shape) and trace_shape(shape, grid) (the family's defaults below unless it has its own).
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernel_record.h"
#include "ops.cuh"
#include "probe.cuh"

namespace redlab::kernels {
inline namespace REDLAB_BACKEND_NS {  // one copy per backend (see cuda_compat.cuh)

constexpr Backend kThisBackend = REDLAB_ON_GPU ? Backend::cuda : Backend::emulator;

template <class T>
constexpr ElemType elem_type_of() {
  if constexpr (std::is_same_v<T, std::int32_t>) return ElemType::int32;
  else if constexpr (std::is_same_v<T, float>) return ElemType::float32;
  else return ElemType::float64;
}

// Block sizes and block rows: the powers of two a scenario accepts, each a template instantiation. A kernel file
// (exec/user_kernel.cpp) is compiled for its scenario's block size, block rows and operator only
// (REDLAB_USER_BLOCK, REDLAB_USER_BLOCK_ROWS, REDLAB_USER_OP): one instance instead of every combination halves
// and more the compile a student waits for; another scenario compiles the file again (and keeps both).
#define REDLAB_STRINGIFY_(x) #x
#define REDLAB_STRINGIFY(x) REDLAB_STRINGIFY_(x)
template <class F>
void with_block(unsigned b, F&& f) {
#ifdef REDLAB_USER_BLOCK
  if (b != REDLAB_USER_BLOCK)
    throw std::invalid_argument("block size " + std::to_string(b) + ": this kernel file was compiled for block " +
                                REDLAB_STRINGIFY(REDLAB_USER_BLOCK));
  f(std::integral_constant<unsigned, REDLAB_USER_BLOCK>{});
#else
  switch (b) {
    case 32: f(std::integral_constant<unsigned, 32>{}); break;
    case 64: f(std::integral_constant<unsigned, 64>{}); break;
    case 128: f(std::integral_constant<unsigned, 128>{}); break;
    case 256: f(std::integral_constant<unsigned, 256>{}); break;
    case 512: f(std::integral_constant<unsigned, 512>{}); break;
    case 1024: f(std::integral_constant<unsigned, 1024>{}); break;
    default: throw std::invalid_argument("block size " + std::to_string(b) + " has no instantiation");
  }
#endif
}
template <class F>
void with_block_rows(unsigned k, F&& f) {
#ifdef REDLAB_USER_BLOCK_ROWS
  if (k != REDLAB_USER_BLOCK_ROWS)
    throw std::invalid_argument("--block-rows " + std::to_string(k) + ": this kernel file was compiled for " +
                                REDLAB_STRINGIFY(REDLAB_USER_BLOCK_ROWS));
  f(std::integral_constant<unsigned, REDLAB_USER_BLOCK_ROWS>{});
#else
  switch (k) {
    case 1: f(std::integral_constant<unsigned, 1>{}); break;
    case 2: f(std::integral_constant<unsigned, 2>{}); break;
    case 4: f(std::integral_constant<unsigned, 4>{}); break;
    case 8: f(std::integral_constant<unsigned, 8>{}); break;
    case 16: f(std::integral_constant<unsigned, 16>{}); break;
    case 32: f(std::integral_constant<unsigned, 32>{}); break;
    default: throw std::invalid_argument("--block-rows " + std::to_string(k) + " has no instantiation");
  }
#endif
}

// The traced build when a layout is given (records that have one), else the timed build. REDLAB_TIMED_BUILD_ONLY
// leaves the traced build out: tests/test_sass.sh compiles the catalog's timed kernels alone.
template <class R, class Go>
void with_probe(const rec::Layout* layout, const rec::Buffers* buffers, Go&& go) {
#ifndef REDLAB_TIMED_BUILD_ONLY
  if constexpr (R::traceable) {
    if (layout) {
      TraceProbe probe;
      probe.layout = *layout;
      probe.buf = *buffers;
      go(probe);
      return;
    }
  } else {
    if (layout) throw std::invalid_argument("library code has no traced build");
  }
#else
  (void)layout;
  (void)buffers;
#endif
  go(NoProbe{});
}

template <class R, class T>
void launch_reduction(const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) {
  auto with_op = [&](auto op) {
    using Op = decltype(op);
    with_probe<R>(layout, buffers, [&](const auto& probe) {
      with_block(a.block, [&](auto B) { R::template launch<decltype(B)::value, T, Op>(a, probe); });
    });
  };
#ifdef REDLAB_USER_OP   // a kernel file compiled for one operator (0 sum, 1 min, 2 max: OpKind)
  if (int(a.op) != REDLAB_USER_OP)
    throw std::invalid_argument(std::string("--op: this kernel file was compiled for --op ") +
                                (REDLAB_USER_OP == 0 ? "sum" : REDLAB_USER_OP == 1 ? "min" : "max"));
  if constexpr (REDLAB_USER_OP == int(OpKind::sum)) with_op(Sum<T>{});
  else if constexpr (REDLAB_USER_OP == int(OpKind::min)) with_op(Min<T>{});
  else with_op(Max<T>{});
#else
  switch (a.op) {
    case OpKind::sum: with_op(Sum<T>{}); break;
    case OpKind::min: with_op(Min<T>{}); break;
    case OpKind::max: with_op(Max<T>{}); break;
  }
#endif
}

template <class R, class T>
void launch_allreduce(const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) {
  with_probe<R>(layout, buffers, [&](const auto& probe) {
    switch (a.op) {
      case OpKind::sum: R::template launch<T, Sum<T>>(a, probe); break;
      case OpKind::min: R::template launch<T, Min<T>>(a, probe); break;
      case OpKind::max: R::template launch<T, Max<T>>(a, probe); break;
    }
  });
}
template <class R, class T>
void launch_transpose(const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) {
  with_probe<R>(layout, buffers, [&](const auto& probe) {
    with_block_rows(a.block_rows, [&](auto BR) { R::template launch<decltype(BR)::value, T>(a, probe); });
  });
}

// The family's formulas, for records without their own.
inline TraceShape with_slots(const KernelRecord& r, unsigned steps, unsigned scale = 1) {
  TraceShape t;
  t.steps = steps;
  for (int c = 0; c < rec::kClasses; ++c) t.slots[c] = r.slots[c] * scale;
  return t;
}
inline unsigned tree_levels(const KernelShape& s) {  // log2(block); records compile as C++17 under nvcc
  unsigned levels = 0;
  for (unsigned b = s.block; b > 1; b >>= 1) ++levels;
  return levels;
}
inline unsigned cluster_levels(const KernelShape& s) {  // log2(blocks per cluster)
  unsigned levels = 0;
  for (unsigned c = s.cluster; c > 1; c >>= 1) ++levels;
  return levels;
}
// Iterations of a grid-stride loop over `n` elements (the same in every block).
inline unsigned grid_strides(std::uint64_t n, std::uint64_t per_block, std::uint32_t grid) {
  const std::uint64_t per_stride = per_block * grid;
  return unsigned((n + per_stride - 1) / per_stride);
}

struct reduction_kernel {
  static constexpr Family family = Family::reduction;
  static constexpr bool traceable = true, gpu_only = false, host_only = false;
  // One element per thread unless the record says more.
  static std::uint64_t elems_per_block(const KernelShape& s) { return s.block; }
  // load, one step per tree level, store.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t) {
    return with_slots(r, 1 + tree_levels(s) + 1);
  }
};
struct transpose_kernel {
  static constexpr Family family = Family::transpose;
  static constexpr bool traceable = true, gpu_only = false, host_only = false;
  static std::uint64_t elems_per_block(const KernelShape&) { return 32 * 32; }  // one tile
  // tile_load and tile_store; a thread moves tile.dim / K rows in each.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t) {
    return with_slots(r, 2, r.tile.dim / (s.block_rows ? s.block_rows : 1));
  }
};
// Library code (CUB, cooperative groups): no traced build, GPU only.
struct library_kernel : reduction_kernel {
  static constexpr bool traceable = false, gpu_only = true;
};

// The slots of the common shapes; a reduction keeps one global atomic for --finish atomic.
// Load into s, combine s, store (or the atomic).
constexpr Slots kSharedTree{.shared_load = 2, .shared_store = 1, .global_load = 1, .global_store = 1, .global_atomic = 1};
// Combine x in global memory.
constexpr Slots kGlobalTree{.global_load = 2, .global_store = 1, .global_atomic = 1};
// Transposes, per row moved: through a shared tile, or global memory only.
constexpr Slots kTileShared{.shared_load = 1, .shared_store = 1, .global_load = 1, .global_store = 1};
constexpr Slots kTileGlobal{.global_load = 1, .global_store = 1};

// The launch arguments as the kernel's pointer types.
template <class T> const T* input_of(const LaunchArgs& a) { return static_cast<const T*>(a.in); }
template <class T> T* output_of(const LaunchArgs& a) { return static_cast<T*>(a.out); }
// Transposes: one block per dim x dim tile (32 unless the record's tile is wider), x along the columns.
inline dim3 tile_grid(const LaunchArgs& a, unsigned dim = 32) {
  return dim3((a.cols + dim - 1) / dim, (a.rows + dim - 1) / dim);
}

// The source a record describes, from the record's own file: kernels/<dir>/<id>.record.cuh describes
// kernels/<dir>/<id>.cuh (the path from the folder above <dir>, as redlab's files are found); a kernel file of the
// student's own holds its kernel and its record, and is named as the compiler saw it.
#if !defined(__CUDACC_RTC__)
inline std::string source_of_record_file(const std::string& file) {
  const std::string suffix = ".record.cuh";
  if (file.size() <= suffix.size() || file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0) return file;
  const std::string source = file.substr(0, file.size() - suffix.size()) + ".cuh";
  std::size_t start = source.rfind('/');
  for (int up = 0; up < 2 && start != std::string::npos && start > 0; ++up) start = source.rfind('/', start - 1);
  return start == std::string::npos ? source : source.substr(start + 1);
}
#else
std::string source_of_record_file(const std::string& file);   // host code NVRTC parses and never compiles
#endif

// The record as the registry keeps it: texts and facts from R::record(), formulas from R; `file`: the record's
// file (__FILE__ where it registers).
template <class R>
KernelRecord full_record(const char* file) {
  KernelRecord r = R::record();
  if (r.sources.empty()) r.sources = r.seed;
  r.seed.clear();
  if (r.source_file.empty()) r.source_file = source_of_record_file(file);
  r.family = R::family;
  r.gpu_only = R::gpu_only;
  r.traceable = R::traceable;
  r.host_only = R::host_only;
  r.elems_per_block = &R::elems_per_block;
  r.trace_shape = &R::trace_shape;
  return r;
}

// The launcher of record R for element type T on its family's dispatch.
template <class R, class T>
constexpr LaunchFn family_launcher() {
  if constexpr (R::family == Family::reduction) return &launch_reduction<R, T>;
  else if constexpr (R::family == Family::allreduce) return &launch_allreduce<R, T>;
  else return &launch_transpose<R, T>;
}

#ifdef REDLAB_USER_KERNEL_GPU
// A student's kernel file (exec/user_launch.h): the one host-compiled library also launches on the GPU, its
// REDLAB_LAUNCH handing each kernel to redlab's NVRTC launcher while this runs.
template <class R, class T>
void launch_on_gpu_through_nvrtc(const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) {
  struct OnGpu {
    OnGpu() { ::redlab::user_kernel_on_gpu = true; }
    ~OnGpu() { ::redlab::user_kernel_on_gpu = false; }
  } on_gpu;
  family_launcher<R, T>()(a, layout, buffers);
}
#endif

// Registers R's record and, in a translation unit built for element type T on a backend that can run it,
// its launcher. Returns true (the value of a registration variable).
template <class R, class T>
bool register_record(const char* file) {
  const KernelRecord r = full_record<R>(file);
  register_kernel_record(r);
  // Transposes move float32 and float64 matrices. A library all-reduce (NCCL) is one call across every GPU, made by
  // the all-reduce run itself: it has no launch on one GPU.
  if constexpr (!std::is_void_v<T> && !R::host_only && (REDLAB_ON_GPU || !R::gpu_only) &&
                !(R::family == Family::allreduce && R::gpu_only) &&
                (R::family != Family::transpose || !std::is_integral_v<T>)) {
    register_kernel_launcher(r.id, kThisBackend, elem_type_of<T>(), family_launcher<R, T>());
#ifdef REDLAB_USER_KERNEL_GPU
    register_kernel_launcher(r.id, Backend::cuda, elem_type_of<T>(), &launch_on_gpu_through_nvrtc<R, T>);
#endif
  }
  return true;
}

}  // namespace REDLAB_BACKEND_NS
}  // namespace redlab::kernels

#ifndef REDLAB_RECORD_ELEMENT
#define REDLAB_RECORD_ELEMENT void
#endif
// The last line of a record file: registers the record (and its launcher, where this translation unit
// builds one) before main() runs.
#if defined(__CUDACC_RTC__)
#define REDLAB_KERNEL_RECORD(R)
#else
#define REDLAB_KERNEL_RECORD(R)                                                                         \
  namespace redlab::kernels {                                                                           \
  namespace {                                                                                           \
  [[maybe_unused]] const bool R##_registered = register_record<R, REDLAB_RECORD_ELEMENT>(__FILE__);    \
  }                                                                                                     \
  }
#endif
