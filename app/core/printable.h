// Text read from a file the user opens (a trace, recorded hardware counts, the gallery's index) before it reaches a
// terminal or the window: a control character in it could move the cursor, change colours or retitle the terminal.
#pragma once
#include <cstdio>
#include <string>
#include <string_view>

namespace redlab {

// `text` with every control character escaped: C0 (\x00 to \x1f, newlines and tabs too unless `keep_lines`),
// DEL, the C1 controls U+0080 to U+009F, the bidirectional controls (U+202E, the right-to-left override, and its
// kind: they reorder what follows) and bytes that are not UTF-8, each as \xNN (C1 and bidi as \uNNNN). Other
// characters, Chinese included, stay as they are.
std::string printable(std::string_view text, bool keep_lines = false);

// printf to `out` with the whole message through printable (lines and tabs kept): what redlab says on a terminal
// quotes file names, kernel ids, lesson text and a compiler's words, any of which may hold an escape sequence or a
// right-to-left override. Every message of the command line and the window's goes through it.
[[gnu::format(printf, 2, 3)]] void print_message(std::FILE* out, const char* format, ...);

}  // namespace redlab
