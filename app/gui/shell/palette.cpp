#include "gui/shell/palette.h"

namespace redlab::gui {
namespace {
bool g_cb = false;
// Okabe & Ito (2008), colour-universal design: orange, sky blue, bluish green, yellow, blue, vermillion,
// reddish purple, grey.
const ImU32 kOkabeIto[8] = {IM_COL32(230, 159, 0, 255),   IM_COL32(86, 180, 233, 255), IM_COL32(0, 158, 115, 255),
                            IM_COL32(240, 228, 66, 255),  IM_COL32(0, 114, 178, 255),  IM_COL32(213, 94, 0, 255),
                            IM_COL32(204, 121, 167, 255), IM_COL32(170, 170, 170, 255)};
const ImU32 kVivid[8] = {IM_COL32(66, 133, 244, 255), IM_COL32(52, 168, 83, 255), IM_COL32(251, 188, 5, 255),
                         IM_COL32(171, 71, 188, 255), IM_COL32(0, 172, 193, 255), IM_COL32(255, 112, 67, 255),
                         IM_COL32(124, 179, 66, 255), IM_COL32(236, 64, 122, 255)};
ImU32 with_alpha(ImU32 c, float a) { return (c & 0x00FFFFFFu) | (ImU32(a * 255.0f + 0.5f) << IM_COL32_A_SHIFT); }
}  // namespace

void palette_set_colorblind(bool v) { g_cb = v; }
bool palette_colorblind() { return g_cb; }
ImU32 warp_color(unsigned warp, float alpha) {
  // The palette through a pointer: GCC 12 with -fsanitize=undefined (its division check) compiles
  // `(g_cb ? kOkabeIto : kVivid)[warp % 8]` as kVivid[0] for every warp, and the sanitizer build drew all warps blue.
  const ImU32* colors = g_cb ? kOkabeIto : kVivid;
  return with_alpha(colors[warp % 8], alpha);
}
ImU32 color_idle() { return IM_COL32(72, 76, 84, 255); }
ImU32 color_unknown() { return IM_COL32(40, 42, 48, 255); }
ImU32 color_divergent() { return g_cb ? IM_COL32(213, 94, 0, 255) : IM_COL32(234, 67, 53, 255); }
ImU32 color_conflict() { return g_cb ? IM_COL32(213, 94, 0, 255) : IM_COL32(234, 67, 53, 255); }
ImU32 color_ok() { return g_cb ? IM_COL32(0, 158, 115, 255) : IM_COL32(52, 168, 83, 255); }
ImU32 color_highlight() { return IM_COL32(255, 255, 255, 255); }

namespace {
void bank_rgb(unsigned bank, float* r, float* g, float* b) {
  bank %= 32;
  if (g_cb) {
    // viridis at five stops, interpolated
    static const float stops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    const float t = float(bank) / 31.0f * 4.0f;
    const int i = t >= 4.0f ? 3 : int(t);
    const float f = t - float(i);
    *r = (stops[i][0] + (stops[i + 1][0] - stops[i][0]) * f) / 255.0f;
    *g = (stops[i][1] + (stops[i + 1][1] - stops[i][1]) * f) / 255.0f;
    *b = (stops[i][2] + (stops[i + 1][2] - stops[i][2]) * f) / 255.0f;
    return;
  }
  ImGui::ColorConvertHSVtoRGB(float(bank) / 32.0f, bank % 2 ? 0.55f : 0.75f, bank % 2 ? 0.80f : 0.98f, *r, *g, *b);
}
}  // namespace

ImU32 bank_color(unsigned bank, float alpha) {
  float r, g, b;
  bank_rgb(bank, &r, &g, &b);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, alpha));
}
ImU32 bank_text_color(unsigned bank) {
  float r, g, b;
  bank_rgb(bank, &r, &g, &b);
  return 0.299f * r + 0.587f * g + 0.114f * b > 0.5f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

}  // namespace redlab::gui
