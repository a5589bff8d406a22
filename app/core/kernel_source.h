// A kernel's source as the line table and the probe see it: its own file and the files of kernels/ it includes
// (the block and warp layers, the family's common code). A step's record names only the line of its
// probe.step(...) call (kernels/probe.cuh: __builtin_LINE); the call may sit in a helper, such as
// block_reduce.cuh's four steps, so the file is found here: the first of these files with a probe.step call at
// that line, the kernel's own file first.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "../../kernels/trace_record.h"

namespace redlab {

struct KernelSources {
  // Paths relative to the data folder ("kernels/reduce/vectorized.cuh"), the kernel's own file first.
  std::vector<std::string> files;
  std::map<std::string, std::vector<std::string>> lines;
  // The file whose line `line` calls probe.step; where several do (vectorized.cuh and block_reduce.cuh both
  // at line 22), the one whose call names the step's label; the kernel's own file when none does.
  std::string file_of_step(std::uint32_t line, rec::Label label = rec::Label::none) const;
};

// Reads `source_file` (core/resources.h finds it) and, transitively, the quoted includes under kernels/.
KernelSources load_kernel_sources(const std::string& source_file);

}  // namespace redlab
