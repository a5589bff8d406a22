// Text read from a file the user opens (a trace, recorded hardware counts, the gallery's index) before it reaches a
// terminal or the window: a control character in it could move the cursor, change colours or retitle the terminal.
#pragma once
#include <string>
#include <string_view>

namespace redlab {

// `text` with every control character escaped: C0 (\x00 to \x1f, newlines and tabs too unless `keep_lines`),
// DEL, the C1 controls U+0080 to U+009F, and bytes that are not UTF-8, each as \xNN (C1 as \u00NN). Other
// characters, Chinese included, stay as they are.
std::string printable(std::string_view text, bool keep_lines = false);

}  // namespace redlab
