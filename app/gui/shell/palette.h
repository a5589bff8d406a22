// Colours: warp colours (a vivid set, or Okabe-Ito for colour-blind-safe classrooms) and the fixed roles.
#pragma once
#include <cstdint>

#include <imgui.h>

namespace redlab::gui {

void palette_set_colorblind(bool);
bool palette_colorblind();
ImU32 warp_color(unsigned warp, float alpha = 1.0f);  // cycles over 8 colours
ImU32 color_idle();  // idle thread / untouched cell
ImU32 color_unknown();  // value not known yet
ImU32 color_divergent();  // divergent warp marker
ImU32 color_conflict();  // bank conflict
ImU32 color_ok();  // conflict-free / good
ImU32 color_highlight();  // current step, hovered cell
// 32 bank colours: a hue circle, or (colour-blind setting) viridis, which stays ordered in lightness for
// every kind of colour vision. Neighbouring banks alternate in brightness so they stay apart.
ImU32 bank_color(unsigned bank, float alpha = 1.0f);
ImU32 bank_text_color(unsigned bank);  // black or white, whichever reads on bank_color

}  // namespace redlab::gui
