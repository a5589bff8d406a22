// Compares two PNGs pixel by pixel: prints the number of differing pixels and their bounding box.
// usage: png_diff A.png B.png [max_differing_pixels [channel_tolerance [x0 y0 x1 y1]]]
// (x0 y0 x1 y1: compare only that rectangle, in fractions of the image)
// A pixel differs when a channel differs by more than the tolerance (default 0); exit 0 when at most
// max_differing_pixels differ (default 0).
#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: png_diff A.png B.png [max_differing_pixels]\n");
    return 2;
  }
  int wa, ha, ca, wb, hb, cb;
  unsigned char* a = stbi_load(argv[1], &wa, &ha, &ca, 3);
  unsigned char* b = stbi_load(argv[2], &wb, &hb, &cb, 3);
  if (!a || !b) {
    std::fprintf(stderr, "png_diff: cannot read %s\n", !a ? argv[1] : argv[2]);
    return 2;
  }
  if (wa != wb || ha != hb) {
    std::printf("png_diff: sizes differ (%dx%d vs %dx%d)\n", wa, ha, wb, hb);
    return 1;
  }
  const int tol = argc > 4 ? std::atoi(argv[4]) : 0;
  int rx0 = 0, ry0 = 0, rx1 = wa, ry1 = ha;
  if (argc > 8) {
    rx0 = int(std::atof(argv[5]) * wa), ry0 = int(std::atof(argv[6]) * ha);
    rx1 = int(std::atof(argv[7]) * wa), ry1 = int(std::atof(argv[8]) * ha);
  }
  long n = 0;
  int x0 = wa, y0 = ha, x1 = -1, y1 = -1;
  for (int y = ry0; y < ry1; ++y)
    for (int x = rx0; x < rx1; ++x) {
      const unsigned char* p = a + (size_t(y) * wa + x) * 3;
      const unsigned char* q = b + (size_t(y) * wa + x) * 3;
      if (std::abs(p[0] - q[0]) > tol || std::abs(p[1] - q[1]) > tol || std::abs(p[2] - q[2]) > tol) {
        if (std::getenv("PNG_DIFF_VERBOSE") && n < 40)
          std::printf("  (%d,%d): %d %d %d vs %d %d %d\n", x, y, p[0], p[1], p[2], q[0], q[1], q[2]);
        ++n;
        x0 = std::min(x0, x);
        y0 = std::min(y0, y);
        x1 = std::max(x1, x);
        y1 = std::max(y1, y);
      }
    }
  const long limit = argc > 3 ? std::atol(argv[3]) : 0;
  if (n)
    std::printf("png_diff: %ld pixels differ, in x %d..%d, y %d..%d\n", n, x0, x1, y0, y1);
  else
    std::printf("png_diff: identical\n");
  stbi_image_free(a);
  stbi_image_free(b);
  return n <= limit ? 0 : 1;
}
