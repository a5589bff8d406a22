// A kernel's source as the line table and the probe see it: its own file and the files of kernels/ it includes
// (the block and warp layers, the family's common code). A step's record names only the line of its
// probe.step(...) call (kernels/probe.cuh: __builtin_LINE); the call may sit in a helper, such as
// block_reduce.cuh's four steps, so the file is found here: the first of these files with a probe.step call at
// that line, the kernel's own file first.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/trace_record.h"
#include "core/trace.h"

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

// Where in the kernel's source a warp's access was made, as a student reads it: the file, the line, and the indexing
// expression ("s[tid + stride]"). The emulator's trace names the file and the column of one of the expression's
// brackets (a GPU's trace names none); where a trace names only the line, the file is the first of the kernel's with an
// indexing expression on that line, and the expression the line's only one (the statement, trimmed, where it has several).
struct AccessSource {
  std::string file;  // one of KernelSources::files
  std::uint32_t line = 0;
  std::string expression;  // at most kMaxExpression bytes, "..." where cut
  std::size_t start = std::string::npos;  // where the expression starts in its line (npos: the column is not known)
  static constexpr std::size_t kMaxExpression = 60;
};
std::optional<AccessSource> access_source(const Trace&, const WarpAccess&, const KernelSources&);

// The indexing expression on `line` whose closing bracket is at `column` (1-based), with its array's name and any
// brackets before it ("tile[ty][tx]"); "" when there is none there. Column 0: the line's only indexing expression.
std::string indexing_expression(std::string_view line, unsigned column, std::size_t* start = nullptr);

}  // namespace redlab
