// The trace model: what a traced run recorded, in plain C++ (no CUDA, no GL). The GUI views, the CLI and
// the trace files all read this; executors fill it through TraceBuilder (trace_builder.h).
//
// Per step of the first launch: figures summed over every block (StepStats). For the blocks in focus
// (Scenario::focus_blocks): every warp's active mask and every warp-level access with its per-lane addresses
// and values, enough to replay the reduction tree and the bank grid.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/occupancy.h"
#include "kernels/kernel_record.h"
#include "kernels/trace_record.h"
#include "core/bank_model.h"
#include "core/fault.h"
#include "core/scenario.h"

namespace redlab {

using rec::Phase;
const char* to_string(Phase);
// A phase by its name as to_string gives it ("reduce_scatter"); none for another word.
std::optional<Phase> parse_phase(const std::string&);

// remote_shared: another block's shared memory in a thread block cluster (distributed shared memory).
enum class Space : std::uint8_t { shared, global, reg, remote_shared };
enum class AccessKind : std::uint8_t { load, store, value, atomic };
const char* to_string(Space);
const char* to_string(AccessKind);
const char* to_string(rec::AtomicOp);

// One warp-level request: the lanes that executed one memory instruction together.
struct WarpAccess {
  Space space = Space::shared;
  AccessKind kind = AccessKind::load;
  std::uint8_t width = 4;  // bytes per lane
  std::uint8_t buffer = 0;  // global: rec::Buffer; reg and remote_shared: unused (a remote lane's address names its
      // block: rec::remote_address)
  rec::AtomicOp op = rec::AtomicOp::none;  // atomics: what the lanes did to the word
  std::uint32_t mask = 0;  // lanes that took part
  std::array<std::uint32_t, 32> addr{};  // byte offsets (reg: the lane the value came from)
  std::array<std::uint64_t, 32> bits{};  // values, bit patterns of the element type
  // Derived by analysis: shared -> wavefronts and ideal; global -> sectors.
  unsigned wavefronts = 0, ideal = 0, sectors = 0;
  // Where the kernel made it (its first lane's record; the emulator's traces say, the GPU's do not: kernels/probe.cuh):
  // the indexing expression's line (0: not known), the column of one of its brackets (0: not known) and its file
  // (1 + an index in Trace::access_files; 0: not known, the kernel's sources say which has an access at that line).
  std::uint32_t line = 0;
  std::uint16_t column = 0, file = 0;
};
// A request as the bank model and the sector count read it: its lanes, their addresses, width and direction.
WarpAddresses addresses_of(const WarpAccess&);

struct WarpStep {
  std::uint32_t warp = 0;
  std::uint32_t active = 0;  // lanes whose guard was true (they did the step's work)
  std::int64_t cycles = -1;  // GPU: clock64 delta of lane 0 across the step; -1 when not measured
  std::vector<WarpAccess> accesses;  // canonical order: class, then first active lane's address
};

struct StepStats {
  std::uint64_t active_threads = 0, active_warps = 0, divergent_warps = 0;
  std::uint64_t smem_load_requests = 0, smem_load_wavefronts = 0, smem_load_ideal = 0;
  std::uint64_t smem_store_requests = 0, smem_store_wavefronts = 0, smem_store_ideal = 0;
  std::uint64_t gmem_load_requests = 0, gmem_load_sectors = 0;
  std::uint64_t gmem_store_requests = 0, gmem_store_sectors = 0;
  // Atomics are their own kind, never loads or stores: a flag's ticket, a block's result into out[0].
  std::uint64_t smem_atomic_requests = 0, smem_atomic_wavefronts = 0;
  std::uint64_t gmem_atomic_requests = 0, gmem_atomic_sectors = 0;
  // Distributed shared memory (a cluster's blocks reading and writing each other's shared memory): requests, and the
  // bytes their active lanes move.
  std::uint64_t dsmem_load_requests = 0, dsmem_load_bytes = 0, dsmem_store_requests = 0, dsmem_store_bytes = 0;
  std::optional<double> cycles;  // median over warps of the step's clock64 deltas (GPU only)
  bool operator==(const StepStats&) const = default;
};

struct Step {
  Phase phase = Phase::load;
  rec::Label label_kind = rec::Label::none;
  std::int32_t param = 0;
  std::uint32_t line = 0;  // line of the probe.step() call in the kernel's source file
  std::string label;  // "stride 4", "offset 16", "load", ...
  StepStats stats;
};

struct FocusBlock {
  std::uint32_t block = 0;
  std::vector<std::vector<WarpStep>> steps;  // [step][warp]
};

struct Pass {
  std::string kernel;  // kernel id ("" when the host runs it; files say "host")
  bool on_host = false;  // the host CPU runs it: a CPU finish, or a host-only kernel's loop
  std::uint64_t n = 0;  // elements in
  std::uint32_t grid = 0, block = 0;
  bool atomic = false;
};

// All-reduce (Family::allreduce): one transfer of a step, and the receiving GPU's launch that made it.
struct GpuTransfer {
  std::uint32_t from = 0, to = 0;  // the GPU whose buffer was read (over the link) and the GPU that ran the launch
  std::uint32_t chunk = 0;  // the ring's chunk; 0 where the whole buffer moved
  std::uint64_t lo = 0, hi = 0;  // elements [lo, hi) of each GPU's buffer
  std::uint64_t bytes = 0;  // on the link from -> to
  bool combine = false;  // combined into the receiver's own (else copied over it)
  StepStats stats;  // the launch's figures (its one step)
  bool operator==(const GpuTransfer&) const = default;
};

// A shared array the first launch declared, as the emulator saw the kernel give it to the probe: what the views
// draw it as (the transposes' tile: its rows, and its row length with any padding).
struct SharedDeclaration {
  std::string name;  // the kernel's name for the array ("tile"), "" where its probe call does not say
  std::uint32_t elem_bytes = 0;  // one element (a row's element of a 2D array)
  std::uint64_t rows = 0;  // the array's extent (rows of a 2D array); 0: given as a pointer, extent unknown
  std::uint64_t row_length = 0;  // elements of a 2D array's row; 0 for a 1D array
  std::uint64_t offset = 0;  // bytes into the block's shared window
  bool flag = false;  // probe.shared_flag: one variable
  bool operator==(const SharedDeclaration&) const = default;
};

struct Trace {
  static constexpr int kFormatVersion = 2;  // 2: atomics are their own kind (op, smem/gmem_atomic_*)
  Scenario scenario;
  Backend backend = Backend::emulator;  // in files: "cuda" | "cpu"
  std::string device;  // "NVIDIA H200 (sm_90)" or "CPU SIMT emulator (host ...)"
  std::string host;  // machine name it was recorded on
  std::string recorded_at;  // ISO 8601 UTC
  std::string redlab_version;

  std::uint32_t grid = 0, block = 0, warps_per_block = 0;  // first launch
  std::uint64_t elems_per_block = 0;
  std::string result, reference;  // printed in the element type's own precision
  double abs_error = 0, error_bound = 0;
  bool correct = false;

  std::vector<Step> steps;
  std::vector<FocusBlock> focus;
  std::vector<Pass> passes;
  std::uint64_t digest = 0;  // hash of every block's raw records (masks, addresses, values)
  std::uint64_t traced_blocks = 0;
  std::uint64_t trace_bytes_peak = 0;  // largest raw trace buffer used at once
  unsigned trace_chunks = 0;  // runs of the first launch needed to trace every block
  // Host wall time of the traced runs, their analysis on the device and the copies back (an upper bound on their GPU
  // time).
  double trace_ms = 0;
  std::optional<Fault> fault;  // the run stopped at a fault in the kernel (above)
  std::vector<std::string> access_files;  // the files WarpAccess::file names, as the compiler named them
  // The first launch's shared arrays (above); none known where the emulator did not run it (a GPU trace the emulator
  // could not name, an older file), an empty list for a kernel that has none.
  std::optional<std::vector<SharedDeclaration>> shared_arrays;
  // A kernel file's record as data (what the views read: its names, flags, tile and slots; no launcher and no
  // formula), written by the second redlab that ran the file, so that the first one never loads the student's
  // library. Empty for the catalog's kernels.
  std::optional<KernelRecord> kernel_record;
  // All-reduce: the GPUs (virtual ones on the emulator), and per step what moved between them. A step's `stats` are
  // its transfers' launches summed; `focus` holds, per step, the focus blocks of the first launch on GPU 0 that step
  // (no warps where GPU 0 received nothing).
  std::uint32_t gpus = 1;
  std::vector<std::vector<GpuTransfer>> transfers;
  // The first launch's occupancy (core/occupancy.h): the GPU's own on a GPU, the reference card's bound on the
  // emulator; none where the run has no kernel of the catalog's (or an older file).
  std::optional<Occupancy> occupancy;
};

// Summary figures (tree_simd_efficiency = sum active_threads / (32 * sum active_warps) over tree steps).
struct Summary {
  std::optional<double> tree_simd_efficiency;
  std::uint64_t tree_active_threads = 0, tree_active_warps = 0;
  std::uint64_t smem_wavefronts = 0, smem_ideal = 0, gmem_sectors = 0, smem_requests = 0, gmem_requests = 0;
  std::uint64_t smem_atomic_requests = 0, gmem_atomic_requests = 0;
  std::uint64_t dsmem_requests = 0, dsmem_bytes = 0;  // another block's shared memory (a cluster kernel's)
  unsigned tree_steps = 0;
};
Summary summarize(const Trace&);
// Whether a step of the trace reached another block's shared memory (a cluster kernel's): the per-step tables show
// distributed shared memory's figures only then (every other kernel's would be columns of zeros).
bool uses_distributed_shared_memory(const Trace&);

// Values of element type `t` as text, and back to double for plotting.
std::string format_value(ElemType t, std::uint64_t bits);
double value_as_double(ElemType t, std::uint64_t bits);

// Trace files: "RLTRACE" magic, format version, FNV-1a checksum, CBOR body. Load refuses a damaged or
// foreign file with a message saying what is wrong.
void save_trace(const Trace&, const std::string& path);
// The largest trace file load_trace reads (a trace of 256 focus blocks at 2^24 takes a few MB).
inline constexpr std::size_t kMaxTraceFileBytes = std::size_t(256) << 20;
Trace load_trace(const std::string& path);  // throws std::runtime_error with the reason
// The same from and to bytes: a file's contents (`name` names it in messages), and the header around a body.
Trace parse_trace(std::string_view file_bytes, const std::string& name);
std::string trace_file_with_body(const std::uint8_t* cbor_body, std::size_t size);

}  // namespace redlab
