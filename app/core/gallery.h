// The gallery of mistakes: wrong kernels from the course notes, each a kernel file with the
// scenario that shows its failure, listed in assets/gallery/gallery.json:
//   {"entries": [{"file": "missing_sync.cu", "id": "<its record's id>", "from": "<catalog id>",
//                 "scenario": {"n": 4096, "block": 256, ...}, "expect": "deadlock"|"wrong_result"|"race"|"out_of_bounds",
//                 "title": {"en": "...", "zh_CN": "..."}, "explanation": {"en": "...", "zh_CN": "..."}}]}
// One reader for the window and the command line (`redlab list --gallery`, `new-kernel --from gallery/NAME`): an
// entry's file is a name in the gallery's folder (nothing outside it is read or copied) and its scenario is read as
// values (a size, a type, ...), never passed on as text. Opening an entry never changes the installed files: its
// file is copied into the student's own folder (student_kernel_dir) and the copy runs.
#pragma once
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/scenario.h"

namespace redlab {

// The failures an entry can be documented to show (gallery.json's "expect").
inline constexpr const char* kGalleryExpectations[] = {"deadlock", "wrong_result", "race", "out_of_bounds"};

struct GalleryEntry {
  std::string file;  // the kernel file's name in the gallery's folder
  std::string source;  // its installed path (the folder of gallery.json / file)
  std::string id;  // the record's id in the file
  std::string from;  // the catalog kernel it was made from
  std::string expect;  // one of kGalleryExpectations
  Scenario scenario;  // the scenario that shows the failure (kernel: id)
  nlohmann::json options;  // the same as the index gives them ({"n": 4096, "block": 256}), each read above
  std::map<std::string, std::string> title, explanation;  // by language ("en", "zh_CN")
};

struct Gallery {
  std::string path;  // gallery.json's path ("" : none was found)
  std::string error;  // the index could not be read at all
  std::vector<GalleryEntry> entries;
  std::vector<std::string> problems;  // entries left out, each with what was wrong and what is accepted
};

// Reads a gallery index; entries with a problem are left out and named in `problems`.
Gallery read_gallery(const std::string& index_path);
// The same from the index's text (at most kMaxGalleryIndexBytes), its entries' files looked for beside
// `index_path`.
inline constexpr std::size_t kMaxGalleryIndexBytes = 4 << 20;
Gallery parse_gallery(std::string_view text, const std::string& index_path);
// redlab's own gallery: assets/gallery/gallery.json, found as redlab's files are (core/resources.h); `error` says
// where it was looked for when it is not there.
Gallery load_gallery();
// The entry "gallery/<name>" names ("missing_sync" or "missing_sync.cu"), or nullptr.
const GalleryEntry* find_gallery_entry(const Gallery&, const std::string& name);
// Its scenario as command-line options: {"--n", "4096", "--block", "256"} ("block_rows" becomes --block-rows, and
// "dynamic_smem": true the flag --dynamic-smem).
std::vector<std::string> scenario_arguments(const GalleryEntry&);
// A word as a POSIX shell reads it back unchanged: as it is when it holds only safe characters, else in single
// quotes. A suggested command the student pastes runs what it says and nothing else.
std::string shell_quoted(const std::string&);
// The text in `lang`, else English, else any language given ("" when none is).
std::string text_in(const std::map<std::string, std::string>& by_lang, const std::string& lang);

// Where the student's copies go: the user's data folder's kernels/ (core/user_dirs.h: ~/.local/share/redlab/kernels).
std::string student_kernel_dir();

// Copies an entry's file into `dir` (made when missing, private to this user: make_private_dir). An existing copy with other text is kept unless
// `replace` (the student may have changed it): `differs` then, and nothing is written.
struct GalleryCopy {
  enum Outcome { copied, identical, differs, failed } outcome = failed;
  std::string path;  // the copy's path
  std::string error;  // failed: why
};
GalleryCopy copy_gallery_file(const GalleryEntry&, const std::string& dir, bool replace);

}  // namespace redlab
