// A student's kernel file on the GPU: NVRTC, the toolkit's run-time compiler, compiles the
// file's device code from the same text that the machine's C++ compiler built its host library from
// (exec/user_kernel.cpp), one instance per template instantiation that the host side launches
// (exec/user_launch.h names it from the host instantiation's symbol). libnvrtc is opened at run time, so redlab
// starts where the toolkit is absent and says why a file cannot run on the GPU.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace redlab {

struct NvrtcBuild {
  bool ok = false;
  std::string log;  // NVRTC's messages, the file named as the student named it
  std::string image;  // a cubin (sm_XY) or, for a GPU newer than this NVRTC knows, PTX
  std::vector<std::string> lowered;  // the device symbol of each name expression, in their order
  std::string target;  // "sm_90" or "compute_90"
  double seconds = 0;
};

// NVRTC's version ("13.0"), or "" with `why` set when libnvrtc cannot be opened; `path`: the library opened.
std::string nvrtc_version(std::string* why, std::string* path = nullptr);

// The include folders NVRTC needs for a kernel file in folder `file_dir`: kernels/rtc (the standard headers
// as libcu++ gives them to device code), the toolkit's libcu++, redlab's kernels/ and app/ and its root, and
// the file's own folder. Empty with `why` set when one cannot be found.
std::vector<std::string> nvrtc_include_dirs(const std::string& file_dir, std::string* why);

// Compiles `source` (named `shown` in messages) for compute capability major.minor with the name expressions
// (`&ns::kernel<256u, int, ...>`). Never throws.
NvrtcBuild nvrtc_compile(const std::string& source, const std::string& shown,
                         const std::vector<std::string>& include_dirs, int major, int minor,
                         const std::vector<std::string>& name_expressions);

// The name expression NVRTC instantiates for a host-compiled kernel whose demangled name is `demangled`
// ("void redlab::kernels::mine<256u, int, redlab::kernels::Sum<int>, redlab::kernels::emu::TraceProbe>(int
// const*, ...)" -> "&redlab::kernels::mine<256u, int, redlab::kernels::Sum<int>, redlab::kernels::TraceProbe>"):
// the probe types' inline namespace is the emulator's on the host and the GPU's under NVRTC, so it is left out.
// "" when `demangled` is not a function returning void.
std::string nvrtc_name_expression(const std::string& demangled);

// The same instance with the other probe (TraceProbe <-> NoProbe), "" when it names neither: a run launches
// both (the traced first launch, the timed finish), so they are compiled together.
std::string nvrtc_probe_twin(const std::string& name_expression);

// Launches the device instance of a kernel file's host-compiled kernel `host_fn` (exec/user_launch.h, which
// declares it too: the file's library calls it, exported by the executable). Compiles it on its first launch in
// the process (that instance alone: a traced run's every launch is traced; the image is kept beside the library),
// then launches with cudaLaunchKernel's
// `params`, checks and waits as every launch (exec/cuda_launch.h). Throws std::runtime_error. CUDA builds only.
void nvrtc_launch(const void* host_fn, const unsigned grid[3], const unsigned block[3], std::size_t smem,
                  void** params);

// A kernel file's instance compiled before its first launch (exec/user_kernel.cpp starts it beside the host
// compiler) is kept where that launch looks for it: in the library's sealed folder `library_dir`, named by NVRTC's
// version, the architecture (90: sm_90) and the name expression, with `lowered`, its device symbol.
void keep_nvrtc_image(const std::string& library_dir, int arch, const std::string& name_expression,
                      const std::string& image, const std::string& lowered);

// The compute capability of the GPU a run here would use (device 0: 90 for sm_90), 0 where there is none.
int current_gpu_arch();

// `redlab nvrtc-compile DIR --arch sm_XY --expression E` (what exec/user_kernel.cpp runs in a child, under the
// compiler's limits): compiles the file whose text and names DIR holds (source.cu; source.name: the name shown, its
// folder) for that architecture, and writes the image and device symbol there (image, lowered). 0, or 1 with
// NVRTC's messages on stderr.
int nvrtc_compile_command(const std::string& dir, const std::string& arch, const std::string& name_expression);

// `stats --source F --backend cpu --nvrtc-check sm_XY`: while `nvrtc_check_launches` is set, every launch of a
// kernel file on the emulator first has NVRTC compile the same instance (and its twin) for compute capability
// `nvrtc_check_arch` (90: sm_90), so a file is checked for a GPU on a machine without one. nvrtc_check throws
// std::runtime_error with NVRTC's messages. CUDA builds only.
extern bool nvrtc_check_launches;
extern int nvrtc_check_arch;
void nvrtc_check(const void* host_fn);

}  // namespace redlab
