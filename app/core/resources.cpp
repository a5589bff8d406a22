#include "core/resources.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/types.h>
#include <system_error>
#include <vector>

namespace redlab {

namespace fs = std::filesystem;

namespace {

fs::path exe_dir() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  return fs::path(buf).parent_path();
}

// Whether `dir` is `root` or inside it (both as the file system resolves them).
bool inside(const fs::path& dir, const char* root) {
  std::error_code ec;
  const fs::path d = fs::weakly_canonical(dir, ec), r = fs::weakly_canonical(root, ec);
  if (ec || r.empty()) return false;
  const auto [end, at] = std::mismatch(r.begin(), r.end(), d.begin(), d.end());
  return end == r.end();
}

// The folders found from where the executable is (it does not move while it runs: found once).
const std::vector<fs::path>& executable_roots() {
  static const std::vector<fs::path> roots = [] {
    std::vector<fs::path> r;
    const fs::path exe = exe_dir();
    r.push_back(exe.parent_path() / "share" / "redlab");
    r.push_back(exe);
    r.push_back(exe.parent_path());
#if defined(REDLAB_SOURCE_DIR) && defined(REDLAB_BINARY_DIR)
    if (inside(exe, REDLAB_BINARY_DIR)) r.emplace_back(REDLAB_SOURCE_DIR);
#endif
    return r;
  }();
  return roots;
}

std::vector<fs::path> roots() {
  std::vector<fs::path> r;
  if (const char* e = std::getenv("REDLAB_DATA_DIR"); e && *e) r.emplace_back(e);
  r.insert(r.end(), executable_roots().begin(), executable_roots().end());
  return r;
}

}  // namespace

std::string find_resource(const std::string& rel) {
  for (const fs::path& r : roots()) {
    std::error_code ec;
    if (fs::exists(r / rel, ec)) return (r / rel).string();
  }
  return {};
}

std::string resource_root() {
  const std::string en = find_resource("assets/i18n/en.json");
  return en.empty() ? std::string() : fs::path(en).parent_path().parent_path().parent_path().string();
}

}  // namespace redlab
