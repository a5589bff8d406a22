// The kernel catalog (SPEC section 4): what each kernel is, where it comes from, what it teaches, and the
// facts the executors need (elements per block, trace slot counts, steps per block).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "../../kernels/trace_record.h"
#include "scenario.h"

namespace redlab {

struct KernelInfo {
  std::string id;
  std::string title;
  std::string group;        // "naive", "shared memory tree", "warp level", ...
  std::string seed;         // seed document / source reference
  std::string teaches;      // one line: what it teaches
  std::string source_file;  // kernels/reduce/<id>.cuh, for the code view
  bool gpu_only = false;
  bool in_place_global = false;   // works in place on a scratch copy x in global memory
  unsigned elems_per_thread = 1;  // elements a block covers = elems_per_thread * block
  std::uint32_t slots[rec::kClasses] = {};  // requests per class per (step, warp) in a trace
  bool implemented = true;
  bool transpose = false;          // a matrix transpose: --rows/--cols/--block-rows, 2D grid of 32x32 tiles
  bool always_atomic = false;     // finishes with one atomic per block whatever --finish says
  bool traceable = true;          // has a TraceProbe instantiation (library kernels do not)
  unsigned bounded_grid = 0;      // > 0: the first launch uses at most this many blocks (grid-stride loops)
  bool balanced_grid = false;     // bounded: as few blocks as keep the grid-stride count, so the last stride is full
  bool single_pass = false;       // one launch leaves the result in out[0] (last-block finish)
  bool no_atomic = false;         // writes one partial per block only (no --finish atomic)
  bool host_only = false;         // runs on the host CPU (cpu_sequential)
};

// Largest grid of the grid-stride kernels: 16 blocks per SM on a 132-SM H200 (the anchors' best), and the
// same on every device so that GPU and emulator traces of a scenario are comparable.
constexpr unsigned kBoundedGrid = 2112;

const std::vector<KernelInfo>& catalog();
const KernelInfo* find_kernel(const std::string& id);
std::string kernel_ids(bool only_implemented = true);  // "a, b, c" for error messages

// The first launch of a scenario: elements each block covers (before any grid-stride loop) and the grid.
std::uint64_t elems_per_block(const KernelInfo&, const Scenario&);
std::uint32_t first_grid(const KernelInfo&, const Scenario&);

// What one block of the first launch records: its steps (exact; the trace refuses more) and the requests
// per class per (step, warp).
struct TraceShape {
  unsigned steps = 0;
  std::uint32_t slots[rec::kClasses] = {};
};
TraceShape trace_shape(const KernelInfo&, const Scenario&);

}  // namespace redlab
