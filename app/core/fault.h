// A fault in a kernel, part of the trace model (trace.h holds it; exec/device.h throws it without the rest).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace redlab {

// What went wrong in the kernel itself, as the emulator found it: a race between warps, a shared index past an
// array's end, or another launch error inside a kernel (a deadlock, a misuse of a warp intrinsic). A trace with a
// fault holds the faulting block alone (its focus), its steps from the first to the one it happened in: the
// figures are that block's up to the fault, and there is no result.
struct FaultAccess {
  std::uint32_t thread = 0;  // linear index in its block
  std::int32_t step = -1;  // the step it was made in (-1: before the first)
  std::string file;  // the indexing expression's file and line (line 0: not known)
  std::uint32_t line = 0;
  bool write = false;
  // The block that made it (linear in the grid): the fault's, or, in a race through distributed shared memory,
  // another block of its cluster.
  std::uint32_t block = 0;
};
enum class FaultKind : std::uint8_t { race, out_of_bounds, other };
const char* to_string(FaultKind);
struct Fault {
  FaultKind kind = FaultKind::other;
  std::string message;  // the emulator's report
  std::uint32_t block = 0;
  std::uint32_t step = 0;  // the last step the trace keeps: where it happened
  // That step as the emulator noted it (the first thread to reach it), for a trace whose own record of the step was
  // not written yet (thread 0 writes it, and may not have reached it): probe.step's phase, label, parameter and
  // line (line 0: not noted).
  std::uint8_t step_phase = 0, step_label = 0;
  std::int32_t step_param = 0;
  std::uint32_t step_line = 0;
  std::vector<FaultAccess> accesses;  // a race's two accesses in the kernel's order, or the bad index's one
  std::string element;  // what they used, as the kernel names it ("s[32]"; "" when not known)
  std::int64_t byte = -1;  // a race's element: its offset in the block's shared memory (-1: none)
  // The block whose shared memory holds the element: the fault's, or another block of its cluster.
  std::uint32_t element_block = 0;
  // Whether the race is across the cluster: an access came from, or the element is in, another block than the fault's.
  bool across_cluster() const;
};

}  // namespace redlab
