#include "core/file_write.h"

#include "core/printable.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace redlab {

namespace {
[[noreturn]] void fail(const std::string& path, int err) {
  throw std::runtime_error("cannot write " + printable(path) + ": " + std::strerror(err));
}
}  // namespace

namespace {
// The mode a new file gets: 0666 less the process's umask (read from /proc: umask() would change it to read it).
mode_t new_file_mode() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return mode_t(0666 & ~std::stoul(line.substr(6), nullptr, 8));
  return 0644;
}
}  // namespace

void write_file_atomically(const std::string& given, const std::string& data, SymlinkPolicy symlink) {
  // Through a symlink to the file it names (the link stays a link), or over the link itself; an existing file keeps
  // its mode.
  std::string path = given;
  struct stat link {};
  const bool is_link = ::lstat(given.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
  if (is_link && symlink == SymlinkPolicy::follow) {
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::weakly_canonical(given, ec);
    if (!ec) path = target.string();
  }
  // Only a regular file is replaced: a device, a FIFO, a socket or a folder in its place stays (as root, a trace
  // written "over" /dev/null replaced the device with a file).
  struct stat old {};
  const bool exists = is_link && symlink == SymlinkPolicy::replace ? false : ::stat(path.c_str(), &old) == 0;
  if (exists && !S_ISREG(old.st_mode))
    throw std::runtime_error("cannot write " + printable(given) + ": it is " +
                             (S_ISDIR(old.st_mode)    ? "a folder"
                              : S_ISFIFO(old.st_mode) ? "a pipe"
                                                      : "a device or socket") +
                             ", not a file; give a file's name");
  const mode_t mode = exists ? (old.st_mode & 07777) : new_file_mode();
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  std::string tmp = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + ".redlab-XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) fail(given, errno);
  auto abandon = [&](int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    fail(given, err);
  };
  for (std::size_t done = 0; done < data.size();) {
    const ssize_t k = ::write(fd, data.data() + done, data.size() - done);
    if (k < 0) {
      if (errno == EINTR) continue;
      abandon(errno);
    }
    done += std::size_t(k);
  }
  if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) abandon(errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(given, err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(given, err);
  }
  // The rename itself reaches the disk with the folder's entry.
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

bool exists_and_is_not_a_trace(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;  // nothing there (or a dangling link): free to write
  if (!S_ISREG(st.st_mode)) return true;
  std::ifstream f(path, std::ios::binary);
  char magic[8] = {};
  f.read(magic, sizeof magic);
  return !(f && std::memcmp(magic, "REDLABTR", 8) == 0);
}

std::string why_folder_is_not_writable(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  struct stat st {};
  int err = 0;
  if (::stat(dir.c_str(), &st) != 0)
    err = errno;
  else if (!S_ISDIR(st.st_mode))
    err = ENOTDIR;
  else if (::access(dir.c_str(), W_OK | X_OK) != 0)
    err = errno;
  return err ? "cannot write " + printable(path) + ": " + std::strerror(err) : std::string();
}

bool read_text_file(const std::string& path, std::string* text, std::string* why) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    if (why) *why = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  *text = ss.str();
  return true;
}

std::string read_regular_file(const std::string& path, std::size_t max_bytes, std::string* text) {
  const std::string shown = "'" + printable(path) + "'";
  // Non-blocking: opening a FIFO for reading would otherwise wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return "cannot read " + shown + ": " + std::strerror(errno);
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0) {
    why = "cannot read " + shown + ": " + std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    why = shown + " is not a regular file (" +
          (S_ISFIFO(st.st_mode)  ? "a pipe"
           : S_ISDIR(st.st_mode) ? "a folder"
                                 : "a device or socket") +
          ")";
  } else if (std::uint64_t(st.st_size) > max_bytes) {
    why = shown + " has " + std::to_string(st.st_size) + " bytes, more than the " + std::to_string(max_bytes) +
          " it may have";
  } else {
    text->assign(max_bytes + 1, '\0');
    std::size_t got = 0;
    while (got < text->size()) {
      const ssize_t n = ::read(fd, text->data() + got, text->size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        why = "cannot read " + shown + ": " + std::strerror(errno);
        break;
      }
      if (n == 0) break;
      got += std::size_t(n);
    }
    text->resize(got);
    if (why.empty() && got > max_bytes)
      why = shown + " grew past " + std::to_string(max_bytes) + " bytes while it was read";
  }
  ::close(fd);
  if (!why.empty()) text->clear();
  return why;
}

std::string read_small_file(const std::string& path, std::size_t max_bytes, const char* what, std::string* text) {
  const std::string why = read_regular_file(path, max_bytes, text);
  if (why.empty()) return "";
  // Worded for the user's file (stat only names what is there: it waits on nothing).
  const std::string shown = "'" + printable(path) + "'";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return shown + " is not a file";
  if (std::uint64_t(st.st_size) > max_bytes)
    return shown + " has " + std::to_string(st.st_size) + " bytes; " + what + " has at most " +
           std::to_string(max_bytes);
  return why;
}

}  // namespace redlab
