// The work's caches of what the views read: reference timings, kernel sources and the lines of their steps,
// and which inputs reached each focus block's result.
#include <algorithm>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/file_write.h"
#include "core/json_read.h"
#include "core/resources.h"
#include "model/work.h"

namespace redlab::model {

namespace {

void read_timings(ReferenceTimings& r, const std::string& path) {
  r.path = path;
  if (path.empty()) return;
  std::string text;
  if (!read_regular_file(path, 16u << 20, &text).empty()) return;
  r.present = true;
  try {
    r.rep = parse_timings(parse_json(text));
  } catch (const std::exception& e) { r.error = e.what(); }
}

}  // namespace

std::vector<int> step_statement_lines(const std::vector<std::string>& src, int probe_line) {
  std::vector<int> out;
  auto trimmed = [](const std::string& s) {
    const std::size_t a = s.find_first_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a, s.find_last_not_of(" \t") + 1 - a);
  };
  int depth = 0;
  for (int i = probe_line; i >= 1 && i < int(src.size()) && out.size() < 12; ++i) {
    const std::string t = trimmed(src[std::size_t(i)]);  // line i + 1
    if (t.find("probe.step(") != std::string::npos) break;  // the next step
    for (char c : t) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (depth < 0) break;  // the enclosing block ends
    if (t.empty() || t.rfind("//", 0) == 0 || t.rfind("probe.", 0) == 0) continue;
    if (t == "}" || t == "{") continue;
    out.push_back(i + 1);
  }
  if (out.empty()) out.push_back(probe_line);
  return out;
}

const KernelSources& Work::kernel_sources(const std::string& rel) {
  auto it = kernel_sources_.find(rel);
  if (it == kernel_sources_.end()) it = kernel_sources_.emplace(rel, load_kernel_sources(rel)).first;
  return it->second;
}

const std::vector<BlockReach>& Work::input_reach_of(const Trace& t) {
  auto it = input_reach_.find(t.digest);
  if (it == input_reach_.end()) {
    if (input_reach_.size() > 16) input_reach_.clear();  // a few traces at a time: A, B and their last runs
    it = input_reach_.emplace(t.digest, input_reach(t)).first;
  }
  return it->second;
}

const ReferenceTimings& Work::reference_timings() {
  if (!reference_) {
    reference_.emplace();
    read_timings(*reference_, opts.debug.reference_timings.empty() ? find_resource("assets/reference/timings.json")
                                                                   : opts.debug.reference_timings);
  }
  return *reference_;
}

const ReferenceTimings& Work::transpose_reference(ElemType t) {
  auto [it, fresh] = transpose_references_.try_emplace(int(t));
  if (fresh) read_timings(it->second, find_resource(transpose_reference_name(t)));
  return it->second;
}

const std::vector<ReferenceTimings>& Work::block_sweeps(ElemType t) {
  auto [it, fresh] = block_sweeps_.try_emplace(int(t));
  if (!fresh) return it->second;
  std::vector<std::string> paths;
  const std::filesystem::path prefix = block_sweep_prefix(t);  // the folder, and the start of the files' names
  if (!opts.debug.reference_blocks.empty()) {
    paths.push_back(opts.debug.reference_blocks);
  } else if (const std::string dir = find_resource(prefix.parent_path().string()); !dir.empty()) {
    // The files of this type, by name (one a card); a folder is listed once, and at most a few dozen are read.
    const std::string stem = prefix.filename().string();
    std::error_code ec;
    std::size_t seen = 0;
    for (std::filesystem::directory_iterator d(dir, ec), end; !ec && d != end && seen < 256; d.increment(ec), ++seen) {
      const std::string name = d->path().filename().string();
      if (name.rfind(stem, 0) == 0 && d->path().extension() == ".json" && paths.size() < 16)
        paths.push_back(d->path().string());
    }
    std::sort(paths.begin(), paths.end());
  }
  for (const std::string& p : paths) {
    ReferenceTimings r;
    read_timings(r, p);
    if (r.present) it->second.push_back(std::move(r));
  }
  return it->second;
}

const SourceFile& Work::source(const std::string& rel) {
  auto [it, fresh] = sources_.try_emplace(rel);
  if (fresh) {
    // A kernel file of the student's own is named by its absolute path; redlab's own files are found.
    it->second.path = std::filesystem::path(rel).is_absolute() ? rel : find_resource(rel);
    // (read as a regular file within its cap: a record read from a trace names a path that may be a FIFO by now)
    std::string text;
    if (!read_regular_file(it->second.path, kMaxSourceFileBytes, &text).empty()) it->second.path.clear();
    std::istringstream f(text);
    for (std::string l; std::getline(f, l);) {
      for (size_t p; (p = l.find('\t')) != std::string::npos;) l.replace(p, 1, "  ");
      it->second.lines.push_back(l);
    }
  }
  return it->second;
}

}  // namespace redlab::model
