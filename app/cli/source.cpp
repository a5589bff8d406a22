// `--source FILE`: a student's kernel file, compiled at run time for the CPU emulator and run
// in a second redlab, so that what the student's code does (a crash, a deadlock, an endless loop) ends with a
// message and never takes this process down.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "cli/source.h"
#include "cli/command.h"
#include "core/file_write.h"
#include "core/printable.h"
#include "core/child_process.h"
#include "emu/simt.h"
#include "exec/nvrtc.h"
#include "exec/user_kernel.h"

namespace redlab::cli {

void SourceArgs::add_to(CLI::App& app, bool with_nvrtc_check) {
  app.add_option("--source", file,
                 "a kernel file of your own (redlab new-kernel), compiled at run time and run like a catalog kernel "
                 "(the CPU emulator, or the GPU through NVRTC)")
      ->check(CLI::ExistingFile)
      ->check([](const std::string& path) -> std::string {  // a pipe or /dev/stdin cannot be read twice
        std::string why;
        return is_kernel_file_path(path, &why) ? "" : why;
      });
  app.add_option("--load-kernel", library, "a compiled kernel file to load (the second redlab of --source)")->group("");
  app.add_option("--time-limit", time_limit, "seconds a kernel file's run may take before it is stopped (default 60)")
      ->check(number_in(0.1, 86400.0, "the seconds"));
  if (with_nvrtc_check)
    app.add_option("--nvrtc-check", nvrtc_check,
                   "with --source on the emulator: also compile every instance it launches for this GPU (sm_90) "
                   "through NVRTC, to check the file for a GPU without one");
}

std::string SourceArgs::why_refused() const {
  return !file.empty() && !library.empty()
             ? "--load-kernel is what redlab passes to the redlab that runs a --source file; give --source alone"
             : "";
}

namespace {

std::string g_kernel_name = "your kernel";
double g_limit = 60;
bool g_maybe_gpu = false;  // the run may be on the GPU (--backend cuda or auto)
bool g_kernel_loaded = false;  // this is the second redlab, running a kernel file
std::atomic<bool> g_run_finished{false};  // the command's output is written: what fails now is the file's exit code

// "block (1,0,0), thread (37,0,0): warp 1, lane 5", or "" when no CUDA thread ran yet.
void describe_position(char* buf, std::size_t size) {
  const emu::Position p = emu::last_position();
  if (!p.valid) {
    std::snprintf(buf, size, "before any of its threads ran");
    return;
  }
  const int n = std::snprintf(buf, size, "in block (%u,%u,%u), thread (%u,%u,%u): warp %u, lane %u", p.block_x,
                              p.block_y, p.block_z, p.thread_x, p.thread_y, p.thread_z, p.warp, p.lane);
  if (p.step >= 0 && n > 0 && std::size_t(n) < size)
    std::snprintf(buf + n, size - std::size_t(n), ", in step %d (the probe.step at line %u)", p.step, p.step_line);
}

void report_and_exit(const char* what) {
  char where[256] = "", line[768];
  // (After the run the emulator's workers are gone: where the last thread was is not read, its memory freed.)
  if (!g_run_finished) describe_position(where, sizeof where);
  const int n = g_run_finished
                    ? std::snprintf(line, sizeof line,
                                    "%s on %s after the run "
                                    "had ended and its results were written: in code that runs at exit (a global's "
                                    "destructor, an atexit handler), not in a thread of the kernel\n",
                                    kFailedAfterTheRun, what)
                    : std::snprintf(line, sizeof line,
                                    "redlab: %s stopped on %s %s; the emulator ran it on one "
                                    "worker, so that thread was running\n",
                                    g_kernel_name.c_str(), what, where);
  if (n > 0) (void)!write(2, line, std::size_t(n));
  _exit(2);
}

void on_crash(int sig, siginfo_t* info, void*) {
  const bool overflow = sig == SIGSEGV && info && emu::in_stack_guard(info->si_addr);
  report_and_exit(overflow ? "a stack overflow: its stack on the emulator is 64 KB, so a recursion too deep or a "
                             "local array too large runs past it (SIGSEGV)"
                  : sig == SIGSEGV ? "an access to memory it does not own (SIGSEGV)"
                  : sig == SIGBUS  ? "a misaligned or unmapped access (SIGBUS)"
                  : sig == SIGFPE  ? "an arithmetic fault such as an integer division by zero (SIGFPE)"
                  : sig == SIGILL  ? "an illegal instruction (SIGILL)"
                                   : "an abort (SIGABRT)");
}

// An allocation that fails (new of more memory than the machine has) ends the run naming the thread, as a crash
// does, instead of unwinding as std::bad_alloc through redlab.
constexpr const char* kOutOfMemory = "an allocation the machine's memory cannot hold (new or malloc of too many bytes)";
void on_out_of_memory() { report_and_exit(kOutOfMemory); }

// --backend as given ("" and text the scenario refuses later stand as auto).
BackendChoice backend_choice(const std::string& text) {
  const std::optional<BackendChoice> choice = text.empty() ? std::nullopt : parse_backend(text, nullptr);
  return choice.value_or(BackendChoice::auto_);
}

}  // namespace

int out_of_memory() {
  if (g_kernel_loaded) report_and_exit(kOutOfMemory);
  print_message(stderr, "redlab: out of memory: a smaller --n, or fewer --focus blocks, needs less\n");
  return 2;
}

bool kernel_file_loaded() { return g_kernel_loaded; }

void kernel_file_run_finished() {
  std::fflush(stdout);
  std::fflush(stderr);
  g_run_finished = true;
}

int load_source_kernel(const SourceArgs& src, const std::string& kernel, const std::string& backend) {
  if (!kernel.empty()) g_kernel_name = "the kernel " + kernel;
  g_maybe_gpu = backend_choice(backend) != BackendChoice::cpu;
  if (!src.nvrtc_check.empty()) {
#if REDLAB_HAVE_CUDA
    nvrtc_check_launches = true;
    nvrtc_check_arch = std::stoi(src.nvrtc_check.substr(3));  // "sm_90", checked by run_source
#endif
  }
  if (const std::string why = load_user_kernel(src.library); !why.empty()) {
    print_message(stderr, "redlab: %s\n", why.c_str());
    return 2;
  }
  g_kernel_loaded = true;
  // One worker: the thread a crash or the time limit names is the one that was running.
  emu::set_workers(1);
  emu::watch_positions(true);
  g_limit = src.time_limit;
  // On the alternate signal stack each emulator worker has (emu/simt.cpp): a fiber's overflowed stack has no room.
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
    struct sigaction sa {};
    sa.sa_sigaction = on_crash;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_SIGINFO | SA_ONSTACK;
    sigaction(sig, &sa, nullptr);
  }
  std::set_new_handler(on_out_of_memory);
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::duration<double>(g_limit));
    char where[256];
    if (g_maybe_gpu && !emu::last_position().valid)  // no emulated thread ran: the GPU has the kernel
      std::snprintf(where, sizeof where, "while it ran on the GPU, where redlab cannot see which thread waits");
    else
      describe_position(where, sizeof where);
    print_message(stderr,
                  "redlab: %s did not finish within %g s (--time-limit): stopped %s. A loop whose condition "
                  "never changes, or a thread waiting for one that never comes (a __syncthreads or a "
                  "full-mask shuffle that not every thread reaches)?\n",
                  g_kernel_name.c_str(), g_limit, where);
    std::fflush(stderr);
    _exit(2);
  }).detach();
  return 0;
}

int run_source(int argc, char** argv, const SourceArgs& src, const SourceCommand& cmd) {
  std::string text;  // (never waited on: compile_user_kernel says why a file cannot be read)
  read_regular_file(src.file, std::size_t(kMaxKernelFileBytes), &text);
  // The element type its launcher is built for: the scenario's, else the family's default.
  ElemType type = text.find("transpose_kernel") != std::string::npos ? ElemType::float32 : ElemType::int32;
  if (!cmd.type.empty()) {
    std::string err;
    const auto t = parse_type(cmd.type, &err);
    if (!t) {
      print_message(stderr, "redlab: %s\n", err.c_str());
      return 2;
    }
    type = *t;
  }
  if (!src.nvrtc_check.empty()) {
#if REDLAB_HAVE_CUDA
    static const std::regex arch("sm_[1-9][0-9]{1,2}");
    if (!std::regex_match(src.nvrtc_check, arch)) {
      print_message(stderr,
                    "redlab: --nvrtc-check '%s': give a GPU architecture as sm_XY (sm_90 for Hopper, sm_80 "
                    "for Ampere)\n",
                    src.nvrtc_check.c_str());
      return 2;
    }
    if (backend_choice(cmd.backend) != BackendChoice::cpu) {
      print_message(stderr, "redlab: --nvrtc-check checks a run on the CPU emulator; add --backend cpu\n");
      return 2;
    }
#else
    print_message(stderr, "redlab: --nvrtc-check: this redlab was built without the CUDA toolkit (no NVRTC)\n");
    return 2;
#endif
  }
#if !REDLAB_HAVE_CUDA
  if (backend_choice(cmd.backend) == BackendChoice::cuda || cmd.bench) {
    print_message(stderr,
                  "redlab: --source: this redlab was built without the CUDA toolkit, so a kernel file runs on "
                  "the CPU emulator only; use --backend cpu\n");
    return 2;
  }
#endif
  // The instance the run launches: the command's block size, block rows and operator (a value the scenario refuses
  // is left at its default here: the second redlab refuses it with the option's message).
  UserKernelTarget target;
  target.type = type;
  std::uint64_t v = 0;
  if (!cmd.block.empty() && parse_size(cmd.block, v) && v <= 4096) target.block = unsigned(v);
  if (!cmd.block_rows.empty() && parse_size(cmd.block_rows, v) && v <= 1024) target.block_rows = unsigned(v);
  std::string why;
  if (!cmd.op.empty())
    if (const auto op = parse_op(cmd.op, &why)) target.op = *op;
      // Where the run may be on a GPU, its first instance compiles through NVRTC beside the host compiler (the
      // emulator's check for one GPU too).
#if REDLAB_HAVE_CUDA
  if (!src.nvrtc_check.empty())
    target.gpu_arch = std::stoi(src.nvrtc_check.substr(3));
  else if (cmd.bench || backend_choice(cmd.backend) != BackendChoice::cpu)
    target.gpu_arch = 0;
  target.timed = cmd.bench;
#endif
  const UserKernelBuild b = compile_user_kernel(src.file, target);
  if (!b.notice.empty()) print_message(stderr, "redlab: %s\n", b.notice.c_str());
  if (!b.ok) {
    if (b.setup_failed) {  // not the file's fault: say what is wrong, not that it does not compile
      print_message(stderr, "redlab: --source: %s\n", b.errors.c_str());
      return 2;
    }
    if (!b.errors.empty()) print_message(stderr, "%s", b.errors.c_str());
    if (b.errors.empty() || b.errors.back() != '\n') print_message(stderr, "\n");
    print_message(stderr, "redlab: --source: %s does not compile\n", src.file.c_str());
    return 2;
  }
  if (!cmd.kernel.empty() && cmd.kernel != b.id) {
    print_message(stderr, "redlab: --kernel %s: %s declares the kernel '%s'; leave --kernel out\n", cmd.kernel.c_str(),
                  src.file.c_str(), b.id.c_str());
    return 2;
  }
  if (!b.cached) {
    char gpu[160] = "";
    if (b.gpu_seconds > 0)
      std::snprintf(gpu, sizeof gpu, "; beside it, its first instance for the GPU (NVRTC, %s) in %.1f s",
                    b.gpu_target.c_str(), b.gpu_seconds);
    print_message(stderr, "redlab: compiled %s in %.1f s (host code and the emulator's%s%s)\n", src.file.c_str(),
                  b.seconds, b.with_prelude ? ", redlab's headers precompiled" : "", gpu);
  }
  if (!b.barrier_kernels.empty()) {
    std::string kernels, lines;
    for (const std::string& k : b.barrier_kernels) kernels += (kernels.empty() ? "" : ", ") + k;
    for (int l : b.barrier_lines) lines += (lines.empty() ? "" : ", ") + std::to_string(l);
    print_message(stderr,
                  "redlab: %s names no probe.step in %s: one step per barrier interval, from the start and after "
                  "the __syncthreads() at line%s %s\n",
                  src.file.c_str(), kernels.c_str(), b.barrier_lines.size() == 1 ? "" : "s",
                  lines.empty() ? "(none)" : lines.c_str());
  }
  // The same command line in a second redlab, with the library instead of the file (bench: the file's kernel
  // after the --kernels given).
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--source" || (cmd.bench && a == "--kernels")) {
      ++i;
      continue;
    }
    if (a.rfind("--source=", 0) == 0 || (cmd.bench && a.rfind("--kernels=", 0) == 0)) continue;
    args.push_back(a);
  }
  args.insert(args.end(), {"--load-kernel", b.library});
  if (cmd.bench)
    args.insert(args.end(), {"--kernels", cmd.kernels.empty() ? b.id : cmd.kernels + "," + b.id});
  else if (cmd.kernel.empty())
    args.insert(args.end(), {"--kernel", b.id});
  // The second redlab stops itself at the time limit and names where; the child's own limit is the backstop. It
  // runs in a process group of its own that ends with this process (core/child_process.h): Ctrl+C, SIGTERM or
  // SIGKILL here leaves nothing of the kernel running.
  ChildOptions options;
  options.timeout_s = src.time_limit + 30;
  options.pass_output = true;
  const ChildResult c = run_child(self_executable(), args, options);
  // A compile that found redlab's headers not yet precompiled started that build beside the run: it is finished for
  // the next command (once for each redlab build and compiler).
  wait_for_kernel_prelude();
  if (c.exit_code >= 0) return c.exit_code;
  if (c.timed_out)
    print_message(stderr, "redlab: %s did not finish within %g s and did not answer; it was killed\n", src.file.c_str(),
                  src.time_limit);
  else if (c.signal)
    print_message(stderr, "redlab: the run of %s ended on %s (the kernel's process; this one is unharmed)\n",
                  src.file.c_str(), strsignal(c.signal));
  else
    print_message(stderr, "redlab: --source: the second redlab that runs %s: %s\n", src.file.c_str(), c.why.c_str());
  return 2;
}

std::optional<int> kernel_file_part(int argc, char** argv, const SourceArgs& src, const SourceCommand& cmd) {
  if (const std::string why = src.why_refused(); !why.empty()) {
    print_message(stderr, "redlab: %s\n", why.c_str());
    return 2;
  }
  if (!src.file.empty()) return run_source(argc, argv, src, cmd);
  if (!src.library.empty())
    if (const int rc = load_source_kernel(src, cmd.kernel, cmd.backend)) return rc;
  return std::nullopt;
}

}  // namespace redlab::cli
