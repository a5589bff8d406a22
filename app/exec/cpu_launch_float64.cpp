// The kernels for element type float64, compiled for the host onto the CPU SIMT emulator.
#include "cpu_launch.h"

#include "launch_table.inc"

namespace redlab {
void cpu_launch_float64(const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) {
  launch_table::launch_typed<double>(a, layout, buffers);
}
}  // namespace redlab
