// Explicit NoProbe (timed) instantiations of every kernel, compiled twice by tests/test_sass.sh: once from
// kernels/ as they are, once from a copy with every probe call stripped. Their SASS must be identical.
#include "allreduce/peer_range.cuh"
#include "reduce/atomic_segmented.cuh"
#include "reduce/coarsened.cuh"
#include "reduce/global_inplace.cuh"
#include "reduce/grid_stride_warp.cuh"
#include "reduce/load_add.cuh"
#include "reduce/multi_element.cuh"
#include "reduce/unroll_complete.cuh"
#include "reduce/unroll_last_warp.cuh"
#include "reduce/vectorized.cuh"
#include "reduce/interleaved.cuh"
#include "reduce/neighbored_modulo.cuh"
#include "reduce/neighbored_strided.cuh"
#include "reduce/pmpp_convergent.cuh"
#include "reduce/pmpp_simple.cuh"
#include "reduce/warp_shuffle.cuh"
#include "transpose/copy.cuh"
#include "transpose/copy_shared.cuh"
#include "transpose/transpose_naive.cuh"
#include "transpose/transpose_padded.cuh"
#include "transpose/transpose_swizzled.cuh"
#include "transpose/transpose_tiled.cuh"
#include "transpose/transpose_vectorized.cuh"

using namespace redlab::kernels;
using P = NoProbe;
template __global__ void redlab::kernels::copy<8, float, P>(const float*, float*, unsigned, unsigned, P);
template __global__ void redlab::kernels::copy_shared<8, double, P>(const double*, double*, unsigned, unsigned, P);
template __global__ void redlab::kernels::transpose_naive<4, float, P>(const float*, float*, unsigned, unsigned, P);
template __global__ void redlab::kernels::transpose_tiled<8, float, P>(const float*, float*, unsigned, unsigned, P);
template __global__ void redlab::kernels::transpose_padded<1, double, P>(const double*, double*, unsigned, unsigned, P);
template __global__ void redlab::kernels::transpose_swizzled<32, float, P>(const float*, float*, unsigned, unsigned, P);
template __global__ void redlab::kernels::transpose_swizzled<8, double, P>(const double*, double*, unsigned, unsigned, P);
template __global__ void redlab::kernels::transpose_vectorized<8, float, P>(const float*, float*, unsigned, unsigned, P);
template __global__ void redlab::kernels::transpose_vectorized<16, double, P>(const double*, double*, unsigned, unsigned, P);
template __global__ void redlab::kernels::neighbored_modulo<256, float, Sum<float>, P>(const float*, float*, unsigned, bool, P);
template __global__ void redlab::kernels::neighbored_strided<256, int, Max<int>, P>(const int*, int*, unsigned, bool, P);
template __global__ void redlab::kernels::interleaved<512, double, Sum<double>, P>(const double*, double*, unsigned, bool, P);
template __global__ void redlab::kernels::interleaved_dynamic<float, Min<float>, P>(const float*, float*, unsigned, bool, P);
template __global__ void redlab::kernels::warp_shuffle<256, int, Sum<int>, P>(const int*, int*, unsigned, bool, P);
template __global__ void redlab::kernels::pmpp_simple<float, Sum<float>, P>(float*, float*, bool, P);
template __global__ void redlab::kernels::pmpp_convergent<double, Max<double>, P>(double*, double*, bool, P);
template __global__ void redlab::kernels::global_inplace<int, Sum<int>, P>(int*, int*, bool, P);
template __global__ void redlab::kernels::load_add<256, float, Sum<float>, P>(const float*, float*, unsigned, bool, P);
template __global__ void redlab::kernels::atomic_segmented<128, int, Min<int>, P>(const int*, int*, unsigned, P);
template __global__ void redlab::kernels::coarsened<256, double, Sum<double>, P>(const double*, double*, unsigned, unsigned, P);
template __global__ void redlab::kernels::unroll_last_warp<256, int, Sum<int>, P>(const int*, int*, unsigned, bool, P);
template __global__ void redlab::kernels::unroll_complete<1024, float, Max<float>, P>(const float*, float*, unsigned, bool, P);
template __global__ void redlab::kernels::multi_element<256, int, Sum<int>, P>(const int*, int*, unsigned, bool, P);
template __global__ void redlab::kernels::grid_stride_warp<256, int, Sum<int>, P>(const int*, int*, unsigned, bool, P);
template __global__ void redlab::kernels::vectorized<256, int, Sum<int>, P>(const int*, int*, unsigned, int*, unsigned*, P);
template __global__ void redlab::kernels::vectorized<256, double, Sum<double>, P>(const double*, double*, unsigned, double*, unsigned*, P);
template __global__ void redlab::kernels::combine_from_peer<float, Sum<float>, P>(float*, const float*, unsigned, Phase, P);
template __global__ void redlab::kernels::copy_from_peer<double, P>(double*, const double*, unsigned, Phase, P);
