#include "kernel_source.h"

#include <filesystem>
#include <fstream>

#include "resources.h"

namespace redlab {

namespace {
// The probe's Label enumerators as the source spells them (kernels/trace_record.h).
const char* label_identifier(rec::Label l) {
  constexpr const char* names[] = {"",          "stride",    "offset",        "warp_sums_store", "warp_sums_load", "last_warp",
                                   "grid_stride", "to_shared", "warp_reduce", "partials_load",   "tail"};
  return std::size_t(l) < std::size(names) ? names[std::size_t(l)] : "";
}
}  // namespace

std::string KernelSources::file_of_step(std::uint32_t line, rec::Label label) const {
  std::vector<const std::string*> calls;   // the files with a probe.step call at that line
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
    if (label == rec::Label::none ? l.find("Label::") == std::string::npos : l.find(named) != std::string::npos) return *f;
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
    std::ifstream f(find_resource(rel));
    for (std::string l; std::getline(f, l);) {
      lines.push_back(l);
      // #include "x.cuh": a file of kernels/ next to this one (or above it: "../block/block_reduce.cuh").
      const std::size_t inc = l.find("#include \"");
      if (inc == std::string::npos || l.find_first_not_of(" \t") != inc) continue;
      const std::size_t a = inc + 10, b = l.find('"', a);
      if (b == std::string::npos) continue;
      const std::string included = l.substr(a, b - a);
      const std::string path = (std::filesystem::path(rel).parent_path() / included).lexically_normal().generic_string();
      if (path.rfind("kernels/", 0) == 0) todo.push_back(path);
      // A kernel file of the student's own includes redlab's headers by their place under kernels/ (-I kernels).
      else if (const std::string k = "kernels/" + included; !find_resource(k).empty()) todo.push_back(k);
    }
  }
  return s;
}

}  // namespace redlab
