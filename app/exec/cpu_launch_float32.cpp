// The kernels for element type float32, compiled for the host onto the CPU SIMT emulator.
#include "cpu_launch.h"

#include "launch_table.inc"

namespace redlab {
void cpu_launch_float32(const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) {
  launch_table::launch_typed<float>(a, layout, buffers);
}
}  // namespace redlab
