// Where redlab's files are at run time: assets/, kernels/ and shaders/ next to the executable, one level up,
// under share/redlab, in $REDLAB_DATA_DIR, or in the source tree the build came from.
#pragma once
#include <string>

namespace redlab {

// The path of `relative` ("assets/i18n/en.json", "kernels/reduce/interleaved.cuh") under the first of those
// folders that has it, or "" when none does.
std::string find_resource(const std::string& relative);

}  // namespace redlab
