#include "model/playlist.h"

#include <sstream>
#include <utility>

#include "core/file_write.h"
#include "core/printable.h"

namespace redlab::model {

std::string read_playlist(const std::string& path, const ScenarioWordsParser& parse, Playlist& out) {
  std::string text;
  if (std::string why = read_small_file(path, kPlaylistMaxBytes, "a playlist", &text); !why.empty()) return why;
  Playlist p;
  p.path = path;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string at = "line " + std::to_string(number) + ": ";
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;) {
      if (words.size() == kPlaylistMaxWords) return at + "more than " + std::to_string(kPlaylistMaxWords) + " words";
      words.push_back(w);
    }
    if (words.empty()) continue;
    if (p.entries.size() == kPlaylistMaxEntries)
      return at + "more than " + std::to_string(kPlaylistMaxEntries) + " scenarios";
    PlaylistEntry e;
    if (const std::string why = parse(words, e.scenario); !why.empty()) return at + printable(why);
    for (const std::string& w : words) e.text += (e.text.empty() ? "" : " ") + printable(w);
    e.line = number;
    p.entries.push_back(std::move(e));
  }
  if (p.entries.empty())
    return "'" + printable(path) + "' names no scenario (one per line, as `--kernel interleaved --n 256`)";
  out = std::move(p);
  return "";
}

}  // namespace redlab::model
