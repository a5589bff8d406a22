// The transpose kernels compiled by nvcc for the GPU. Launches are enqueued without waiting, so that a
// timed launch measures the kernel alone (CudaDevice::launch_transpose synchronises after it).
#include "cuda_launch.h"

#define REDLAB_TRANSPOSE_START(fn, grid, block, ...)          \
  do {                                                        \
    fn<<<grid, block>>>(__VA_ARGS__);                         \
    ::redlab::cuda_check(cudaGetLastError(), "transpose launch"); \
  } while (0)

#include "transpose.h"
#include "transpose_table.inc"

namespace redlab {

void cuda_transpose_start(const TransposeArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) {
  transpose_table::start_typed(a, layout, buffers);
}

namespace {
struct Events {
  cudaEvent_t start = nullptr, stop = nullptr;
  Events() {
    cuda_check(cudaEventCreate(&start), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~Events() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
};

template <class T>
std::vector<float> time_typed(const TransposeArgs& a, const std::vector<TransposeBuffers>& copies, int warmup,
                              int reps) {
  std::vector<float> ms;
  // The instantiation is chosen before timing starts: the timed region holds the launch alone.
  transpose_table::with_kernel<T>(a, kernels::NoProbe{}, [&](auto&& go) {
    Events ev;
    std::size_t next = 0;   // every launch moves the next pair of buffers
    auto go_next = [&] {
      const TransposeBuffers& b = copies[next++ % copies.size()];
      go(b.in, b.out);
    };
    for (int i = 0; i < warmup; ++i) go_next();
    cuda_check(cudaDeviceSynchronize(), "transpose warm-up");
    for (int r = 0; r < reps; ++r) {
      cuda_check(cudaEventRecord(ev.start), "cudaEventRecord");
      go_next();
      cuda_check(cudaEventRecord(ev.stop), "cudaEventRecord");
      cuda_check(cudaEventSynchronize(ev.stop), "transpose kernel");
      float t = 0;
      cuda_check(cudaEventElapsedTime(&t, ev.start, ev.stop), "cudaEventElapsedTime");
      ms.push_back(t);
    }
  });
  return ms;
}
}  // namespace

std::vector<float> cuda_time_transpose(const TransposeArgs& a, const std::vector<TransposeBuffers>& copies,
                                       int warmup, int reps) {
  if (copies.empty()) throw std::invalid_argument("cuda_time_transpose: no buffers");
  switch (a.type) {
    case ElemType::float32: return time_typed<float>(a, copies, warmup, reps);
    case ElemType::float64: return time_typed<double>(a, copies, warmup, reps);
    default: throw std::invalid_argument("--type: transposes take float32|float64");
  }
}

}  // namespace redlab
