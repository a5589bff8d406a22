#include "exec/kernel_cache.h"

#include <fcntl.h>
#include <nettle/sha2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <random>
#include <sstream>
#include <system_error>
#include <utility>

#include "core/file_write.h"
#include "core/user_dirs.h"

namespace redlab {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSums = "sums";

bool read_bytes(const fs::path& path, std::string* bytes) { return read_text_file(path.string(), bytes, nullptr); }

// A name no other process picks: the process and a random number.
std::string unique_suffix() {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  char text[64];
  std::snprintf(text, sizeof text, "%d-%016llx", int(getpid()), static_cast<unsigned long long>(random()));
  return text;
}

// The seal's lines: "<digest>  <name>".
std::vector<std::pair<std::string, std::string>> read_sums(const fs::path& dir, std::string* why) {
  std::string text;
  std::vector<std::pair<std::string, std::string>> sums;
  if (!read_bytes(dir / kSums, &text)) {
    *why = "it has no record of its files' digests (" + (dir / kSums).string() + ")";
    return sums;
  }
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 67 || line.compare(64, 2, "  ") != 0) {
      *why = "its record of digests (" + (dir / kSums).string() + ") is damaged";
      return {};
    }
    const std::string name = line.substr(66);
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
      *why = "its record of digests (" + (dir / kSums).string() + ") names a file outside it";
      return {};
    }
    sums.emplace_back(line.substr(0, 64), name);
  }
  if (sums.empty()) *why = "its record of digests (" + (dir / kSums).string() + ") is empty";
  return sums;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, sizeof digest, digest);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : digest) {
    out += hex[b >> 4];
    out += hex[b & 15];
  }
  return out;
}

std::string kernel_cache_dir(std::string* why) {
  const std::string base = user_dir(UserDir::cache);
  std::string reason;
  const std::string dir = base.empty() ? std::string() : (fs::path(base) / "kernels").string();
  if (!make_private_dir(dir, &reason)) {
    if (why) *why = "no folder to keep compiled kernels in: " + reason;
    return {};
  }
  return dir;
}

std::string make_build_dir(const std::string& cache, std::string* why) {
  std::string name = (fs::path(cache) / ".build-XXXXXX").string();
  if (!mkdtemp(name.data())) {
    if (why) *why = "cannot make a folder in the kernel cache " + cache + ": " + std::strerror(errno);
    return {};
  }
  return name;
}

std::string publish_build(const std::string& build, const std::string& sealed, const std::vector<std::string>& files) {
  std::string sums;
  for (const std::string& name : files) {
    std::string bytes;
    if (!read_bytes(fs::path(build) / name, &bytes)) return "cannot read " + (fs::path(build) / name).string();
    sums += sha256_hex(bytes) + "  " + name + "\n";
  }
  try {
    write_file_atomically((fs::path(build) / kSums).string(), sums);
  } catch (const std::exception& e) { return e.what(); }
  std::error_code ec;
  for (int attempt = 0; attempt < 4; ++attempt) {
    if (rename(build.c_str(), sealed.c_str()) == 0) return {};
    if (errno != ENOTEMPTY && errno != EEXIST) {
      const std::string reason = std::strerror(errno);
      fs::remove_all(build, ec);
      return "cannot keep the compiled kernel in " + sealed + ": " + reason;
    }
    std::string why;
    if (verify_sealed(sealed, &why)) {  // another process was first
      fs::remove_all(build, ec);
      return {};
    }
    // A damaged folder in the way: moved aside (one rename, so no process sees half of it), then removed.
    const std::string aside = (fs::path(sealed).parent_path() / (".stale-" + unique_suffix())).string();
    if (rename(sealed.c_str(), aside.c_str()) == 0) fs::remove_all(aside, ec);
  }
  fs::remove_all(build, ec);
  return "cannot keep the compiled kernel in " + sealed + ": other processes keep replacing it";
}

namespace {
// Why `name` in `dir` is not the file sealed with `digest` ("" when it is); its bytes in `bytes`.
std::string sealed_file_problem(const std::string& dir, const std::string& name, const std::string& digest,
                                std::string* bytes) {
  if (!read_bytes(fs::path(dir) / name, bytes)) return name + " is missing";
  if (sha256_hex(*bytes) != digest) return name + " differs from the file that was compiled (SHA-256)";
  return {};
}
}  // namespace

bool verify_sealed(const std::string& dir, std::string* why, const std::string& among) {
  std::string reason, bytes;
  const auto sums = read_sums(dir, &reason);
  bool found = among.empty();
  for (const auto& [digest, name] : sums) {
    found = found || name == among;
    if (reason = sealed_file_problem(dir, name, digest, &bytes); !reason.empty()) break;
  }
  if (reason.empty() && !found) reason = among + " is not among the files it was sealed with";
  if (!reason.empty() && why) *why = reason;
  return reason.empty();
}

bool read_sealed(const std::string& dir, const std::string& name, std::string* bytes, std::string* why) {
  std::string reason;
  const auto sums = read_sums(dir, &reason);
  for (const auto& [digest, file] : sums)
    if (file == name) {
      reason = sealed_file_problem(dir, name, digest, bytes);
      if (reason.empty()) return true;
      break;
    }
  if (reason.empty()) reason = name + " is not among the files it was sealed with";
  if (why) *why = reason;
  return false;
}

void write_added(const std::string& dir, const std::string& name, const std::string& bytes) {
  // The digest first: an image without one is compiled again, one with a digest that does not match is too.
  try {
    write_file_atomically((fs::path(dir) / (name + ".sum")).string(), sha256_hex(bytes) + "\n");
    write_file_atomically((fs::path(dir) / name).string(), bytes);
  } catch (const std::exception&) {
    // A cache that cannot be written to keeps nothing: the next run compiles again.
  }
}

bool read_added(const std::string& dir, const std::string& name, std::string* bytes) {
  std::string sum;
  if (!read_bytes(fs::path(dir) / (name + ".sum"), &sum) || !read_bytes(fs::path(dir) / name, bytes)) return false;
  return sum.size() >= 64 && sum.compare(0, 64, sha256_hex(*bytes)) == 0;
}

void touch_used(const std::string& dir) { utimensat(AT_FDCWD, dir.c_str(), nullptr, 0); }

std::uint64_t kernel_cache_cap() {
  if (const char* v = std::getenv("REDLAB_KERNEL_CACHE_MB"); v && *v) {
    char* end = nullptr;
    const unsigned long long mb = std::strtoull(v, &end, 10);
    if (end && *end == '\0' && mb < (1ull << 40)) return mb << 20;
  }
  return 256ull << 20;
}

void prune_kernel_cache(const std::string& cache, std::uint64_t cap_bytes) {
  struct Entry {
    fs::path path;
    std::int64_t age_s;
    std::uint64_t bytes;
  };
  std::vector<Entry> sealed;
  std::uint64_t total = 0;
  const auto now = fs::file_time_type::clock::now();
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(cache, ec)) {
    std::error_code fe;
    const std::string name = e.path().filename().string();
    const auto when = fs::last_write_time(e.path(), fe);
    if (fe) continue;
    const std::int64_t age = std::chrono::duration_cast<std::chrono::seconds>(now - when).count();
    std::uint64_t bytes = 0;
    if (e.is_directory(fe) && !e.is_symlink(fe))
      for (const fs::directory_entry& f : fs::directory_iterator(e.path(), fe))
        if (f.is_regular_file(fe)) bytes += f.file_size(fe);
    if (name.rfind(".build-", 0) == 0 || name.rfind(".stale-", 0) == 0) {
      if (age > 3600) fs::remove_all(e.path(), fe);
      continue;
    }
    if (name == "runs") {
      for (const fs::directory_entry& f : fs::directory_iterator(e.path(), fe)) {
        std::error_code te;
        const auto t = fs::last_write_time(f.path(), te);
        if (!te && now - t > std::chrono::hours(24)) fs::remove(f.path(), te);
      }
      continue;
    }
    if (name.empty() || name[0] == '.') continue;
    sealed.push_back({e.path(), age, bytes});
    total += bytes;
  }
  std::sort(sealed.begin(), sealed.end(), [](const Entry& a, const Entry& b) { return a.age_s > b.age_s; });
  for (const Entry& e : sealed) {
    if (total <= cap_bytes) break;
    if (e.age_s < 600) continue;  // in use, perhaps by a window that runs it again
    // Moved aside first: a process that opens it now finds it whole or not at all.
    const fs::path aside = fs::path(cache) / (".stale-" + unique_suffix());
    if (rename(e.path.c_str(), aside.c_str()) == 0) fs::remove_all(aside, ec);
    total -= e.bytes;
  }
}

}  // namespace redlab
