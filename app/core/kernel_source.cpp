#include "core/kernel_source.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <iterator>
#include <utility>

#include "core/file_write.h"
#include "core/resources.h"

namespace redlab {

namespace {
// The probe's Label enumerators as the source spells them (kernels/trace_record.h).
const char* label_identifier(rec::Label l) {
  constexpr const char* names[] = {"",          "stride",      "offset",    "warp_sums_store", "warp_sums_load",
                                   "last_warp", "grid_stride", "to_shared", "warp_reduce",     "partials_load",
                                   "tail"};
  return std::size_t(l) < std::size(names) ? names[std::size_t(l)] : "";
}
}  // namespace

std::string KernelSources::file_of_step(std::uint32_t line, rec::Label label) const {
  std::vector<const std::string*> calls;  // the files with a probe.step call at that line
  for (const std::string& f : files) {
    const auto it = lines.find(f);
    if (it == lines.end() || line < 1 || line > it->second.size()) continue;
    const std::string& l = it->second[line - 1];
    const std::size_t call = l.find("probe.step("), comment = l.find("//");
    if (call != std::string::npos && call < comment) calls.push_back(&f);
  }
  if (calls.empty()) return files.empty() ? std::string() : files.front();
  const std::string named = std::string("Label::") + label_identifier(label);
  for (const std::string* f : calls) {
    const std::string& l = lines.at(*f)[line - 1];
    if (label == rec::Label::none ? l.find("Label::") == std::string::npos : l.find(named) != std::string::npos)
      return *f;
  }
  return *calls.front();
}

KernelSources load_kernel_sources(const std::string& source_file) {
  KernelSources s;
  std::vector<std::string> todo = {source_file};
  while (!todo.empty()) {
    const std::string rel = todo.front();
    todo.erase(todo.begin());
    if (s.lines.count(rel)) continue;
    std::vector<std::string>& lines = s.lines[rel];
    s.files.push_back(rel);
    // A regular file within a kernel file's size, never waited on: a record read from a trace file names its source,
    // which may be a FIFO or /dev/zero by now.
    std::string text;
    read_regular_file(find_resource(rel), kMaxSourceFileBytes, &text);
    std::istringstream f(text);
    for (std::string l; std::getline(f, l);) {
      lines.push_back(l);
      // #include "x.cuh": a file of kernels/ next to this one (or above it: "../block/block_reduce.cuh").
      const std::size_t inc = l.find("#include \"");
      if (inc == std::string::npos || l.find_first_not_of(" \t") != inc) continue;
      const std::size_t a = inc + 10, b = l.find('"', a);
      if (b == std::string::npos) continue;
      const std::string included = l.substr(a, b - a);
      const std::string path =
          (std::filesystem::path(rel).parent_path() / included).lexically_normal().generic_string();
      if (path.rfind("kernels/", 0) == 0) todo.push_back(path);
      // A kernel file of the student's own includes redlab's headers by their place under kernels/ (-I kernels).
      else if (const std::string k = "kernels/" + included; !find_resource(k).empty())
        todo.push_back(k);
    }
  }
  return s;
}

namespace {
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// The line without its // comment.
std::string_view code_of(std::string_view line) {
  const std::size_t comment = line.find("//");
  return comment == std::string_view::npos ? line : line.substr(0, comment);
}

// The expression whose closing bracket is at `close` (0-based): back to its matching '[', over any earlier brackets
// of the same expression (tile[ty][tx]) and the array's name. npos: none.
std::size_t expression_start(std::string_view code, std::size_t close) {
  std::size_t at = close;
  for (;;) {
    int depth = 0;
    std::size_t i = at + 1;
    do {
      --i;
      if (code[i] == ']')
        ++depth;
      else if (code[i] == '[')
        --depth;
    } while (depth > 0 && i > 0);
    if (depth != 0) return std::string_view::npos;
    std::size_t before = i;
    while (before > 0 && code[before - 1] == ' ') --before;
    if (before > 0 && code[before - 1] == ']') {
      at = before - 1;
      continue;
    }
    std::size_t name = i;
    while (name > 0 && name_char(code[name - 1])) --name;
    return name < i ? name : std::string_view::npos;
  }
}

std::string shortened(std::string text) {
  if (text.size() > AccessSource::kMaxExpression) text = text.substr(0, AccessSource::kMaxExpression - 3) + "...";
  return text;
}

// Every indexing expression of the line (its outermost: tile[ty][tx] once), in order.
std::vector<std::string> indexing_expressions(std::string_view code) {
  std::vector<std::string> out;
  std::size_t covered = 0;  // an expression inside an earlier one's brackets is part of it
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i] != ']') continue;
    std::size_t next = i + 1;
    while (next < code.size() && code[next] == ' ') ++next;
    if (next < code.size() && code[next] == '[') continue;  // a 2D expression goes on
    const std::size_t start = expression_start(code, i);
    if (start == std::string_view::npos) continue;
    std::string e(code.substr(start, i + 1 - start));
    if (start < covered && !out.empty())
      out.back() = e;  // s[s[i]]: the outer one
    else
      out.push_back(e);
    covered = i + 1;
  }
  return out;
}

bool same_source(const std::string& recorded, const std::string& rel) {
  const std::string a = std::filesystem::path(recorded).lexically_normal().generic_string();
  const std::string b = std::filesystem::path(rel).lexically_normal().generic_string();
  return a == b ||
         (a.size() > b.size() && a.compare(a.size() - b.size(), b.size(), b) == 0 && a[a.size() - b.size() - 1] == '/');
}
}  // namespace

std::string indexing_expression(std::string_view line, unsigned column, std::size_t* start_out) {
  const std::string_view code = code_of(line);
  if (column == 0) {
    const std::vector<std::string> all = indexing_expressions(code);
    return all.size() == 1 ? shortened(all.front()) : std::string();
  }
  if (column > code.size()) return {};
  std::size_t close = column - 1;
  if (code[close] == '[') {  // g++ names the opening bracket of a template's operator[]: its matching one
    int depth = 0;
    for (; close < code.size(); ++close) {
      depth += code[close] == '[' ? 1 : code[close] == ']' ? -1 : 0;
      if (depth == 0) break;
    }
    if (close == code.size()) return {};
  }
  if (code[close] != ']') return {};
  const std::size_t start = expression_start(code, close);
  if (start == std::string_view::npos) return {};
  if (start_out) *start_out = start;
  return shortened(std::string(code.substr(start, close + 1 - start)));
}

std::optional<AccessSource> access_source(const Trace& t, const WarpAccess& a, const KernelSources& sources) {
  if (a.line == 0) return std::nullopt;
  auto line_of = [&](const std::string& rel) -> const std::string* {
    const auto it = sources.lines.find(rel);
    return it == sources.lines.end() || a.line > it->second.size() ? nullptr : &it->second[a.line - 1];
  };
  AccessSource out;
  out.line = a.line;
  if (a.file >= 1 && a.file <= t.access_files.size()) {
    const std::string& recorded = t.access_files[a.file - 1u];
    for (const std::string& rel : sources.files)
      if (same_source(recorded, rel)) out.file = rel;
  } else {  // the GPU's: the first of the kernel's files with an indexing expression on that line
    for (const std::string& rel : sources.files)
      if (const std::string* l = line_of(rel); l && !indexing_expressions(code_of(*l)).empty()) {
        out.file = rel;
        break;
      }
  }
  const std::string* text = out.file.empty() ? nullptr : line_of(out.file);
  if (text == nullptr) return std::nullopt;
  out.expression = indexing_expression(*text, a.column, &out.start);
  if (out.expression.empty()) {  // the statement, trimmed
    const std::string_view code = code_of(*text);
    const std::size_t b = code.find_first_not_of(" \t"), e = code.find_last_not_of(" \t");
    if (b != std::string_view::npos) out.expression = shortened(std::string(code.substr(b, e + 1 - b)));
  }
  return out;
}

}  // namespace redlab
