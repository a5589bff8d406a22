#include "exec/nvrtc.h"

#include <dlfcn.h>
#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "core/resources.h"
#include "exec/toolkit_library.h"

namespace redlab {

namespace fs = std::filesystem;

namespace {

// libnvrtc's entry points, opened at run time (like CUPTI in hw_collect.cpp): the toolkit keeps it outside the
// loader's path, and a redlab without it must still start.
struct Nvrtc {
  void* handle = nullptr;
  std::string path, error;
  fs::path folder;  // where the opened libnvrtc really is: <toolkit>/lib64, targets/<arch>/lib or Debian's
#define REDLAB_NVRTC_FN(name) decltype(&::name) name = nullptr;
// (a list of names, a few a line: clang-format would stair-step it)
// clang-format off
#define REDLAB_NVRTC_FNS(X)                                                                                 \
  X(nvrtcVersion) X(nvrtcGetErrorString) X(nvrtcCreateProgram) X(nvrtcDestroyProgram) X(nvrtcCompileProgram) \
  X(nvrtcAddNameExpression) X(nvrtcGetLoweredName) X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog)           \
  X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN) X(nvrtcGetPTXSize) X(nvrtcGetPTX) X(nvrtcGetNumSupportedArchs)        \
  X(nvrtcGetSupportedArchs)
  REDLAB_NVRTC_FNS(REDLAB_NVRTC_FN)
  // clang-format on
#undef REDLAB_NVRTC_FN

  Nvrtc() { error = open(); }
  std::string open() {
#ifdef REDLAB_NVRTC_LIBRARY
    const char* built = REDLAB_NVRTC_LIBRARY;  // where the build found it
#else
    const char* built = nullptr;
#endif
    const ToolkitLibrary lib = open_toolkit_library("libnvrtc.so", "REDLAB_NVRTC", built);
    handle = lib.handle;
    path = lib.path;
    if (!handle)
      return "NVRTC (libnvrtc.so, in the CUDA toolkit) was not found; install the toolkit or set REDLAB_NVRTC to "
             "its path";
#define REDLAB_NVRTC_SYM(name)                                      \
  name = reinterpret_cast<decltype(&::name)>(dlsym(handle, #name)); \
  if (!name) return "NVRTC at " + path + " has no " #name " (redlab needs CUDA 12 or later)";
    REDLAB_NVRTC_FNS(REDLAB_NVRTC_SYM)
#undef REDLAB_NVRTC_SYM
    Dl_info info{};
    std::error_code ec;
    if (dladdr(reinterpret_cast<void*>(nvrtcVersion), &info) && info.dli_fname)
      folder = fs::canonical(info.dli_fname, ec).parent_path();
    open_builtins();
    return {};
  }
  // libnvrtc opens its built-ins (libnvrtc-builtins.so.<major>.<minor>) by name when it first compiles, and the
  // loader finds them only where the system's library path lists the toolkit's folder: NVIDIA's packages add it, a
  // toolkit in /usr/local/cuda alone does not. Opened here from libnvrtc's own folder, they are found loaded. Where
  // they are missing, NVRTC's own message names them.
  void open_builtins() const {
    int major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    const fs::path builtins = folder / ("libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor));
    std::error_code ec;
    if (!folder.empty() && fs::exists(builtins, ec)) dlopen(builtins.c_str(), RTLD_NOW | RTLD_GLOBAL);
  }
};

const Nvrtc& nvrtc() {
  static const Nvrtc n;
  return n;
}

// The toolkit's libcu++ headers: where the build found them, else beside the libnvrtc that was opened.
std::string cccl_include(const Nvrtc& n) {
  std::vector<fs::path> tries;
  if (const char* env = std::getenv("REDLAB_CCCL_INCLUDE")) tries.emplace_back(env);
#ifdef REDLAB_CCCL_INCLUDE
  tries.emplace_back(REDLAB_CCCL_INCLUDE);
#endif
  if (!n.folder.empty()) {
    const fs::path& lib = n.folder;
    for (const fs::path& inc : {lib.parent_path() / "include", lib.parent_path().parent_path() / "include"}) {
      tries.push_back(inc / "cccl");
      tries.push_back(inc);
    }
  }
  for (const fs::path& t : tries) {
    std::error_code ec;
    if (fs::exists(t / "cuda" / "std" / "cstdint", ec)) return t.string();
  }
  return {};
}

}  // namespace

std::string nvrtc_version(std::string* why, std::string* path) {
  const Nvrtc& n = nvrtc();
  if (!n.error.empty()) {
    if (why) *why = n.error;
    return {};
  }
  if (path) *path = n.path;
  int major = 0, minor = 0;
  n.nvrtcVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> nvrtc_include_dirs(const std::string& file_dir, std::string* why) {
  const Nvrtc& n = nvrtc();
  if (!n.error.empty()) {
    if (why) *why = n.error;
    return {};
  }
  const std::string shims = find_resource("kernels/rtc/cstdint"), probe = find_resource("kernels/probe.cuh"),
                    launch = find_resource("app/exec/user_launch.h"), cccl = cccl_include(n);
  if (shims.empty() || probe.empty() || launch.empty()) {
    if (why)
      *why =
          "redlab's kernel headers (kernels/, kernels/rtc/, app/) were not found next to the executable or "
          "in its source tree";
    return {};
  }
  if (cccl.empty()) {
    if (why)
      *why = "the CUDA toolkit's libcu++ headers (include/cccl/cuda/std) were not found beside " + n.path +
             "; set REDLAB_CCCL_INCLUDE to the folder that holds cuda/std";
    return {};
  }
  const fs::path kernels = fs::path(probe).parent_path();
  return {fs::path(shims).parent_path().string(),
          cccl,
          kernels.string(),
          fs::path(launch).parent_path().parent_path().string(),
          kernels.parent_path().string(),
          file_dir.empty() ? "." : file_dir};
}

NvrtcBuild nvrtc_compile(const std::string& source, const std::string& shown,
                         const std::vector<std::string>& include_dirs, int major, int minor,
                         const std::vector<std::string>& name_expressions) {
  NvrtcBuild b;
  const Nvrtc& n = nvrtc();
  if (!n.error.empty()) {
    b.log = n.error;
    return b;
  }
  // A cubin for the device's own architecture where this NVRTC knows it, else PTX for the newest it knows, which
  // the driver compiles at load.
  const int arch = major * 10 + minor;
  int count = 0;
  n.nvrtcGetNumSupportedArchs(&count);
  std::vector<int> archs(std::size_t(count > 0 ? count : 0));
  if (count > 0) n.nvrtcGetSupportedArchs(archs.data());
  bool known = false;
  int newest = 0;
  for (int a : archs) {
    known = known || a == arch;
    newest = std::max(newest, a);
  }
  if (!known && newest == 0) {
    b.log = "NVRTC at " + n.path + " lists no GPU architecture it compiles for";
    return b;
  }
  b.target = known ? "sm_" + std::to_string(arch) : "compute_" + std::to_string(newest);

  // C++20, as the emulator's compile of the same file (the host compiler's); NVRTC 12.4 knows __builtin_LINE, which
  // the probe's calls take their caller's line from, only in C++20. Line info, as the catalog's kernels are built
  // (cmake/redlab_kernels.cmake). NVRTC 13 has no --expt-relaxed-constexpr, and the kernels need none: their
  // constexpr calls are __host__ __device__ or -default-device's. The record's host code is parsed as device code
  // (-default-device: NVRTC compiles no host code, and nothing calls it there).
  // libcu++ unrolls its type-list metaprograms 10 deep for nvcc and 16 deep for any other compiler, NVRTC included;
  // at 16, NVRTC's front end (nvcc's) spends 0.35 s (1 s on a slower host) in <cuda/std/type_traits> alone, most of
  // a kernel file's parse. Told nvcc's depth, it makes the same code, as nvcc builds the catalog's kernels.
  std::vector<std::string> options = {"--gpu-architecture=" + b.target, "-std=c++20", "-default-device", "-lineinfo",
                                      "-D_CCCL_META_UNROLL_LIMIT=10"};
  for (const std::string& d : include_dirs) options.push_back("-I" + d);
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());

  const auto t0 = std::chrono::steady_clock::now();
  nvrtcProgram prog = nullptr;
  if (const nvrtcResult r = n.nvrtcCreateProgram(&prog, source.c_str(), shown.c_str(), 0, nullptr, nullptr);
      r != NVRTC_SUCCESS) {
    b.log = std::string("NVRTC could not take the program: ") + n.nvrtcGetErrorString(r);
    return b;
  }
  for (const std::string& e : name_expressions) n.nvrtcAddNameExpression(prog, e.c_str());
  const nvrtcResult compiled = n.nvrtcCompileProgram(prog, int(argv.size()), argv.data());
  b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::size_t log_size = 0;
  n.nvrtcGetProgramLogSize(prog, &log_size);
  if (log_size > 1) {
    b.log.resize(log_size);
    n.nvrtcGetProgramLog(prog, b.log.data());
    b.log.resize(log_size - 1);
  }
  if (compiled == NVRTC_SUCCESS) {
    std::size_t size = 0;
    if (known) {
      n.nvrtcGetCUBINSize(prog, &size);
      b.image.resize(size);
      n.nvrtcGetCUBIN(prog, b.image.data());
    } else {
      n.nvrtcGetPTXSize(prog, &size);
      b.image.resize(size);
      n.nvrtcGetPTX(prog, b.image.data());
    }
    b.ok = !b.image.empty();
    for (const std::string& e : name_expressions) {
      const char* lowered = nullptr;
      if (n.nvrtcGetLoweredName(prog, e.c_str(), &lowered) != NVRTC_SUCCESS || !lowered) {
        b.ok = false;
        b.log += "\nNVRTC did not instantiate " + e;
        break;
      }
      b.lowered.push_back(lowered);
    }
  } else if (b.log.empty()) {
    b.log = std::string("NVRTC: ") + n.nvrtcGetErrorString(compiled);
  }
  n.nvrtcDestroyProgram(&prog);
  return b;
}

std::string nvrtc_name_expression(const std::string& demangled) {
  const std::string ret = "void ";
  if (demangled.rfind(ret, 0) != 0) return {};
  // The name runs to the parameter list's '(' outside any template argument list.
  int depth = 0;
  std::size_t end = std::string::npos;
  for (std::size_t i = ret.size(); i < demangled.size() && end == std::string::npos; ++i) {
    const char c = demangled[i];
    if (c == '<')
      ++depth;
    else if (c == '>')
      --depth;
    else if (c == '(' && depth == 0)
      end = i;
  }
  if (end == std::string::npos || end == ret.size()) return {};
  std::string name = demangled.substr(ret.size(), end - ret.size());
  const std::string inline_ns = "redlab::kernels::emu::", visible = "redlab::kernels::";
  for (std::size_t at = name.find(inline_ns); at != std::string::npos; at = name.find(inline_ns, at))
    name.replace(at, inline_ns.size(), visible);
  return "&" + name;
}

std::string nvrtc_probe_twin(const std::string& e) {
  const std::string traced = "redlab::kernels::TraceProbe", timed = "redlab::kernels::NoProbe";
  std::string twin = e;
  bool changed = false;
  for (std::size_t at = 0; (at = twin.find("redlab::kernels::", at)) != std::string::npos;) {
    if (twin.compare(at, traced.size(), traced) == 0) {
      twin.replace(at, traced.size(), timed);
      at += timed.size();
      changed = true;
    } else if (twin.compare(at, timed.size(), timed) == 0) {
      twin.replace(at, timed.size(), traced);
      at += traced.size();
      changed = true;
    } else {
      at += 1;
    }
  }
  return changed ? twin : std::string{};
}

}  // namespace redlab
