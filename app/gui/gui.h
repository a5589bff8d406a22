// The window. `redlab` / `redlab gui` land here.
#pragma once
#include "model/options.h"

namespace redlab {

int run_gui(const GuiOptions&);

}  // namespace redlab
