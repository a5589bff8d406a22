#include "user_dirs.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace redlab {

namespace fs = std::filesystem;

namespace {
std::string home_dir() {
  if (const char* h = std::getenv("HOME"); h && *h == '/') return h;
  if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_dir && *pw->pw_dir == '/') return pw->pw_dir;
  return {};
}
}  // namespace

std::string user_dir(UserDir kind) {
  const char* variable = kind == UserDir::config ? "XDG_CONFIG_HOME" : kind == UserDir::cache ? "XDG_CACHE_HOME" : "XDG_DATA_HOME";
  if (const char* x = std::getenv(variable); x && *x == '/') return (fs::path(x) / "redlab").string();
  if (const std::string home = home_dir(); !home.empty()) {
    const fs::path under = kind == UserDir::config ? ".config" : kind == UserDir::cache ? ".cache" : ".local/share";
    return (fs::path(home) / under / "redlab").string();
  }
  if (kind == UserDir::config) return {};
  std::error_code ec;
  return (fs::temp_directory_path(ec) / ("redlab-" + std::to_string(getuid())) /
          (kind == UserDir::cache ? "cache" : "data")).string();
}

}  // namespace redlab
