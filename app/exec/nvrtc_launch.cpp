// The GPU side of a student's kernel file (exec/user_launch.h): the host library's REDLAB_LAUNCH calls
// nvrtc_launch with the host instantiation of the kernel; this finds its name (the library's symbol table),
// compiles that instance from the file's text with NVRTC (exec/nvrtc.h) once per process and file (and keeps the
// image on disk beside the library), loads it as a CUDA library and launches it with the
// same checks and wait as every launch (exec/cuda_launch.h).
//
// The library is loaded and launched through the driver API (cuLibraryLoadData, CUDA 12.0 on), whose entry
// points the runtime hands out: the runtime's own library calls (cudaLibraryLoadData) came with CUDA 12.5, and
// Debian 13 packages 12.4. redlab does not link libcuda, so a build without a driver still starts.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/file_write.h"
#include "core/printable.h"
#include "core/scenario.h"
#include "exec/cuda_launch.h"
#include "exec/job.h"
#include "exec/kernel_cache.h"
#include "exec/nvrtc.h"
#include "exec/user_kernel.h"

namespace redlab {

namespace fs = std::filesystem;

namespace {

// The driver's entry points for loading and launching a library, asked of the runtime once.
struct DriverLibraryApi {
  decltype(&::cuGetErrorString) get_error_string = nullptr;
  decltype(&::cuLibraryLoadData) load_data = nullptr;
  decltype(&::cuLibraryGetKernel) get_kernel = nullptr;
  decltype(&::cuLaunchKernel) launch_kernel = nullptr;

  DriverLibraryApi() {
    entry("cuGetErrorString", &get_error_string);
    entry("cuLibraryLoadData", &load_data);
    entry("cuLibraryGetKernel", &get_kernel);
    entry("cuLaunchKernel", &launch_kernel);
  }
  template <class Fn>
  static void entry(const char* name, Fn* fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
    // The 12.0 forms: the oldest driver the calls exist in, and the signatures declared in cuda.h.
    const cudaError_t e = cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &found);
#else
    const cudaError_t e = cudaGetDriverEntryPoint(name, &p, cudaEnableDefault, &found);
#endif
    cuda_check(e, name);
    if (found != cudaDriverEntryPointSuccess || !p)
      throw std::runtime_error(std::string("the CUDA driver has no ") + name +
                               " (kernel files on the GPU need a driver for CUDA 12.0 or later)");
    *fn = reinterpret_cast<Fn>(p);
  }
  void check(CUresult r, const char* what) const {
    if (r == CUDA_SUCCESS) return;
    const char* text = nullptr;
    if (get_error_string) get_error_string(r, &text);
    throw std::runtime_error(std::string("CUDA error in ") + what + ": " +
                             (text ? text : "driver error " + std::to_string(int(r))));
  }
};

const DriverLibraryApi& driver() {
  static const DriverLibraryApi api;
  return api;
}

std::mutex g_mutex;
std::map<const void*, CUkernel> g_by_function;  // host instance -> its device instance
std::map<std::string, CUkernel> g_by_expression;  // name expression -> its device instance
std::vector<CUlibrary> g_libraries;  // loaded for the process's life

// The name expression of the host function `fn` (a kernel file's template instance), and the library it is in.
std::string instance_of(const void* fn, std::string* library) {
  Dl_info info{};
  if (!dladdr(fn, &info) || !info.dli_sname || !info.dli_fname)
    throw std::runtime_error(
        "a kernel file's launch names a function the loader cannot name (is it a __global__ "
        "template instance of the file?)");
  *library = info.dli_fname;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status),
                                                   std::free);
  const std::string expression = status == 0 && demangled ? nvrtc_name_expression(demangled.get()) : std::string{};
  if (expression.empty())
    throw std::runtime_error(std::string("a kernel file's launch names ") + info.dli_sname +
                             ", which is not a kernel (a function returning void) redlab can compile for the GPU");
  return expression;
}

// An instance's image in the library's folder: keyed by its name expression, the architecture and NVRTC (the
// library's folder is keyed by the file's text).
std::string image_name(const std::string& version, int arch, const std::string& expression) {
  return "gpu-" + cache_key(version + " sm_" + std::to_string(arch) + "\n" + expression);
}

// One instance's device code: its image (a cubin, or PTX for a GPU newer than NVRTC) and its device symbol.
struct Image {
  std::string data, lowered;
};

// The device images of instances `expressions` of the kernel file whose host library is `library`, for compute
// capability major.minor: taken from those kept beside the library, else compiled by NVRTC, each instance its own
// program on its own thread (the traced instance costs as much again as parsing the headers, so two compiled
// together take twice as long as either alone).
std::vector<Image> compile_instances(const std::string& library, const std::vector<std::string>& expressions, int major,
                                     int minor) {
  const fs::path dir = fs::path(library).parent_path();
  const UserKernelSource src = read_user_kernel_source(dir.string());
  std::string why;
  const std::string version = nvrtc_version(&why);
  if (version.empty()) throw std::runtime_error(src.shown + " cannot be compiled for the GPU: " + why);
  auto name_of = [&](const std::string& e) { return image_name(version, major * 10 + minor, e); };
  std::vector<Image> images(expressions.size());
  std::vector<std::size_t> missing;
  for (std::size_t i = 0; i < expressions.size(); ++i) {
    // Each kept with its digest (exec/kernel_cache.h): an image that does not match is compiled again.
    const std::string name = name_of(expressions[i]);
    if (!read_added(dir.string(), name + ".image", &images[i].data) ||
        !read_added(dir.string(), name + ".name", &images[i].lowered))
      images[i] = {};
    if (images[i].data.empty() || images[i].lowered.empty()) missing.push_back(i);
  }
  if (missing.empty()) return images;
  const std::vector<std::string> includes = nvrtc_include_dirs(src.dir, &why);
  if (includes.empty()) throw std::runtime_error(src.shown + " cannot be compiled for the GPU: " + why);
  const auto t0 = std::chrono::steady_clock::now();
  std::deque<Job<NvrtcBuild>> builds;  // one compile an instance, at once (waited for before this returns or throws)
  for (std::size_t i : missing)
    builds.emplace_back().start([&, e = expressions[i]](RunControl&) {
      return nvrtc_compile(src.text, src.shown, includes, major, minor, {e});
    });
  std::string target;
  for (std::size_t k = 0; k < missing.size(); ++k) {
    const NvrtcBuild b = builds[k].get();
    target = b.target;
    if (!b.ok)  // the first instance's messages: the others' repeat them
      throw KernelFileError(printable(b.log, true) + (b.log.empty() || b.log.back() == '\n' ? "" : "\n") + src.shown +
                            " does not compile for the GPU (NVRTC " + version + ", " + b.target + ")");
    Image& image = images[missing[k]];
    image.data = b.image;
    image.lowered = b.lowered.at(0);
    const std::string name = name_of(expressions[missing[k]]);
    write_added(dir.string(), name + ".name", image.lowered);
    write_added(dir.string(), name + ".image", image.data);
  }
  print_message(stderr, "redlab: compiled %s for the GPU (NVRTC %s, %s, %zu instance%s) in %.1f s\n", src.shown.c_str(),
                version.c_str(), target.c_str(), missing.size(), missing.size() == 1 ? "" : "s",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return images;
}

// The instance a host function names and its probe twin (what --nvrtc-check compiles: a file must compile both
// ways, traced and timed).
std::vector<std::string> instance_and_twin(const void* fn, std::string* library, std::string* expression) {
  *expression = instance_of(fn, library);
  std::vector<std::string> expressions = {*expression};
  if (const std::string twin = nvrtc_probe_twin(*expression); !twin.empty()) expressions.push_back(twin);
  return expressions;
}

// The device instance of host function `fn`, compiled at its first launch: that instance alone (a traced run
// launches the traced build only, its finish included; a timed run the timed one), so that a save waits for one
// NVRTC compile, not two.
CUkernel instance_for(const void* fn) {
  if (auto it = g_by_function.find(fn); it != g_by_function.end()) return it->second;
  std::string library;
  const std::string expression = instance_of(fn, &library);
  const std::vector<std::string> expressions = {expression};
  if (!g_by_expression.count(expression)) {
    int device = 0;
    cudaDeviceProp prop{};
    cuda_check(cudaGetDevice(&device), "cudaGetDevice");
    cuda_check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    const std::vector<Image> images = compile_instances(library, expressions, prop.major, prop.minor);
    const DriverLibraryApi& cu = driver();
    for (std::size_t i = 0; i < expressions.size(); ++i) {
      CUlibrary lib = nullptr;
      cu.check(cu.load_data(&lib, images[i].data.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
               "loading a kernel file's GPU code (cuLibraryLoadData)");
      g_libraries.push_back(lib);
      CUkernel k = nullptr;
      cu.check(cu.get_kernel(&k, lib, images[i].lowered.c_str()),
               "finding a kernel file's GPU kernel (cuLibraryGetKernel)");
      g_by_expression[expressions[i]] = k;
    }
  }
  return g_by_function[fn] = g_by_expression.at(expression);
}

std::set<std::string> g_checked;  // nvrtc_check: the instances compiled in this process

}  // namespace

// Exported by the executable (ENABLE_EXPORTS) for the kernel file's library.
void nvrtc_launch(const void* host_fn, const unsigned grid[3], const unsigned block[3], std::size_t smem,
                  void** params) {
  if (cuda_load_only) return;  // compiled at its first launch (Device::load)
  CUkernel kernel = nullptr;
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    kernel = instance_for(host_fn);
  }
  // A CUkernel launches as a function in the calling thread's current context: the runtime's primary context of
  // the current device, made current here once per thread (runtime calls that bind it may have run on another
  // thread). The legacy default stream, as the catalog's <<<>>> launches use.
  static thread_local bool context_bound = false;
  if (!context_bound) {
    int device = 0;
    cuda_check(cudaGetDevice(&device), "cudaGetDevice");
    cuda_check(cudaSetDevice(device), "cudaSetDevice");
    context_bound = true;
  }
  const DriverLibraryApi& cu = driver();
  cu.check(cu.launch_kernel(reinterpret_cast<CUfunction>(kernel), grid[0], grid[1], grid[2], block[0], block[1],
                            block[2], static_cast<unsigned>(smem), nullptr, params, nullptr),
           "launch");
  cuda_check(cudaGetLastError(), "launch");
  if (cuda_wait_for_kernels) cuda_check(cudaDeviceSynchronize(), "kernel");
}

void keep_nvrtc_image(const std::string& library_dir, int arch, const std::string& name_expression,
                      const std::string& image, const std::string& lowered) {
  const std::string version = nvrtc_version(nullptr);
  if (version.empty() || image.empty() || lowered.empty()) return;
  const std::string name = image_name(version, arch, name_expression);
  write_added(library_dir, name + ".name", lowered);
  write_added(library_dir, name + ".image", image);
}

int current_gpu_arch() {
  int count = 0, major = 0, minor = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0) != cudaSuccess) {
    cudaGetLastError();  // no sticky error for the calls after
    return 0;
  }
  return major * 10 + minor;
}

int nvrtc_compile_command(const std::string& dir, const std::string& arch, const std::string& name_expression) {
  UserKernelSource source;
  std::string names;
  if (!read_text_file((fs::path(dir) / "source.cu").string(), &source.text, nullptr) ||
      !read_text_file((fs::path(dir) / "source.name").string(), &names, nullptr) ||
      !parse_user_kernel_source_name(names, &source)) {
    print_message(stderr, "redlab: nvrtc-compile: %s holds no source.cu and source.name\n", dir.c_str());
    return 1;
  }
  const int a = arch.rfind("sm_", 0) == 0 ? std::atoi(arch.c_str() + 3) : 0;
  std::string why;
  const std::vector<std::string> includes = nvrtc_include_dirs(source.dir, &why);
  if (a < 10 || includes.empty()) {
    print_message(stderr, "redlab: nvrtc-compile: %s\n",
                  a < 10 ? ("no architecture in '" + arch + "'").c_str() : why.c_str());
    return 1;
  }
  const NvrtcBuild b = nvrtc_compile(source.text, source.shown, includes, a / 10, a % 10, {name_expression});
  if (!b.ok) {
    print_message(stderr, "%s\n", b.log.c_str());
    return 1;
  }
  std::ofstream(fs::path(dir) / "image", std::ios::binary) << b.image;
  std::ofstream(fs::path(dir) / "lowered", std::ios::binary) << b.lowered.at(0);
  return 0;
}

bool nvrtc_check_launches = false;
int nvrtc_check_arch = 90;

void nvrtc_check(const void* host_fn) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  std::string library, expression;
  const std::vector<std::string> expressions = instance_and_twin(host_fn, &library, &expression);
  if (g_checked.count(expression)) return;
  compile_instances(library, expressions, nvrtc_check_arch / 10, nvrtc_check_arch % 10);
  g_checked.insert(expressions.begin(), expressions.end());
}

}  // namespace redlab
