// A lecture's playlist: the scenarios a lecturer steps through during a talk, one per line of a text file in the
// command line's words ("--kernel neighbored_strided --n 256 --block 256"), '#' starting a comment. Opened with
// `redlab gui --playlist F` or File > Playlist; Page Down and Page Up go to the next and the previous one.
// The file is the user's: read with bounds (size, lines, words), every line checked before any is taken.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/scenario.h"

namespace redlab::model {

struct PlaylistEntry {
  Scenario scenario;
  std::string text;  // the line as written (its options), for the window to show
  int line = 0;  // 1-based, in the file
};

struct Playlist {
  std::string path;
  std::vector<PlaylistEntry> entries;
  int current = -1;  // the entry A shows (-1: none yet)
};

// One line's words into a scenario (the command line's own parser: the model does not link it); returns "" or
// what is wrong, as the command line says it.
using ScenarioWordsParser = std::function<std::string(const std::vector<std::string>& words, Scenario&)>;

constexpr std::size_t kPlaylistMaxBytes = 64 * 1024, kPlaylistMaxEntries = 200, kPlaylistMaxWords = 40;

// Reads `path` into `out`; returns "" or the reason it was not taken ("line 3: --n: 'x' is not a size; ...").
std::string read_playlist(const std::string& path, const ScenarioWordsParser&, Playlist& out);

}  // namespace redlab::model
