// The transpose kernels compiled for the host, onto the CPU SIMT emulator (runs each launch to completion).
#include "cpu_launch.h"

#define REDLAB_TRANSPOSE_START(fn, grid, block, ...) \
  ::redlab::emu::launch(grid, block, 0, [&] { fn(__VA_ARGS__); })

#include "transpose.h"
#include "transpose_table.inc"

namespace redlab {
void cpu_transpose_start(const TransposeArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) {
  transpose_table::start_typed(a, layout, buffers);
}
}  // namespace redlab
