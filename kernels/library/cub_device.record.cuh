// cub_device's record in the catalog (kernels/kernel_record.h): cub::DeviceReduce, the library reduction
// every kernel is timed against. Not a kernel of ours: its launch is CUB's (two kernels, its own grid).
#pragma once
#include <string>

#include "../register.cuh"
#if REDLAB_ON_GPU
#include <cub/device/device_reduce.cuh>
#endif

namespace redlab::kernels {

struct cub_device_record : library_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "cub_device",
                   .title = "cub::DeviceReduce",
                   .group = "7 libraries",
                   .sources = "001 (CUB)",
                   .teaches = "the library reduction every kernel is measured against"};
    r.source_file.clear();  // CUB's own code
    r.single_pass = true;
    r.reference = true;
    r.own_launch = true;
    return r;
  }

#if REDLAB_ON_GPU
  // CUB's temporary storage, kept between calls so that a timed call never allocates.
  static void* temp_storage(std::size_t bytes) {
    static void* temp = nullptr;
    static std::size_t temp_bytes = 0;
    if (bytes > temp_bytes) {
      if (temp) ::redlab::cuda_check(cudaFree(temp), "cudaFree");
      temp = nullptr;
      ::redlab::cuda_check(cudaMalloc(&temp, bytes), "cudaMalloc (CUB temporary storage)");
      temp_bytes = bytes;
    }
    return temp;
  }
#endif

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe&) {
#if REDLAB_ON_GPU
    const T* in = input_of<T>(a);
    T* out = output_of<T>(a);
    const auto n = static_cast<std::int64_t>(a.n);
    std::size_t bytes = 0;
    auto call = [&](void* temp) {
      if constexpr (std::is_same_v<Op, Sum<T>>) return cub::DeviceReduce::Sum(temp, bytes, in, out, n);
      else if constexpr (std::is_same_v<Op, Min<T>>) return cub::DeviceReduce::Min(temp, bytes, in, out, n);
      else return cub::DeviceReduce::Max(temp, bytes, in, out, n);
    };
    ::redlab::cuda_check(call(nullptr), "cub::DeviceReduce (size query)");
    ::redlab::cuda_check(call(temp_storage(bytes)), "cub::DeviceReduce");
    ::redlab::cuda_finish_launch("cub::DeviceReduce");
#endif
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(cub_device_record)
