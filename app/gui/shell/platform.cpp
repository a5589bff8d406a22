#include "gui/shell/platform.h"

#include <glad/gl.h>
// glad first
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "core/catalog.h"
#include "core/file_write.h"
#include "core/printable.h"
#include "core/user_dirs.h"
#include "gui/render/compositor.h"
#include "gui/shell/font_files.h"
#include "model/i18n.h"
#include "gui/views/views.h"

namespace redlab::gui {

using namespace redlab::model;

namespace fs = std::filesystem;

namespace {

std::string config_dir() { return user_dir(UserDir::config); }

// What GLFW's callbacks reach through the window's user pointer.
struct Events {
  std::vector<std::string> dropped;
  std::vector<KeyPress> keys;
  bool exposed = false;
  // GLFW key codes pressed since the last frame started, and those of them released before it did (a tap the
  // frame would not see: held down for one frame instead); the taps the last frame held (released at the next),
  // and taps of a key that was held (pressed a frame later).
  std::vector<int> pressed_unseen, tapped, held_for_tap, deferred_taps;
  int press_mods = 0;  // the modifiers held at those presses (Ctrl+Z tapped: Ctrl may be up before the frame)
};

bool has_key(const std::vector<int>& v, int key) { return std::find(v.begin(), v.end(), key) != v.end(); }

// GLFW's key codes for the keys the window's shortcuts name (model: Key).
Key named_key(int glfw_key) {
  switch (glfw_key) {
    case GLFW_KEY_SPACE: return Key::space;
    case GLFW_KEY_E: return Key::e;
    case GLFW_KEY_Q: return Key::q;
    case GLFW_KEY_S: return Key::s;
    case GLFW_KEY_ESCAPE: return Key::escape;
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER: return Key::enter;
    case GLFW_KEY_RIGHT: return Key::right;
    case GLFW_KEY_LEFT: return Key::left;
    case GLFW_KEY_PAGE_UP: return Key::page_up;
    case GLFW_KEY_PAGE_DOWN: return Key::page_down;
    case GLFW_KEY_HOME: return Key::home;
    case GLFW_KEY_END: return Key::end;
    case GLFW_KEY_F1: return Key::f1;
    case GLFW_KEY_F5: return Key::f5;
    case GLFW_KEY_F11: return Key::f11;
    default: return Key::other;
  }
}

// redlab's look at `scale`: ImGui's dark style, opaque windows (none shows through another, in any language).
void apply_style(float scale) {
  ImGuiStyle& s = ImGui::GetStyle();
  s = ImGuiStyle();
  ImGui::StyleColorsDark();
  s.ScaleAllSizes(scale);
  s.WindowRounding = 3 * scale;
  s.FrameRounding = 2 * scale;
  s.Colors[ImGuiCol_WindowBg].w = 1.0f;
}

}  // namespace

namespace {
// Larger than any imgui.ini the window writes (a few KB).
constexpr std::size_t kMaxIniBytes = 1 << 20;
}  // namespace

Platform::Platform(int width, int height, bool headless, bool linear_font, bool fit_screen)
    : headless_(headless), linear_font_(linear_font) {
  glfwSetErrorCallback(
      [](int code, const char* msg) { print_message(stderr, "redlab gui: GLFW %d: %s\n", code, msg ? msg : ""); });
  if (!glfwInit()) throw std::runtime_error("cannot open a window (no display? try xvfb-run)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  if (headless) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
  // No larger than the screen's work area (a 1280x720 projector gets the whole of it, maximised), unless the size
  // was asked for.
  if (fit_screen)
    if (GLFWmonitor* m = glfwGetPrimaryMonitor()) {
      int x = 0, y = 0, w = 0, h = 0;
      glfwGetMonitorWorkarea(m, &x, &y, &w, &h);
      if (w > 0 && h > 0 && (width > w || height > h)) {
        width = std::min(width, w);
        height = std::min(height, h);
        glfwWindowHint(GLFW_MAXIMIZED, GLFW_TRUE);
      }
    }
  win_ = glfwCreateWindow(std::max(320, width), std::max(240, height), "redlab", nullptr, nullptr);
  if (!win_) {
    glfwTerminate();
    throw std::runtime_error("cannot create an OpenGL 3.3 core window");
  }
  glfwMakeContextCurrent(win_);
  if (!gladLoadGL(glfwGetProcAddress)) {
    glfwDestroyWindow(win_);
    glfwTerminate();
    throw std::runtime_error("cannot load OpenGL 3.3 functions");
  }
  software_ = is_software_renderer(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  // Swap interval 1 holds a hardware-GL window to the display's refresh; headless runs draw as fast as they can.
  glfwSwapInterval(headless ? 0 : 1);
  glfwSetWindowUserPointer(win_, new Events);
  glfwSetWindowRefreshCallback(
      win_, [](GLFWwindow* w) { static_cast<Events*>(glfwGetWindowUserPointer(w))->exposed = true; });
  glfwSetDropCallback(win_, [](GLFWwindow* w, int n, const char** paths) {
    auto* e = static_cast<Events*>(glfwGetWindowUserPointer(w));
    for (int i = 0; i < n; ++i) e->dropped.emplace_back(paths[i]);
  });
  // Every key press, kept until the frame reads it: ImGui 1.86 reads keys as held at the frame's start, and a
  // press and release between two frames (a quick tap while the window waits for input) would be lost.
  // Installed before ImGui's backend, which calls it from its own callback.
  // The same holds for ImGui's own keys (Ctrl+Z, Backspace and the arrows in the editor): a key pressed and
  // released before a frame started is held down through the next frame (new_frame), as ImGui's input queue does
  // from 1.87 on. A slow frame (software GL, a lab's old machine) otherwise dropped a student's Ctrl+Z.
  glfwSetKeyCallback(win_, [](GLFWwindow* w, int key, int, int action, int mods) {
    auto* e = static_cast<Events*>(glfwGetWindowUserPointer(w));
    if (action != GLFW_RELEASE)
      e->keys.push_back({named_key(key), (mods & GLFW_MOD_CONTROL) != 0, action == GLFW_REPEAT});
    if (action == GLFW_PRESS && !has_key(e->pressed_unseen, key)) e->pressed_unseen.push_back(key);
    if (action == GLFW_PRESS) e->press_mods |= mods;
    if (action == GLFW_RELEASE && has_key(e->pressed_unseen, key) && !has_key(e->tapped, key)) e->tapped.push_back(key);
  });

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  if (headless) {
    io.IniFilename = nullptr;  // a screenshot shows the first-use layout, whatever the user arranged
  } else if (const std::string d = config_dir(); !d.empty()) {
    std::error_code ec;
    fs::create_directories(d, ec);
    // ImGui's own reading would block on a FIFO in the file's place, and its writing follow a symlink: the window
    // reads and writes it itself (save_layout).
    ini_ = d + "/imgui.ini";
    io.IniFilename = nullptr;
    std::string ini;
    if (read_regular_file(ini_, kMaxIniBytes, &ini).empty()) ImGui::LoadIniSettingsFromMemory(ini.data(), ini.size());
  }
  ImGui_ImplGlfw_InitForOpenGL(win_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

void Platform::save_layout(bool now) {
  ImGuiIO& io = ImGui::GetIO();
  if (ini_.empty() || !(now || io.WantSaveIniSettings)) return;
  io.WantSaveIniSettings = false;
  std::size_t size = 0;
  const char* ini = ImGui::SaveIniSettingsToMemory(&size);
  try {
    write_file_atomically(ini_, std::string(ini, size), SymlinkPolicy::replace);
  } catch (const std::exception&) {
    // The layout is a convenience: a read-only home, or a pipe in its place, does not stop the window.
  }
}

Platform::~Platform() {
  save_layout(true);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  delete static_cast<Events*>(glfwGetWindowUserPointer(win_));
  glfwDestroyWindow(win_);
  glfwTerminate();
}

namespace {
ImFont* g_code_font = nullptr;  // build_fonts' monospace face (views.h: code_font)
ImFont* g_chrome_font = nullptr;  // the UI font at the bars' scale, where it differs from the views' (views.h)
float g_chrome_ratio = 1.0f;  // the bars' scale over the views'
}  // namespace

ImFont* code_font() { return g_code_font; }
ImFont* chrome_font() { return g_chrome_font; }
float chrome_ratio() { return g_chrome_ratio; }

// Latin from DejaVu (or Noto), Chinese merged from Noto CJK with only the glyphs our text uses.
std::string Platform::build_fonts(float scale, float chrome_scale, const std::string& lang,
                                  const std::string& extra_glyphs) {
  // The atlas within the largest texture this GL takes: a lesson of 8,000 distinct Chinese characters made it
  // taller than that at scale 3 and the whole window drew black. First a wider atlas; then without the extra
  // glyphs (a lesson's, a kernel file's: drawn as '?'), said once; last the UI's own text alone.
  GLint most = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &most);
  if (most <= 0) most = 4096;  // (what any GL 3.3 takes)
  ImGuiIO& io = ImGui::GetIO();
  auto fits = [&] { return io.Fonts->TexWidth <= most && io.Fonts->TexHeight <= most; };
  std::string said;
  io.Fonts->TexDesiredWidth = 0;
  build_atlas(scale, chrome_scale, lang, extra_glyphs, true);
  if (!fits() && most > 4096) {
    io.Fonts->TexDesiredWidth = 1 << int(std::floor(std::log2(double(most))));
    build_atlas(scale, chrome_scale, lang, extra_glyphs, true);
  }
  if (!fits()) {
    const int atlas_height = io.Fonts->TexHeight;
    build_atlas(scale, chrome_scale, lang, "", true);
    if (!fits()) build_atlas(scale, chrome_scale, lang, "", false);
    char text[320];
    std::snprintf(text, sizeof text,
                  "the characters to show at scale %.2g need a font texture %d px high, more than "
                  "this GPU's largest (%d px): the text of lessons and kernel files outside redlab's own is drawn "
                  "with '?' for characters the window does not know",
                  scale, atlas_height, int(most));
    said = text;
  }
  // Without it the UI's Chinese, the catalog's titles from the course notes and the lessons would be '?' with no word
  // why.
  if (!font_faces().cjk) {
    if (!said.empty()) said += "; ";
    said +=
        "no Chinese font is installed, so Chinese text is drawn as '?': install fonts-noto-cjk (Debian and Ubuntu: "
        "sudo apt install fonts-noto-cjk) and start redlab again";
  }
  apply_style(scale);
  if (fonts_built_) {  // the first atlas goes to the GPU with the backend's other objects, at the first frame
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  fonts_built_ = true;
  return said;
}

void Platform::build_atlas(float scale, float chrome_scale, const std::string& lang, const std::string& extra_glyphs,
                           bool with_sources) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float px = std::round(16.0f * scale);
  const FontFaces& faces = font_faces();
  const bool zh_main = lang == "zh_CN" && faces.cjk_is_noto;  // one typeface for Latin and Chinese
  static ImVector<ImWchar> cjk, code_cjk, all;  // ImGui keeps pointers to the ranges until the atlas is built again
  cjk.clear();
  code_cjk.clear();
  all.clear();
  ImFontGlyphRangesBuilder b, code;
  b.AddText(i18n_all_text().c_str());
  b.AddText("，。：；（）、？！“”·…—《》简体中文");
  // Text that is not UI text but is shown in every language: the catalog's source references quote the Chinese
  // course notes' section titles, and the code window shows kernel sources (comments may quote them too).
  for (const KernelRecord* k : catalog()) {
    for (const std::string* t : {&k->title, &k->sources, &k->teaches}) b.AddText(t->c_str());
    if (k->source_file.empty() || !with_sources) continue;
    std::string source;  // (a regular file within its cap, never waited on: a record from a trace names the path)
    read_regular_file(is_user_kernel(*k) ? k->source_file : find_resource(k->source_file), kMaxSourceFileBytes,
                      &source);
    b.AddText(source.c_str());
    code.AddText(source.c_str());
  }
  // The kernel files and gallery entries the window shows (a Chinese comment, a Chinese explanation).
  b.AddText(extra_glyphs.c_str());
  code.AddText(extra_glyphs.c_str());
  code.AddText("，。：；（）、？！“”·…—《》");
  b.BuildRanges(&cjk);
  code.BuildRanges(&code_cjk);
  b.AddRanges(io.Fonts->GetGlyphRangesDefault());
  b.BuildRanges(&all);
  // The UI font at `size` pixels: Chinese UI text in one typeface (Noto Sans CJK SC) for both scripts; else Latin
  // with the Chinese glyphs merged in.
  auto add_ui_font = [&](float size) -> ImFont* {
    if (zh_main) {
      ImFontConfig cfg;
      cfg.FontNo = faces.cjk->index;
      if (ImFont* f = io.Fonts->AddFontFromFileTTF(faces.cjk->path.c_str(), size, &cfg, all.Data)) return f;
    }
    ImFont* font = nullptr;
    if (faces.latin) {
      static const ImWchar ranges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2010, 0x22FF, 0x2500, 0x25FF, 0};
      ImFontConfig cfg;
      cfg.FontNo = faces.latin->index;
      font = io.Fonts->AddFontFromFileTTF(faces.latin->path.c_str(), size, &cfg, ranges);
    }
    if (!font) {
      ImFontConfig cfg;
      cfg.SizePixels = size;
      font = io.Fonts->AddFontDefault(&cfg);
    }
    if (faces.cjk) {
      ImFontConfig cfg;
      cfg.MergeMode = true;
      cfg.FontNo = faces.cjk->index;
      io.Fonts->AddFontFromFileTTF(faces.cjk->path.c_str(), size, &cfg, cjk.Data);
    }
    return font;
  };
  add_ui_font(px);  // the first font is ImGui's default: the views'
  const float chrome_px = std::round(16.0f * chrome_scale);
  g_chrome_font = chrome_px != px ? add_ui_font(chrome_px) : nullptr;
  g_chrome_ratio = g_chrome_font ? chrome_scale / scale : 1.0f;
  // Kernel sources in a monospace face: DejaVu Sans Mono, its Chinese from Noto Sans Mono CJK SC (two columns
  // wide), at the UI's size.
  g_code_font = nullptr;
  if (faces.mono) {
    static const ImWchar mono_ranges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2010, 0x22FF, 0x2500, 0x25FF, 0};
    ImFontConfig mono;
    mono.FontNo = faces.mono->index;
    g_code_font = io.Fonts->AddFontFromFileTTF(faces.mono->path.c_str(), px, &mono, mono_ranges);
    if (g_code_font && faces.cjk_mono && code_cjk.Size > 1) {
      ImFontConfig cfg;
      cfg.MergeMode = true;
      cfg.FontNo = faces.cjk_mono->index;
      io.Fonts->AddFontFromFileTTF(faces.cjk_mono->path.c_str(), px, &cfg, code_cjk.Data);
    }
  }
  io.Fonts->Build();
}

void Platform::new_frame() {
  save_layout();
  ImGui_ImplOpenGL3_NewFrame();
  // Glyphs are baked at their pixel size and drawn on whole pixels: nearest sampling draws them the same and
  // costs software GL (llvmpipe) far less than bilinear. Lines are then drawn as geometry, not from the atlas.
  if (ImGui::GetIO().Fonts->TexID != font_texture_ && !linear_font_) {
    font_texture_ = ImGui::GetIO().Fonts->TexID;
    GLint prev = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev);
    glBindTexture(GL_TEXTURE_2D, GLuint(reinterpret_cast<std::uintptr_t>(font_texture_)));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, GLuint(prev));
  }
  ImGui::GetStyle().AntiAliasedLinesUseTex = linear_font_;
  ImGui_ImplGlfw_NewFrame();
  hold_taps();
  if (headless_) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // no hover from a stray pointer
  ImGui::NewFrame();
}

void Platform::hold_taps() {
  auto* e = static_cast<Events*>(glfwGetWindowUserPointer(win_));
  ImGuiIO& io = ImGui::GetIO();
  const auto in_range = [&](int key) { return key >= 0 && key < int(IM_ARRAYSIZE(io.KeysDown)); };
  // A modifier held at a press this frame did not see, and up by now, is held with the key (xdotool's Ctrl+Z
  // releases Ctrl before Z).
  static constexpr int kModifiers[][3] = {{GLFW_MOD_CONTROL, GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL},
                                          {GLFW_MOD_SHIFT, GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT},
                                          {GLFW_MOD_ALT, GLFW_KEY_LEFT_ALT, GLFW_KEY_RIGHT_ALT},
                                          {GLFW_MOD_SUPER, GLFW_KEY_LEFT_SUPER, GLFW_KEY_RIGHT_SUPER}};
  // Not in a frame that also takes typed characters: they may have come after the modifier's release, and ImGui 1.86
  // drops a character typed with Ctrl held (a chord then " oops" typed within one slow frame lost the text).
  const bool typed = !io.InputQueueCharacters.empty();
  for (const auto& m : kModifiers) {
    if (typed) {
      e->tapped.erase(std::remove(e->tapped.begin(), e->tapped.end(), m[1]), e->tapped.end());
      e->tapped.erase(std::remove(e->tapped.begin(), e->tapped.end(), m[2]), e->tapped.end());
    } else if ((e->press_mods & m[0]) && !io.KeysDown[m[1]] && !io.KeysDown[m[2]] && !has_key(e->tapped, m[1])) {
      e->tapped.push_back(m[1]);
    }
  }
  e->press_mods = 0;
  const bool changed = !e->held_for_tap.empty() || !e->tapped.empty() || !e->deferred_taps.empty();
  for (int key : e->held_for_tap)
    if (in_range(key) && glfwGetKey(win_, key) == GLFW_RELEASE) io.KeysDown[key] = false;
  // A key held for a tap in the last frame and tapped again is up for this frame and down in the next, with the
  // keys tapped beside it (a letter typed just before Ctrl with the same letter: two presses, the second with Ctrl).
  const auto meets = [](const std::vector<int>& a, const std::vector<int>& b) {
    return std::any_of(a.begin(), a.end(), [&](int key) { return has_key(b, key); });
  };
  std::vector<int> taps = std::move(e->deferred_taps), held;
  e->deferred_taps.clear();
  if (meets(taps, e->held_for_tap)) std::swap(taps, e->deferred_taps);
  if (meets(e->tapped, e->held_for_tap) || meets(e->tapped, taps) || !e->deferred_taps.empty())
    e->deferred_taps.insert(e->deferred_taps.end(), e->tapped.begin(), e->tapped.end());
  else
    taps.insert(taps.end(), e->tapped.begin(), e->tapped.end());
  for (int key : taps)
    if (in_range(key) && !has_key(held, key)) {
      io.KeysDown[key] = true;
      held.push_back(key);
    }
  e->held_for_tap = std::move(held);
  e->tapped.clear();
  e->pressed_unseen.clear();
  // Without input the window waits up to 0.1 s for the next frame: a tap held or deferred is released or pressed
  // at once instead.
  if (!e->held_for_tap.empty() || !e->deferred_taps.empty()) glfwPostEmptyEvent();
  if (!changed) return;
  // (ImGui 1.86's backend sets the modifiers from the keys in its key callback: again from the keys as held.)
  io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
  io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
  io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
  io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
}

std::vector<std::string> Platform::take_dropped() {
  std::vector<std::string> v;
  v.swap(static_cast<Events*>(glfwGetWindowUserPointer(win_))->dropped);
  return v;
}

std::vector<KeyPress> Platform::take_keys() {
  std::vector<KeyPress> v;
  v.swap(static_cast<Events*>(glfwGetWindowUserPointer(win_))->keys);
  return v;
}

bool Platform::take_exposed() {
  auto* e = static_cast<Events*>(glfwGetWindowUserPointer(win_));
  return std::exchange(e->exposed, false);
}

Image Platform::back_buffer() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(win_, &w, &h);
  glFinish();
  Image img;
  if (w <= 0 || h <= 0) return img;
  std::vector<std::uint8_t> px(std::size_t(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  img.w = w;
  img.h = h;
  img.rgba.resize(px.size());
  for (int y = 0; y < h; ++y)  // GL's rows are bottom to top
    std::copy_n(&px[std::size_t(h - 1 - y) * w * 4], std::size_t(w) * 4, &img.rgba[std::size_t(y) * w * 4]);
  return img;
}

void Platform::set_title(const std::string& t) { glfwSetWindowTitle(win_, t.c_str()); }
int Platform::window_height() const {
  int w = 0, h = 0;
  glfwGetWindowSize(win_, &w, &h);
  return h;
}

void Platform::set_fullscreen(bool on) {
  if (on == fullscreen_) return;
  if (on) {
    GLFWmonitor* m = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = m ? glfwGetVideoMode(m) : nullptr;
    if (!mode) return;  // no monitor to fill (some headless displays)
    glfwGetWindowPos(win_, &windowed_[0], &windowed_[1]);
    glfwGetWindowSize(win_, &windowed_[2], &windowed_[3]);
    glfwSetWindowMonitor(win_, m, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else {
    glfwSetWindowMonitor(win_, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3], GLFW_DONT_CARE);
  }
  fullscreen_ = on;
}
bool Platform::should_close() const { return glfwWindowShouldClose(win_); }
void Platform::request_close() { glfwSetWindowShouldClose(win_, 1); }
void Platform::keep_open() { glfwSetWindowShouldClose(win_, 0); }

}  // namespace redlab::gui
