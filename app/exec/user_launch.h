#pragma once
// The launch of a student's kernel file (exec/user_kernel.cpp compiles it with the machine's C++ compiler into a
// shared library that includes this header first). One library serves both backends:
//   - on the CPU SIMT emulator, REDLAB_LAUNCH runs the host-compiled kernel as exec/cpu_launch.h does (and, with
//     `--nvrtc-check`, first has NVRTC compile the same instance for a GPU, to check a file without one);
//   - on the GPU, the record's CUDA launcher (kernels/register.cuh, REDLAB_USER_KERNEL_GPU) sets
//     `user_kernel_on_gpu` and REDLAB_LAUNCH hands the kernel to redlab's NVRTC launcher instead
//     (exec/nvrtc.h): the host instance `fn` names the template instance to compile from the same file for the
//     device, and the arguments, converted to the kernel's own parameter types, are passed as they are.
// The probe structs (kernels/probe.cuh) have one layout on the host and the device, so a traced launch hands
// the GPU the same TraceProbe the emulator would use.
#include <cstddef>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include "exec/cpu_launch.h"

namespace redlab {

#ifdef REDLAB_USER_KERNEL_GPU
// Set while a kernel file's record launches on the GPU (kernels/register.cuh's launch_on_gpu_through_nvrtc).
inline thread_local bool user_kernel_on_gpu = false;

// Exported by redlab (exec/nvrtc.h says what they do): the GPU launch of the host instance `host_fn`, and, on the
// emulator with `stats --source F --nvrtc-check ARCH`, the check that NVRTC compiles it for that GPU too.
void nvrtc_launch(const void* host_fn, const unsigned grid[3], const unsigned block[3], std::size_t smem,
                  void** params);
void nvrtc_check(const void* host_fn);
extern bool nvrtc_check_launches;

template <class... P, class... A>
void launch_through_nvrtc(void (*fn)(P...), dim3 grid, dim3 block, std::size_t smem, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "a kernel file's launch passes one argument per kernel parameter");
  std::tuple<std::decay_t<P>...> values(static_cast<std::decay_t<P>>(args)...);
  const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  std::apply(
      [&](auto&... v) {
        void* params[] = {static_cast<void*>(&v)...};
        nvrtc_launch(reinterpret_cast<const void*>(fn), g, b, smem, params);
      },
      values);
}
#endif

}  // namespace redlab

#undef REDLAB_LAUNCH
#ifdef REDLAB_USER_KERNEL_GPU
#define REDLAB_LAUNCH(fn, grid, block, smem, ...)                                                   \
  do {                                                                                              \
    if (::redlab::user_kernel_on_gpu) {                                                             \
      ::redlab::launch_through_nvrtc(fn, grid, block, smem, __VA_ARGS__);                           \
    } else {                                                                                        \
      if (::redlab::nvrtc_check_launches) ::redlab::nvrtc_check(reinterpret_cast<const void*>(fn)); \
      ::redlab::emu::launch(grid, block, smem, [&] { fn(__VA_ARGS__); });                           \
    }                                                                                               \
  } while (0)
#else
#define REDLAB_LAUNCH(fn, grid, block, smem, ...) ::redlab::emu::launch(grid, block, smem, [&] { fn(__VA_ARGS__); })
#endif
// Thread block clusters: the emulator runs a kernel file's cluster launch; redlab's NVRTC launcher does not launch
// clusters (cuLaunchKernelEx), and says so rather than launching the kernel without them.
#undef REDLAB_LAUNCH_CLUSTER
#ifdef REDLAB_USER_KERNEL_GPU
#define REDLAB_LAUNCH_CLUSTER(fn, grid, block, smem, cluster, ...)                                           \
  do {                                                                                                       \
    if (::redlab::user_kernel_on_gpu)                                                                        \
      throw std::invalid_argument(                                                                           \
          "a kernel file's thread block clusters run on the emulator only (--backend cpu): redlab does not " \
          "launch a kernel file's clusters on the GPU yet");                                                 \
    if (::redlab::nvrtc_check_launches) ::redlab::nvrtc_check(reinterpret_cast<const void*>(fn));            \
    ::redlab::emu::launch(                                                                                   \
        grid, block, smem, [&] { fn(__VA_ARGS__); }, dim3(cluster));                                         \
  } while (0)
#else
#define REDLAB_LAUNCH_CLUSTER(fn, grid, block, smem, cluster, ...) \
  ::redlab::emu::launch(                                           \
      grid, block, smem, [&] { fn(__VA_ARGS__); }, dim3(cluster))
#endif
