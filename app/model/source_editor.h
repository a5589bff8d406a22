// A kernel file of the student's own as the window edits it: the text being edited, the
// file's text as last read or written, and what happens when the file changes on disk. No drawing and no
// ImGui: the code view (view_code.cpp) shows `text` in an editor and asks the session to save; the session
// (work.h) watches the file and runs it. tests/gui/test_session.cpp drives it without a window.
#pragma once
#include <cstdint>
#include <string>

namespace redlab::model {

// What the watch compares between two looks at a file: whether it is there, its modification time and size.
struct FileStamp {
  bool exists = false;
  std::int64_t mtime = 0;  // nanoseconds of the file system's clock
  std::uintmax_t size = 0;
  bool operator==(const FileStamp&) const = default;
};
FileStamp stamp_of(const std::string& path);

class SourceEditor {
 public:
  // Reads the file: the buffer and the saved text both become its text. False (and `error`) when it cannot be
  // read; the editor is then empty and not dirty.
  bool load(const std::string& path);
  const std::string& path() const { return path_; }
  bool loaded() const { return !path_.empty(); }

  std::string text;  // what the editor shows and the student changes
  std::string error;  // why the last load or save failed ("" when it did not)

  // The file's text as this editor last read or wrote it (what a run of the file compiles).
  const std::string& saved() const { return saved_; }
  // Unsaved edits: the buffer differs from the file's text.
  bool dirty() const { return text != saved_; }

  // Writes the buffer to the file atomically (core/file_write.h: a temporary file renamed over it, so an
  // interrupted save leaves the old file whole); a symlink's target is written, the link kept. True on success
  // (an open question about a change on disk is then settled: the buffer won); false with `error` set, the file
  // as it was.
  bool save();

  // The file on disk now holds `disk_text` (the session's watch read it). Without unsaved edits the buffer takes
  // it (reloaded). With unsaved edits that differ from it the question is raised (conflict): keep mine or take
  // the file's. A file that holds what the buffer or the saved text holds changes nothing (same).
  enum class DiskChange { same, reloaded, conflict };
  DiskChange disk_changed(const std::string& disk_text);
  bool conflict() const { return conflict_; }
  // The answers to the question: the buffer stays as it is (still unsaved; saving writes it over the file's), or
  // the buffer becomes the file's text.
  void keep_mine();
  void take_file();

  // Counts the times the buffer was replaced from outside the editor (load, reload, take the file's): the view
  // starts its text widget afresh then, since ImGui keeps its own copy of the text being edited.
  unsigned revision() const { return revision_; }

 private:
  std::string path_, saved_;
  bool conflict_ = false;
  unsigned revision_ = 0;
};

}  // namespace redlab::model
