// GPU-only measurements that are not catalog kernels: the bank lab's micro-benchmark and the read-ceiling
// pass. (The CUB and cooperative-groups kernels are catalog records: kernels/library/*.record.cuh.)
#include "kernels/library/bank_access.cuh"
#include "kernels/library/read_only.cuh"
#include "exec/cuda_launch.h"

namespace redlab {

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
    cuda_finish_launch("bank access kernel");
  };
  using namespace kernels;
  if (width == 4)
    store ? run(bank_access<4, true>) : run(bank_access<4, false>);
  else if (width == 8)
    store ? run(bank_access<8, true>) : run(bank_access<8, false>);
  else
    store ? run(bank_access<16, true>) : run(bank_access<16, false>);
  cuda_check(cudaDeviceSynchronize(), "bank access kernel");
  long long cycles = 0;
  cuda_check(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost), "cudaMemcpy");
  return double(cycles) / (double(reps) * warps);
}

void cuda_read_only(const void* p, std::size_t bytes, unsigned* sink, unsigned grid) {
  kernels::read_only_pass<<<grid, 256>>>(static_cast<const uint4*>(p), bytes / 16, sink);
  cuda_finish_launch("read-only pass");
}

}  // namespace redlab
