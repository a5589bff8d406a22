// What the window remembers between runs: settings.json in redlab's config folder (core/user_dirs.h). A file the
// user (or anyone who can write to their home) may change: read as untrusted text, each field checked.
#pragma once
#include <string>
#include <string_view>

namespace redlab::model {

struct Settings {
  float ui_scale = 1.0f;
  bool colorblind = false;
  std::string lang;  // "en" or "zh_CN"
  std::string layout = "study";  // the last layout chosen (layout.h)
  bool hint_seen = false;  // the first-start hint (F1 for the keys) was shown once
};

// Settings as `text` gives them over `defaults`: a field that is missing, of the wrong type or not one redlab
// knows (a language or layout it does not have) keeps its default; the scale is kept within 0.75 to 3. Throws
// std::runtime_error with a short reason when `text` is not a JSON object (or nests deeper than core/json_read.h
// allows).
Settings settings_from_text(std::string_view text, const Settings& defaults);
// The file's text for `s`.
std::string settings_text(const Settings& s);

// settings.json read over `out` (a regular file only, never waited on, at most 64 KiB); false, with `out` as it was,
// where there is none or it cannot be read as settings.
bool load_settings(Settings& out);
// Written beside and renamed over: a symlink in its place is replaced, never its target; a FIFO or device there is
// left as it is (and the settings are not kept, said on stderr).
void save_settings(const Settings& s);

}  // namespace redlab::model
