#include "gui/shell/font_files.h"

#include <fontconfig/fontconfig.h>
#include <strings.h>

#include <filesystem>
#include <initializer_list>
#include <string>
#include <system_error>

#include "gui/gui.h"

namespace redlab::gui {
namespace {

// The face of the first of `families` that is installed. fontconfig always answers with some font (its nearest
// match), so the answer is taken only when one of its family names is the one asked for, and only when its file is
// there to read (a cache can outlive a font folder).
std::optional<FontFace> find_face(FcConfig* config, std::initializer_list<const char*> families) {
  for (const char* family : families) {
    FcPattern* want = FcPatternCreate();
    FcPatternAddString(want, FC_FAMILY, reinterpret_cast<const FcChar8*>(family));
    FcPatternAddInteger(want, FC_WEIGHT, FC_WEIGHT_REGULAR);
    FcPatternAddInteger(want, FC_SLANT, FC_SLANT_ROMAN);
    FcConfigSubstitute(config, want, FcMatchPattern);
    FcDefaultSubstitute(want);
    FcResult result = FcResultNoMatch;
    FcPattern* got = FcFontMatch(config, want, &result);
    FcPatternDestroy(want);
    if (!got) continue;
    bool same_family = false;
    FcChar8* name = nullptr;
    for (int i = 0; !same_family && FcPatternGetString(got, FC_FAMILY, i, &name) == FcResultMatch; ++i)
      same_family = strcasecmp(reinterpret_cast<const char*>(name), family) == 0;
    FcChar8* file = nullptr;
    int index = 0;
    std::optional<FontFace> face;
    std::error_code ec;
    if (same_family && FcPatternGetString(got, FC_FILE, 0, &file) == FcResultMatch &&
        std::filesystem::is_regular_file(reinterpret_cast<const char*>(file), ec)) {
      if (FcPatternGetInteger(got, FC_INDEX, 0, &index) != FcResultMatch) index = 0;
      face = FontFace{reinterpret_cast<const char*>(file), index & 0xffff};  // (the high bits: a variable instance)
    }
    FcPatternDestroy(got);
    if (face) return face;
  }
  return std::nullopt;
}

FontFaces look_up() {
  FontFaces faces;
  FcConfig* config = FcInitLoadConfigAndFonts();  // a configuration of our own, freed below
  if (!config) return faces;
  faces.latin = find_face(config, {"DejaVu Sans", "Noto Sans"});
  faces.mono = find_face(config, {"DejaVu Sans Mono"});
  faces.cjk = find_face(config, {"Noto Sans CJK SC"});
  faces.cjk_is_noto = faces.cjk.has_value();
  if (!faces.cjk) faces.cjk = find_face(config, {"WenQuanYi Micro Hei"});
  faces.cjk_mono = find_face(config, {"Noto Sans Mono CJK SC"});
  FcConfigDestroy(config);
  return faces;
}

}  // namespace

const FontFaces& font_faces() {
  static const FontFaces faces = look_up();
  return faces;
}

std::vector<std::string> font_files_in_use() {
  const FontFaces& faces = font_faces();
  struct Role {
    const std::optional<FontFace>& face;
    const char* what;
    const char* package;
  };
  std::vector<std::string> lines;
  for (const Role& r :
       {Role{faces.latin, "text", "fonts-dejavu-core"}, Role{faces.mono, "code", "fonts-dejavu-core"},
        Role{faces.cjk, "Chinese", "fonts-noto-cjk"}, Role{faces.cjk_mono, "Chinese code", "fonts-noto-cjk"}}) {
    if (!r.face) {
      lines.push_back(std::string("none for ") + r.what + ": install " + r.package);
      continue;
    }
    std::string line = r.face->path;
    if (r.face->index != 0) line += ", face " + std::to_string(r.face->index);
    lines.push_back(line + " (" + r.what + ")");
  }
  return lines;
}

}  // namespace redlab::gui

namespace redlab {
std::vector<std::string> window_font_files() { return gui::font_files_in_use(); }
}  // namespace redlab
