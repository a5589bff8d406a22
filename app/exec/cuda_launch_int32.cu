// The kernels for element type int32, compiled by nvcc for the GPU.
#include "cuda_launch.h"

#include "launch_table.inc"

namespace redlab {
void cuda_launch_int32(const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) {
  launch_table::launch_typed<std::int32_t>(a, layout, buffers);
}
}  // namespace redlab
