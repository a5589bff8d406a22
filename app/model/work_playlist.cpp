// A lecture's playlist in the window: read from File > Playlist, stepped through with Page Down / Page Up.
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "model/i18n.h"
#include "model/work.h"

namespace redlab::model {

bool Work::load_playlist(const std::string& path) {
  if (!opts.scenario_words) {
    playlist_message = "playlists are read by redlab's command line, which did not start this window";
    return false;
  }
  Playlist p;
  if (std::string why = read_playlist(path, opts.scenario_words, p); !why.empty()) {
    playlist_message = why;
    return false;
  }
  playlist = std::move(p);
  playlist_message.clear();
  return true;
}

bool Work::playlist_go(int index) {
  if (playlist.entries.empty()) return false;
  index = std::clamp(index, 0, int(playlist.entries.size()) - 1);
  if (index == playlist.current) return false;  // past either end: it stays, and the scenario is not run again
  if (follows_file(a) && !close_kernel_source(a)) {  // unsaved edits: A's question asks first
    playlist_message = tr("playlist.unsaved");
    return false;
  }
  a.scenario = playlist.entries[std::size_t(index)].scenario;
  sync_text_fields(a);
  playlist.current = index;
  playlist_message.clear();
  return true;
}

}  // namespace redlab::model
