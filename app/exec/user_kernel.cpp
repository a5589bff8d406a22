#include "exec/user_kernel.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>

#include "core/catalog.h"
#include "core/child_process.h"
#include "core/file_write.h"
#include "core/kernel_file.h"
#include "core/printable.h"
#include "core/resources.h"
#include "exec/job.h"
#include "exec/kernel_cache.h"
#include "exec/nvrtc.h"

namespace redlab {

namespace fs = std::filesystem;

#if REDLAB_HAVE_CUDA
// A kernel file's library calls nvrtc_launch (exec/user_launch.h) and nothing in redlab does: this reference keeps
// it in the executable, which exports it (ENABLE_EXPORTS).
[[gnu::used]] static void (*const keep_nvrtc_launch)(const void*, const unsigned*, const unsigned*, std::size_t,
                                                     void**) = &nvrtc_launch;
#endif

namespace {

const char* element_spelling(ElemType t) {
  return t == ElemType::int32 ? "std::int32_t" : t == ElemType::float32 ? "float" : "double";
}

// The compiler's messages about the generated wrapper are noise to the student: keep those about their file,
// named as they named it.
std::string user_messages(const std::string& raw, const std::string& abs_file, const std::string& shown,
                          const std::string& wrapper) {
  std::istringstream in(raw);
  std::string out, line;
  while (std::getline(in, line)) {
    if (line.find(wrapper) != std::string::npos) continue;  // "In file included from .../wrapper.cpp:5"
    for (std::size_t at = line.find(abs_file); at != std::string::npos; at = line.find(abs_file, at + shown.size()))
      line.replace(at, abs_file.size(), shown);
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string cache_key(const std::string& text) { return sha256_hex(text).substr(0, 32); }

bool is_kernel_file_path(const std::string& path, std::string* why) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    if (why) *why = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    if (why)
      *why = "'" + path + "' is not a regular file (" +
             (S_ISFIFO(st.st_mode)  ? "a pipe"
              : S_ISDIR(st.st_mode) ? "a folder"
                                    : "a device or socket") +
             "): a kernel file is read more than once, so give it as a file (save it first: redlab "
             "new-kernel FILE)";
    return false;
  }
  if (st.st_size > kMaxKernelFileBytes) {
    if (why)
      *why = "'" + path + "' is " + std::to_string(st.st_size / (1 << 20)) + " MB; a kernel file is at most " +
             std::to_string(kMaxKernelFileBytes >> 20) + " MB";
    return false;
  }
  return true;
}

std::string user_kernel_id(const std::string& text, std::string* why) {
  // The id of the record the file registers: a record it builds on (new-kernel inlines it, under its catalog
  // id) comes first and is not registered. (Read token by token, not with std::regex: find_token_runs says why.)
  std::string record;  // the last registration's: the file's own, at its end
  for (const TokenRun& r : find_token_runs(text, {"REDLAB_KERNEL_RECORD", "(", kIdentifier, ")"}))
    record = r.captured[0];
  std::size_t from = 0;
  if (!record.empty())
    if (const std::vector<TokenRun> d = find_token_runs(text, {"struct", record}); !d.empty()) from = d.front().end;
  const std::vector<TokenRun> entry = find_token_runs(text, {".", "id", "=", kQuotedIdentifier}, from);
  if (entry.empty()) {
    if (why)
      *why =
          "it declares no kernel record (a record with its .id = \"...\" and REDLAB_KERNEL_RECORD at "
          "the end; `redlab new-kernel FILE --from ID` writes one)";
    return {};
  }
  return entry.front().captured[0];
}

namespace {

// A path inside a #line directive's string literal.
std::string line_directive_name(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '\\' || c == '"') out += '\\';
    out += (static_cast<unsigned char>(c) < 0x20) ? '?' : c;
  }
  return out;
}

// CXX as a command: its words ("ccache g++" is ccache running g++).
std::vector<std::string> command_words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

bool contains(const std::string& text, const char* what) { return text.find(what) != std::string::npos; }

// What a compiler (g++, NVRTC) stopped by one of kCompileLimits did, in words a student reads: `compiler` is its
// name in the sentence, `what` the file (and for whom it was compiled).
enum class CompileLimit { wall_clock, cpu_time, memory };
std::string compile_limit_message(CompileLimit limit, const std::string& compiler, const std::string& what) {
  switch (limit) {
    case CompileLimit::wall_clock:
      return compiler + " did not finish " + what + " within " + std::to_string(int(kCompileLimits.wall_seconds)) +
             " s and was stopped";
    case CompileLimit::cpu_time:
      return compiler + " used up its " + std::to_string(kCompileLimits.cpu_seconds) + " s of CPU time on " + what +
             " and was stopped (a template that instantiates itself without end?)";
    case CompileLimit::memory: break;
  }
  char gib[32];
  std::snprintf(gib, sizeof gib, "%.0f GiB", double(kCompileLimits.memory_bytes) / double(1ull << 30));
  return compiler + " ran out of the " + gib + " of memory redlab gives it on " + what +
         " (a template that instantiates itself without end, or an #include of something that is not a header?)";
}

// The compiler and what every kernel file is compiled with: redlab's header folders, and the options that do not
// depend on the file or the scenario.
struct CompilerSetup {
  std::string compiler;  // as CXX or the build named it
  std::vector<std::string> words;  // its command words ("ccache g++")
  fs::path root, app;  // the folder that holds kernels/, and app/
  std::vector<std::string> flags;
  std::string stamp;  // this redlab's executable (size and time): a new build, new keys
};

// "" or why no file can be compiled (set-up errors, not the file's).
std::string compiler_setup(CompilerSetup* c) {
  // redlab's headers: kernels/ and app/ (found like the rest of its files, core/resources.h).
  const std::string probe = find_resource("kernels/probe.cuh"), launch = find_resource("app/exec/cpu_launch.h");
  if (probe.empty() || launch.empty())
    return "redlab's headers (kernels/probe.cuh, app/exec/cpu_launch.h) were not found next to the executable or in "
           "its source tree; a kernel file cannot be compiled without them";
  c->root = fs::path(probe).parent_path().parent_path();
  c->app = fs::path(launch).parent_path().parent_path();
  c->compiler = "c++";
#ifdef REDLAB_CXX
  c->compiler = REDLAB_CXX;
#endif
  if (const char* cxx = std::getenv("CXX"); cxx && *cxx) c->compiler = cxx;
  c->words = command_words(c->compiler);
  if (c->words.empty()) return "CXX is blank; unset it, or set it to g++";
  // -fno-ipa-icf: every template instance keeps its own symbol, which names it to NVRTC (exec/user_launch.h).
  // redlab's folders come first; the student's own folder only after them (-idirafter, added per file), so a header
  // there named as one of redlab's (register.cuh, exec/user_launch.h) cannot stand in for it.
  c->flags = {"-std=gnu++20",
              "-O2",
              "-fPIC",
              "-fno-extern-tls-init",
              "-Wno-unknown-pragmas",
              "-fno-ipa-icf",
              "-fmax-errors=20",
              "-DBOOST_ALL_NO_LIB",
              "-I" + c->app.string(),
              "-I" + c->root.string(),
              "-I" + (c->root / "kernels").string()};
#if REDLAB_HAVE_CUDA
  c->flags.push_back("-DREDLAB_USER_KERNEL_GPU");  // the record launches on the GPU too (kernels/register.cuh)
#endif
#ifdef REDLAB_USER_KERNEL_DEFINES
  for (const char* d : {REDLAB_USER_KERNEL_DEFINES}) c->flags.push_back(d);
#endif
  struct stat self {};
  stat(self_executable().c_str(), &self);
  c->stamp = std::to_string(self.st_size) + ":" + std::to_string(self.st_mtime);
  return {};
}

// The compiler's command line around `args` (LC_ALL=C: its messages in plain ASCII quotes, for the window's fonts
// and any terminal), and the limits it runs under (kCompileLimits), for a kernel file and for the prelude alike.
std::vector<std::string> compiler_command(const CompilerSetup& c, const std::vector<std::string>& args) {
  std::vector<std::string> command = {"LC_ALL=C"};
  command.insert(command.end(), c.words.begin(), c.words.end());
  command.insert(command.end(), args.begin(), args.end());
  return command;
}

ChildOptions compiler_limits(const std::atomic<bool>* cancel = nullptr) {
  ChildOptions limits;
  limits.timeout_s = kCompileLimits.wall_seconds;
  limits.cpu_seconds = kCompileLimits.cpu_seconds;
  limits.address_space = kCompileLimits.memory_bytes;
  limits.max_output = kCompileLimits.output_bytes;
  limits.cancel = cancel;
  return limits;
}

// The precompiled header ("prelude"): the headers every kernel file includes first (exec/user_launch.h, and with it
// the emulator's), parsed once by GCC and kept in the cache, so that a save compiles the student's own text and not
// redlab's every time. It does not depend on the file, its folder or the scenario (those come after it), only on
// the compiler, the flags and this redlab; GCC itself passes over a header made by another compiler or with other
// options and parses the text instead, so using it never changes what is compiled.
constexpr const char* kPreludeHeader = "user_prelude.h";
constexpr const char* kPreludeImage = "user_prelude.h.gch";
constexpr const char* kPreludeText = "#include <cstdint>\n\n#include \"exec/user_launch.h\"\n";

fs::path prelude_folder(const CompilerSetup& c, const std::string& cache) {
  std::string key = "prelude\n" + c.compiler + "\n" + c.root.string() + "\n" + c.stamp + "\n";
  for (const std::string& f : c.flags) key += f + " ";
  return fs::path(cache) / ("prelude-" + cache_key(key));
}

// Whether the prelude in `folder` may be used: its seal verified (some 57 MB to hash: 0.1 s), once per process
// while its files are unchanged (device, inode, size and time of each).
bool prelude_usable(const fs::path& folder) {
  static std::mutex m;
  static std::map<std::string, std::string> verified;  // folder -> its files' stat when they verified
  std::string now;
  for (const char* name : {kPreludeHeader, kPreludeImage, "sums"}) {
    struct stat st {};
    if (stat((folder / name).c_str(), &st) != 0) return false;
    now += std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
           std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + " ";
  }
  std::lock_guard<std::mutex> lock(m);
  if (const auto it = verified.find(folder.string()); it != verified.end() && it->second == now) return true;
  std::string why;
  if (!verify_sealed(folder.string(), &why, kPreludeImage)) return false;
  verified[folder.string()] = now;
  return true;
}

// The prelude's build, once a process, on a thread of its own while the file it was started for compiles. The
// compiler runs as any child does (core/child_process.h); at exit an unfinished build is stopped and waited for.
struct PreludeBuild {
  std::mutex m;
  std::thread thread;
  std::atomic<bool> cancel{false};
  ~PreludeBuild() {
    cancel = true;
    if (thread.joinable()) thread.join();
  }
};
PreludeBuild& prelude_build() {
  static PreludeBuild b;
  return b;
}

void start_prelude_build(const CompilerSetup& c, const std::string& cache, const fs::path& folder) {
  PreludeBuild& p = prelude_build();
  std::lock_guard<std::mutex> lock(p.m);
  if (p.thread.joinable()) return;  // once a process: a build that failed is not tried again until the next
  p.thread = std::thread([c, cache, folder, cancel = &p.cancel] {
    std::string why;
    const std::string build = make_build_dir(cache, &why);
    if (build.empty()) return;
    std::ofstream(fs::path(build) / kPreludeHeader) << kPreludeText;
    std::vector<std::string> args = c.flags;
    args.insert(args.end(), {"-x", "c++-header", (fs::path(build) / kPreludeHeader).string(), "-o",
                             (fs::path(build) / kPreludeImage).string()});
    const ChildResult r = run_child("/usr/bin/env", compiler_command(c, args), compiler_limits(cancel));
    std::error_code ec;
    if (r.exit_code != 0 || !publish_build(build, folder.string(), {kPreludeHeader, kPreludeImage}).empty())
      fs::remove_all(build, ec);
  });
}

#if REDLAB_HAVE_CUDA
// The compute capability of this machine's GPU as last found (0: none, or not asked yet), kept in the cache.
int remembered_gpu_arch(const std::string& cache) {
  std::string text;
  if (!read_text_file((fs::path(cache) / ".gpu-arch").string(), &text, nullptr)) return 0;
  const int arch = std::atoi(text.c_str());
  return arch >= 10 && arch < 1000 ? arch : 0;
}
// Asks the driver, keeps the answer and returns it.
int remember_gpu_arch(const std::string& cache) {
  const int arch = current_gpu_arch();
  if (arch != remembered_gpu_arch(cache)) {
    try {
      write_file_atomically((fs::path(cache) / ".gpu-arch").string(), std::to_string(arch) + "\n");
    } catch (const std::exception&) {  // not kept: asked again next time
    }
  }
  return arch;
}
#endif

// The GPU instance a run launches first, compiled through NVRTC while the host compiler builds the library, so that
// a save waits for the longer of the two instead of both: the instance is named from the file's text
// (core/kernel_file.h: launched_instance), compiled by a child redlab (`nvrtc-compile`) under the compiler's limits
// (a file that makes NVRTC run away stops that child, never this process: the window's), and kept beside the
// library once it exists, where the second redlab's launch finds it. A name the text does not give, a file NVRTC
// refuses, or a machine without a GPU: nothing is kept, and the launch compiles (and reports) as before.
class GpuAhead {
 public:
  GpuAhead(const UserKernelTarget& target, const std::string& text, const std::string& shown,
           const std::string& file_dir, const std::string& cache) {
#if REDLAB_HAVE_CUDA
    if (target.gpu_arch < 0) return;
    const std::string expression =
        launched_instance(text, {target.type, target.block, target.block_rows, target.op, !target.timed});
    if (expression.empty()) return;
    result_.start([=](RunControl& control) {
      Result r;
      // This machine's GPU: asked of the driver (0.1 s on a GPU machine's host), beside the compile, which starts on
      // the architecture found last time; a different answer drops the image (the launch compiles its own).
      Job<int> asked;
      r.arch = target.gpu_arch;
      if (r.arch == 0) {
        r.arch = remembered_gpu_arch(cache);
        if (r.arch > 0)
          asked.start([cache](RunControl&) { return remember_gpu_arch(cache); });
        else
          r.arch = remember_gpu_arch(cache);
      }
      std::string why;
      const std::string dir = r.arch ? make_build_dir(cache, &why) : std::string{};
      if (dir.empty()) return r;
      write_user_kernel_source(dir, {text, shown, file_dir});
      const auto t0 = std::chrono::steady_clock::now();
      const ChildResult c =
          run_child(self_executable(),
                    {"nvrtc-compile", dir, "--arch", "sm_" + std::to_string(r.arch), "--expression", expression},
                    compiler_limits(&control.cancel));
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      // Stopped by a limit: said now, rather than run away again in the second redlab. A file NVRTC refuses (exit
      // 1) is compiled again at the launch, which reports it as it reports every launch's compile.
      if (c.timed_out)
        r.stopped = compile_limit_message(CompileLimit::wall_clock, "NVRTC", shown + " for the GPU");
      else if (c.signal == SIGXCPU)
        r.stopped = compile_limit_message(CompileLimit::cpu_time, "NVRTC", shown + " for the GPU");
      else if ((c.signal != 0 && !c.cancelled) || c.exit_code > 1)
        r.stopped = "NVRTC stopped on " + shown + " (" +
                    (c.why.empty() ? "exit " + std::to_string(c.exit_code) : c.why) + "), perhaps out of the " +
                    std::to_string(kCompileLimits.memory_bytes >> 30) + " GiB of memory redlab gives a compiler";
      // The image comes into this process (the window's) only up to a size no kernel's comes near (the catalog's:
      // under 1 MB); past it the launch compiles its own, in the second redlab.
      auto read_at_most = [&dir](const char* name, std::uintmax_t most, std::string* bytes) {
        std::error_code size_error;
        const std::uintmax_t size = fs::file_size(fs::path(dir) / name, size_error);
        return !size_error && size <= most && read_text_file((fs::path(dir) / name).string(), bytes, nullptr);
      };
      if (c.exit_code == 0 && read_at_most("image", 64 << 20, &r.image) &&
          read_at_most("lowered", 64 << 10, &r.lowered))
        r.expression = expression;
      std::error_code ec;
      fs::remove_all(dir, ec);
      if (asked.running() && asked.get() != r.arch) r.expression.clear();
      return r;
    });
#else
    (void)target, (void)text, (void)shown, (void)file_dir, (void)cache;
#endif
  }
  GpuAhead(const GpuAhead&) = delete;
  GpuAhead& operator=(const GpuAhead&) = delete;
  // The file did not compile for the host: the GPU's compile is stopped (and its child with it), then waited for.
  ~GpuAhead() = default;
  // Once the library is kept in `library_dir`: waits for the compile and keeps its image there. False, with
  // b.errors, where NVRTC was stopped by a limit.
  bool keep(const std::string& library_dir, UserKernelBuild& b) {
#if REDLAB_HAVE_CUDA
    if (!result_.running()) return true;
    const Result r = result_.get();
    if (!r.stopped.empty()) {
      b.errors = "redlab: " + r.stopped + "\n";
      return false;
    }
    if (r.expression.empty()) return true;
    keep_nvrtc_image(library_dir, r.arch, r.expression, r.image, r.lowered);
    b.gpu_seconds = r.seconds;
    b.gpu_target = "sm_" + std::to_string(r.arch);
#else
    (void)library_dir, (void)b;
#endif
    return true;
  }

 private:
  struct Result {
    int arch = 0;
    std::string expression, image, lowered;  // expression "" when nothing compiled
    std::string stopped;  // why a limit stopped NVRTC, or ""
    double seconds = 0;
  };
  Job<Result> result_;  // its destructor stops the compile (control.cancel) and waits for it
};

}  // namespace

void wait_for_kernel_prelude() {
  PreludeBuild& p = prelude_build();
  std::lock_guard<std::mutex> lock(p.m);
  if (p.thread.joinable()) p.thread.join();
}

UserKernelBuild compile_user_kernel(const std::string& file, const UserKernelTarget& target) {
  const ElemType type = target.type;
  UserKernelBuild b;
  auto setup_error = [&](const std::string& why) {
    b.errors = why;
    b.setup_failed = true;
    return b;
  };
  std::string text, why;
  if (!is_kernel_file_path(file, &why)) return setup_error(why);
  // Read as a regular file, without waiting and within the cap: the path checked above may be another file by now (a
  // FIFO put in its place would hold the read for ever).
  if (why = read_regular_file(file, std::size_t(kMaxKernelFileBytes), &text); !why.empty()) return setup_error(why);
  b.id = user_kernel_id(text, &why);
  if (b.id.empty()) {
    b.errors = file + ": " + why;
    return b;
  }
  // Refused for a kernel redlab ships, and for one another kernel file open in this process registered (the window
  // with A and B files); a kernel file loaded before (the window runs it again) names its own path. Said at the
  // line of the id, where the editor marks it.
  const std::string abs_path = fs::absolute(file).lexically_normal().string();
  if (const KernelRecord* known = find_kernel(b.id);
      known && (!fs::path(known->source_file).is_absolute() || known->source_file != abs_path)) {
    const std::size_t at = text.find("\"" + b.id + "\"");
    const long line = at == std::string::npos ? 1 : 1 + std::count(text.begin(), text.begin() + long(at), '\n');
    b.errors = file + ":" + std::to_string(line) + ": error: its record is named '" + b.id + "', " +
               (fs::path(known->source_file).is_absolute() ? "as the record of " + known->source_file + ", open too,"
                                                           : std::string("a kernel redlab already has;")) +
               " give it another .id\n";
    return b;
  }
  CompilerSetup setup;
  if (const std::string failed = compiler_setup(&setup); !failed.empty()) return setup_error(failed);
  const std::string& compiler = setup.compiler;
  const fs::path& root = setup.root;
  const std::string& abs_file = abs_path;
  // A kernel that names no steps gets one per barrier interval, on the lines they follow (line numbers kept).
  const BarrierSteps steps = add_barrier_steps(text);
  b.barrier_kernels = steps.kernels;
  b.barrier_lines = steps.lines;
  // The file is compiled from a copy in the build folder, which holds nothing else the compiler could find; the
  // student's own folder is searched after redlab's (-idirafter).
  // -Bsymbolic-functions: the library calls its own functions, never another loaded file's of the same name (a copy
  // of a file with only its id changed shares every C++ name with it) nor redlab's catalog kernel of that name.
  std::vector<std::string> args = setup.flags;
  args.insert(args.end(),
              {"-shared", "-Wl,-Bsymbolic-functions", "-idirafter", fs::path(abs_file).parent_path().string()});
  // The scenario's instance only (kernels/register.cuh): a fraction of the compile every combination would take.
  args.push_back("-DREDLAB_USER_BLOCK=" + std::to_string(target.block));
  args.push_back("-DREDLAB_USER_BLOCK_ROWS=" + std::to_string(target.block_rows));
  args.push_back("-DREDLAB_USER_OP=" + std::to_string(int(target.op)));
  // The key: the file and where it is, the type, the compiler and its flags, and this redlab (its size and time).
  std::string key_text = text + "\n" + abs_file + "\n" + element_spelling(type) + "\n" + compiler + "\n" +
                         root.string() + "\n" + setup.stamp;
  for (const auto& a : args) key_text += a + " ";
  const std::string cache = kernel_cache_dir(&why);
  if (cache.empty()) return setup_error(why);
  const fs::path dir = fs::path(cache) / (b.id + "-" + cache_key(key_text));
  const std::string library_name = "lib" + b.id + ".so";
  b.library = (dir / library_name).string();
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (verify_sealed(dir.string(), &why)) {
      touch_used(dir.string());
      b.ok = b.cached = true;
      return b;
    }
    b.notice = "the compiled kernel in " + dir.string() + " is not as redlab left it: " + why + "; compiling " + file +
               " again";
  }
  // The GPU's compile starts first: on a GPU machine it is the longer of the two.
  GpuAhead gpu(target, steps.text, file, fs::path(abs_file).parent_path().string(), cache);
  // redlab's headers precompiled where a build of them is ready; else their text, and the build is started for the
  // next compile (not part of the key: the library is the same either way).
  const fs::path prelude = prelude_folder(setup, cache);
  const bool with_prelude = prelude_usable(prelude);
  if (with_prelude) {
    args.insert(args.begin(), "-I" + prelude.string());
    args.push_back("-Winvalid-pch");
    touch_used(prelude.string());
  } else {
    start_prelude_build(setup, cache, prelude);
  }
  const std::string build = make_build_dir(cache, &why);
  if (build.empty()) return setup_error(why);
  const fs::path wrapper = fs::path(build) / "wrapper.cpp";
  {
    std::ofstream w(wrapper);
    w << "// Generated by redlab (app/exec/user_kernel.cpp): " << line_directive_name(file)
      << " for the CPU SIMT emulator"
#if REDLAB_HAVE_CUDA
      << " and, through NVRTC, the GPU"
#endif
      << ", element " << element_spelling(type) << ".\n"
      << (with_prelude ? "#include \"" + std::string(kPreludeHeader) + "\"\n" : std::string(kPreludeText))
      << "#define REDLAB_RECORD_ELEMENT " << element_spelling(type) << "\n";
    // The file's text (with any steps added) under its own name and line numbers (#line): the compiler's messages
    // and the emulator's reports name the student's file and lines.
    w << "#line 1 \"" << line_directive_name(abs_file) << "\"\n" << steps.text << "\n";
  }
  // The text the library is built from, for NVRTC to compile the same kernels for the GPU (exec/nvrtc_launch.cpp).
  write_user_kernel_source(build, {steps.text, file, fs::path(abs_file).parent_path().string()});
  args.push_back(wrapper.string());
  args.push_back("-o");
  args.push_back((fs::path(build) / library_name).string());
  const auto t0 = std::chrono::steady_clock::now();
  const ChildResult r = run_child("/usr/bin/env", compiler_command(setup, args), compiler_limits());
  b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (r.exit_code != 0) {
    fs::remove_all(build, ec);
    const std::string said = r.err + r.out;
    // The compiler quotes the file's lines as they are: escaped (core/printable.h) before a terminal shows them.
    const std::string messages = printable(user_messages(said, abs_file, file, wrapper.string()), true);
    const std::string more = r.dropped ? "(" + std::to_string(r.dropped) +
                                             " more bytes of the compiler's messages "
                                             "not shown)\n"
                                       : "";
    if (r.timed_out)
      b.errors =
          messages + more + "redlab: " + compile_limit_message(CompileLimit::wall_clock, "the compiler", file) + "\n";
    else if (r.exit_code < 0 && r.signal == 0)
      return setup_error("the C++ compiler (" + compiler + ") did not run: " + r.why);
    // env's own words for a program it cannot run ("/usr/bin/env: 'x': No such file ...", or "env: ..." on
    // Debian 13), exit 127 or 126: a compiler exits 1 on errors.
    else if ((r.exit_code == 127 || r.exit_code == 126) &&
             (said.rfind("/usr/bin/env:", 0) == 0 || said.rfind("env:", 0) == 0))
      return setup_error("the C++ compiler '" + setup.words[0] + "' " +
                         (r.exit_code == 127 ? "was not found" : "cannot be run") +
                         (std::getenv("CXX") ? " (CXX)" : "") +
                         "; redlab compiles kernel files with GCC's g++ (12 or later): install it, or set CXX to it");
    else if (contains(said, "CPU time limit exceeded") || r.signal == SIGXCPU)
      b.errors =
          messages + more + "redlab: " + compile_limit_message(CompileLimit::cpu_time, "the compiler", file) + "\n";
    else if (contains(said, "out of memory") || contains(said, "virtual memory exhausted") ||
             contains(said, "std::bad_alloc") || contains(said, "Cannot allocate memory"))
      b.errors =
          messages + more + "redlab: " + compile_limit_message(CompileLimit::memory, "the compiler", file) + "\n";
    else if (contains(said, "unrecognized command-line option") || contains(said, "unknown argument") ||
             contains(said, "unrecognized command line option"))
      return setup_error(
          messages + "redlab: the compiler " + compiler +
          " (CXX) does not take the options redlab "
          "compiles kernel files with; redlab needs GCC's g++ (12 or later): unset CXX or set it to g++");
    else
      b.errors = messages + more;
    return b;
  }
  if (const std::string kept = publish_build(build, dir.string(), {library_name, "source.cu", "source.name"});
      !kept.empty())
    return setup_error(kept);
  if (!gpu.keep(dir.string(), b)) return b;
  try {  // others may be pruning, compiling or removing folders at the same time: a failed pass waits for the next
    prune_kernel_cache(cache, kernel_cache_cap());
  } catch (const std::exception&) {}
  // GCC says so when it passes over a precompiled header it found (-Winvalid-pch): the text was parsed instead.
  b.with_prelude = with_prelude && !contains(r.err, (std::string(kPreludeImage) + ": not used").c_str());
  b.ok = true;
  return b;
}

UserKernelSource read_user_kernel_source(const std::string& dir) {
  UserKernelSource s;
  std::string name_lines, why;
  if (!read_sealed(dir, "source.cu", &s.text, &why) || !read_sealed(dir, "source.name", &name_lines, &why))
    throw std::runtime_error("the compiled kernel in " + dir + " has lost the text it was built from (" + why +
                             "); run the file again and redlab compiles it anew");
  if (!parse_user_kernel_source_name(name_lines, &s))
    throw std::runtime_error("the compiled kernel in " + dir +
                             " has lost the name of its file (source.name); run "
                             "the file again and redlab compiles it anew");
  return s;
}

void write_user_kernel_source(const std::string& dir, const UserKernelSource& s) {
  std::ofstream(fs::path(dir) / "source.cu", std::ios::binary) << s.text;
  std::ofstream(fs::path(dir) / "source.name") << s.shown << "\n" << s.dir << "\n";
}

bool parse_user_kernel_source_name(const std::string& name_lines, UserKernelSource* s) {
  std::istringstream names(name_lines);
  return std::getline(names, s->shown) && std::getline(names, s->dir);
}

std::string load_user_kernel(const std::string& library) {
  // Only what redlab compiled and sealed (exec/kernel_cache.h): a library put there by anything else is not loaded.
  std::string why;
  if (!verify_sealed(fs::path(library).parent_path().string(), &why, fs::path(library).filename().string()))
    return "the compiled kernel " + library + " is not one redlab built and sealed (" + why +
           "); it was not loaded. "
           "Run the kernel file again (--source) and redlab compiles it anew";
  if (!dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL)) {  // its names for itself alone
    const char* e = dlerror();
    return "cannot load the compiled kernel " + library + ": " + (e ? e : "unknown error");
  }
  return {};
}

}  // namespace redlab
