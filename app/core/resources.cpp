#include "resources.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

namespace redlab {

namespace fs = std::filesystem;

namespace {
std::string exe_dir() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  return fs::path(buf).parent_path().string();
}
}  // namespace

std::string find_resource(const std::string& rel) {
  std::vector<fs::path> roots;
  if (const char* e = std::getenv("REDLAB_DATA_DIR")) roots.emplace_back(e);
  fs::path exe = exe_dir();
  roots.push_back(exe);
  roots.push_back(exe.parent_path());
  roots.push_back(exe.parent_path() / "share" / "redlab");
#ifdef REDLAB_SOURCE_DIR
  roots.emplace_back(REDLAB_SOURCE_DIR);
#endif
  for (auto& r : roots) {
    std::error_code ec;
    if (fs::exists(r / rel, ec)) return (r / rel).string();
  }
  return {};
}

}  // namespace redlab
