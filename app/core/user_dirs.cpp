#include "core/user_dirs.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

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
  const char* variable = kind == UserDir::config  ? "XDG_CONFIG_HOME"
                         : kind == UserDir::cache ? "XDG_CACHE_HOME"
                                                  : "XDG_DATA_HOME";
  if (const char* x = std::getenv(variable); x && *x == '/') return (fs::path(x) / "redlab").string();
  if (const std::string home = home_dir(); !home.empty()) {
    const fs::path under = kind == UserDir::config ? ".config" : kind == UserDir::cache ? ".cache" : ".local/share";
    return (fs::path(home) / under / "redlab").string();
  }
  if (kind == UserDir::config) return {};
  std::error_code ec;
  return (fs::temp_directory_path(ec) / ("redlab-" + std::to_string(getuid())) /
          (kind == UserDir::cache ? "cache" : "data"))
      .string();
}

bool make_private_dir(const std::string& path, std::string* why) {
  auto say = [&](const std::string& text) {
    if (why) *why = text;
    return false;
  };
  if (path.empty() || path[0] != '/')
    return say("no folder of this user's to keep it in (no home folder; set HOME or XDG_CACHE_HOME)");
  const fs::path dir = fs::path(path).lexically_normal();
  const uid_t uid = getuid();
  auto another_users = [&](const fs::path& folder, uid_t owner) {
    return say(
        folder.string() + " belongs to another user (uid " + std::to_string(owner) +
        "); redlab keeps its "
        "files only where no one else can change them: set XDG_CACHE_HOME and XDG_DATA_HOME to folders of yours");
  };
  // The folders above, from the root down: each belongs to this user or root, and one others may write to keeps
  // them from renaming what is in it (the sticky bit).
  fs::path above;
  for (auto it = dir.begin(); it != dir.end(); ++it) {
    above /= *it;
    if (above == dir) break;
    struct stat st {};
    if (stat(above.c_str(), &st) != 0) {
      if (errno == ENOENT) break;  // made below
      return say("cannot look at " + above.string() + ": " + std::strerror(errno));
    }
    if (!S_ISDIR(st.st_mode)) return say(above.string() + " is not a folder");
    if (st.st_uid != uid && st.st_uid != 0) return another_users(above, st.st_uid);
    const bool others_write = (st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != getgid());
    if (others_write && !(st.st_mode & S_ISVTX))
      return say(above.string() + " can be changed by other users (mode " + [&] {
        char m[8];
        std::snprintf(m, sizeof m, "%04o", unsigned(st.st_mode & 07777));
        return std::string(m);
      }() + "); redlab keeps its files only where no one else can change them");
  }
  std::error_code ec;
  fs::create_directories(dir.parent_path(), ec);
  if (ec) return say("cannot make " + dir.parent_path().string() + ": " + ec.message());
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return say("cannot make " + dir.string() + ": " + std::strerror(errno));
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0) return say("cannot look at " + dir.string() + ": " + std::strerror(errno));
  if (S_ISLNK(st.st_mode))
    return say(dir.string() + " is a symbolic link; redlab keeps its files only in a folder of its own");
  if (!S_ISDIR(st.st_mode)) return say(dir.string() + " is not a folder");
  if (st.st_uid != uid) return another_users(dir, st.st_uid);
  if ((st.st_mode & 0777) != 0700 && chmod(dir.c_str(), 0700) != 0)
    return say("cannot make " + dir.string() + " private (mode 0700): " + std::strerror(errno));
  return true;
}

}  // namespace redlab
