#include "model/source_editor.h"

#include <cerrno>
#include <cstddef>
#include <chrono>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "core/file_write.h"
#include "exec/user_kernel.h"

namespace redlab::model {

namespace fs = std::filesystem;

FileStamp stamp_of(const std::string& path) {
  FileStamp s;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::is_regular_file(status)) return s;
  const auto mtime = fs::last_write_time(path, ec);
  if (ec) return s;
  const auto size = fs::file_size(path, ec);
  if (ec) return s;
  s.exists = true;
  s.mtime = std::int64_t(mtime.time_since_epoch().count());
  s.size = size;
  return s;
}

bool SourceEditor::load(const std::string& path) {
  path_ = path;
  conflict_ = false;
  ++revision_;
  error.clear();
  // A regular file of at most a kernel file's size, never waited on (a FIFO in its place froze the window).
  if (error = read_regular_file(path, std::size_t(kMaxKernelFileBytes), &saved_); !error.empty()) {
    saved_.clear();
    text.clear();
    return false;
  }
  text = saved_;
  return true;
}

bool SourceEditor::save() {
  error.clear();
  try {
    write_file_atomically(path_, text);  // through a symlink to the file it names, its mode kept
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  saved_ = text;
  conflict_ = false;
  return true;
}

SourceEditor::DiskChange SourceEditor::disk_changed(const std::string& disk_text) {
  if (disk_text == saved_) return DiskChange::same;  // touched, or our own save seen by the watch
  const bool had_edits = dirty();
  saved_ = disk_text;
  if (!had_edits) {
    text = disk_text;
    ++revision_;
    return DiskChange::reloaded;
  }
  if (text == disk_text) {  // the file now holds what the buffer holds: nothing is unsaved any more
    conflict_ = false;
    return DiskChange::same;
  }
  conflict_ = true;
  return DiskChange::conflict;
}

void SourceEditor::keep_mine() { conflict_ = false; }

void SourceEditor::take_file() {
  text = saved_;
  conflict_ = false;
  ++revision_;
}

}  // namespace redlab::model
