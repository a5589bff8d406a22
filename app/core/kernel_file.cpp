#include "kernel_file.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace redlab {

namespace fs = std::filesystem;

std::string kernel_id_from_path(const std::string& path) {
  const std::string stem = fs::path(path).stem().string();
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]{0,47}");
  if (!std::regex_match(stem, identifier))
    throw std::invalid_argument("'" + path + "': the file's name gives the kernel's name, so it must be a C++ "
                                "identifier (letters, digits and '_', not starting with a digit, at most 48), as "
                                "mine.cu or tree_padded.cu");
  // The name becomes the kernel's function: a C++ or CUDA keyword cannot be one ("short.cu" would not compile).
  static const std::set<std::string> keywords = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
      "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "dim3",
      "main"};
  if (keywords.count(stem) || stem.rfind("__", 0) == 0)
    throw std::invalid_argument("'" + path + "': " + stem + " is a word C++ keeps for itself, so it cannot name a "
                                "kernel; give your file another name, as my_" + stem + ".cu");
  if (find_kernel(stem))
    throw std::invalid_argument("'" + path + "': " + stem + " is a catalog kernel's name; give your file another "
                                "name, as my_" + stem + ".cu");
  return stem;
}

namespace {

const char* kHeaderEn = R"(// {ID}: your kernel, started from redlab's `{FROM}` ({TITLE}).
//
// The file is in the catalog's own dialect: the same headers, probe calls and launch as every kernel redlab
// ships ({SOURCE} and its record). Change the kernel; keep the probe calls around what you want to see.
//
// The probe (kernels/probe.cuh). Every kernel takes `Probe probe` last; in the timed build each call is nothing.
//   auto s = probe.shared(s_mem);               shared memory through the probe: every s[i] read or written
//                                               is recorded (lane, address, value); given the array itself,
//                                               the emulator checks every index and watches for races
//   auto x = probe.global(in, Buffer::input);   global memory likewise (Buffer::input, output, scratch, ticket)
//   probe.shared_flag(&flag, offset)            a shared flag whose value depends on the schedule (recorded
//                                               without its value), `offset` bytes after the main array
//   probe.step(Phase::tree, Label::stride, s)   a new step; every thread of the block calls it, in one order
//   probe.active()                              this thread does the step's work (its guard is true)
//   probe.shuffled(v, delta)                    the value a lane got from __shfl_down_sync(mask, v, delta)
//   probe.atomic(Op{}, out, v, Buffer::output)  v combined atomically into out[0] (an atomic, not a store)
//   probe.ticket(blocks_done)                   atomicAdd(blocks_done, 1): the last-block ticket
//   probe.last_block()                          this block finishes the launch (single-pass kernels)
//   probe.finish()                              the kernel's last call, by every thread
// A kernel that calls no probe.step gets one step per barrier interval (from its start, then after each
// __syncthreads()); one that calls no probe.active counts a lane active in a step where it makes an access.
// An access that does not go through the probe is not seen: the trace would show fewer accesses than the
// kernel makes (tests/probe_audit.py checks the catalog's kernels for that).
//
// The record (kernels/kernel_record.h, kernels/register.cuh), at the end: what the kernel is (its fields by
// name, .id = "...", .title = "...": only what differs from the defaults), the room a block's trace starts
// with (trace_shape: steps and requests per class; redlab counts both and adds room) and its launch (launch).
// Reductions: template <unsigned B, class T, class Op, class Probe> static void launch(const LaunchArgs&,
// const Probe&); transposes: template <unsigned BR, class T, class Probe>.
// The file compiles as the catalog's records do: -I<redlab>/kernels -I<redlab>/app, after a backend's launch
// header (exec/cpu_launch.h: the CPU SIMT emulator; exec/cuda_launch.h: the GPU) and
// #define REDLAB_RECORD_ELEMENT (std::int32_t, float or double).
)";

const char* kHeaderZh = R"(// {ID}：你自己的核函数，从 redlab 的 `{FROM}`（{TITLE}）开始。
//
// 本文件使用目录中核函数的同一种写法：与 redlab 自带的每个核函数（{SOURCE} 及其记录）相同的头文件、
// 探针调用和启动方式。修改核函数即可；想观察的访问要保留探针调用。
//
// 探针（kernels/probe.cuh）。每个核函数的最后一个参数是 `Probe probe`；计时构建中每个调用都不产生代码。
//   auto s = probe.shared(s_mem);               经探针访问共享内存：每次读写 s[i] 都被记录（通道、地址、值）；
//                                               传入数组本身时，模拟器检查每个下标，并监视线程束之间的竞争
//   auto x = probe.global(in, Buffer::input);   全局内存同理（Buffer::input、output、scratch、ticket）
//   probe.shared_flag(&flag, offset)            其值取决于调度的共享标志（只记录访问，不记录值），
//                                               位于主数组之后 `offset` 字节处
//   probe.step(Phase::tree, Label::stride, s)   新的一步；线程块中每个线程都按同一顺序调用
//   probe.active()                              本线程执行这一步的工作（其条件为真）
//   probe.shuffled(v, delta)                    通道从 __shfl_down_sync(mask, v, delta) 得到的值
//   probe.atomic(Op{}, out, v, Buffer::output)  把 v 原子地合并进 out[0]（原子操作，不是存储）
//   probe.ticket(blocks_done)                   atomicAdd(blocks_done, 1)：最后一个线程块的票号
//   probe.last_block()                          本线程块完成整个启动（单趟核函数）
//   probe.finish()                              核函数的最后一个调用，每个线程都要调用
// 不调用 probe.step 的核函数按屏障划分步骤（从开头起，之后每个 __syncthreads() 开始新的一步）；
// 不调用 probe.active 的核函数中，某一步里有访问的通道即算作活跃。
// 不经过探针的访问看不到：轨迹中的访问会比核函数实际的少（tests/probe_audit.py 为目录中的核函数检查这一点）。
//
// 记录（kernels/kernel_record.h、kernels/register.cuh）在文件末尾：核函数是什么（按名字写出的字段，
// .id = "..."、.title = "..."：只写与默认值不同的），一个线程块的轨迹起初留出的空间（trace_shape：步数和
// 每步各类访问的请求数；redlab 会实际计数，不够时加大空间），以及如何启动（launch）。
// 归约：template <unsigned B, class T, class Op, class Probe> static void launch(const LaunchArgs&, const Probe&)；
// 转置：template <unsigned BR, class T, class Probe>。
// 编译方式与目录中的记录相同：-I<redlab>/kernels -I<redlab>/app，先包含某个后端的启动头文件
// （exec/cpu_launch.h：CPU SIMT 模拟器；exec/cuda_launch.h：GPU），并 #define REDLAB_RECORD_ELEMENT
// （std::int32_t、float 或 double）。
)";

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

std::string rename_word(const std::string& text, const std::string& from, const std::string& to) {
  return std::regex_replace(text, std::regex("\\b" + from + "\\b"), to);
}

// One source file split into its includes (rewritten from the kernels/ folder) and its body.
struct Part {
  std::vector<std::string> includes;   // "#include ..." lines
  std::string body;
};

// `dir`: the file's folder under kernels/ ("reduce"). Drops `#pragma once` and the include of `skip` (a file
// that is inlined), rewrites "x.cuh" and "../block/x.cuh" as paths under kernels/, keeps <...> includes.
Part split(const std::string& text, const std::string& dir, const std::set<std::string>& skip) {
  Part p;
  std::istringstream in(text);
  std::string line;
  static const std::regex quoted(R"(^\s*#include\s+"([^"]+)\"\s*$)");
  bool header_comment = true;   // the file's own opening comment goes: the new file has its own
  while (std::getline(in, line)) {
    if (header_comment && line.rfind("//", 0) == 0) continue;
    header_comment = false;
    if (std::regex_match(line, std::regex(R"(^\s*#pragma\s+once\s*$)"))) continue;
    std::smatch m;
    if (std::regex_match(line, m, quoted)) {
      const std::string path = (fs::path(dir) / m[1].str()).lexically_normal().generic_string();
      if (!skip.count(path)) p.includes.push_back("#include \"" + path + "\"");
      continue;
    }
    if (line.rfind("#include", 0) == 0) {
      p.includes.push_back(line);
      continue;
    }
    p.body += line + "\n";
  }
  // no blank lines at the start
  while (!p.body.empty() && p.body[0] == '\n') p.body.erase(0, 1);
  return p;
}

}  // namespace

namespace {

// A line that is only a comment (they tell where a file came from: renames and name checks leave them alone).
bool is_comment_line(const std::string& line) {
  const std::size_t first = line.find_first_not_of(" \t");
  return first != std::string::npos && line.compare(first, 2, "//") == 0;
}

// The new name must not be one the code already gives something else (a template parameter T, BLOCK, the probe, a
// variable): the file's kernel, named so, would not compile. Comments do not count.
void refuse_name_in_use(const std::string& code, const std::string& new_id) {
  const std::regex word("\\b" + new_id + "\\b");
  std::istringstream in(code);
  for (std::string line; std::getline(in, line);) {
    if (is_comment_line(line)) continue;
    const std::string code_part = line.substr(0, line.find("//"));
    if (std::regex_search(code_part, word))
      throw std::invalid_argument(new_id + " is a name the kernel's code already uses (\"" +
                                  code_part.substr(code_part.find_first_not_of(" \t")) +
                                  "\"); give your file another name, as my_" + new_id + ".cu");
  }
}

}  // namespace

std::string rename_kernel_file(const std::string& text, const std::string& old_id, const std::string& new_id) {
  refuse_name_in_use(text, new_id);
  // Every name the code gives after its id: the kernels (old_id, old_id_dynamic), the record (old_id_record) and the
  // id itself. Comment lines keep theirs: they tell where the file came from.
  const std::regex name("\\b" + old_id + "(\\w*)");
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line))
    out += (is_comment_line(line) ? line : std::regex_replace(line, name, new_id + "$1")) + "\n";
  return out;
}

std::string make_kernel_file(const KernelRecord& from, const std::string& new_id, const std::string& lang,
                             const SourceReader& read) {
  if (!from.traceable || from.host_only || from.source_file.empty())
    throw std::invalid_argument(from.id + " has no traced build (library or host code): start from a kernel redlab "
                                "traces (redlab list shows them)");
  // kernels/<dir>/<id>.cuh
  const fs::path source(from.source_file);
  const std::string dir = source.parent_path().filename().string();
  const std::string kernels_dir = source.parent_path().parent_path().generic_string();   // "kernels"
  auto need = [&](const std::string& rel) {
    const std::optional<std::string> text = read(rel);
    if (!text) throw std::invalid_argument("cannot read " + rel + " (redlab's kernel sources: set REDLAB_DATA_DIR "
                                           "to the folder that holds kernels/)");
    return *text;
  };
  const std::string own = dir + "/" + from.id + ".cuh";
  Part kernel = split(need(from.source_file), dir, {});
  std::map<std::string, std::string> names;   // catalog name -> the file's name
  static const std::regex global_fn(R"(__global__\s+void\s+([A-Za-z_][A-Za-z0-9_]*)\s*\()");
  for (auto it = std::sregex_iterator(kernel.body.begin(), kernel.body.end(), global_fn); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    names[name] = name.rfind(from.id, 0) == 0 ? new_id + name.substr(from.id.size()) : new_id + "_" + name;
  }
  // The record, and any record it builds on (inlined under a new name, without its registration).
  std::vector<std::string> includes = kernel.includes;
  std::string records;
  std::function<void(const std::string&, const std::string&, bool)> add_record = [&](const std::string& id,
                                                                                      const std::string& rdir,
                                                                                      bool own_record) {
    const std::string rel = kernels_dir + "/" + rdir + "/" + id + ".record.cuh";
    std::set<std::string> skip;
    if (own_record) skip.insert(own);
    Part r = split(need(rel), rdir, skip);
    for (const std::string& inc : r.includes) {
      std::smatch m;
      static const std::regex base(R"re(#include "([a-z]+)/([A-Za-z0-9_]+)\.record\.cuh")re");
      if (std::regex_match(inc, m, base)) {
        add_record(m[2], m[1], false);   // first, so that it is defined before the record that uses it
        names[m[2].str() + "_record"] = new_id + "_" + m[2].str() + "_record";
        continue;
      }
      includes.push_back(inc);
    }
    std::string body = r.body;
    if (!own_record) body = std::regex_replace(body, std::regex(R"(\n?REDLAB_KERNEL_RECORD\([^)]*\)\s*)"), "\n");
    records += body + "\n";
  };
  add_record(from.id, dir, true);
  names[from.id + "_record"] = new_id + "_record";

  std::string out = lang == "zh_CN" ? kHeaderZh : kHeaderEn;
  out = replace_all(out, "{ID}", new_id);
  out = replace_all(out, "{FROM}", from.id);
  out = replace_all(out, "{TITLE}", from.title);
  out = replace_all(out, "{SOURCE}", from.source_file);
  out += "\n";
  std::set<std::string> seen;
  for (const std::string& inc : includes)
    if (seen.insert(inc).second) out += inc + "\n";
  std::string code = kernel.body + "\n" + records;
  refuse_name_in_use(code, new_id);
  for (const auto& [catalog_name, file_name] : names) code = rename_word(code, catalog_name, file_name);
  out += "\n" + code;
  while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

namespace {

// The text with comments and string literals blanked (same length and newlines): what the scan below reads.
std::string code_only(const std::string& t) {
  std::string c = t;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c.compare(i, 2, "//") == 0) {
      while (i < c.size() && c[i] != '\n') c[i++] = ' ';
    } else if (c.compare(i, 2, "/*") == 0) {
      const std::size_t end = c.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? c.size() : end + 2;
      for (; i < stop; ++i)
        if (c[i] != '\n') c[i] = ' ';
      --i;
    } else if (c[i] == '"' || c[i] == '\'') {
      const char q = c[i];
      for (++i; i < c.size() && c[i] != q && c[i] != '\n'; ++i) {
        if (c[i] == '\\' && i + 1 < c.size()) c[i++] = ' ';
        c[i] = ' ';
      }
    }
  }
  return c;
}

int line_at(const std::string& t, std::size_t pos) {
  return 1 + int(std::count(t.begin(), t.begin() + std::ptrdiff_t(pos), '\n'));
}

}  // namespace

BarrierSteps add_barrier_steps(const std::string& text) {
  BarrierSteps out;
  const std::string code = code_only(text);
  const bool matrix = code.find("transpose_kernel") != std::string::npos;
  const char* first = matrix ? "Phase::tile_load" : "Phase::load";
  const char* later = matrix ? "Phase::tile_store" : "Phase::tree";
  // Insertions, by position: applied from the last so that earlier positions stay right.
  std::vector<std::pair<std::size_t, std::string>> inserts;
  static const std::regex global_fn(R"(__global__\s+void\s+([A-Za-z_][A-Za-z0-9_]*)\s*\()");
  static const std::regex takes_probe(R"(\bprobe\s*$)");
  static const std::regex barrier(R"(__syncthreads\s*\(\s*\)\s*;)");
  for (auto it = std::sregex_iterator(code.begin(), code.end(), global_fn); it != std::sregex_iterator(); ++it) {
    // The parameter list, then the body.
    std::size_t at = std::size_t(it->position(0) + it->length(0));
    int depth = 1;
    std::size_t params_end = at;
    for (; params_end < code.size() && depth > 0; ++params_end) {
      if (code[params_end] == '(') ++depth;
      else if (code[params_end] == ')') --depth;
    }
    const std::string params = code.substr(at, params_end - 1 - at);
    const std::size_t open = code.find_first_of("{;", params_end);
    if (open == std::string::npos || code[open] != '{') continue;   // a declaration
    std::size_t close = open + 1;
    for (depth = 1; close < code.size() && depth > 0; ++close) {
      if (code[close] == '{') ++depth;
      else if (code[close] == '}') --depth;
    }
    const std::string body = code.substr(open, close - open);
    // Only kernels that take the probe last (the dialect's `Probe probe`) and name no step.
    const std::string last_param = params.substr(params.rfind(',') == std::string::npos ? 0 : params.rfind(',') + 1);
    if (!std::regex_search(last_param, takes_probe) || body.find("probe.step") != std::string::npos) continue;
    // Without probe.active, a lane is active in a step where it makes a recorded access (kernels/probe.cuh).
    const std::string active = body.find("probe.active") == std::string::npos ? " probe.active_when_accessing();" : "";
    inserts.emplace_back(open + 1, std::string(matrix ? "" : " unsigned redlab_barriers_ = 0;") + active + " probe.step(" +
                                       first + ");");
    for (auto b = std::sregex_iterator(body.begin(), body.end(), barrier); b != std::sregex_iterator(); ++b) {
      const std::size_t end = open + std::size_t(b->position(0) + b->length(0));
      inserts.emplace_back(end, std::string(" probe.step(") + later + (matrix ? "" : ", Label::barrier, int(++redlab_barriers_)") +
                                    ");");
      out.lines.push_back(line_at(code, end));
    }
    out.kernels.push_back((*it)[1]);
  }
  out.text = text;
  std::sort(inserts.begin(), inserts.end());
  for (auto i = inserts.rbegin(); i != inserts.rend(); ++i) out.text.insert(i->first, i->second);
  std::sort(out.lines.begin(), out.lines.end());
  out.lines.erase(std::unique(out.lines.begin(), out.lines.end()), out.lines.end());
  return out;
}

}  // namespace redlab
