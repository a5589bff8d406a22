#include "model/settings.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/file_write.h"
#include "core/json_read.h"
#include "core/printable.h"
#include "core/user_dirs.h"
#include "model/i18n.h"
#include "model/layout.h"

namespace redlab::model {

namespace {

// Larger than any settings.json the window writes (a few hundred bytes).
constexpr std::size_t kMaxSettingsBytes = 64 * 1024;

std::string settings_path() {
  const std::string dir = user_dir(UserDir::config);
  return dir.empty() ? std::string() : dir + "/settings.json";
}

}  // namespace

Settings settings_from_text(std::string_view text, const Settings& defaults) {
  const nlohmann::json j = parse_json(text);
  if (!j.is_object()) throw std::runtime_error("not a JSON object");
  Settings s = defaults;
  if (const auto it = j.find("ui_scale"); it != j.end() && it->is_number())
    s.ui_scale = float(std::clamp(it->get<double>(), 0.75, 3.0));
  if (const auto it = j.find("colorblind"); it != j.end() && it->is_boolean()) s.colorblind = it->get<bool>();
  if (const auto it = j.find("lang"); it != j.end() && it->is_string() && is_language(it->get<std::string>()))
    s.lang = it->get<std::string>();
  if (const auto it = j.find("layout"); it != j.end() && it->is_string() && parse_layout(it->get<std::string>()))
    s.layout = it->get<std::string>();
  if (const auto it = j.find("hint_seen"); it != j.end() && it->is_boolean()) s.hint_seen = it->get<bool>();
  return s;
}

std::string settings_text(const Settings& s) {
  return nlohmann::json{{"ui_scale", s.ui_scale},
                        {"colorblind", s.colorblind},
                        {"lang", s.lang},
                        {"layout", s.layout},
                        {"hint_seen", s.hint_seen}}
             .dump(2) +
         "\n";
}

bool load_settings(Settings& out) {
  // (A regular file only, never waited on: a FIFO in its place kept the window from appearing.)
  const std::string path = settings_path();
  std::string text;
  if (path.empty() || !read_regular_file(path, kMaxSettingsBytes, &text).empty()) return false;
  try {
    out = settings_from_text(text, out);
    return true;
  } catch (const std::exception&) { return false; }
}

void save_settings(const Settings& s) {
  const std::string path = settings_path();
  if (path.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  try {
    write_file_atomically(path, settings_text(s), SymlinkPolicy::replace);
  } catch (const std::exception& e) { print_message(stderr, "redlab gui: the settings were not kept: %s\n", e.what()); }
}

}  // namespace redlab::model
