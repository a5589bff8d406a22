// The gallery of mistakes: kernel files from the seed notes that are wrong on purpose, each
// runnable with `redlab stats --source` and explained (assets/gallery/<name>.cu, the explanation at its top). Its
// index, assets/gallery/gallery.json, lists them for the command line (`redlab list --gallery`, `redlab new-kernel
// mine.cu --from gallery/<name>`) and the window's menu:
//   {"entries": [{"file": "missing_sync.cu", "id": "<its record's id>", "from": "<the catalog kernel it was made
//    from>", "scenario": {"n": 4096, "block": 256, ...the options it needs}, "expect": "deadlock" | "wrong_result" |
//    "race" | "out_of_bounds", "title": {"en": ..., "zh_CN": ...}, "explanation": {"en": ..., "zh_CN": ...}}]}
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace redlab {

struct GalleryEntry {
  std::string file;      // "missing_sync.cu", in assets/gallery/
  std::string id;        // the record's id in that file
  std::string from;      // the catalog kernel it was made from
  nlohmann::json scenario;   // the options it needs, as the index has them: {"n": 4096, "block": 256}
  std::string expect;    // deadlock, wrong_result, race or out_of_bounds
  std::map<std::string, std::string> title, explanation;   // by language: en, zh_CN
  std::string path;      // where the file is (find_resource)
};

// The index, found with find_resource ("assets/gallery/gallery.json"). Throws std::runtime_error naming the file and
// what is wrong with it: missing, not JSON, an entry without a field, an expect or a language not accepted, a file
// that is not there.
std::vector<GalleryEntry> load_gallery();

// The entry "gallery/<name>" names ("missing_sync" or "missing_sync.cu"), or nullptr.
const GalleryEntry* find_gallery_entry(const std::vector<GalleryEntry>&, const std::string& name);

// Its scenario as command-line options: {"--n", "4096", "--block", "256"} ("block_rows" becomes --block-rows, and
// "dynamic_smem": true the flag --dynamic-smem).
std::vector<std::string> scenario_arguments(const GalleryEntry&);

}  // namespace redlab
