// A student's kernel file (`redlab new-kernel`, the catalog's dialect) compiled at run time: the machine's
// C++ compiler builds a shared library from the file and redlab's headers (kernels/,
// app/), and a redlab process loads it, so the record registers itself like a catalog one. The library runs the
// kernel on the CPU SIMT emulator and, where redlab was built with CUDA, launches it on the GPU too: NVRTC
// compiles the device instances from the same text when they are first launched (exec/user_launch.h,
// exec/nvrtc.h). The compiled library is kept in a cache folder, keyed by the file's text, the element type
// and the compiler, with the text it was built from beside it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/scenario.h"

namespace redlab {

struct UserKernelBuild {
  bool ok = false;
  std::string library;  // the shared library's path
  std::string id;  // the record's id (its .id = "...")
  std::string errors;  // the compiler's messages, naming the file as the user gave it, and its lines
  double seconds = 0;  // compile time (0: taken from the cache)
  bool with_prelude = false;  // compiled with redlab's headers precompiled (the prelude)
  bool cached = false;
  bool setup_failed = false;  // `errors` is about redlab's set-up (cache, compiler, headers), not the file's code
  std::string notice;  // one line to show before the run (a damaged compiled copy rebuilt), or ""
  double gpu_seconds = 0;  // the first GPU instance, compiled beside the host compiler and kept (0: none)
  std::string gpu_target;  // its architecture ("sm_90")
  // Kernels that name no steps got one per barrier interval (core/kernel_file.h, add_barrier_steps): which, and
  // the lines of the __syncthreads() that begin one.
  std::vector<std::string> barrier_kernels;
  std::vector<int> barrier_lines;
};

// The record id a kernel file declares, or "" with `why` set.
std::string user_kernel_id(const std::string& file_text, std::string* why);

// What a library is built for: the scenario's element type, block size, block rows and operator. Each is its own
// library, since its launchers are template instances of them (kernels/register.cuh: REDLAB_USER_BLOCK ...).
struct UserKernelTarget {
  ElemType type = ElemType::int32;
  unsigned block = 256;  // reductions: threads per block
  unsigned block_rows = 8;  // transposes: K of the block (32, K)
  OpKind op = OpKind::sum;
  // The GPU the run launches on, for its first instance to be compiled through NVRTC beside the host compiler
  // (CUDA builds): -1 none, 0 this machine's GPU where it has one, else its compute capability (90: sm_90).
  int gpu_arch = -1;
  bool timed = false;  // the run's first launch is the timed build (bench), not the traced one
};

// What the compiler may use on one kernel file, per process: beyond them it is stopped and the student told which.
struct CompileLimits {
  double wall_seconds = 300;
  unsigned cpu_seconds = 120;
  std::uint64_t memory_bytes = 2ull << 30;  // address space (RLIMIT_AS)
  std::size_t output_bytes = 64 << 10;  // of the compiler's messages kept; the rest counted
};
inline constexpr CompileLimits kCompileLimits{};
inline constexpr long long kMaxKernelFileBytes = 4 << 20;

// Whether `path` can be a kernel file: a regular file (a pipe or /dev/stdin cannot be read twice) of at most
// kMaxKernelFileBytes; false with `why`.
bool is_kernel_file_path(const std::string& path, std::string* why);

// Compiles `file` for `target` in the private kernel cache (exec/kernel_cache.h). Never throws; `errors` says what
// went wrong.
UserKernelBuild compile_user_kernel(const std::string& file, const UserKernelTarget& target);

// A compile that found no precompiled prelude of redlab's headers starts building one beside it, for the next
// compile (exec/user_kernel.cpp). A command that ends soon after its compile waits for that build here, so that
// the next command finds it; without the wait, the build is stopped when the process ends.
void wait_for_kernel_prelude();

// A cache key for a text: the first 128 bits of its SHA-256 digest in 32 hex digits. The compiled kernels' cache
// (here and exec/nvrtc_launch.cpp) is named by them.
std::string cache_key(const std::string& text);

// Loads a compiled library into this process, if its folder's seal still matches (exec/kernel_cache.h): its
// record and launchers register. "" or why not.
std::string load_user_kernel(const std::string& library);

// The text a library in cache folder `dir` was built from, the file's name as the student gave it (for
// messages) and its folder (for its own includes).
struct UserKernelSource {
  std::string text, shown, dir;
};
UserKernelSource read_user_kernel_source(const std::string& dir);  // throws std::runtime_error
// The two files a build folder keeps of it: source.cu (the text) and source.name (the name shown, then the folder,
// one a line). Written before a compile; read back by read_user_kernel_source (sealed) and `redlab nvrtc-compile`.
void write_user_kernel_source(const std::string& dir, const UserKernelSource&);
bool parse_user_kernel_source_name(const std::string& name_lines, UserKernelSource*);  // false: a line is missing

}  // namespace redlab
