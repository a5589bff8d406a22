// The kernels for element type float64, compiled by nvcc for the GPU.
#include "cuda_launch.h"

#include "launch_table.inc"

namespace redlab {
void cuda_launch_float64(const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) {
  launch_table::launch_typed<double>(a, layout, buffers);
}
}  // namespace redlab
