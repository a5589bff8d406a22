#pragma once
// The window's typefaces, found through fontconfig: wherever the system keeps its fonts (Debian's
// /usr/share/fonts, another distribution's folders, a user's ~/.local/share/fonts), or fonts carried to a machine
// that has none, named by a FONTCONFIG_FILE.
#include <optional>
#include <string>
#include <vector>

namespace redlab::gui {

// One face of a font file: the file and, in a collection (.ttc), the face's index in it.
struct FontFace {
  std::string path;
  int index = 0;
};

// Each face is empty where no installed font has its family (fontconfig's nearest other family is not taken: the
// window then says which package brings the face).
struct FontFaces {
  std::optional<FontFace> latin;  // DejaVu Sans, else Noto Sans
  std::optional<FontFace> mono;  // DejaVu Sans Mono
  std::optional<FontFace> cjk;  // Noto Sans CJK SC, else WenQuanYi Micro Hei
  std::optional<FontFace> cjk_mono;  // Noto Sans Mono CJK SC
  bool cjk_is_noto = false;  // Noto Sans CJK SC draws Latin as well: the Chinese UI in one typeface
};

// The faces, looked up once (fontconfig reads its configuration and cache on the first call, then is released).
const FontFaces& font_faces();

// Each face as `redlab --version -v` shows it, one line each: "PATH (text)", "PATH, face 2 (Chinese)", or which
// package brings a face that is missing. Scripts that carry the window's fonts elsewhere read the paths from it.
std::vector<std::string> font_files_in_use();

}  // namespace redlab::gui
