// The kernel catalog (SPEC section 4): what each kernel is, where it comes from, what it teaches, and the
// facts the executors need (elements per block, trace slot counts, steps per block).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "../../kernels/trace_record.h"

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
};

const std::vector<KernelInfo>& catalog();
const KernelInfo* find_kernel(const std::string& id);
std::string kernel_ids(bool only_implemented = true);  // "a, b, c" for error messages

// Steps one block of the first launch records (exact; the trace refuses more).
unsigned steps_per_block(const KernelInfo&, unsigned block);

}  // namespace redlab
