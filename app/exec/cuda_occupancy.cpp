#include "exec/cuda_occupancy.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "exec/cuda_kernels_seen.h"
#include "exec/cuda_launch.h"
#include "exec/occupancy_calc.h"

namespace redlab {

std::optional<Occupancy> cuda_occupancy(const KernelRecord& k, ElemType type, const LaunchArgs& a,
                                        std::uint64_t dynamic_smem, std::string* why) {
  const LaunchFn launcher = k.launcher(Backend::cuda, type);
  if (!launcher || !k.traceable) {
    if (why)
      *why = "'" + k.id + "' is a library's kernel: its launch is not the catalog's, and its resources are not read";
    return std::nullopt;
  }
  std::vector<const void*> kernels;
  walk_launcher(launcher, a, nullptr, nullptr, &kernels);  // the timed build: what bench times
  if (kernels.empty()) {
    if (why) *why = "a kernel file's launch on the GPU (NVRTC): its resources are not read yet";
    return std::nullopt;
  }
  int ordinal = 0;
  cudaDeviceProp prop;
  cudaFuncAttributes attributes;
  int runtime_blocks = 0;
  if (cudaGetDevice(&ordinal) != cudaSuccess || cudaGetDeviceProperties(&prop, ordinal) != cudaSuccess ||
      cudaFuncGetAttributes(&attributes, kernels.front()) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&runtime_blocks, kernels.front(), int(a.block),
                                                    std::size_t(dynamic_smem)) != cudaSuccess) {
    const cudaError_t e = cudaGetLastError();
    if (why) *why = std::string("the CUDA runtime: ") + cudaGetErrorString(e);
    return std::nullopt;
  }
  SmLimits sm;
  sm.card = prop.name;
  sm.major = prop.major;
  sm.minor = prop.minor;
  sm.sms = prop.multiProcessorCount;
  sm.warp_size = prop.warpSize;
  sm.max_threads_per_block = prop.maxThreadsPerBlock;
  sm.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  sm.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
  sm.regs_per_block = prop.regsPerBlock;
  sm.regs_per_sm = prop.regsPerMultiprocessor;
  sm.smem_per_block = prop.sharedMemPerBlock;
  sm.smem_per_sm = prop.sharedMemPerMultiprocessor;
  sm.smem_per_block_optin = prop.sharedMemPerBlockOptin;
  sm.smem_reserved_per_block = prop.reservedSharedMemPerBlock;
  const KernelResources kernel{attributes.numRegs, attributes.sharedSizeBytes, attributes.maxThreadsPerBlock};
  std::optional<Occupancy> o = compute_occupancy(sm, kernel, a.block, dynamic_smem, why);
  if (!o) return std::nullopt;
  o->sm_is_device = true;
  o->runtime_blocks = runtime_blocks;
  if (k.clustered && a.cluster > 1) {
    // The clusters the whole card holds at once, launched as cuda_launch_cluster launches them.
    o->cluster = a.cluster;
    const ClusterLaunch launch(dim3(a.grid), dim3(a.block), std::size_t(dynamic_smem), a.cluster);
    int clusters = 0;
    if (cuda_allow_cluster_size(kernels.front(), a.cluster) == cudaSuccess &&
        cudaOccupancyMaxActiveClusters(&clusters, kernels.front(), &launch.config) == cudaSuccess)
      o->runtime_clusters = clusters;
    else
      (void)cudaGetLastError();  // (the runtime's count left out: the calculator's bound stands, marked as one)
  }
  return o;
}

}  // namespace redlab
