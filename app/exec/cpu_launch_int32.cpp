// The kernels for element type int32, compiled for the host onto the CPU SIMT emulator.
#include "cpu_launch.h"

#include "launch_table.inc"

namespace redlab {
void cpu_launch_int32(const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) {
  launch_table::launch_typed<std::int32_t>(a, layout, buffers);
}
}  // namespace redlab
