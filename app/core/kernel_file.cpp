#include "core/kernel_file.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/catalog.h"
#include "core/file_write.h"
#include "core/resources.h"

namespace redlab {

namespace fs = std::filesystem;

std::string kernel_id_from_path(const std::string& path) {
  const std::string stem = fs::path(path).stem().string();
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]{0,47}");
  if (!std::regex_match(stem, identifier))
    throw std::invalid_argument("'" + path +
                                "': the file's name gives the kernel's name, so it must be a C++ "
                                "identifier (letters, digits and '_', not starting with a digit, at most 48), as "
                                "mine.cu or tree_padded.cu");
  // The name becomes the kernel's function: a C++ or CUDA keyword cannot be one ("short.cu" would not compile).
  static const std::set<std::string> keywords = {
      "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
      "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char8_t",
      "char16_t",    "char32_t",  "class",      "compl",     "concept",  "const",        "consteval",
      "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
      "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
      "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
      "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
      "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
      "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
      "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
      "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
      "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
      "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
      "xor_eq",      "dim3",      "main"};
  if (keywords.count(stem) || stem.rfind("__", 0) == 0)
    throw std::invalid_argument("'" + path + "': " + stem +
                                " is a word C++ keeps for itself, so it cannot name a "
                                "kernel; give your file another name, as my_" +
                                stem + ".cu");
  if (find_kernel(stem))
    throw std::invalid_argument("'" + path + "': " + stem +
                                " is a catalog kernel's name; give your file another "
                                "name, as my_" +
                                stem + ".cu");
  return stem;
}

namespace {

// The lines the file opens with: where it comes from, and where its probe calls and record are explained.
const char* kHeaderEn = R"(// {ID}: your kernel, started from redlab's {SOURCE}.
// Run it with `redlab stats --source` on this file. The probe's calls record what each thread does (nothing in the
// timed build); each is explained before its first use, all of them in kernels/probe.cuh. The record comes last.
)";

const char* kHeaderZh = R"(// {ID}：你自己的核函数，从 redlab 的 {SOURCE} 开始。
// 用 `redlab stats --source` 运行本文件。探针调用记录每个线程做了什么（计时构建中不产生代码）；每个调用在
// 第一次使用前说明，完整列表见 kernels/probe.cuh。记录在文件末尾。
)";

const char* kRecordEn =
    R"(// The record (kernels/kernel_record.h): the kernel's name and place in the window, the room its trace starts
// with (redlab counts the steps and accesses the kernel makes, and adds room) and its launch.
)";

const char* kRecordZh =
    R"(// 记录（kernels/kernel_record.h）：核函数在窗口中的名字和位置，轨迹起初留出的空间（redlab 会按核函数
// 实际的步数和访问计数，不够时加大）以及如何启动。
)";

// What each probe call does, said once, on the lines before its first use ('\n': a new comment line).
struct ProbeCallNote {
  const char* call;
  const char* en;
  const char* zh;
};
const ProbeCallNote kProbeCallNotes[] = {
    {"shared",
     "probe.shared: the shared array through the probe, which records each read and write of its elements; the\n"
     "emulator also checks every index and watches for races. An access that bypasses the probe is not seen.",
     "probe.shared：经探针访问共享数组，每次读写其元素都被记录；模拟器还检查每个下标并监视竞争。\n"
     "绕过探针的访问看不到。"},
    {"shared_flag",
     "probe.shared_flag: a shared flag whose value depends on the schedule: its accesses are recorded, not its value.",
     "probe.shared_flag：其值取决于调度的共享标志：记录它的访问，不记录它的值。"},
    {"global", "probe.global: global memory likewise (Buffer::input, output, scratch, ticket).",
     "probe.global：全局内存同理（Buffer::input、output、scratch、ticket）。"},
    {"load_cg", "probe.load_cg: p[i] loaded past the L1 cache (what other blocks wrote in this launch), recorded.",
     "probe.load_cg：绕过 L1 缓存读取 p[i]（本次启动中其他线程块写入的数据），并记录。"},
    {"step",
     "probe.step: a new step (a row of the per-step table), by every thread of the block in the same order (a\n"
     "kernel without any gets one step per barrier interval).",
     "probe.step：新的一步（逐步统计表中的一行），线程块中每个线程都按同一顺序调用\n"
     "（一个都不调用的核函数按屏障划分步骤）。"},
    {"active",
     "probe.active: this thread does the step's work (without it: every lane that makes an access in the step).",
     "probe.active：本线程执行这一步的工作（不调用时：这一步里有访问的每个通道）。"},
    {"remote_shared",
     "probe.remote_shared: block `rank`'s shared array in this cluster (cluster.map_shared_rank) through the probe,\n"
     "which records each access as distributed shared memory; the emulator checks the rank and the index.",
     "probe.remote_shared：经探针访问本线程块簇中第 rank 个线程块的共享数组（cluster.map_shared_rank），\n"
     "每次访问都记录为分布式共享内存访问；模拟器检查 rank 和下标。"},
    {"shuffled", "probe.shuffled: records the value this lane got from __shfl_down_sync(mask, v, delta).",
     "probe.shuffled：记录本通道从 __shfl_down_sync(mask, v, delta) 得到的值。"},
    {"atomic", "probe.atomic: v combined into out[0] atomically (recorded as an atomic, not a store).",
     "probe.atomic：把 v 原子地合并进 out[0]（记录为原子操作，不是存储）。"},
    {"ticket", "probe.ticket: atomicAdd(count, 1), recorded: it tells which block finishes last.",
     "probe.ticket：atomicAdd(count, 1)，并记录：由它得知哪个线程块最后完成。"},
    {"last_block", "probe.last_block: this block finishes the launch; what follows is recorded once per launch.",
     "probe.last_block：本线程块完成整个启动；此后的步骤每次启动只记录一次。"},
    {"finish", "probe.finish: the kernel's last call, by every thread.",
     "probe.finish：核函数的最后一个调用，每个线程都要调用。"},
};

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

std::string rename_word(const std::string& text, const std::string& from, const std::string& to) {
  return std::regex_replace(text, std::regex("\\b" + from + "\\b"), to);
}

// A line that is only a comment (they tell where a file came from: renames and name checks leave them alone).
bool is_comment_line(const std::string& line) {
  const std::size_t first = line.find_first_not_of(" \t");
  return first != std::string::npos && line.compare(first, 2, "//") == 0;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The text with comments and string literals blanked (same length and newlines): what the scans below read.
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

// The '}' that closes the '{' at `open` in `code` (code_only's text), or npos.
std::size_t matching_brace(const std::string& code, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i] == '{')
      ++depth;
    else if (code[i] == '}' && --depth == 0)
      return i;
  }
  return std::string::npos;
}

std::size_t line_start(const std::string& t, std::size_t pos) {
  const std::size_t nl = pos == 0 ? std::string::npos : t.rfind('\n', pos - 1);
  return nl == std::string::npos ? 0 : nl + 1;
}
std::size_t next_line(const std::string& t, std::size_t pos) {
  const std::size_t nl = t.find('\n', pos);
  return nl == std::string::npos ? t.size() : nl + 1;
}

// Erases the definition that `declaration` (a regex) finds in `text`: from its template line and the comment lines
// just above it to the '}' that closes its body, with one of the blank lines around it. False where none is found.
bool erase_definition(std::string& text, const std::regex& declaration) {
  const std::string code = code_only(text);
  std::smatch m;
  if (!std::regex_search(code, m, declaration)) return false;
  const std::size_t at = std::size_t(m.position(0));
  const std::size_t open = code.find('{', at);
  const std::size_t close = open == std::string::npos ? open : matching_brace(code, open);
  if (close == std::string::npos) return false;
  std::size_t begin = line_start(text, at);
  auto line_before = [&](std::size_t start) {  // the line that ends at `start`, its '\n' included
    const std::size_t from = line_start(text, start - 1);
    return text.substr(from, start - from);
  };
  auto opens_template = [](const std::string& line) {
    const std::size_t first = line.find_first_not_of(" \t");
    return first != std::string::npos && line.compare(first, 8, "template") == 0;
  };
  if (begin > 0 && opens_template(line_before(begin))) begin = line_start(text, begin - 1);
  while (begin > 0 && is_comment_line(line_before(begin))) begin = line_start(text, begin - 1);
  std::size_t end = next_line(text, close);
  if (end < text.size() && text[end] == '\n')
    ++end;  // the blank line after it
  else if (begin > 0 && line_before(begin) == "\n")
    begin = line_start(text, begin - 1);
  text.erase(begin, end - begin);
  return true;
}

// The kernel's code with each probe call explained once: before the first run of lines that makes it (lines that
// call the probe, and the comments among them), so that no statement is split from the next and every statement
// keeps its text.
std::string explain_probe_calls(const std::string& body, const std::string& lang) {
  const std::vector<std::string> lines = lines_of(body), code = lines_of(code_only(body));
  static const std::regex call(R"(\bprobe\s*\.\s*([a-z_]+)\s*\()");
  auto calls_probe = [&](std::size_t i) { return i < code.size() && std::regex_search(code[i], call); };
  std::set<std::string> explained;
  std::string out;
  for (std::size_t i = 0; i < lines.size();) {
    if (!calls_probe(i) && !is_comment_line(lines[i])) {
      out += lines[i++] + "\n";
      continue;
    }
    std::size_t end = i;
    while (end < lines.size() && (calls_probe(end) || is_comment_line(lines[end]))) ++end;
    std::string notes;
    for (std::size_t j = i; j < end; ++j)
      for (auto it = std::sregex_iterator(code[j].begin(), code[j].end(), call); it != std::sregex_iterator(); ++it)
        for (const ProbeCallNote& n : kProbeCallNotes)
          if ((*it)[1] == n.call && explained.insert(n.call).second) {
            const std::string indent = lines[i].substr(0, lines[i].find_first_not_of(" \t"));
            for (const std::string& l : lines_of(lang == "zh_CN" ? n.zh : n.en)) notes += indent + "// " + l + "\n";
          }
    out += notes;
    for (std::size_t j = i; j < end; ++j) out += lines[j] + "\n";
    i = end;
  }
  return out;
}

// Without --dynamic-smem: the kernel's variant sized at launch (`<id>_dynamic`) goes, and with it the record's claim
// to have one and the launch's branch for it; the launch keeps its static branch.
void drop_dynamic_variant(std::string& kernel, std::string& record, const std::string& id) {
  const std::string why =
      id + ": its variant sized at launch (" + id + "_dynamic) cannot be left out of the file; " + "use --dynamic-smem";
  if (!erase_definition(kernel, std::regex("__global__\\s+void\\s+" + id + "_dynamic\\s*\\(")))
    throw std::invalid_argument(why);
  record = std::regex_replace(record, std::regex(R"([ \t]*r\.has_dynamic_smem\s*=\s*true;[ \t]*\n)"), "");
  const std::string code = code_only(record);
  const std::size_t branch = code.find("if (a.dynamic_smem)");
  const std::size_t open = branch == std::string::npos ? branch : code.find('{', branch);
  const std::size_t close = open == std::string::npos ? open : matching_brace(code, open);
  const std::size_t other = close == std::string::npos ? close : code.find_first_not_of(" \t\n", close + 1);
  if (other == std::string::npos || code.compare(other, 4, "else") != 0) throw std::invalid_argument(why);
  const std::size_t else_open = code.find('{', other), else_close = matching_brace(code, else_open);
  if (else_close == std::string::npos) throw std::invalid_argument(why);
  std::string kept;  // the static branch, one level less indented
  for (const std::string& l : lines_of(
           record.substr(next_line(record, else_open), line_start(record, else_close) - next_line(record, else_open))))
    kept += (l.compare(0, 2, "  ") == 0 ? l.substr(2) : l) + "\n";
  const std::size_t begin = line_start(record, branch);
  record.replace(begin, next_line(record, else_close) - begin, kept);
}

// The record as the file needs it. Its own: the catalog's long texts left out (what it teaches, the books' figures
// in its remark), its source reference the kernel it started from, and not the family's reference (bench measures
// against the catalog's). One it builds on: only the formulas the file's own record inherits (its record() and
// launch are the catalog kernel's, which the file's own replace).
std::string shorten_record(const std::string& record, bool own, const std::string& sources) {
  std::string out;
  const std::vector<std::string> lines = lines_of(record);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t first = lines[i].find_first_not_of(" \t");
    const std::string indent = lines[i].substr(0, first == std::string::npos ? 0 : first);
    const std::string trimmed = first == std::string::npos ? "" : lines[i].substr(first);
    const bool sources_field = trimmed.rfind(".sources = ", 0) == 0, teaches = trimmed.rfind(".teaches = ", 0) == 0;
    const bool remark = trimmed.rfind("r.remark = ", 0) == 0, reference = trimmed == "r.reference = true;";
    // How the catalog's transpose keeps its tile, which the window reads from what the file's kernel declares
    // instead (its launch's tile side, r.tile.dim, stays).
    const bool tile_view = trimmed.rfind("r.tile.", 0) == 0 && trimmed.rfind("r.tile.dim", 0) != 0;
    if (own && tile_view) continue;
    if (own && (sources_field || teaches || remark || reference)) {
      // The field's last line: an initialiser ends with ',' and a statement with ';' (a string goes on over lines
      // that end with '"'). The initialisers' last field (which ends with "};") stays: the record's own are not last.
      auto ends_with = [](const std::string& line, const std::string& end) {
        const std::size_t last = line.find_last_not_of(" \t");
        return last != std::string::npos && last + 1 >= end.size() &&
               line.compare(last + 1 - end.size(), end.size(), end) == 0;
      };
      std::size_t last = i;
      while (last + 1 < lines.size() && !ends_with(lines[last], ",") && !ends_with(lines[last], ";")) ++last;
      if (!ends_with(lines[last], "};")) {
        if (sources_field) out += indent + ".sources = \"" + sources + "\",\n";
        i = last;
        continue;
      }
    }
    out += lines[i] + "\n";
  }
  if (!own) {
    erase_definition(out, std::regex(R"(static\s+KernelRecord\s+record\s*\(\s*\))"));
    erase_definition(out, std::regex(R"(static\s+void\s+launch\s*\()"));
  }
  return out;
}

// One source file split into its includes (rewritten from the kernels/ folder) and its body.
struct Part {
  std::vector<std::string> includes;  // "#include ..." lines
  std::string body;
};

// `dir`: the file's folder under kernels/ ("reduce"). Drops `#pragma once` and the include of `skip` (a file
// that is inlined), rewrites "x.cuh" and "../block/x.cuh" as paths under kernels/, keeps <...> includes.
Part split(const std::string& text, const std::string& dir, const std::set<std::string>& skip) {
  Part p;
  std::istringstream in(text);
  std::string line;
  static const std::regex quoted(R"(^\s*#include\s+"([^"]+)\"\s*$)");
  bool header_comment = true;  // the file's own opening comment goes: the new file has its own
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

std::optional<std::string> read_catalog_source(const std::string& relative_path) {
  const std::string path = find_resource(relative_path);
  std::string text;
  if (path.empty() || !read_text_file(path, &text, nullptr)) return std::nullopt;
  return text;
}

std::string kernel_file_refusal(const KernelRecord& k) {
  // A trace file's record names its kernel file on the machine that traced it: a path from an untrusted file, never
  // opened to copy code from.
  if (is_file_record(k))
    return k.id + " came from a kernel file's trace (" + k.source_file +
           "): copy that file itself; a new kernel file starts from a kernel of redlab's catalog (redlab list)";
  if (!k.traceable || k.host_only || k.gpu_only || k.source_file.empty())
    return k.id +
           " has no traced build (library or host code): start from a kernel redlab traces (redlab list shows "
           "them)";
  if (k.family == Family::allreduce)
    return k.id +
           " is a schedule of transfers between GPUs (app/core/allreduce.cpp), not one kernel: a kernel file "
           "starts from a reduction or a transpose (redlab list)";
  return "";
}

std::string make_kernel_file(const KernelRecord& from, const std::string& new_id, const KernelFileOptions& options,
                             const SourceReader& read) {
  if (const std::string why = kernel_file_refusal(from); !why.empty()) throw std::invalid_argument(why);
  if (options.dynamic_smem && !from.has_dynamic_smem) {
    std::string with;
    for (const KernelRecord* k : catalog())
      if (k->has_dynamic_smem) with += (with.empty() ? "" : ", ") + k->id;
    throw std::invalid_argument("--dynamic-smem: " + from.id +
                                " has no variant sized at launch; kernels that have "
                                "one: " +
                                with);
  }
  // kernels/<dir>/<id>.cuh
  const fs::path source(from.source_file);
  const std::string dir = source.parent_path().filename().string();
  const std::string kernels_dir = source.parent_path().parent_path().generic_string();  // "kernels"
  auto need = [&](const std::string& rel) {
    const std::optional<std::string> text = read(rel);
    if (!text)
      throw std::invalid_argument("cannot read " + rel +
                                  " (redlab's kernel sources: set REDLAB_DATA_DIR "
                                  "to the folder that holds kernels/)");
    return *text;
  };
  const std::string own = dir + "/" + from.id + ".cuh";
  Part kernel = split(need(from.source_file), dir, {});
  // The record, and any record it builds on (inlined under a new name, without its registration).
  std::vector<std::string> includes = kernel.includes;
  std::vector<std::string> bases;  // records the file's own builds on, those it builds on first
  std::string own_record;
  std::map<std::string, std::string> names;  // catalog name -> the file's name
  // The record's source reference (the catalog id) goes in after the renames, which would rename it: this stands in
  // for it until then (no word in it for a rename to find).
  const std::string sources_placeholder = "@@@";
  std::function<void(const std::string&, const std::string&, bool)> add_record =
      [&](const std::string& id, const std::string& rdir, bool own_one) {
        const std::string rel = kernels_dir + "/" + rdir + "/" + id + ".record.cuh";
        std::set<std::string> skip;
        if (own_one) skip.insert(own);
        Part r = split(need(rel), rdir, skip);
        for (const std::string& inc : r.includes) {
          std::smatch m;
          static const std::regex base(R"re(#include "([a-z]+)/([A-Za-z0-9_]+)\.record\.cuh")re");
          if (std::regex_match(inc, m, base)) {
            add_record(m[2], m[1], false);  // first, so that it is defined before the record that uses it
            names[m[2].str() + "_record"] = new_id + "_" + m[2].str() + "_record";
            continue;
          }
          includes.push_back(inc);
        }
        std::string body = r.body;
        if (!own_one) body = std::regex_replace(body, std::regex(R"(\n?REDLAB_KERNEL_RECORD\([^)]*\)\s*)"), "\n");
        (own_one ? own_record : bases.emplace_back()) = shorten_record(body, own_one, sources_placeholder);
      };
  add_record(from.id, dir, true);
  names[from.id + "_record"] = new_id + "_record";
  if (from.has_dynamic_smem && !options.dynamic_smem) drop_dynamic_variant(kernel.body, own_record, from.id);
  static const std::regex global_fn(R"(__global__\s+void\s+([A-Za-z_][A-Za-z0-9_]*)\s*\()");
  for (auto it = std::sregex_iterator(kernel.body.begin(), kernel.body.end(), global_fn); it != std::sregex_iterator();
       ++it) {
    const std::string name = (*it)[1];
    names[name] = name.rfind(from.id, 0) == 0 ? new_id + name.substr(from.id.size()) : new_id + "_" + name;
  }
  const bool zh = options.lang == "zh_CN";
  std::string records;
  for (const std::string& b : bases) records += b + "\n";
  records += own_record;
  // What a record is, said once, inside the first record's namespace.
  const std::string opening = "namespace redlab::kernels {\n\n";
  const std::size_t first = records.rfind(opening, 0) == 0 ? opening.size() : 0;
  records.insert(first, zh ? kRecordZh : kRecordEn);

  std::string out = zh ? kHeaderZh : kHeaderEn;
  out = replace_all(out, "{ID}", new_id);
  out = replace_all(out, "{SOURCE}", from.source_file);
  out += "\n";
  std::set<std::string> seen;
  for (const std::string& inc : includes)
    if (seen.insert(inc).second) out += inc + "\n";
  // The kernel and the records in one namespace: each catalog file opens and closes its own.
  std::string code = explain_probe_calls(kernel.body, options.lang) + "\n" + records;
  static const std::regex reopened(R"(\}  // namespace redlab::kernels\n\s*namespace redlab::kernels \{\n\n?)");
  code = std::regex_replace(code, reopened, "");
  refuse_name_in_use(code, new_id);
  for (const auto& [catalog_name, file_name] : names) code = rename_word(code, catalog_name, file_name);
  code = replace_all(code, sources_placeholder, from.id);
  out += "\n" + code;
  while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}
namespace {

int line_at(const std::string& t, std::size_t pos) {
  return 1 + int(std::count(t.begin(), t.begin() + std::ptrdiff_t(pos), '\n'));
}

}  // namespace

namespace {

std::string trimmed(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\n"), b = s.find_last_not_of(" \t\n");
  return a == std::string::npos ? std::string{} : s.substr(a, b - a + 1);
}

// `list` split at its commas outside any <>, () or [], each part trimmed.
std::vector<std::string> top_level_parts(const std::string& list) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : list) {
    if (c == '<' || c == '(' || c == '[')
      ++depth;
    else if (c == '>' || c == ')' || c == ']')
      --depth;
    if (c == ',' && depth == 0)
      parts.emplace_back();
    else
      parts.back() += c;
  }
  for (std::string& p : parts) p = trimmed(p);
  return parts;
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `__global__ void NAME (`: a kernel's definition or declaration.
const std::vector<std::string> kGlobalFunction = {"__global__", "void", kIdentifier, "("};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// `pattern` from its first token at `at`: where the run ends and what it captured, or nothing.
std::optional<TokenRun> token_run_at(const std::string& text, const std::vector<std::string>& pattern, std::size_t at) {
  TokenRun run;
  run.begin = at;
  std::size_t i = at;
  for (std::size_t k = 0; k < pattern.size(); ++k) {
    if (k > 0)
      while (i < text.size() && is_space(text[i])) ++i;
    const std::string& want = pattern[k];
    const bool quoted = want == kQuotedIdentifier;
    if (want == kIdentifier || quoted) {
      if (quoted && (i >= text.size() || text[i++] != '"')) return std::nullopt;
      const std::size_t start = i;
      if (i >= text.size() || !(std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_'))
        return std::nullopt;
      while (i < text.size() && is_word_char(text[i])) ++i;
      run.captured.push_back(text.substr(start, i - start));
      if (quoted && (i >= text.size() || text[i++] != '"')) return std::nullopt;
      continue;
    }
    if (text.compare(i, want.size(), want) != 0) return std::nullopt;
    // A word matches a whole word only ("void" is not the start of "voids").
    if (is_word_char(want.back()) && i + want.size() < text.size() && is_word_char(text[i + want.size()]))
      return std::nullopt;
    i += want.size();
  }
  run.end = i;
  return run;
}

}  // namespace

std::vector<TokenRun> find_token_runs(const std::string& text, const std::vector<std::string>& pattern,
                                      std::size_t from) {
  std::vector<TokenRun> runs;
  if (pattern.empty() || pattern.front() == kIdentifier || pattern.front() == kQuotedIdentifier) return runs;
  const std::string& first = pattern.front();
  for (std::size_t at = text.find(first, from); at != std::string::npos; at = text.find(first, at + 1)) {
    if (is_word_char(first.front()) && at > 0 && is_word_char(text[at - 1])) continue;  // inside a longer word
    if (std::optional<TokenRun> run = token_run_at(text, pattern, at)) {
      at = run->end - 1;
      runs.push_back(std::move(*run));
    }
  }
  return runs;
}

std::string launched_instance(const std::string& text, const LaunchedInstance& what, std::string* why) {
  const std::string code = code_only(text);
  // Nothing named: why, and where (a line of the file) when the scan got that far.
  auto none = [&](const std::string& reason, std::size_t pos = std::string::npos) {
    if (why) *why = pos == std::string::npos ? reason : "line " + std::to_string(line_at(code, pos)) + ": " + reason;
    return std::string();
  };
  if (code.find("namespace redlab::kernels") == std::string::npos) return none("no namespace redlab::kernels");
  // The record's one launch: `template <...> static void launch(...) { ... }`.
  const std::string head = "static void launch";
  const std::size_t at = code.find(head);
  if (at == std::string::npos) return none("no `static void launch` (the record's launch)");
  if (code.find(head, at + head.size()) != std::string::npos)
    return none("a second `static void launch`: which one runs is the compiler's choice",
                code.find(head, at + head.size()));
  const std::size_t params_close = code.find_last_not_of(" \t\n", at == 0 ? 0 : at - 1);
  if (params_close == std::string::npos || code[params_close] != '>')
    return none("the launch is not a template (`template <...> static void launch`)", at);
  const std::size_t params_open = code.rfind('<', params_close);
  const std::size_t keyword_end = params_open == std::string::npos || params_open == 0
                                      ? std::string::npos
                                      : code.find_last_not_of(" \t\n", params_open - 1);
  if (keyword_end == std::string::npos || keyword_end < 7 || code.compare(keyword_end - 7, 8, "template") != 0)
    return none("no `template` before the launch's parameters", at);
  // Each parameter's name, and what the scenario gives it (kernels/register.cuh: a reduction's launch takes
  // <unsigned B, class T, class Op, class Probe>, a transpose's <unsigned BR, class T, class Probe>).
  const bool matrix = code.find("transpose_kernel") != std::string::npos;
  const std::vector<std::string> params = top_level_parts(code.substr(params_open + 1, params_close - params_open - 1));
  if (params.size() != (matrix ? 3u : 4u))
    return none(std::string("the launch takes ") + std::to_string(params.size()) + " template parameters, not " +
                    (matrix ? "3 (block rows, element, probe)" : "4 (block, element, operator, probe)"),
                at);
  const std::string element = what.type == ElemType::int32     ? "int"
                              : what.type == ElemType::float32 ? "float"
                                                               : "double";
  const std::string op = what.op == OpKind::sum ? "Sum" : what.op == OpKind::min ? "Min" : "Max";
  const std::string probe = std::string("redlab::kernels::") + (what.traced ? "TraceProbe" : "NoProbe");
  const std::vector<std::string> values =
      matrix ? std::vector<std::string>{std::to_string(what.block_rows) + "u", element, probe}
             : std::vector<std::string>{std::to_string(what.block) + "u", element,
                                        "redlab::kernels::" + op + "<" + element + ">", probe};
  std::map<std::string, std::string> value_of;
  for (std::size_t i = 0; i < params.size(); ++i) {
    std::size_t end = params[i].size();
    while (end > 0 && is_word_char(params[i][end - 1])) --end;
    value_of[params[i].substr(end)] = values[i];
  }
  // The kernel templates the file defines, and the one of them the launch's body names.
  const std::size_t open = code.find('{', at);
  const std::size_t close = open == std::string::npos ? std::string::npos : matching_brace(code, open);
  if (close == std::string::npos) return none("the launch's body has no closing brace", at);
  const std::string body = code.substr(open, close - open);
  std::set<std::string> kernels;
  for (const TokenRun& fn : find_token_runs(code, kGlobalFunction)) kernels.insert(fn.captured[0]);
  std::string named;
  for (std::size_t i = 0; i < body.size();) {
    if (!is_word_char(body[i]) || (i > 0 && is_word_char(body[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < body.size() && is_word_char(body[end])) ++end;
    const std::string word = body.substr(i, end - i);
    std::size_t lt = body.find_first_not_of(" \t\n", end);
    if (kernels.count(word) && lt != std::string::npos && body[lt] == '<') {
      int depth = 0;
      std::size_t gt = lt;
      for (; gt < body.size(); ++gt) {
        if (body[gt] == '<')
          ++depth;
        else if (body[gt] == '>' && --depth == 0)
          break;
      }
      if (gt == body.size()) return none("a kernel's template arguments have no closing `>`", open + lt);
      std::vector<std::string> args = top_level_parts(body.substr(lt + 1, gt - lt - 1));
      for (std::string& a : args) {
        const auto v = value_of.find(a);
        if (v == value_of.end())  // an expression of them: its spelling is the compiler's
          return none(
              "`" + word + "` gets `" + a + "`, not one of the launch's parameters (its value is the compiler's)",
              open + i);
        a = v->second;
      }
      std::string instance = "&redlab::kernels::" + word + "<";
      for (std::size_t k = 0; k < args.size(); ++k) instance += (k ? ", " : "") + args[k];
      instance += ">";
      if (!named.empty() && named != instance)
        return none("the launch names two kernels: which runs first is its choice at run time", open + i);
      named = instance;
      end = gt + 1;
    }
    i = end;
  }
  if (named.empty()) return none("the launch names none of the file's kernels with template arguments", at);
  return named;
}

BarrierSteps add_barrier_steps(const std::string& text) {
  BarrierSteps out;
  const std::string code = code_only(text);
  const bool matrix = code.find("transpose_kernel") != std::string::npos;
  const char* first = matrix ? "Phase::tile_load" : "Phase::load";
  const char* later = matrix ? "Phase::tile_store" : "Phase::tree";
  // Insertions, by position: applied from the last so that earlier positions stay right.
  std::vector<std::pair<std::size_t, std::string>> inserts;
  for (const TokenRun& fn : find_token_runs(code, kGlobalFunction)) {
    // The parameter list, then the body.
    std::size_t at = fn.end;
    int depth = 1;
    std::size_t params_end = at;
    for (; params_end < code.size() && depth > 0; ++params_end) {
      if (code[params_end] == '(')
        ++depth;
      else if (code[params_end] == ')')
        --depth;
    }
    const std::string params = code.substr(at, params_end - 1 - at);
    const std::string where = fn.captured[0] + " (line " + std::to_string(line_at(code, fn.begin)) + "): ";
    const std::size_t open = code.find_first_of("{;", params_end);
    if (open == std::string::npos || code[open] != '{') {
      out.left.push_back(where + "a declaration, no body");
      continue;
    }
    std::size_t close = open + 1;
    for (depth = 1; close < code.size() && depth > 0; ++close) {
      if (code[close] == '{')
        ++depth;
      else if (code[close] == '}')
        --depth;
    }
    const std::string body = code.substr(open, close - open);
    // Only kernels that take the probe last (the dialect's `Probe probe`) and name no step.
    std::string last_param = params.substr(params.rfind(',') == std::string::npos ? 0 : params.rfind(',') + 1);
    while (!last_param.empty() && is_space(last_param.back())) last_param.pop_back();
    const bool takes_probe = last_param.size() >= 5 && last_param.compare(last_param.size() - 5, 5, "probe") == 0 &&
                             (last_param.size() == 5 || !is_word_char(last_param[last_param.size() - 6]));
    if (!takes_probe) {
      out.left.push_back(where + "its last parameter is not `probe`");
      continue;
    }
    if (body.find("probe.step") != std::string::npos) {
      out.left.push_back(where + "names its own steps (probe.step)");
      continue;
    }
    // Without probe.active, a lane is active in a step where it makes a recorded access (kernels/probe.cuh).
    const std::string active = body.find("probe.active") == std::string::npos ? " probe.active_when_accessing();" : "";
    inserts.emplace_back(open + 1, std::string(matrix ? "" : " unsigned redlab_barriers_ = 0;") + active +
                                       " probe.step(" + first + ");");
    for (const TokenRun& b : find_token_runs(body, {"__syncthreads", "(", ")", ";"})) {
      const std::size_t end = open + b.end;
      inserts.emplace_back(end, std::string(" probe.step(") + later +
                                    (matrix ? "" : ", Label::barrier, int(++redlab_barriers_)") + ");");
      out.lines.push_back(line_at(code, end));
    }
    out.kernels.push_back(fn.captured[0]);
  }
  out.text = text;
  std::sort(inserts.begin(), inserts.end());
  for (auto i = inserts.rbegin(); i != inserts.rend(); ++i) out.text.insert(i->first, i->second);
  std::sort(out.lines.begin(), out.lines.end());
  out.lines.erase(std::unique(out.lines.begin(), out.lines.end()), out.lines.end());
  return out;
}

}  // namespace redlab
