// libFuzzer target: a gallery index from anyone (REDLAB_DATA_DIR points the window and `list --gallery` at any
// folder), read as both read it, then through what they do with each entry: the suggested command, each word
// shell-quoted, and the title and explanation in each language. Besides sanitizer reports, crashes and leaks, a
// failure is an entry whose file names a path outside the gallery's folder, or text with a control character.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/gallery.h"
#include "core/printable.h"

namespace {

void check(bool ok, const char* what, const std::string& text) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_gallery: %s: %s\n", what, redlab::printable(text).c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace redlab;
  const Gallery g = parse_gallery(std::string_view(reinterpret_cast<const char*>(data), size),
                                  "/nonexistent-redlab-gallery/gallery.json");
  for (const GalleryEntry& e : g.entries) {
    check(e.file.find('/') == std::string::npos && e.file != "." && e.file != "..", "a file outside the folder",
          e.file);
    std::string command = "redlab stats --source " + shell_quoted(e.source);
    for (const std::string& a : scenario_arguments(e)) command += " " + shell_quoted(a);
    for (const auto* texts : {&e.title, &e.explanation})
      for (const char* lang : {"en", "zh_CN", "fr"}) {
        const std::string t = text_in(*texts, lang);
        check(printable(t, true) == t, "a control character in an entry's text", t);
      }
    check(printable(e.id) == e.id, "a control character in an entry's id", e.id);
  }
  for (const std::string& p : g.problems) (void)printable(p);
  return 0;
}
