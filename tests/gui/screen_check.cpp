// Checks what an X screen shows of redlab's window, read from Xvfb's own framebuffer file (Xvfb -fbdir writes
// the screen as an XWD image): the picture a user sees, not the app's read-back of what it drew.
//   screen_check SCREEN W H [--again SCREEN2] [--png OUT.png]
// The window is at (0, 0) and W x H. It passes when
//   - the menu bar spans the window's top and the status bar its bottom (the frame was drawn for this size:
//     a picture left from another size has them elsewhere or not at all);
//   - the panels fill the area between them out to the right edge and down to the status bar (no empty part
//     left from a smaller size, no panel cut off from a larger one);
//   - the screen beside and below the window is the root's black (nothing drawn past the window);
//   - with --again, a second capture taken a little later shows the same window pixel for pixel (a settled
//     picture, not two frames taking turns).
// --png writes the window's part of the screen (for a person to look at).
#include <stb_image_write.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

// The colours redlab draws with (ImGui's dark style and run_gui's clear colour, as 8-bit sRGB).
constexpr std::uint32_t kMenuBar = 0x242424;  // ImGuiCol_MenuBarBg 0.14
constexpr std::uint32_t kWindow = 0x0f0f0f;  // ImGuiCol_WindowBg 0.06, made opaque by redlab
constexpr std::uint32_t kClear = 0x171a1f;  // glClearColor(0.09, 0.10, 0.12): no panel there
constexpr std::uint32_t kRoot = 0x000000;  // Xvfb's root window

struct Screen {
  int w = 0, h = 0;
  std::vector<std::uint32_t> px;  // 0xRRGGBB
  std::uint32_t at(int x, int y) const { return px[std::size_t(y) * w + x]; }
};

std::uint32_t be32(const unsigned char* p) { return std::uint32_t(p[0]) << 24 | p[1] << 16 | p[2] << 8 | p[3]; }

bool read_xwd(const char* path, Screen& s, std::string& why) {
  std::ifstream f(path, std::ios::binary);
  const std::vector<unsigned char> d((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (d.size() < 100) {
    why = "not an XWD file (too short)";
    return false;
  }
  std::uint32_t h[25];
  for (int i = 0; i < 25; ++i) h[i] = be32(&d[std::size_t(i) * 4]);
  const std::uint32_t header = h[0], version = h[1], width = h[4], height = h[5], byte_order = h[7], bpp = h[11],
                      bpl = h[12], red = h[14], green = h[15], blue = h[16], ncolors = h[19];
  if (version != 7 || bpp != 32 || red != 0xff0000 || green != 0xff00 || blue != 0xff) {
    why = "unexpected XWD layout (want version 7, 32 bits per pixel, 8-bit RGB masks)";
    return false;
  }
  const std::size_t off = std::size_t(header) + std::size_t(ncolors) * 12;
  if (d.size() < off + std::size_t(bpl) * height) {
    why = "XWD file shorter than its header says";
    return false;
  }
  s.w = int(width);
  s.h = int(height);
  s.px.resize(std::size_t(width) * height);
  for (std::uint32_t y = 0; y < height; ++y)
    for (std::uint32_t x = 0; x < width; ++x) {
      const unsigned char* p = &d[off + std::size_t(y) * bpl + std::size_t(x) * 4];
      const std::uint32_t v =
          byte_order == 0 ? std::uint32_t(p[0]) | p[1] << 8 | p[2] << 16 | std::uint32_t(p[3]) << 24 : be32(p);
      s.px[std::size_t(y) * width + x] = v & 0xffffff;
    }
  return true;
}

// Share of the pixels on a horizontal (dx=1) or vertical (dy=1) run that are exactly `colour`.
double share(const Screen& s, int x, int y, int dx, int dy, int n, std::uint32_t colour) {
  int hits = 0;
  for (int i = 0; i < n; ++i) hits += s.at(x + i * dx, y + i * dy) == colour;
  return n > 0 ? double(hits) / n : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: screen_check SCREEN W H [--again SCREEN2] [--png OUT.png]\n");
    return 2;
  }
  const int W = std::atoi(argv[2]), H = std::atoi(argv[3]);
  const char *again = nullptr, *png = nullptr;
  for (int i = 4; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--again"))
      again = argv[i + 1];
    else if (!std::strcmp(argv[i], "--png"))
      png = argv[i + 1];
  }
  Screen s;
  std::string why;
  if (!read_xwd(argv[1], s, why)) {
    std::fprintf(stderr, "%s: %s\n", argv[1], why.c_str());
    return 1;
  }
  if (W < 200 || H < 200 || W > s.w || H > s.h) {
    std::fprintf(stderr, "window %dx%d does not fit the %dx%d screen\n", W, H, s.w, s.h);
    return 1;
  }
  int rc = 0;
  auto expect = [&](bool ok, const char* what, double got) {
    std::printf("  %-58s %6.1f %%  %s\n", what, got * 100, ok ? "ok" : "FAIL");
    if (!ok) rc = 1;
  };
  std::printf("%s: window %dx%d on a %dx%d screen\n", argv[1], W, H, s.w, s.h);
  double m = share(s, W / 2, 2, 1, 0, W / 2 - 2, kMenuBar);
  expect(m > 0.99, "menu bar colour along the top (right half, row 2)", m);
  m = share(s, 4, H - 4, 1, 0, W - 8, kWindow);
  expect(m > 0.99, "status bar colour along the bottom (row H-4)", m);
  // The panels: from under the control strip to above the status bar, and across to the right edge.
  m = share(s, W - 8, 80, 0, 1, H - 130, kClear);
  expect(m < 0.10, "empty background down the right edge (column W-8)", m);
  m = share(s, 0, H - 50, 1, 0, W, kClear);
  expect(m < 0.10, "empty background across the bottom (row H-50)", m);
  if (W + 2 < s.w) {
    m = share(s, W + 1, 0, 0, 1, H, kRoot);
    expect(m > 0.999, "root black right of the window (column W+1)", m);
  }
  if (H + 2 < s.h) {
    m = share(s, 0, H + 1, 1, 0, W, kRoot);
    expect(m > 0.999, "root black below the window (row H+1)", m);
  }
  if (again) {
    Screen t;
    if (!read_xwd(again, t, why) || t.w != s.w || t.h != s.h) {
      std::fprintf(stderr, "%s: %s\n", again, why.empty() ? "another screen size" : why.c_str());
      return 1;
    }
    std::size_t diff = 0;
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) diff += s.at(x, y) != t.at(x, y);
    expect(diff == 0, "pixels that differ in a second capture (settled picture)", double(diff) / (double(W) * H));
  }
  if (png) {
    std::vector<unsigned char> rgb(std::size_t(W) * H * 3);
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        const std::uint32_t v = s.at(x, y);
        unsigned char* p = &rgb[(std::size_t(y) * W + x) * 3];
        p[0] = v >> 16 & 0xff;
        p[1] = v >> 8 & 0xff;
        p[2] = v & 0xff;
      }
    if (!stbi_write_png(png, W, H, 3, rgb.data(), W * 3)) {
      std::fprintf(stderr, "cannot write %s\n", png);
      rc = 1;
    }
  }
  return rc;
}
