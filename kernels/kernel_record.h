// A kernel of the catalog as one record: what it is and teaches, the facts its runs depend on (how its first
// launch is shaped, what one block records, how it finishes), and how to launch it on each backend.
//
// Each kernel's record sits beside its source, in kernels/<family>/<id>.record.cuh, and is the only place
// that says anything about that kernel: the catalog, the plan of a run, the launch, the trace layout and the
// views all read it. The build compiles every record once per backend and element type
// (cmake/redlab_kernels.cmake) and each registers itself at start-up (kernels/register.cuh); the registry
// lives in app/core/catalog.cpp. Adding a kernel is its .cuh and its .record.cuh.
//
// Plain host C++ (no CUDA): app/core reads it, and the records compile under nvcc and the host compiler.
#pragma once
#include <cstdint>
#include <string>

#include "trace_record.h"

namespace redlab {

enum class ElemType : std::uint8_t { int32, float32, float64 };
enum class OpKind : std::uint8_t { sum, min, max };
constexpr int kElemTypes = 3;

// A family: kernels that take the same options, run through the same steps and are drawn by the same view.
// What differs between families lives in their rules (app/core/family.h), runs (app/exec/family_run.h) and
// views (app/gui), chosen by this value.
// allreduce: one buffer per GPU, every GPU's combined into each (app/core/allreduce.h); the kernels move and combine
// one range between two GPUs, the record's algorithm schedules them.
enum class Family : std::uint8_t { reduction, transpose, allreduce };

// Largest grid of the grid-stride kernels: 16 blocks per SM on a 132-SM H200 (the anchors' best), and the
// same on every device so that GPU and emulator traces of a scenario are comparable.
constexpr unsigned kBoundedGrid = 2112;

// The executors that can run a kernel.
enum class Backend : std::uint8_t { emulator = 0, cuda = 1 };
constexpr int kBackends = 2;

// The sizes a record's formulas see: the scenario after its family resolved it (transposes: n = rows * cols,
// block = 32 * block_rows).
struct KernelShape {
  std::uint64_t n = 0;              // elements
  unsigned block = 0;               // threads per block
  unsigned elem_size = 4;           // bytes per element
  unsigned coarse = 4;              // --coarse: elements a coarsened thread combines, halved
  std::uint32_t rows = 0, cols = 0; // transposes: the matrix
  unsigned block_rows = 8;          // transposes: K, blocks of 32 x K threads
  unsigned cluster = 1;             // cluster kernels: blocks per thread block cluster (--cluster)
};

// The room one block of the first launch's trace starts with: steps, and requests per access class per (step,
// warp). The trace counts what the kernel makes, and a block that needs more room is traced again with more
// (app/core/trace_builder.h): the formulas need not be exact, only close, so that one pass is enough.
struct TraceShape {
  unsigned steps = 0;
  std::uint32_t slots[rec::kClasses] = {};
};

// One launch's arguments, whatever the kernel; each record's launch reads the ones its kernel takes.
struct LaunchArgs {
  OpKind op = OpKind::sum;
  std::uint32_t grid = 1, block = 256;   // reductions: linear grid and block (transposes derive theirs)
  const void* in = nullptr;              // input (or scratch for in-place kernels)
  void* out = nullptr;                   // partials[grid] or out[0] when atomic; the transposed matrix
  std::uint64_t n = 0;
  bool atomic = false;
  bool dynamic_smem = false;
  unsigned coarse = 4;
  void* partials = nullptr;              // single-pass kernels: one partial per block
  unsigned* blocks_done = nullptr;       // single-pass kernels: the last-block ticket (starts at 0)
  unsigned algo = 0;                     // cub_block: 0 warp_reductions, 1 raking, 2 raking_commutative
  std::uint32_t rows = 0, cols = 0;      // transposes: rows x cols in, cols x rows out
  unsigned block_rows = 8;
  bool combine = true;                   // all-reduce: combine the peer's range into out (false: copy it)
  rec::Phase phase = rec::Phase::load;   // all-reduce: the schedule's step the launch belongs to
  unsigned cluster = 1;                  // cluster kernels: blocks per cluster (the grid a multiple of it)
};

// Launches the kernel once on its backend: traced into `buffers` (laid out by `layout`) when `layout` is
// given, else the timed (uninstrumented) build. The emulator runs it to completion; CUDA enqueues it and
// waits unless a timing loop is enqueueing (exec/cuda_launch.h).
using LaunchFn = void (*)(const LaunchArgs&, const rec::Layout* layout, const rec::Buffers* buffers);

// How a transpose keeps its shared tile (the tile view draws it).
struct TileLayout {
  bool shared = true;             // the kernel stages through a shared tile at all
  unsigned dim = 32;              // the tile's side in elements: a block moves dim x dim of the matrix
  unsigned pitch = 32;            // elements per tile row in shared memory (33: one padding column)
  unsigned vector = 1;            // elements one shared access moves (2: the tile is kept and moved in pairs)
  bool swizzled = false;          // unit u (of `vector` elements) of row r kept at u ^ (r / vector)
  const char* decl = "tile[32][32]";
};

// Requests one warp makes per access class in one step (transposes: per row a thread moves): the room one
// block's trace keeps for them.
struct Slots {
  std::uint32_t shared_load = 0, shared_store = 0, global_load = 0, global_store = 0, reg = 0, shared_atomic = 0,
                global_atomic = 0, remote_shared_load = 0, remote_shared_store = 0;
  std::uint32_t operator[](int c) const {
    switch (rec::Class(c)) {
      case rec::Class::shared_load: return shared_load;
      case rec::Class::shared_store: return shared_store;
      case rec::Class::global_load: return global_load;
      case rec::Class::global_store: return global_store;
      case rec::Class::reg: return reg;
      case rec::Class::shared_atomic: return shared_atomic;
      case rec::Class::global_atomic: return global_atomic;
      case rec::Class::remote_shared_load: return remote_shared_load;
      case rec::Class::remote_shared_store: return remote_shared_store;
    }
    return 0;
  }
};

// A record names its fields (designated initialisers, in this order) and says only what differs from these
// defaults. Where a kernel stands in the catalog is the catalog's list (app/core/catalog.cpp); its source file
// is the record's file without ".record" (kernels/reduce/interleaved.cuh), or a kernel file itself.
struct KernelRecord {
  // What it is.
  std::string id;
  std::string title;
  std::string group;        // "2 shared-memory tree": the catalog's grouping, in teaching order
  std::string sources;      // where it comes from: the course notes ("000", "001 reduce3"), the books ("Harris 3",
                            // "PMPP §10.3"), the samples ("samples reduce2")
  std::string seed;         // the old name of `sources`, in kernel files written before it was renamed (read as it)
  std::string teaches;      // one line: what it teaches
  std::string source_file;  // kernels/<dir>/<id>.cuh, for the code view (filled in at registration)
  Family family = Family::reduction;

  // Facts every run of it depends on.
  bool gpu_only = false;          // library code the emulator cannot run (CUB, cooperative groups)
  bool traceable = true;          // has a traced (TraceProbe) build
  bool host_only = false;         // runs on the host CPU whatever the backend (cpu_sequential)
  bool in_place_global = false;   // works in place on a scratch copy of the input in global memory
  bool always_atomic = false;     // finishes with one atomic per block whatever --finish says
  bool no_atomic = false;         // writes one partial per block only (no --finish atomic)
  bool single_pass = false;       // one launch leaves the result in out[0] (last-block finish)
  bool has_dynamic_smem = false;  // --dynamic-smem: a variant sized at launch (extern __shared__)
  bool has_algo = false;          // --algo: CUB's BlockReduce algorithms
  bool own_launch = false;        // its library chooses its grid and block (cub_device): --block changes nothing
  bool clustered = false;         // launches thread block clusters of --cluster blocks (Hopper) and writes one
                                  // partial per cluster
  unsigned bounded_grid = 0;      // > 0: the first launch uses at most this many blocks (grid-stride loops)
  bool balanced_grid = false;     // bounded: as few blocks as keep the grid-stride count (last stride full)
  bool copies = false;            // transposes: the output is the input, not its transpose (the copy kernels)
  TileLayout tile;                // transposes: the shared tile
  bool reference = false;         // what the rest of its family is measured against: cub_device (bench's x CUB),
                                  // copy (the transposes' % of copy)
  std::string compare_with;       // the GUI's scenario B when this kernel is A (empty: the family's default)
  std::string remark;             // a figure the books quote differently, and why (stats and the GUI)
  std::uint8_t algorithm = 0;     // all-reduce: the schedule (allreduce::Algorithm: 0 naive, 1 ring, 2 tree, 3 NCCL's)

  // What one block records: requests per access class per (step, warp), as the kernel's source makes them
  // (transposes: per row a thread moves); trace_shape() gives the room for steps and slots at a shape.
  Slots slots;
  // Elements one block of the first launch covers (before any grid-stride loop), and what it records when
  // the first launch has `grid` blocks.
  std::uint64_t (*elems_per_block)(const KernelShape&) = nullptr;
  TraceShape (*trace_shape)(const KernelRecord&, const KernelShape&, std::uint32_t grid) = nullptr;

  // The launch on each backend, per element type (nullptr: not built there).
  LaunchFn launch[kBackends][kElemTypes] = {};
  LaunchFn launcher(Backend b, ElemType t) const { return launch[int(b)][int(t)]; }
};

// The registry (app/core/catalog.cpp). A record registers once per backend and element type it is built
// for; the first registration of an id adds the record, each one adds its launcher.
void register_kernel_record(const KernelRecord&);
void register_kernel_launcher(const std::string& id, Backend, ElemType, LaunchFn);

}  // namespace redlab
