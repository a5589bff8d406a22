// The window: GLFW + OpenGL 3.3 core (glad) + Dear ImGui. Lays out the views, runs the step clock, and in
// --screenshot mode renders a fixed number of frames without input and writes the back buffer as a PNG.
#include <glad/gl.h>
// glad first
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // the panels' positions and sizes, to carry them through a window resize
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_stdlib.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "../core/catalog.h"
#include "gui.h"
#include "app_state.h"
#include "compositor.h"
#include "i18n.h"
#include "palette.h"
#include "views.h"

namespace redlab {

namespace gui {
namespace fs = std::filesystem;

namespace {
std::vector<std::string> g_dropped;
bool g_exposed = false;   // the window system lost the window's picture (uncovered, restored): draw it again

std::string config_dir() {
  std::string base;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) base = x;
  else if (const char* h = std::getenv("HOME"); h && *h) base = std::string(h) + "/.config";
  else return {};
  return base + "/redlab";
}

void load_settings(AppState& st) {
  std::ifstream f(config_dir() + "/settings.json");
  if (!f) return;
  try {
    auto j = nlohmann::json::parse(f);
    st.ui_scale = std::clamp(j.value("ui_scale", 1.0f), 0.75f, 3.0f);
    st.colorblind = j.value("colorblind", false);
    st.lang = j.value("lang", st.lang);
  } catch (...) {
  }
}
void save_settings(const AppState& st) {
  std::string d = config_dir();
  if (d.empty()) return;
  std::error_code ec;
  fs::create_directories(d, ec);
  std::ofstream f(d + "/settings.json");
  nlohmann::json j{{"ui_scale", st.ui_scale}, {"colorblind", st.colorblind}, {"lang", st.lang}};
  f << j.dump(2) << "\n";
}

// Latin from DejaVu (or Noto), Chinese merged from Noto CJK with only the glyphs our text uses.
void build_fonts(float scale, const std::string& lang) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float px = std::round(16.0f * scale);
  const char* latin[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                         "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"};
  ImFont* font = nullptr;
  const char* cjk_main = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";
  const bool zh_main = lang == "zh_CN" && fs::exists(cjk_main);  // one typeface for Latin and Chinese
  for (const char* p : latin)
    if (!zh_main && fs::exists(p)) {
      static const ImWchar ranges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2010, 0x22FF, 0x2500, 0x25FF, 0};
      font = io.Fonts->AddFontFromFileTTF(p, px, nullptr, ranges);
      if (font) break;
    }
  if (!font) {
    ImFontConfig cfg;
    cfg.SizePixels = px;
    io.Fonts->AddFontDefault(&cfg);
  }
  static ImVector<ImWchar> cjk;
  cjk.clear();
  ImFontGlyphRangesBuilder b;
  b.AddText(i18n_all_text().c_str());
  b.AddText("，。：；（）、？！“”·…—《》简体中文");
  // Text that is not UI text but is shown in every language: the catalog's seed references quote the Chinese
  // seed documents' section titles, and the code window shows kernel sources (comments may quote them too).
  for (const KernelRecord* k : catalog()) {
    for (const std::string* t : {&k->title, &k->seed, &k->teaches}) b.AddText(t->c_str());
    if (k->source_file.empty()) continue;
    std::ifstream f(find_resource(k->source_file));
    const std::string source((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    b.AddText(source.c_str());
  }
  b.BuildRanges(&cjk);
  if (zh_main) {
    b.AddRanges(io.Fonts->GetGlyphRangesDefault());
    static ImVector<ImWchar> all;
    all.clear();
    b.BuildRanges(&all);
    ImFontConfig cfg;
    cfg.FontNo = 2;  // Simplified Chinese face of the collection
    io.Fonts->Clear();
    if (io.Fonts->AddFontFromFileTTF(cjk_main, px, &cfg, all.Data)) {
      io.Fonts->Build();
      ImGui::GetStyle() = ImGuiStyle();
      ImGui::StyleColorsDark();
      ImGui::GetStyle().ScaleAllSizes(scale);
      return;
    }
  }
  const char* cjk_paths[] = {"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
                             "/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf",
                             "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"};
  for (const char* p : cjk_paths)
    if (fs::exists(p)) {
      ImFontConfig cfg;
      cfg.MergeMode = true;
      cfg.FontNo = 2;  // NotoSansCJK-Regular.ttc: 0 JP, 1 KR, 2 SC, 3 TC, 4 HK
      if (std::string(p).find(".ttc") == std::string::npos || std::string(p).find("wqy") != std::string::npos)
        cfg.FontNo = 0;
      if (io.Fonts->AddFontFromFileTTF(p, px, &cfg, cjk.Data)) break;
    }
  io.Fonts->Build();
  ImGui::GetStyle() = ImGuiStyle();
  ImGui::StyleColorsDark();
  ImGui::GetStyle().ScaleAllSizes(scale);
  ImGui::GetStyle().WindowRounding = 3 * scale;
  ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 1.0f;  // opaque: no window shows through another
  ImGui::GetStyle().FrameRounding = 2 * scale;
}

void status_bar(AppState& st) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float h = ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y * 2;
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x, vp->Pos.y + vp->Size.y - h));
  ImGui::SetNextWindowSize(ImVec2(vp->Size.x, h));
  ImGui::Begin("##status", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  if (st.a.trace) {
    const Trace& t = *st.a.trace;
    const bool gpu = t.backend == "cuda";
    ImGui::TextColored(gpu ? ImVec4(0.5f, 0.9f, 0.5f, 1) : ImVec4(1.0f, 0.8f, 0.35f, 1), "%s",
                       trf("status.backend", {t.backend, t.device}).c_str());
    tooltip_key(gpu ? "status.gpu.tip" : "status.cpu.tip");
    if (!st.a.origin.empty()) {
      ImGui::SameLine();
      ImGui::TextDisabled("%s", trf("status.replay", {st.a.origin, t.host, t.recorded_at}).c_str());
    }
  } else {
    ImGui::TextDisabled("%s", tr("status.no_trace"));
  }
  if (!st.a.notice.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1), "|  %s", st.a.notice.c_str());
  }
  ImGui::End();
}

void menu_bar(AppState& st, GLFWwindow* win) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu(L("menu.file").c_str())) {
    if (ImGui::MenuItem(L("menu.open").c_str())) st.show_open = true;
    if (ImGui::MenuItem(L("menu.save").c_str(), nullptr, false, st.a.trace.has_value())) {
      st.show_open = true;
      st.open_path = "redlab-trace.rltrace";
    }
    ImGui::Separator();
    if (ImGui::MenuItem(L("menu.quit").c_str())) glfwSetWindowShouldClose(win, 1);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.view").c_str())) {
    ImGui::MenuItem(L("win.scenario").c_str(), nullptr, &st.show_scenario);
    ImGui::MenuItem(L("win.tree").c_str(), nullptr, &st.show_tree);
    ImGui::MenuItem(L("win.tile").c_str(), nullptr, &st.show_tile);
    ImGui::MenuItem(L("win.warps").c_str(), nullptr, &st.show_warps);
    ImGui::MenuItem(L("win.banks").c_str(), nullptr, &st.show_banks);
    ImGui::MenuItem(L("win.bank_lab").c_str(), nullptr, &st.show_bank_lab);
    ImGui::MenuItem(L("win.metrics").c_str(), nullptr, &st.show_metrics);
    ImGui::MenuItem(L("win.code").c_str(), nullptr, &st.show_code);
    ImGui::MenuItem(L("win.timings").c_str(), nullptr, &st.show_timings);
    if (ImGui::MenuItem(L("win.compare").c_str(), nullptr, &st.show_compare) && st.show_compare) st.compare = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.classroom").c_str())) {
    for (float s : {1.0f, 1.5f, 2.0f}) {
      char lab[32];
      std::snprintf(lab, sizeof lab, "%s x%.1f", tr("menu.scale"), s);
      if (ImGui::MenuItem(lab, nullptr, st.ui_scale == s)) { st.ui_scale = s; st.fonts_dirty = true; }
    }
    tooltip_key("menu.scale.tip");
    if (ImGui::MenuItem(L("menu.colorblind").c_str(), nullptr, &st.colorblind)) palette_set_colorblind(st.colorblind);
    tooltip_key("menu.colorblind.tip");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.language").c_str())) {
    if (ImGui::MenuItem("English", nullptr, st.lang == "en")) { st.lang = "en"; st.lang_dirty = true; }
    if (ImGui::MenuItem("简体中文", nullptr, st.lang == "zh_CN")) { st.lang = "zh_CN"; st.lang_dirty = true; }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(L("menu.help").c_str())) {
    ImGui::MenuItem(L("menu.about").c_str(), nullptr, &st.show_about);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

void open_dialog(AppState& st) {
  if (!st.show_open) return;
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0), ImGuiCond_Appearing);
  if (ImGui::Begin(L("open.title").c_str(), &st.show_open)) {
    ImGui::TextWrapped("%s", tr("open.help"));
    ImGui::SetNextItemWidth(-1);
    ImGui::InputText("##path", &st.open_path);
    if (ImGui::Button(L("open.open").c_str()) && open_trace(st, st.open_path)) st.show_open = false;
    ImGui::SameLine();
    if (ImGui::Button(L("open.save").c_str()) && st.a.trace) {
      try {
        save_trace(*st.a.trace, st.open_path);
        st.open_error = trf("open.saved", {st.open_path});
      } catch (const std::exception& e) {
        st.open_error = e.what();
      }
    }
    if (!st.open_error.empty()) ImGui::TextColored(ImVec4(1, 0.6f, 0.4f, 1), "%s", st.open_error.c_str());
  }
  ImGui::End();
}

void about(AppState& st) {
  if (!st.show_about) return;
  if (ImGui::Begin(L("menu.about").c_str(), &st.show_about, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::Text("redlab %s", REDLAB_VERSION);
    ImGui::TextUnformatted(tr("about.text"));
  }
  ImGui::End();
}

// The panels' area: the window less the menu bar and control strip above and the status bar below.
struct PanelArea {
  float top, bottom;
};
PanelArea panel_area() {
  // The viewport's work area only shrinks for the menu bar from the second frame: use its full size.
  return {ImGui::GetFrameHeight() + ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().WindowPadding.y * 2 + 2,
          ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y * 2};
}

// First-run layout (imgui.ini remembers what the user changes).
void place(float x, float y, float w, float h) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const PanelArea a = panel_area();
  const float H = vp->Size.y - a.top - a.bottom, W = vp->Size.x;
  ImGuiCond c = ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + x * W, vp->Pos.y + a.top + y * H), c);
  ImGui::SetNextWindowSize(ImVec2(w * W - 2, h * H - 2), c);
}

// The panels follow the window: when its size changes (a resize, a maximise, a move to the projector), every
// panel keeps its share of the panels' area, so nothing is left off-screen and no part of the window stays
// empty, whatever the user had arranged. Called after NewFrame, before any panel begins.
void follow_window_size(ImVec2& last) {
  const ImVec2 now = ImGui::GetIO().DisplaySize;
  if (now.x <= 0 || now.y <= 0) return;  // minimised: keep the layout for the size it comes back at
  const PanelArea a = panel_area();
  const float h0 = last.y - a.top - a.bottom, h1 = now.y - a.top - a.bottom;
  if (last.x > 0 && h0 > 0 && h1 > 0 && (now.x != last.x || now.y != last.y)) {
    // Each edge keeps its share of the area; an edge at the area's border (within a few pixels) keeps its
    // margin instead, so that panels reaching the window's edge still do after any number of resizes.
    auto edge = [](float e, float from, float to) {
      const float margin = 8;
      if (e <= margin) return e;
      if (from - e <= margin) return to - (from - e);
      return std::round(e * to / from);
    };
    const ImVec2 origin(ImGui::GetMainViewport()->Pos.x, ImGui::GetMainViewport()->Pos.y + a.top);
    for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
      if (w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip |
                      ImGuiWindowFlags_NoMove))
        continue;  // children follow their parent; the bars place themselves every frame
      const float x0 = edge(w->Pos.x - origin.x, last.x, now.x), y0 = edge(w->Pos.y - origin.y, h0, h1);
      const float x1 = edge(w->Pos.x - origin.x + w->SizeFull.x, last.x, now.x);
      const float y1 = edge(w->Pos.y - origin.y + w->SizeFull.y, h0, h1);
      ImGui::SetWindowPos(w, ImVec2(origin.x + x0, origin.y + y0));
      ImGui::SetWindowSize(w, ImVec2(x1 - x0, y1 - y0));
    }
  }
  last = now;
}

Scenario default_demo(const std::string& kernel) {
  Scenario s;
  s.kernel = kernel;
  s.n = 256;
  s.block = 256;
  s.type = ElemType::int32;
  s.op = OpKind::sum;
  s.input = InputKind::ones;
  return s;
}

void frame(AppState& st, GLFWwindow* win) {
  ImGui_ImplOpenGL3_NewFrame();
  // Glyphs are baked at their pixel size and drawn on whole pixels: nearest sampling draws them the same and
  // costs software GL (llvmpipe) far less than bilinear. Lines are then drawn as geometry, not from the atlas.
  static ImTextureID nearest_done = nullptr;
  if (ImGui::GetIO().Fonts->TexID != nearest_done && !std::getenv("REDLAB_GUI_LINEAR_FONT")) {
    nearest_done = ImGui::GetIO().Fonts->TexID;
    GLint prev = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev);
    glBindTexture(GL_TEXTURE_2D, GLuint(reinterpret_cast<std::uintptr_t>(nearest_done)));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, GLuint(prev));
  }
  ImGui::GetStyle().AntiAliasedLinesUseTex = std::getenv("REDLAB_GUI_LINEAR_FONT") != nullptr;
  ImGui_ImplGlfw_NewFrame();
  if (st.headless) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // no hover from a stray pointer
  ImGui::NewFrame();
  static ImVec2 last_size(0, 0);
  follow_window_size(last_size);
  handle_step_keys(st);
  static const char* hide = std::getenv("REDLAB_GUI_HIDE");
  if (hide) {
    std::string h = hide;
    auto has = [&](const char* k) { return h.find(k) != std::string::npos; };
    st.show_scenario = !has("scen"); st.show_tree = st.show_tree && !has("tree"); st.show_warps = !has("warps");
    st.show_banks = !has("banks"); st.show_metrics = !has("metrics"); st.show_code = !has("code");
    st.show_timings = !has("tim"); st.show_compare = !has("compare");
  }
  menu_bar(st, win);
  view_controls(st);
  const float cx = 0.22f, cw = 0.51f;
  place(0, 0, cx, 0.58f);          view_scenario(st);
  place(0, 0.58f, cx, 0.42f);      view_warps(st);
  const bool tiles = st.compare ? slot_draws_tile(st.a) || slot_draws_tile(st.b) : slot_draws_tile(st.a);
  if (!tiles) { place(cx, 0, cw, 0.62f); view_tree(st); }
  place(cx, 0, cw, 0.62f);         view_tile(st);
  // Transposes side by side need the room of two tiles: the compare window takes the centre and right columns.
  if (tiles) place(cx, 0, 1 - cx, 1.0f);
  else place(cx, 0, cw, 0.62f);
  view_compare(st);
  place(cx, 0.62f, cw, 0.38f);     view_metrics(st);
  place(cx + cw, 0, 1 - cx - cw, 0.36f);     view_code(st);
  // A transpose's Timings window lists every transpose of the reference run (six rows): it takes room from the
  // banks window, whose grid the tile view shows as well. (First use only: imgui.ini keeps what the user sets.)
  const float banks_h = takes_matrix(st.a.scenario) ? 0.22f : 0.42f;
  place(cx + cw, 0.36f, 1 - cx - cw, banks_h); view_banks(st);
  place(cx + cw, 0.36f + banks_h, 1 - cx - cw, 0.64f - banks_h); view_timings(st);
  place(0.18f, 0.06f, 0.62f, 0.88f);           view_bank_lab(st);
  open_dialog(st);
  about(st);
  status_bar(st);
  ImGui::Render();
}
}  // namespace
}  // namespace gui

int run_gui(const GuiOptions& opts) {
  using namespace gui;
  AppState st;
  st.opts = opts;
  st.headless = !opts.screenshot.empty();
  st.lang = i18n_system_default();
  if (!st.headless) load_settings(st);
  if (!opts.lang.empty()) st.lang = opts.lang;
  if (const char* e = std::getenv("REDLAB_LANG"); e && *e) st.lang = e;
  if (opts.ui_scale > 0) st.ui_scale = opts.ui_scale;
  if (const char* e = std::getenv("REDLAB_GUI_SCALE"); e && std::atof(e) > 0) st.ui_scale = std::clamp(float(std::atof(e)), 0.75f, 3.0f);
  st.colorblind = st.colorblind || opts.colorblind;
  if (const char* e = std::getenv("REDLAB_GUI_COLORBLIND"); e && *e == '1') st.colorblind = true;
  palette_set_colorblind(st.colorblind);
  i18n_load(st.lang);

  glfwSetErrorCallback([](int code, const char* msg) { std::fprintf(stderr, "redlab gui: GLFW %d: %s\n", code, msg); });
  if (!glfwInit()) {
    std::fprintf(stderr, "redlab gui: cannot open a window (no display? try xvfb-run)\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  if (st.headless) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
  GLFWwindow* win = glfwCreateWindow(std::max(320, opts.width), std::max(240, opts.height), "redlab", nullptr, nullptr);
  if (!win) {
    std::fprintf(stderr, "redlab gui: cannot create an OpenGL 3.3 core window\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(win);
  if (!gladLoadGL(glfwGetProcAddress)) {
    std::fprintf(stderr, "redlab gui: cannot load OpenGL 3.3 functions\n");
    glfwDestroyWindow(win);
    glfwTerminate();
    return 1;
  }
  glfwSwapInterval(st.headless ? 0 : 1);
  glfwSetWindowRefreshCallback(win, [](GLFWwindow*) { g_exposed = true; });
  glfwSetDropCallback(win, [](GLFWwindow*, int n, const char** paths) {
    for (int i = 0; i < n; ++i) g_dropped.emplace_back(paths[i]);
  });

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  static std::string ini;
  if (st.headless) {
    io.IniFilename = nullptr;
  } else if (std::string d = config_dir(); !d.empty()) {
    std::error_code ec;
    fs::create_directories(d, ec);
    ini = d + "/imgui.ini";
    io.IniFilename = ini.c_str();
  }
  ImGui_ImplGlfw_InitForOpenGL(win, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  build_fonts(st.ui_scale, st.lang);

  // What to show: a trace file, the scenario given, or the default demo (divergent vs convergent tree).
  if (!opts.trace_file.empty()) {
    open_trace(st, opts.trace_file);
  } else if (opts.scenario) {
    st.a.scenario = *opts.scenario;
    sync_text_fields(st.a);
    start_run(st, st.a);
    st.b.scenario = default_demo("interleaved");
    // B: the kernel A's record names to compare with, else its family's default (interleaved; the padded tile).
    const KernelRecord* ka = find_kernel(st.a.scenario.kernel);
    st.b.scenario.kernel = ka && !ka->compare_with.empty() ? ka->compare_with : family_of(st.a.scenario).default_compare;
    if (takes_matrix(st.a.scenario)) {
      st.b.scenario.rows = st.a.scenario.rows;
      st.b.scenario.cols = st.a.scenario.cols;
      st.b.scenario.block_rows = st.a.scenario.block_rows;
      st.b.scenario.focus_blocks = st.a.scenario.focus_blocks;
    }
    st.b.scenario.backend = st.a.scenario.backend;
    st.b.scenario.n = st.a.scenario.n;           // compare at the same size (gui.h: same n/block)
    st.b.scenario.block = st.a.scenario.block;
    st.b.scenario.type = st.a.scenario.type;
    st.b.scenario.op = st.a.scenario.op;
    st.b.scenario.input = st.a.scenario.input;
    if (const char* k = std::getenv("REDLAB_GUI_COMPARE_KERNEL"); k && *k) st.b.scenario.kernel = k;
    resolve_shape(st.b.scenario);
    sync_text_fields(st.b);
  } else {
    st.a.scenario = default_demo("neighbored_modulo");
    st.b.scenario = default_demo("interleaved");
    st.compare = true;
    st.show_tree = false;
    start_run(st, st.a);
    start_run(st, st.b);
  }
  if (opts.compare) {
    st.compare = true;
    st.show_tree = false;  // the compare window takes the tree's place
    if (takes_matrix(st.a.scenario)) {  // two tile views take the centre and right columns (View menu brings these back)
      st.show_metrics = st.show_code = st.show_banks = st.show_timings = false;
    }
  }
  if (st.compare && !st.b.trace && !st.b.running) start_run(st, st.b);
  if (st.headless) {  // settle everything before the first frame
    poll_run(st, st.a, true);
    poll_run(st, st.b, true);
    int k = opts.step;
    if (const char* e = std::getenv("REDLAB_GUI_STEP"); e && *e) k = std::atoi(e);
    if (k < 0) k = st.max_step() / 2;
    st.step = std::clamp(k, 0, st.max_step());
    st.anim = 1.0f;
  }

  // REDLAB_GUI_FOCUS_BLOCK=<block> / REDLAB_GUI_WARP=<warp> / REDLAB_GUI_ACCESS=<i>: what the banks and warps
  // windows show first (screenshots).
  if (const char* e = std::getenv("REDLAB_GUI_FOCUS_BLOCK"); e && *e && st.a.trace)
    for (size_t i = 0; i < st.a.trace->focus.size(); ++i)
      if (st.a.trace->focus[i].block == std::uint32_t(std::atoi(e))) st.sel_focus = int(i);
  if (const char* e = std::getenv("REDLAB_GUI_WARP"); e && *e) st.sel_warp = std::atoi(e);
  if (const char* e = std::getenv("REDLAB_GUI_ACCESS"); e && *e) st.sel_access = std::atoi(e);
  if (const char* e = std::getenv("REDLAB_GUI_TILE_REQ"); e && *e) st.sel_tile_req = std::atoi(e);
  // REDLAB_GUI_BANK_LAB=<expression> opens the bank lab on it (REDLAB_GUI_BANK_LAB_WIDTH=4|8|16,
  // REDLAB_GUI_BANK_LAB_STORE=1, REDLAB_GUI_BANK_LAB_MASK=0x...): screenshots and classroom set-ups.
  if (const char* e = std::getenv("REDLAB_GUI_BANK_LAB"); e && *e) {
    st.show_bank_lab = true;
    st.lab_expr = e;
    if (const char* w = std::getenv("REDLAB_GUI_BANK_LAB_WIDTH"); w && (std::atoi(w) == 8 || std::atoi(w) == 16)) st.lab_width = std::atoi(w);
    if (const char* w = std::getenv("REDLAB_GUI_BANK_LAB_STORE"); w && *w == '1') st.lab_store = true;
    if (const char* w = std::getenv("REDLAB_GUI_BANK_LAB_MASK"); w && *w) st.lab_mask = std::uint32_t(std::strtoul(w, nullptr, 0));
  }
  // REDLAB_GUI_PLAY=1 with --screenshot: play from step 0 on a fixed clock (exercises stepping + animation).
  const bool autoplay = st.headless && std::getenv("REDLAB_GUI_PLAY") && *std::getenv("REDLAB_GUI_PLAY") == '1';
  if (autoplay) {
    st.step = 0;
    st.playing = true;
    st.speed = 3.0f;
  }
  // Redraw only what changed where rasterising is dear (software GL); whole frames on hardware GL.
  // REDLAB_GUI_COMPOSITOR=0|1 overrides the choice (frame-time comparisons).
  bool composite = is_software_renderer(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  if (const char* e = std::getenv("REDLAB_GUI_COMPOSITOR"); e && (*e == '0' || *e == '1')) composite = *e == '1';
  auto compositor = std::make_unique<Compositor>(composite);
  std::vector<double> frame_ms;
  // REDLAB_GUI_PROFILE=1: mean time per phase (each phase closed by glFinish) and ImGui vertex counts.
  const bool profile = std::getenv("REDLAB_GUI_PROFILE") && *std::getenv("REDLAB_GUI_PROFILE") == '1';
  double prof[11] = {};
  int prof_step = -1;
  const int frames = std::max(1, opts.frames);
  int rc = 0;
  double last = glfwGetTime();
  for (int f = 0; !glfwWindowShouldClose(win); ++f) {
    const double t0 = glfwGetTime();
    glfwPollEvents();
    float dt = float(t0 - last);
    if (autoplay) dt = 1.0f / 30.0f;  // headless playback: a fixed clock, so runs are reproducible
    last = t0;
    for (auto& p : g_dropped) open_trace(st, p);
    g_dropped.clear();
    if (poll_run(st, st.a)) st.title_dirty = true;
    poll_run(st, st.b);
    // Compare switched on with nothing to compare yet: run B as it stands.
    if (st.compare && !st.b.trace && !st.b.running && st.b.error.empty()) start_run(st, st.b);
    if (st.fonts_dirty) {
      build_fonts(st.ui_scale, st.lang);
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
      st.fonts_dirty = false;
      if (!st.headless) save_settings(st);
    }
    if (st.lang_dirty) {
      i18n_load(st.lang);
      st.fonts_dirty = true;
      st.lang_dirty = false;
      st.title_dirty = true;
      if (!st.headless) save_settings(st);
    }
    if (palette_colorblind() != st.colorblind) palette_set_colorblind(st.colorblind);
    if (st.title_dirty) {
      glfwSetWindowTitle(win, window_title(st).c_str());
      st.title_dirty = false;
    }
    // The step clock.
    if (st.playing && (!st.headless || autoplay)) {
      st.step_timer += dt;
      if (st.step_timer >= 1.0f / st.speed) {
        st.step_timer = 0;
        if (st.step >= st.max_step()) st.playing = false;
        else st.set_step(st.step + 1);
      }
    }
    if (st.anim < 1.0f) st.anim = std::min(1.0f, st.anim + dt * std::max(1.5f, st.speed * 1.5f));
    if (const char* e = std::getenv("REDLAB_GUI_ANIM"); st.headless && e && *e) st.anim = std::clamp(float(std::atof(e)), 0.0f, 1.0f);
    if (st.headless && opts.frame_report && !autoplay) {
      // Frame-time runs animate the move into the current step on every frame.
      st.anim = float(f % 30) / 29.0f;
    }

    const double tb0 = glfwGetTime();
    const int step_before = prof_step;
    prof_step = st.step;
    gui::frame(st, win);
    if (profile) glFinish();
    const double tb1 = glfwGetTime();
    int fw, fh;
    glfwGetFramebufferSize(win, &fw, &fh);
    glViewport(0, 0, fw, fh);
    static const float kClear[4] = {0.09f, 0.10f, 0.12f, 1.0f};
    const bool changed = compositor->render(ImGui::GetDrawData(), fw, fh, kClear, take_changed_textures());
    // A frame the same as the last one on screen needs no swap: an idle window under software GL then costs
    // almost nothing. An expose (the window system lost the picture) and a read-back need the picture in the
    // back buffer all the same.
    const bool present = changed || g_exposed || st.headless;
    if (present && !changed) compositor->copy_to_window(fw, fh);
    g_exposed = false;
    if (profile) glFinish();
    const double tb2 = glfwGetTime();

    const bool last_frame = st.headless && f + 1 >= frames;
    if (last_frame) {
      glFinish();
      std::vector<unsigned char> px(size_t(fw) * fh * 4), flipped(px.size());
      glPixelStorei(GL_PACK_ALIGNMENT, 1);
      glReadBuffer(GL_BACK);
      glReadPixels(0, 0, fw, fh, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
      for (int y = 0; y < fh; ++y)
        std::copy_n(&px[size_t(fh - 1 - y) * fw * 4], size_t(fw) * 4, &flipped[size_t(y) * fw * 4]);
      for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;
      stbi_write_png_compression_level = 9;  // smaller files (docs/ screenshots)
      if (!stbi_write_png(opts.screenshot.c_str(), fw, fh, 4, flipped.data(), fw * 4)) {
        std::fprintf(stderr, "redlab gui: cannot write %s\n", opts.screenshot.c_str());
        rc = 1;
      }
    }
    if (present) glfwSwapBuffers(win);
    // Swap interval 1 holds a hardware-GL window to the display's refresh; where the swap does not wait
    // (software GL, Xvfb) hold an interactive window near 60 frames per second instead of spinning a core,
    // and when nothing changed wait for input (or a background run) up to 0.1 s.
    if (!st.headless) {
      const double spare = (changed ? 1.0 / 60.0 : 0.1) - (glfwGetTime() - t0);
      if (spare > 0.001) glfwWaitEventsTimeout(spare);
    }
    if (st.headless) glFinish();
    // The frame that reads the pixels back and encodes the PNG is not a frame a user would see.
    if (!last_frame) frame_ms.push_back((glfwGetTime() - t0) * 1000.0);
    else frame_ms.push_back(-1);
    if (profile && f >= 2) {
      const ImDrawData* dd = ImGui::GetDrawData();
      prof[0] += (tb0 - t0) * 1000; prof[1] += (tb1 - tb0) * 1000; prof[2] += (tb2 - tb1) * 1000;
      prof[3] += (glfwGetTime() - tb2) * 1000; prof[4] += dd ? dd->TotalVtxCount : 0; prof[5] += dd ? dd->TotalIdxCount : 0;
      prof[6] += 1;
      prof[10] += compositor->last_dirty_fraction();
      if (std::getenv("REDLAB_GUI_PROFILE_FRAMES"))
        std::printf("frame %d step %d anim %.2f: %.2f ms (build %.2f, draw %.2f), redrawn %.0f %%\n", f, st.step, st.anim,
                    frame_ms.back(), (tb1 - tb0) * 1000, (tb2 - tb1) * 1000, 100 * compositor->last_dirty_fraction());
      if (step_before != st.step) { prof[7] += frame_ms.back(); prof[8] += 1; prof[9] += (tb1 - tb0) * 1000; }
    }
    if (last_frame) break;
  }
  if (!st.headless) save_settings(st);
  if (profile && prof[6] > 0)
    std::printf("profile (mean ms): pre %.2f  build+tree %.2f  imgui draw %.2f  swap/read %.2f  |  vtx %.0f  idx %.0f\n",
                prof[0] / prof[6], prof[1] / prof[6], prof[2] / prof[6], prof[3] / prof[6], prof[4] / prof[6],
                prof[5] / prof[6]);
  if (profile && prof[6] > 0) std::printf("redrawn: %.1f %% of the window per frame\n", 100.0 * prof[10] / prof[6]);
  if (profile && prof[8] > 0)
    std::printf("step-change frames: %.0f, mean %.2f ms, build+tree %.2f ms\n", prof[8], prof[7] / prof[8], prof[9] / prof[8]);

  if (opts.frame_report && !frame_ms.empty()) {
    std::vector<double> v(frame_ms.begin() + std::min<size_t>(2, frame_ms.size() - 1), frame_ms.end());
    v.erase(std::remove(v.begin(), v.end(), -1.0), v.end());
    if (v.empty()) v.push_back(0);
    std::sort(v.begin(), v.end());
    auto pct = [&](double p) { return v[std::min(v.size() - 1, size_t(p / 100.0 * double(v.size() - 1) + 0.5))]; };
    int cells = st.a.tree.valid ? int(st.a.tree.cells) : 0;
    std::printf("frame times over %zu frames (%dx%d, %d cells): p50 %.2f ms  p95 %.2f ms  p99 %.2f ms  max %.2f ms\n",
                v.size(), opts.width, opts.height, cells, pct(50), pct(95), pct(99), v.back());
  }
  if (st.headless) {
    for (Slot* s : {&st.a, &st.b})
      if (!s->error.empty()) std::fprintf(stderr, "redlab gui: %s\n", s->error.c_str());
  }

  release_gl_resources();
  compositor.reset();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(win);
  glfwTerminate();
  // A run still in flight: wait for it so its thread does not outlive the process state.
  for (Slot* s : {&st.a, &st.b})
    if (s->pending.valid()) s->pending.wait();
  return rc;
}

}  // namespace redlab
