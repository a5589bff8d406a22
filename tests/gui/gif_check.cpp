// Reads an animated GIF back (giflib) and checks what an export promises:
//   gif_check FILE MIN_FRAMES [dump K OUT.png]...
// It composes every frame over the ones before (each stores only the rectangle that changed), prints the
// size, the frame count, the total time and how many composed frames differ from the one before, and fails
// when the file does not decode, has fewer than MIN_FRAMES frames, a frame has no time, or no two composed
// frames differ (nothing moves). `dump K OUT.png` writes composed frame K, to look at or check with png_check.
#include <gif_lib.h>
#include <stb_image_write.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gif_check FILE MIN_FRAMES [dump K OUT.png]...\n");
    return 2;
  }
  int err = 0;
  GifFileType* gif = DGifOpenFileName(argv[1], &err);
  if (!gif || DGifSlurp(gif) == GIF_ERROR) {
    std::fprintf(stderr, "%s: cannot decode: %s\n", argv[1], GifErrorString(gif ? gif->Error : err));
    return 1;
  }
  std::map<int, std::string> dumps;
  for (int a = 3; a + 2 < argc; a += 3)
    if (std::string(argv[a]) == "dump") dumps[std::atoi(argv[a + 1])] = argv[a + 2];
  const int W = gif->SWidth, H = gif->SHeight;
  std::vector<unsigned char> canvas(std::size_t(W) * H * 3, 0), before;
  int rc = 0, changes = 0, total_cs = 0;
  for (int i = 0; i < gif->ImageCount; ++i) {
    const SavedImage& im = gif->SavedImages[i];
    GraphicsControlBlock gcb{};
    DGifSavedExtensionToGCB(gif, i, &gcb);
    if (gcb.DelayTime <= 0) {
      std::fprintf(stderr, "frame %d has no time\n", i);
      rc = 1;
    }
    total_cs += gcb.DelayTime;
    const ColorMapObject* map = im.ImageDesc.ColorMap ? im.ImageDesc.ColorMap : gif->SColorMap;
    if (!map) {
      std::fprintf(stderr, "frame %d has no colour table\n", i);
      return 1;
    }
    before = canvas;
    const GifImageDesc& d = im.ImageDesc;
    for (int y = 0; y < d.Height; ++y)
      for (int x = 0; x < d.Width; ++x) {
        const int px = d.Left + x, py = d.Top + y;
        if (px >= W || py >= H) continue;
        const int idx = im.RasterBits[std::size_t(y) * d.Width + x];
        if (idx == gcb.TransparentColor) continue;
        const GifColorType& c = map->Colors[idx];
        unsigned char* q = &canvas[(std::size_t(py) * W + px) * 3];
        q[0] = c.Red, q[1] = c.Green, q[2] = c.Blue;
      }
    if (i > 0 && canvas != before) ++changes;
    if (auto it = dumps.find(i);
        it != dumps.end() && !stbi_write_png(it->second.c_str(), W, H, 3, canvas.data(), W * 3)) {
      std::fprintf(stderr, "cannot write %s\n", it->second.c_str());
      rc = 1;
    }
  }
  const int min_frames = std::atoi(argv[2]);
  std::printf("%s: %dx%d, %d frames (need %d), %.2f s, %d frames change the picture\n", argv[1], W, H, gif->ImageCount,
              min_frames, total_cs / 100.0, changes);
  if (gif->ImageCount < min_frames) rc = 1;
  if (changes == 0) {
    std::fprintf(stderr, "no frame changes the picture\n");
    rc = 1;
  }
  DGifCloseFile(gif, &err);
  return rc;
}
