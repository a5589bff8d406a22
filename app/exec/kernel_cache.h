// The compiled kernel files' cache: a folder only this user can open (core/user_dirs.h, make_private_dir), one
// sealed folder per compiled file, named by what it was built from.
//
// Every build happens in a fresh folder of its own (`.build-XXXXXX`) and is renamed into place whole, so any
// number of processes may compile the same file at once: the first rename wins and the others use its folder.
// A sealed folder records the SHA-256 digest of each file in it (`sums`); nothing of it is loaded, and no image
// of it reaches the GPU, unless its bytes still match (a truncated, replaced or planted library is rebuilt, never
// run). The cache is pruned to a size (REDLAB_KERNEL_CACHE_MB, default 256), oldest use first; half-built folders
// left by a compile that was killed are removed after an hour.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace redlab {

// SHA-256 of `bytes`, in 64 hex digits (Nettle).
std::string sha256_hex(std::string_view bytes);

// The cache's folder, made private; "" with `why` a sentence when there is none this user alone can change.
std::string kernel_cache_dir(std::string* why);

// A fresh, empty build folder in `cache`; "" with `why`.
std::string make_build_dir(const std::string& cache, std::string* why);

// Seals build folder `build` (records the digests of `files`, names within it) and renames it to `sealed`. Where
// another process sealed `sealed` first and it verifies, `build` is removed and theirs kept; one that does not
// verify is moved aside and replaced. "" or why it could not be kept.
std::string publish_build(const std::string& build, const std::string& sealed, const std::vector<std::string>& files);

// Whether every file sealed in `dir` still has its recorded digest, and `among` (unless "") is one of them; `why`
// names the first problem.
bool verify_sealed(const std::string& dir, std::string* why, const std::string& among = {});

// Reads `name` in sealed folder `dir` if its digest matches the seal; false with `why`.
bool read_sealed(const std::string& dir, const std::string& name, std::string* bytes, std::string* why);

// A file added to a sealed folder after it was sealed (a GPU image compiled later): written under a temporary
// name and renamed, with its digest in `name`.sum beside it. read_added checks that digest.
void write_added(const std::string& dir, const std::string& name, const std::string& bytes);
bool read_added(const std::string& dir, const std::string& name, std::string* bytes);

// Marks `dir` as used now (pruning removes the folders used longest ago first).
void touch_used(const std::string& dir);

// Removes half-built folders older than an hour, run files older than a day, then sealed folders, least recently
// used first, until the cache is within `cap_bytes`; a folder used in the last ten minutes is kept.
void prune_kernel_cache(const std::string& cache, std::uint64_t cap_bytes);

// The cap: REDLAB_KERNEL_CACHE_MB megabytes where set to a whole number, else 256 MB.
std::uint64_t kernel_cache_cap();

}  // namespace redlab
