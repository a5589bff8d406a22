// The window's switches from the environment, read in one place (options.h, GuiDebugOptions).
#include <cstdlib>
#include <string>

#include "model/options.h"

namespace redlab {

namespace {
const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}
bool flag(const char* name) {
  const char* v = env(name);
  return v && *v == '1';
}
int integer(const char* name, int otherwise) {
  const char* v = env(name);
  return v ? std::atoi(v) : otherwise;
}
std::string text(const char* name) {
  const char* v = env(name);
  return v ? v : "";
}
}  // namespace

GuiDebugOptions read_environment() {
  GuiDebugOptions d;
  d.lang = text("REDLAB_LANG");
  if (const char* v = env("REDLAB_GUI_SCALE"); v && std::atof(v) > 0) d.scale = float(std::atof(v));
  d.colorblind = flag("REDLAB_GUI_COLORBLIND");
  d.step = integer("REDLAB_GUI_STEP", -2);
  d.play = flag("REDLAB_GUI_PLAY");
  if (const char* v = env("REDLAB_GUI_ANIM")) d.anim = float(std::atof(v));
  d.focus_block = integer("REDLAB_GUI_FOCUS_BLOCK", -1);
  d.warp = integer("REDLAB_GUI_WARP", -1);
  d.bank = integer("REDLAB_GUI_BANK", -1);
  d.access = integer("REDLAB_GUI_ACCESS", -1);
  d.tile_req = integer("REDLAB_GUI_TILE_REQ", -1);
  d.chart = text("REDLAB_GUI_CHART");
  d.compare_kernel = text("REDLAB_GUI_COMPARE_KERNEL");
  d.bank_lab = text("REDLAB_GUI_BANK_LAB");
  const int width = integer("REDLAB_GUI_BANK_LAB_WIDTH", 4);
  d.bank_lab_width = width == 8 || width == 16 ? width : 4;
  d.bank_lab_store = flag("REDLAB_GUI_BANK_LAB_STORE");
  if (const char* v = env("REDLAB_GUI_BANK_LAB_MASK")) d.bank_lab_mask = std::uint32_t(std::strtoul(v, nullptr, 0));
  d.bank_lab_measure = flag("REDLAB_GUI_BANK_LAB_MEASURE");
  d.measure = flag("REDLAB_GUI_MEASURE");
  d.measure_sweep = flag("REDLAB_GUI_MEASURE_SWEEP");
  d.reference_timings = text("REDLAB_REFERENCE_TIMINGS");
  d.reference_blocks = text("REDLAB_REFERENCE_BLOCKS");
  d.self_exe = text("REDLAB_SELF_EXE");
  d.hw = flag("REDLAB_GUI_HW");
  d.hw_from = text("REDLAB_GUI_HW_FROM");
  d.hide = text("REDLAB_GUI_HIDE");
  d.help = flag("REDLAB_GUI_HELP");
  d.text_check = flag("REDLAB_GUI_TEXT_CHECK");
  d.lesson_walk = text("REDLAB_GUI_LESSON_WALK");
  d.hint = flag("REDLAB_GUI_HINT");
  d.tree_values = flag("REDLAB_GUI_TREE_VALUES");
  d.gallery = text("REDLAB_GUI_GALLERY");
  if (const char* v = env("REDLAB_GUI_COMPOSITOR"); v && (*v == '0' || *v == '1')) d.compositor = *v - '0';
  d.linear_font = env("REDLAB_GUI_LINEAR_FONT") != nullptr;
  d.profile = flag("REDLAB_GUI_PROFILE");
  d.profile_frames = env("REDLAB_GUI_PROFILE_FRAMES") != nullptr;
  d.profile_lists = env("REDLAB_GUI_PROFILE_LISTS") != nullptr;
  return d;
}

}  // namespace redlab
