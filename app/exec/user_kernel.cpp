#include "user_kernel.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "../core/catalog.h"
#include "../core/child_process.h"
#include "../core/kernel_file.h"
#include "../core/resources.h"
#include "../core/user_dirs.h"
#include "nvrtc.h"

namespace redlab {

namespace fs = std::filesystem;

#if REDLAB_HAVE_CUDA
// A kernel file's library calls nvrtc_launch (exec/user_launch.h) and nothing in redlab does: this reference keeps
// it in the executable, which exports it (ENABLE_EXPORTS).
[[gnu::used]] static void (*const keep_nvrtc_launch)(const void*, const unsigned*, const unsigned*, std::size_t,
                                                      void**) = &nvrtc_launch;
#endif

namespace {

// Where compiled kernels are kept: the user's cache folder (core/user_dirs.h).
fs::path cache_dir() { return fs::path(user_dir(UserDir::cache)) / "kernels"; }

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
    if (line.find(wrapper) != std::string::npos) continue;   // "In file included from .../wrapper.cpp:5"
    for (std::size_t at = line.find(abs_file); at != std::string::npos; at = line.find(abs_file, at + shown.size()))
      line.replace(at, abs_file.size(), shown);
    out += line + "\n";
  }
  return out;
}

}  // namespace

bool read_whole_file(const std::string& path, std::string* text) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::stringstream ss;
  ss << f.rdbuf();
  *text = ss.str();
  return true;
}

std::string cache_key(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char key[17];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(h));
  return key;
}

std::string user_kernel_id(const std::string& text, std::string* why) {
  static const std::regex entry(R"re(\.id\s*=\s*"([A-Za-z_][A-Za-z0-9_]*)")re");
  static const std::regex registered(R"re(REDLAB_KERNEL_RECORD\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\))re");
  // The id of the record the file registers: a record it builds on (new-kernel inlines it, under its catalog
  // id) comes first and is not registered.
  std::smatch m;
  std::string record;   // the last registration's: the file's own, at its end
  for (auto it = std::sregex_iterator(text.begin(), text.end(), registered); it != std::sregex_iterator(); ++it)
    record = (*it)[1].str();
  std::string::const_iterator from = text.begin();
  if (!record.empty()) {
    const std::regex declared("struct\\s+" + record + "\\b");
    std::smatch d;
    if (std::regex_search(text, d, declared)) from = d[0].second;
  }
  if (!std::regex_search(from, text.end(), m, entry)) {
    if (why) *why = "it declares no kernel record (a record with its .id = \"...\" and REDLAB_KERNEL_RECORD at "
                    "the end; `redlab new-kernel FILE --from ID` writes one)";
    return {};
  }
  return m[1].str();
}

UserKernelBuild compile_user_kernel(const std::string& file, const UserKernelTarget& target) {
  const ElemType type = target.type;
  UserKernelBuild b;
  std::string text;
  if (!read_whole_file(file, &text)) {
    b.errors = "cannot read '" + file + "'";
    return b;
  }
  std::string why;
  b.id = user_kernel_id(text, &why);
  if (b.id.empty()) {
    b.errors = file + ": " + why;
    return b;
  }
  // Refused for a kernel redlab ships; a kernel file loaded before (the window runs it again) names its own path.
  if (const KernelRecord* known = find_kernel(b.id); known && !fs::path(known->source_file).is_absolute()) {
    b.errors = file + ": its record is named '" + b.id + "', a kernel redlab already has; rename it (the record's .id)";
    return b;
  }
  // redlab's headers: kernels/ and app/ (found like the rest of its files, core/resources.h).
  const std::string probe = find_resource("kernels/probe.cuh"), launch = find_resource("app/exec/cpu_launch.h");
  if (probe.empty() || launch.empty()) {
    b.errors = "redlab's headers (kernels/probe.cuh, app/exec/cpu_launch.h) were not found next to the executable "
               "or in its source tree; a kernel file cannot be compiled without them";
    return b;
  }
  const fs::path root = fs::path(probe).parent_path().parent_path(), app = fs::path(launch).parent_path().parent_path();
  std::string compiler = "c++";
#ifdef REDLAB_CXX
  compiler = REDLAB_CXX;
#endif
  if (const char* cxx = std::getenv("CXX"); cxx && *cxx) compiler = cxx;
  const std::string abs_file = fs::absolute(file).lexically_normal().string();
  // A kernel that names no steps gets one per barrier interval, on the lines they follow (line numbers kept).
  const BarrierSteps steps = add_barrier_steps(text);
  b.barrier_kernels = steps.kernels;
  b.barrier_lines = steps.lines;
  // -fno-ipa-icf: every template instance keeps its own symbol, which names it to NVRTC (exec/user_launch.h).
  std::vector<std::string> args = {"-std=gnu++20", "-O2", "-fPIC", "-shared", "-fno-extern-tls-init",
                                   "-Wno-unknown-pragmas", "-fno-ipa-icf", "-DBOOST_ALL_NO_LIB",
                                   "-I" + app.string(), "-I" + root.string(), "-I" + (root / "kernels").string(),
                                   "-iquote", fs::absolute(file).parent_path().string()};   // its own includes
#if REDLAB_HAVE_CUDA
  args.push_back("-DREDLAB_USER_KERNEL_GPU");   // the record launches on the GPU too (kernels/register.cuh)
#endif
  // The scenario's instance only (kernels/register.cuh): a fraction of the compile every combination would take.
  args.push_back("-DREDLAB_USER_BLOCK=" + std::to_string(target.block));
  args.push_back("-DREDLAB_USER_BLOCK_ROWS=" + std::to_string(target.block_rows));
  args.push_back("-DREDLAB_USER_OP=" + std::to_string(int(target.op)));
#ifdef REDLAB_USER_KERNEL_DEFINES
  for (const char* d : {REDLAB_USER_KERNEL_DEFINES}) args.push_back(d);
#endif
  // The key: the file, the type, the compiler and its flags, and this redlab (its size and time).
  struct stat self {};
  stat(self_executable().c_str(), &self);
  std::string key_text = text + "\n" + element_spelling(type) + "\n" + compiler + "\n" + root.string() + "\n" +
                         std::to_string(self.st_size) + ":" + std::to_string(self.st_mtime);
  for (const auto& a : args) key_text += a + " ";
  const fs::path dir = cache_dir() / (b.id + "-" + cache_key(key_text));
  b.library = (dir / ("lib" + b.id + ".so")).string();
  std::error_code ec;
  if (fs::exists(b.library, ec)) {
    b.ok = b.cached = true;
    return b;
  }
  fs::create_directories(dir, ec);
  if (ec) {
    b.errors = "cannot make the cache folder " + dir.string() + ": " + ec.message();
    return b;
  }
  const fs::path wrapper = dir / "wrapper.cpp";
  {
    std::ofstream w(wrapper);
    w << "// Generated by redlab (app/exec/user_kernel.cpp): " << file << " for the CPU SIMT emulator"
#if REDLAB_HAVE_CUDA
      << " and, through NVRTC, the GPU"
#endif
      << ", element " << element_spelling(type) << ".\n#include <cstdint>\n\n#include \"exec/user_launch.h\"\n"
      << "#define REDLAB_RECORD_ELEMENT " << element_spelling(type) << "\n";
    // The file itself, or, where steps were added, its text with them under the file's own name and line numbers
    // (#line: the compiler's messages and the emulator's reports name the student's file and lines).
    if (steps.kernels.empty()) w << "#include \"" << abs_file << "\"\n";
    else w << "#line 1 \"" << abs_file << "\"\n" << steps.text << "\n";
  }
  // The text the library is built from, for NVRTC to compile the same kernels for the GPU (exec/nvrtc_launch.cpp).
  std::ofstream(dir / "source.cu", std::ios::binary) << steps.text;
  std::ofstream(dir / "source.name") << file << "\n" << fs::path(abs_file).parent_path().string() << "\n";
  const fs::path partial = dir / ("lib" + b.id + ".so.partial");
  args.push_back(wrapper.string());
  args.push_back("-o");
  args.push_back(partial.string());
  const auto t0 = std::chrono::steady_clock::now();
  // LC_ALL=C: the compiler's messages in plain ASCII quotes (the window's fonts, any terminal).
  args.insert(args.begin(), {"LC_ALL=C", compiler});
  const ChildResult r = run_child("/usr/bin/env", args, 300.0);
  b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (r.exit_code != 0) {
    b.errors = r.exit_code < 0 ? "the C++ compiler (" + compiler + ") did not run: " + r.why
                               : user_messages(r.err + r.out, abs_file, file, wrapper.string());
    fs::remove_all(dir, ec);
    return b;
  }
  fs::rename(partial, b.library, ec);   // whole or not at all: a cancelled compile leaves no library
  if (ec) {
    b.errors = "cannot keep the compiled kernel in " + dir.string() + ": " + ec.message();
    return b;
  }
  b.ok = true;
  return b;
}

UserKernelSource read_user_kernel_source(const std::string& dir) {
  UserKernelSource s;
  std::string name_lines;
  const bool read = read_whole_file((fs::path(dir) / "source.cu").string(), &s.text) &&
                    read_whole_file((fs::path(dir) / "source.name").string(), &name_lines);
  std::istringstream names(name_lines);
  if (!read || !std::getline(names, s.shown) || !std::getline(names, s.dir))
    throw std::runtime_error("the compiled kernel in " + dir + " has lost the text it was built from (source.cu, "
                             "source.name); delete the folder and run the file again");
  return s;
}

std::string load_user_kernel(const std::string& library) {
  if (!dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
    const char* e = dlerror();
    return "cannot load the compiled kernel " + library + ": " + (e ? e : "unknown error");
  }
  return {};
}

}  // namespace redlab
