// The CUDA GPU as a Device. Every runtime call is checked; a machine without a driver or device is
// reported by make_cuda_device() (never a crash).
#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "exec/cuda_kernels_seen.h"
#include "exec/cuda_launch.h"
#include "exec/device.h"

namespace redlab {

namespace {

class CudaDevice final : public Device {
 public:
  explicit CudaDevice(int ordinal) : ordinal_(ordinal) {
    cuda_check(cudaSetDevice(ordinal), "cudaSetDevice");
    cuda_check(cudaGetDeviceProperties(&prop_, ordinal), "cudaGetDeviceProperties");
  }
  std::string name() const override {
    return std::string(prop_.name) + " (sm_" + std::to_string(prop_.major) + std::to_string(prop_.minor) + ", " +
           std::to_string(prop_.multiProcessorCount) + " SMs)";
  }
  bool measures_clocks() const override { return true; }
  std::size_t free_memory() const override {
    select();
    std::size_t free = 0, total = 0;
    cuda_check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    return free;
  }
  void* alloc(std::size_t bytes) override {
    select();
    void* p = nullptr;
    cuda_check(cudaMalloc(&p, bytes), "cudaMalloc");
    return p;
  }
  void release(void* p) override {
    select();
    cudaFree(p);
  }
  void upload(void* dst, const void* src, std::size_t bytes) override {
    select();
    cuda_check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to device");
  }
  void download(void* dst, const void* src, std::size_t bytes) override {
    select();
    cuda_check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to host");
  }
  void copy(void* dst, const void* src, std::size_t bytes) override {
    select();
    cuda_check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy device to device");
  }
  void fill(void* dst, int byte, std::size_t bytes) override {
    select();
    cuda_check(cudaMemset(dst, byte, bytes), "cudaMemset");
  }
  Backend backend() const override { return Backend::cuda; }
  void load(const KernelRecord& k, ElemType type, const LaunchArgs& a, bool traced) override {
    // Only the catalog's traceable records launch through REDLAB_LAUNCH alone (library calls run as they are).
    const LaunchFn fn = k.launcher(backend(), type);
    if (!fn || !k.traceable) return;
    select();
    static const rec::Layout layout{};
    static const rec::Buffers buffers{};
    walk_launcher(fn, a, traced ? &layout : nullptr, traced ? &buffers : nullptr);
  }
  void analyse_trace(const rec::Layout& l, const rec::Buffers& raw, const rec::Analysis& out) override {
    select();
    cuda_analyse_trace(l, raw, out);
  }
  std::vector<std::vector<float>> time_rounds_ms(const std::vector<TimedRun>& runs, int warmup, int reps) override {
    select();
    cudaEvent_t start, stop;
    cuda_check(cudaEventCreate(&start), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
    std::vector<std::vector<float>> ms(runs.size());
    struct Restore {
      ~Restore() { cuda_wait_for_kernels = true; }
    } restore;
    try {
      for (int r = 0; r < warmup + reps; ++r)
        for (std::size_t j = 0; j < runs.size(); ++j) {
          runs[j].prepare(r);
          cuda_check(cudaDeviceSynchronize(), "before a timed run");
          cuda_wait_for_kernels = false;
          cuda_check(cudaEventRecord(start), "cudaEventRecord");
          runs[j].run(r);
          cuda_check(cudaEventRecord(stop), "cudaEventRecord");
          cuda_wait_for_kernels = true;
          cuda_check(cudaEventSynchronize(stop), "a timed run");
          float t = 0;
          cuda_check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
          if (r >= warmup) ms[j].push_back(t);
        }
    } catch (...) {
      cudaEventDestroy(start);
      cudaEventDestroy(stop);
      throw;
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms;
  }
  void* alloc_host(std::size_t bytes) override {
    void* p = nullptr;
    if (cudaHostAlloc(&p, bytes, cudaHostAllocDefault) == cudaSuccess) return p;
    cudaGetLastError();  // no page-locked memory left: ordinary memory serves, more slowly
    pageable_.push_back(::operator new(bytes));
    return pageable_.back();
  }
  void release_host(void* p) override {
    if (const auto it = std::find(pageable_.begin(), pageable_.end(), p); it != pageable_.end()) {
      pageable_.erase(it);
      ::operator delete(p);
    } else {
      cudaFreeHost(p);
    }
  }
  void read_only(const void* p, std::size_t bytes, void* sink) override {
    select();
    cuda_read_only(p, bytes, static_cast<unsigned*>(sink), unsigned(prop_.multiProcessorCount) * 8);
  }
  std::size_t l2_bytes() const override { return std::size_t(prop_.l2CacheSize); }
  double shared_access_cycles(const std::uint32_t* addr32, std::uint32_t mask, unsigned width, bool store) override {
    select();
    return cuda_shared_access_cycles(addr32, mask, width, store);
  }
  std::string driver() const override {
    int v = 0;
    cudaDriverGetVersion(&v);
    return "CUDA driver API " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
  }

 protected:
  void invoke(LaunchFn fn, const LaunchArgs& a, const rec::Layout* layout, const rec::Buffers* buffers) override {
    select();
    fn(a, layout, buffers);
  }

 private:
  // A process may hold several GPUs (an all-reduce): every call works on this one's.
  void select() const { cuda_check(cudaSetDevice(ordinal_), "cudaSetDevice"); }
  int ordinal_;
  cudaDeviceProp prop_{};
  std::vector<void*> pageable_;  // alloc_host's fallbacks
};

}  // namespace

std::unique_ptr<Device> make_cuda_device(std::string* why) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    if (why) *why = std::string("no CUDA device: ") + cudaGetErrorString(e);
    cudaGetLastError();  // clear the sticky error for later calls
    return nullptr;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device: the driver reports none";
    return nullptr;
  }
  try {
    return std::make_unique<CudaDevice>(0);
  } catch (const std::exception& ex) {
    if (why) *why = std::string("no usable CUDA device: ") + ex.what();
    return nullptr;
  }
}

std::vector<std::unique_ptr<Device>> make_cuda_devices(unsigned gpus, std::string* why) {
  std::vector<std::unique_ptr<Device>> devices;
  if (usable_gpus(gpus, why) != gpus) return devices;  // too few, or two that cannot reach each other
  for (unsigned a = 0; a < gpus; ++a)
    for (unsigned b = 0; b < gpus; ++b) {
      if (a == b) continue;
      cudaSetDevice(int(a));
      const cudaError_t e = cudaDeviceEnablePeerAccess(int(b), 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();
      } else if (e != cudaSuccess) {
        cudaGetLastError();
        if (why)
          *why = "peer access from GPU " + std::to_string(a) + " to GPU " + std::to_string(b) + ": " +
                 cudaGetErrorString(e);
        return devices;
      }
    }
  try {
    for (unsigned g = 0; g < gpus; ++g) devices.push_back(std::make_unique<CudaDevice>(int(g)));
  } catch (const std::exception& ex) {
    if (why) *why = ex.what();
    devices.clear();
  }
  cudaSetDevice(0);
  return devices;
}

}  // namespace redlab
