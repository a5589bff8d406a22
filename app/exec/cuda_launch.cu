// What every CUDA launch shares (exec/cuda_launch.h): the error check and the wait. A library of its own, so
// that the kernel records (cmake/redlab_kernels.cmake) and the CUDA device both link it.
#include "exec/cuda_launch.h"

#include "core/scenario.h"
#include "exec/cuda_kernels_seen.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace redlab {

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

void cuda_load(const void* fn) {
  if (cuda_kernels_seen) {  // only which kernels the launcher starts (cuda_occupancy.cpp)
    cuda_kernels_seen->push_back(fn);
    return;
  }
  // Asking for the function's attributes loads it (CUDA loads a module's kernels lazily, at their first use).
  cudaFuncAttributes attributes;
  cuda_check(cudaFuncGetAttributes(&attributes, fn), "loading a kernel");
}

void walk_launcher(LaunchFn launcher, const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers,
                   std::vector<const void*>* seen) {
  struct Restore {
    ~Restore() {
      cuda_load_only = false;
      cuda_kernels_seen = nullptr;
    }
  } restore;
  cuda_load_only = true;
  cuda_kernels_seen = seen;
  launcher(a, layout, buffers);
}

void cuda_prepare_cluster_launch(const void* fn, unsigned cluster) {
  int device = 0, major = 0, minor = 0;
  cuda_check(cudaGetDevice(&device), "cluster launch");
  cuda_check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "cluster launch");
  cuda_check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "cluster launch");
  if (major < 9)
    throw ScenarioError("thread block clusters need a GPU of compute capability 9.0 or later (Hopper); this one is " +
                        std::to_string(major) + "." + std::to_string(minor) +
                        ": run the cluster kernels on the emulator (--backend cpu)");
  if (const cudaError_t e = cuda_allow_cluster_size(fn, cluster); e != cudaSuccess)
    throw ScenarioError("--cluster " + std::to_string(cluster) +
                        ": this GPU does not allow clusters of more than 8 "
                        "blocks (" +
                        cudaGetErrorString(e) + "); use --cluster 8 or less");
}

cudaError_t cuda_allow_cluster_size(const void* fn, unsigned cluster) {
  if (cluster <= 8) return cudaSuccess;
  const cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  if (e != cudaSuccess) (void)cudaGetLastError();
  return e;
}

void cuda_finish_launch(const char* what) {
  cuda_check(cudaGetLastError(), what);
  if (cuda_wait_for_kernels) cuda_check(cudaDeviceSynchronize(), what);
}

}  // namespace redlab
