// A family's record: what every kernel of a family shares (kernels/kernel_record.h names the family of each
// kernel). Its facts say which options it takes, what its runs are checked against and which view draws
// them; its rules turn a scenario into the shape of its launches. Executors keep their side of a family in
// app/exec/family_run.h, the window its view in app/gui.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/kernel_record.h"
#include "core/scenario.h"
#include "core/trace.h"

namespace redlab {

// The view that draws one run of a family: the reduction tree, or the transposes' shared tile.
enum class FamilyView : std::uint8_t { tree, tile, ring };

struct FamilyRecord {
  Family id;
  const char* name;  // "reduction" | "transpose" | "allreduce"
  FamilyView view;
  const char* checked_against;  // what a result is compared with
  const char* default_compare;  // the window's scenario B when the kernel's record names none
  bool takes_matrix;  // --rows, --cols, --block-rows (n and block follow) instead of --n and --block
  bool takes_op;  // --op and --finish: a reduction's operator and how its partials meet
  unsigned traffic;  // DRAM bytes a run moves per input byte: 1 (read it) or 2 (read it, write it)
  // Bench times each kernel in rounds alternating with the family's reference kernel (KernelRecord::reference), for a
  // paired ratio.
  bool bench_pairs;

  // Options that follow from others (transposes: n = rows * cols, block = 32 * block_rows).
  void (*resolve)(Scenario&);
  // Refusal of the family's own options ("" when they are valid); kernel and focus blocks are checked by
  // make_plan.
  std::string (*validate)(const KernelRecord&, const Scenario&);
  // Blocks of the first launch, numbered x fastest.
  std::uint32_t (*first_grid)(const KernelRecord&, const Scenario&);
  // Every launch of a run: the first (with `grid` blocks), then what finishes it.
  std::vector<Pass> (*passes)(const KernelRecord&, const Scenario&, std::uint32_t grid);
  // One line: "interleaved int32 sum n=4096 block=256 random seed 1 finish relaunch".
  std::string (*describe)(const Scenario&);
  // A run too large for a device: "--n: 4096 elements need" / "--rows/--cols: a 64 x 64 matrix needs", and
  // what to do instead.
  std::string (*size_text)(const Scenario&);
  const char* smaller;
};

const FamilyRecord& family_record(Family);
// The family of a scenario's kernel (reductions when the kernel is unknown).
const FamilyRecord& family_of(const Scenario&);

// All-reduce: the blocks of one transfer's launch over `count` elements (one element per thread, at most the
// bounded grid; grid-stride beyond).
std::uint32_t allreduce_launch_grid(std::uint64_t count, unsigned block);

// The shape a kernel's formulas see for a resolved scenario.
KernelShape kernel_shape(const Scenario&);
// The values a reduction's launch of `grid` blocks leaves for the finish: one per block, or one per cluster.
std::uint64_t reduction_partials(const KernelRecord&, const Scenario&, std::uint32_t grid);

}  // namespace redlab
