// Where redlab's files are at run time (assets/, kernels/, and app/'s headers that kernel files compile against):
// in $REDLAB_DATA_DIR when it is set; for an installed redlab, under share/redlab beside its bin/ (or next to the
// executable, or one level up: an unpacked folder); for one inside the build tree it came from, in the source
// tree, which no installed redlab ever reads.
#pragma once
#include <string>

namespace redlab {

// The path of `relative` ("assets/i18n/en.json", "kernels/reduce/interleaved.cuh") under the first of those
// folders that has it, or "" when none does.
std::string find_resource(const std::string& relative);

// The folder redlab's files come from (the one that holds assets/i18n/en.json), "" when none has them.
std::string resource_root();

}  // namespace redlab
