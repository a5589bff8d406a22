// libFuzzer target: the window's settings file (settings.json in the user's config folder), read as the window
// reads it at its start. Besides sanitizer reports, crashes and leaks, a failure is a setting redlab does not have
// taken from the file (a scale outside 0.75 to 3, a language or a layout it does not know), or settings that are
// not read back as they were written.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "core/printable.h"
#include "model/layout.h"
#include "model/settings.h"

namespace {

void check(bool ok, const char* what, const std::string& text) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_settings: %s: %s\n", what, redlab::printable(text.substr(0, 200)).c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace redlab::model;
  Settings defaults;
  defaults.lang = "en";
  Settings s;
  try {
    s = settings_from_text(std::string_view(reinterpret_cast<const char*>(data), size), defaults);
  } catch (const std::exception&) {
    return 0;  // not settings: the window starts with its defaults
  }
  check(s.ui_scale >= 0.75f && s.ui_scale <= 3.0f, "a scale outside 0.75 to 3", std::to_string(s.ui_scale));
  check(s.lang == "en" || s.lang == "zh_CN", "a language redlab does not have", s.lang);
  check(parse_layout(s.layout).has_value(), "a layout redlab does not have", s.layout);
  const std::string text = settings_text(s);
  Settings back;
  try {
    back = settings_from_text(text, Settings{});
  } catch (const std::exception& e) { check(false, "the written settings are not read back", e.what()); }
  check(back.ui_scale == s.ui_scale && back.colorblind == s.colorblind && back.lang == s.lang &&
            back.layout == s.layout && back.hint_seen == s.hint_seen,
        "the written settings read back otherwise", text);
  return 0;
}
