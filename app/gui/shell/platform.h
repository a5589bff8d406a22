// The window on the desktop: GLFW, an OpenGL 3.3 core context, Dear ImGui's GLFW and OpenGL 3 backends, the
// fonts and style, the settings file, and a read-back of the frame into a PNG. Portable: GLFW and OpenGL
// alone. Nothing here knows what the views show.
#pragma once
#include <string>
#include <vector>

#include "gui/export/export_files.h"
#include "gui/gui.h"

struct GLFWwindow;

namespace redlab::gui {

class Platform {
 public:
  // Opens the window (not resizable in headless screenshot mode) and its GL context; throws
  // std::runtime_error saying what is missing (a display, OpenGL 3.3). `fit_screen`: no larger than the primary
  // monitor's work area (maximised where it was cut to it).
  Platform(int width, int height, bool headless, bool linear_font, bool fit_screen = false);
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;
  ~Platform();

  GLFWwindow* window() const { return win_; }
  // GL_RENDERER names a software rasteriser (llvmpipe, ...): the compositor pays there.
  bool software_gl() const { return software_; }
  // Latin and the Chinese glyphs the UI text, the catalog and the kernel sources use (and `extra_glyphs`: the
  // student's files and the gallery, Model::extra_glyphs), at 16 px x scale, a monospace face for sources beside
  // (views.h: code_font), the same UI font at `chrome_scale` for the window's bars where it differs (views.h:
  // ChromeStyle), and the style at `scale`. Call before the first frame and whenever a scale, the language or the
  // extra glyphs change.
  // The atlas is kept within the GPU's largest texture: where every glyph does not fit, the extra glyphs are left
  // out (drawn as '?'), and the returned sentence says so ("" when all fit).
  std::string build_fonts(float scale, float chrome_scale, const std::string& lang,
                          const std::string& extra_glyphs = "");
  // Starts an ImGui frame (no pointer in headless mode, so nothing is hovered).
  void new_frame();
  // imgui.ini written where ImGui asks (a window moved, a pane resized) or `now`; read at the start (constructor).
  void save_layout(bool now = false);
  // Files dropped on the window since the last call; whether the window system lost its picture (exposed).
  std::vector<std::string> take_dropped();
  // Key presses (and repeats) since the last call, in order.
  std::vector<KeyPress> take_keys();
  bool take_exposed();
  // The back buffer, opaque (after the frame is drawn, before the swap).
  Image back_buffer() const;
  void set_title(const std::string&);
  // The window's height in screen coordinates (the bars' scale follows it: layout.h, chrome_scale).
  int window_height() const;
  // The whole primary monitor, or the window as it was before.
  void set_fullscreen(bool);
  bool fullscreen() const { return fullscreen_; }
  bool should_close() const;
  void request_close();
  // The window manager's close was answered with a question instead (unsaved edits): the window stays.
  void keep_open();

 private:
  GLFWwindow* win_ = nullptr;
  bool headless_, linear_font_, software_ = false, fonts_built_ = false, fullscreen_ = false;
  int windowed_[4] = {0, 0, 0, 0};  // x, y, width, height before full screen
  void* font_texture_ = nullptr;  // the atlas whose sampling was set to nearest
  std::string ini_;  // imgui.ini's path ("" headless: a screenshot shows the first-use layout)
  // Keys pressed and released between two frames held down through one frame, and released at the next.
  void hold_taps();
  // One atlas: the UI text, the catalog's texts, `extra_glyphs`, and (with_sources) the kernels' sources' glyphs.
  void build_atlas(float scale, float chrome_scale, const std::string& lang, const std::string& extra_glyphs,
                   bool with_sources);
};

}  // namespace redlab::gui
