// Reading and writing the files redlab reads and makes. Writing the files redlab makes (traces, exports, kernel
// files) so that nothing is lost: the data goes to a temporary file in the same folder, is flushed to the disk
// (fsync) and then renamed over the old file in one step. A write that fails (disk full, no permission) leaves the
// old file as it was and says why. A symlink is followed (the file it names is replaced, the link stays) unless the
// file is redlab's own; a file replaced keeps its mode; a new one gets 0666 less the umask.
#pragma once
#include <cstddef>
#include <string>

namespace redlab {

// Throws std::runtime_error "cannot write PATH: <reason>" (the system's words: "No space left on device"), and
// refuses to replace anything but a regular file (a device, a pipe, a socket, a folder). A symlink is followed, or
// (`replace`: redlab's own files, its settings and a lesson's progress) replaced by the file, its target untouched.
enum class SymlinkPolicy { follow, replace };
void write_file_atomically(const std::string& path, const std::string& data,
                           SymlinkPolicy symlink = SymlinkPolicy::follow);

// Whether `path` names something other than a redlab trace that exists (a file, a folder, a device): writing
// a trace there needs the user's say-so (--force). A symlink counts as what it points to, which
// write_file_atomically replaces.
bool exists_and_is_not_a_trace(const std::string& path);

// Before a long run whose result goes to `path`: "" when its folder exists and may be written, else the sentence
// write_file_atomically would end with ("cannot write PATH: Not a directory"), so the run is not made for nothing.
std::string why_folder_is_not_writable(const std::string& path);

// The whole file as bytes; false when it cannot be read (`why` says so, in the system's words).
bool read_text_file(const std::string& path, std::string* text, std::string* why);

// A file read whole: a regular file only, opened with O_NONBLOCK (a FIFO, device or socket is refused, never waited
// on), of at most `max_bytes`. "" or why not, in words that name the file (printable).
std::string read_regular_file(const std::string& path, std::size_t max_bytes, std::string* text);

// The most a kernel's source file is read to (a kernel file, a catalog kernel, the headers it includes).
inline constexpr std::size_t kMaxSourceFileBytes = std::size_t(4) << 20;

// A small file the user gives (a playlist, a lesson): read as read_regular_file reads, its refusals worded for it:
// "'x' is not a file", "'x' has N bytes; a lesson has at most 262144" (`what` names it).
std::string read_small_file(const std::string& path, std::size_t max_bytes, const char* what, std::string* text);

}  // namespace redlab
