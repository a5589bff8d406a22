#include "playlist.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/printable.h"

namespace redlab::model {

std::string read_playlist(const std::string& path, const ScenarioWordsParser& parse, Playlist& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // A regular file only (not a pipe or a device that would never end), and a small one.
  if (!fs::is_regular_file(path, ec)) return "'" + printable(path) + "' is not a file";
  const auto size = fs::file_size(path, ec);
  if (ec) return "cannot read '" + printable(path) + "'";
  if (size > kPlaylistMaxBytes)
    return "'" + printable(path) + "' has " + std::to_string(size) + " bytes; a playlist has at most " +
           std::to_string(kPlaylistMaxBytes);
  std::ifstream f(path, std::ios::binary);
  if (!f) return "cannot read '" + printable(path) + "'";
  std::string text(kPlaylistMaxBytes + 1, '\0');
  f.read(text.data(), std::streamsize(text.size()));
  text.resize(std::size_t(f.gcount()));
  if (text.size() > kPlaylistMaxBytes) return "'" + printable(path) + "' grew while it was read";
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
  if (p.entries.empty()) return "'" + printable(path) + "' names no scenario (one per line, as `--kernel interleaved --n 256`)";
  out = std::move(p);
  return "";
}

}  // namespace redlab::model
