// Checks a screenshot has content: png_check FILE MIN_COLOURS [x0 y0 x1 y1 MIN_COLOURS_IN_REGION MIN_FRACTION]...
//                                                             [rgb RRGGBB x0 y0 x1 y1 MIN_FRACTION]...
// Regions are fractions of the image; a region passes when it holds at least MIN_COLOURS_IN_REGION distinct
// colours and at least MIN_FRACTION of its pixels differ from its most common colour (the background).
// An rgb check passes when at least MIN_FRACTION of the region's pixels are exactly that colour (e.g. a table's
// lit row, which shows that the row was drawn there); `rgbmax RRGGBB x0 y0 x1 y1 MAX_FRACTION` when at most that
// share are (a colour that must not be there, e.g. conflict red on the conflict-free side); `rgbnear RRGGBB TOL x0 y0
// x1 y1 MIN_FRACTION` counts pixels within TOL of the colour in each channel (a GIF's palette moves colours a little).
// An `alpha MIN_FRACTION MAX_FRACTION` check passes when the share of fully transparent pixels in the whole
// image lies between the two (a transparent export: 0.05 1; an opaque one: 0 0).
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <map>
#include <set>
#include <string>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: png_check FILE MIN_COLOURS [x0 y0 x1 y1 MIN_COLOURS MIN_FRACTION]... "
                 "[rgb RRGGBB x0 y0 x1 y1 MIN_FRACTION]...\n");
    return 2;
  }
  int w, h, n;
  unsigned char* px = stbi_load(argv[1], &w, &h, &n, 3);
  if (!px) {
    std::fprintf(stderr, "%s: cannot decode: %s\n", argv[1], stbi_failure_reason());
    return 1;
  }
  auto colour = [&](int x, int y) {
    const unsigned char* p = px + (size_t(y) * w + x) * 3;
    return unsigned(p[0]) << 16 | unsigned(p[1]) << 8 | p[2];
  };
  int rc = 0;
  std::set<unsigned> all;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) all.insert(colour(x, y));
  const size_t min_all = std::strtoul(argv[2], nullptr, 10);
  std::printf("%s: %dx%d, %zu distinct colours (need %zu)\n", argv[1], w, h, all.size(), min_all);
  if (all.size() < min_all) rc = 1;
  for (int a = 3; a < argc; a += 6) {
    if (std::string(argv[a]) == "alpha") {
      if (a + 2 >= argc) {
        std::fprintf(stderr, "alpha: give MIN_FRACTION MAX_FRACTION\n");
        rc = 1;
        break;
      }
      int aw, ah, an;
      unsigned char* rgba = stbi_load(argv[1], &aw, &ah, &an, 4);
      std::size_t clear = 0;
      for (std::size_t i = 0; rgba && i < std::size_t(aw) * ah; ++i) clear += rgba[i * 4 + 3] == 0;
      if (rgba) stbi_image_free(rgba);
      const double frac = double(clear) / double(std::size_t(w) * h), lo = std::atof(argv[a + 1]),
                   hi = std::atof(argv[a + 2]);
      const bool ok = frac >= lo && frac <= hi;
      std::printf("  transparent pixels: %.1f %% (need %.1f..%.1f %%): %s\n", frac * 100, lo * 100, hi * 100,
                  ok ? "ok" : "FAIL");
      if (!ok) rc = 1;
      a -= 3;  // 3 arguments
      continue;
    }
    if (a + 5 >= argc) break;
    if (std::string(argv[a]) == "rgb" || std::string(argv[a]) == "rgbmax" || std::string(argv[a]) == "rgbnear") {
      const bool at_most = std::string(argv[a]) == "rgbmax";
      int tol = 0;
      if (std::string(argv[a]) == "rgbnear") {  // the tolerance after the colour: the rest as rgb's
        if (a + 7 >= argc) {
          std::fprintf(stderr, "rgbnear: give RRGGBB TOL x0 y0 x1 y1 FRACTION\n");
          rc = 1;
          break;
        }
        tol = std::atoi(argv[a + 2]);
        argv[a + 2] = argv[a + 1];
        ++a;
      }
      if (a + 6 >= argc) {
        std::fprintf(stderr, "rgb: give RRGGBB x0 y0 x1 y1 FRACTION\n");
        rc = 1;
        break;
      }
      const unsigned want = unsigned(std::strtoul(argv[a + 1], nullptr, 16));
      auto near = [&](unsigned c) {
        for (int shift : {0, 8, 16})
          if (std::abs(int((c >> shift) & 255) - int((want >> shift) & 255)) > tol) return false;
        return true;
      };
      double f[4];
      for (int k = 0; k < 4; ++k) f[k] = std::atof(argv[a + 2 + k]);
      const double min_frac = std::atof(argv[a + 6]);
      int x0 = int(f[0] * w), y0 = int(f[1] * h), x1 = int(f[2] * w), y1 = int(f[3] * h);
      size_t hits = 0, total = size_t(std::max(0, x1 - x0)) * size_t(std::max(0, y1 - y0));
      for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) hits += near(colour(x, y));
      const double frac = total ? double(hits) / double(total) : 0;
      const bool ok = at_most ? frac <= min_frac : frac >= min_frac;
      std::printf("  colour %06x in [%.2f %.2f %.2f %.2f]: %.2f %% of the pixels (%s %.2f %%): %s\n", want, f[0], f[1],
                  f[2], f[3], frac * 100, at_most ? "at most" : "need", min_frac * 100, ok ? "ok" : "FAIL");
      if (!ok) rc = 1;
      a += 1;  // 7 arguments
      continue;
    }
    double f[4];
    for (int k = 0; k < 4; ++k) f[k] = std::atof(argv[a + k]);
    const size_t min_c = std::strtoul(argv[a + 4], nullptr, 10);
    const double min_frac = std::atof(argv[a + 5]);
    int x0 = int(f[0] * w), y0 = int(f[1] * h), x1 = int(f[2] * w), y1 = int(f[3] * h);
    std::map<unsigned, size_t> hist;
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) ++hist[colour(x, y)];
    size_t total = size_t(x1 - x0) * size_t(y1 - y0), top = 0;
    for (auto& [c, k] : hist) top = std::max(top, k);
    double frac = total ? 1.0 - double(top) / double(total) : 0;
    bool ok = hist.size() >= min_c && frac >= min_frac;
    std::printf("  region [%.2f %.2f %.2f %.2f]: %zu colours (need %zu), %.1f %% non-background (need %.1f %%): %s\n",
                f[0], f[1], f[2], f[3], hist.size(), min_c, frac * 100, min_frac * 100, ok ? "ok" : "FAIL");
    if (!ok) rc = 1;
  }
  stbi_image_free(px);
  return rc;
}
