// redlab's version: the release number, and the commit where it was built from a checkout that is not the
// release's tag ("0.1.0+git.7c4a6bc"). Written into every trace and shown by `redlab --version` and Help > About.
#pragma once

namespace redlab {

const char* version();

}  // namespace redlab
