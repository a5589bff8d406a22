// GPU-only kernels: the CUB and cooperative-groups rows of the catalog, and the read-ceiling pass.
#include <cub/device/device_reduce.cuh>

#include "../../kernels/library/bank_access.cuh"
#include "../../kernels/library/cg_reduce.cuh"
#include "../../kernels/library/cub_block.cuh"
#include "../../kernels/library/read_only.cuh"
#include "cuda_launch.h"

namespace redlab {
namespace {

// CUB's temporary storage, kept between calls so a timed call never allocates.
void* cub_temp = nullptr;
std::size_t cub_temp_bytes = 0;
void* cub_temp_for(std::size_t bytes) {
  if (bytes > cub_temp_bytes) {
    if (cub_temp) cuda_check(cudaFree(cub_temp), "cudaFree");
    cub_temp = nullptr;
    cuda_check(cudaMalloc(&cub_temp, bytes), "cudaMalloc (CUB temporary storage)");
    cub_temp_bytes = bytes;
  }
  return cub_temp;
}

void finish_launch(const char* what) {
  cuda_check(cudaGetLastError(), what);
  if (cuda_wait_for_kernels) cuda_check(cudaDeviceSynchronize(), what);
}

template <class T>
void cub_device(const LaunchArgs& a) {
  const T* in = static_cast<const T*>(a.in);
  T* out = static_cast<T*>(a.out);
  const auto n = static_cast<std::int64_t>(a.n);
  std::size_t bytes = 0;
  auto call = [&](void* temp) {
    switch (a.op) {
      case OpKind::sum: return cub::DeviceReduce::Sum(temp, bytes, in, out, n);
      case OpKind::min: return cub::DeviceReduce::Min(temp, bytes, in, out, n);
      case OpKind::max: return cub::DeviceReduce::Max(temp, bytes, in, out, n);
    }
    return cudaErrorInvalidValue;
  };
  cuda_check(call(nullptr), "cub::DeviceReduce (size query)");
  cuda_check(call(cub_temp_for(bytes)), "cub::DeviceReduce");
  finish_launch("cub::DeviceReduce");
}

template <class T, class Op, unsigned B>
void cub_block_algo(const LaunchArgs& a) {
  const T* in = static_cast<const T*>(a.in);
  T* out = static_cast<T*>(a.out);
  const auto n = unsigned(a.n);
  switch (a.algo) {
    case 0: kernels::cub_block<B, cub::BLOCK_REDUCE_WARP_REDUCTIONS, T, Op><<<a.grid, B>>>(in, out, n); break;
    case 1: kernels::cub_block<B, cub::BLOCK_REDUCE_RAKING, T, Op><<<a.grid, B>>>(in, out, n); break;
    default: kernels::cub_block<B, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, T, Op><<<a.grid, B>>>(in, out, n); break;
  }
  finish_launch("cub::BlockReduce kernel");
}

template <class T, class Op>
void block_kernels(const LaunchArgs& a) {
  const bool cg = a.kernel == "cg_reduce";
  auto go = [&](auto b) {
    constexpr unsigned B = decltype(b)::value;
    if (cg) {
      kernels::cg_reduce<B, T, Op><<<a.grid, B>>>(static_cast<const T*>(a.in), static_cast<T*>(a.out), unsigned(a.n));
      finish_launch("cg_reduce kernel");
    } else {
      cub_block_algo<T, Op, B>(a);
    }
  };
  switch (a.block) {
    case 32: go(std::integral_constant<unsigned, 32>{}); break;
    case 64: go(std::integral_constant<unsigned, 64>{}); break;
    case 128: go(std::integral_constant<unsigned, 128>{}); break;
    case 256: go(std::integral_constant<unsigned, 256>{}); break;
    case 512: go(std::integral_constant<unsigned, 512>{}); break;
    case 1024: go(std::integral_constant<unsigned, 1024>{}); break;
    default: throw std::invalid_argument("block size " + std::to_string(a.block) + " has no instantiation");
  }
}

template <class T>
void typed(const LaunchArgs& a) {
  if (a.kernel == "cub_device") return cub_device<T>(a);
  switch (a.op) {
    case OpKind::sum: return block_kernels<T, kernels::Sum<T>>(a);
    case OpKind::min: return block_kernels<T, kernels::Min<T>>(a);
    case OpKind::max: return block_kernels<T, kernels::Max<T>>(a);
  }
}

}  // namespace

void cuda_launch_library(const LaunchArgs& a) {
  switch (a.type) {
    case ElemType::int32: return typed<std::int32_t>(a);
    case ElemType::float32: return typed<float>(a);
    case ElemType::float64: return typed<double>(a);
  }
}

double cuda_shared_access_cycles(const std::uint32_t* addr32, std::uint32_t mask, unsigned width, bool store) {
  unsigned* d_addr = nullptr;
  long long* d_cycles = nullptr;
  unsigned* d_sink = nullptr;
  cuda_check(cudaMalloc(&d_addr, 32 * sizeof(unsigned)), "cudaMalloc");
  cuda_check(cudaMalloc(&d_cycles, sizeof(long long)), "cudaMalloc");
  cuda_check(cudaMalloc(&d_sink, sizeof(unsigned)), "cudaMalloc");
  struct Free {
    void* p[3];
    ~Free() {
      for (void* q : p) cudaFree(q);
    }
  } release{{d_addr, d_cycles, d_sink}};
  cuda_check(cudaMemcpy(d_addr, addr32, 32 * sizeof(unsigned), cudaMemcpyHostToDevice), "cudaMemcpy");
  // 16 warps keep the shared pipeline busy: cycles / (reps x warps) is the cost of one request.
  const unsigned reps = 1024, warps = 16;
  auto run = [&](auto kernel) {
    kernel<<<1, 32 * warps>>>(d_addr, mask, reps, d_cycles, d_sink);  // warm-up
    kernel<<<1, 32 * warps>>>(d_addr, mask, reps, d_cycles, d_sink);
    finish_launch("bank access kernel");
  };
  using namespace kernels;
  if (width == 4) store ? run(bank_access<4, true>) : run(bank_access<4, false>);
  else if (width == 8) store ? run(bank_access<8, true>) : run(bank_access<8, false>);
  else store ? run(bank_access<16, true>) : run(bank_access<16, false>);
  cuda_check(cudaDeviceSynchronize(), "bank access kernel");
  long long cycles = 0;
  cuda_check(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost), "cudaMemcpy");
  return double(cycles) / (double(reps) * warps);
}

void cuda_read_only(const void* p, std::size_t bytes, unsigned* sink, unsigned grid) {
  kernels::read_only_pass<<<grid, 256>>>(static_cast<const uint4*>(p), bytes / 16, sink);
  finish_launch("read-only pass");
}

}  // namespace redlab
