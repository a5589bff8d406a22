// The files an export writes from pixels: PNG (stb_image_write) and animated GIF (giflib), and the picture
// operations on the way (crop to a view, scale to a width). No GL here: the pixels come from capture.h.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct GifFileType;

namespace redlab::gui {

// RGBA, 8 bits a channel, rows top to bottom.
struct Image {
  int w = 0, h = 0;
  std::vector<std::uint8_t> rgba;
  bool empty() const { return w <= 0 || h <= 0; }
};
// The part of `img` in the rectangle (clamped to the image).
Image crop(const Image& img, int x, int y, int w, int h);
// `img` scaled to `width` (height in proportion); unchanged when width is 0 or the same.
Image scale_to_width(const Image& img, int width);

// Writes a PNG, marked as redlab's (model/export.h); `keep_alpha`: the alpha as drawn (a transparent background),
// else opaque; `source`: its "Source" text where not empty (model::picture_source: the backend and device the
// picture was drawn from). Replaces the file at once, never a device or a pipe (write_file_atomically). Throws
// std::runtime_error naming the file when it cannot be written.
void write_png_file(const std::string& path, const Image& img, bool keep_alpha, const std::string& source = "");

// An animated GIF, frame by frame, looping. Each frame is stored as the rectangle that changed since the frame
// before (a step of the tree changes a strip of the picture, not all of it), with its own 256-colour table;
// a frame the same as the one before only lengthens that one's time.
class GifWriter {
 public:
  // Throws std::runtime_error naming the file when it cannot be created.
  GifWriter(const std::string& path, int width, int height);
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;
  ~GifWriter();  // closes it (a GIF not finished with close() is still a valid GIF)

  // A frame of width x height pixels shown for `delay_cs` hundredths of a second.
  void add(const Image& frame, int delay_cs);
  // Writes what is pending and closes the file; throws std::runtime_error on a write error.
  void close();
  int frames_written() const { return written_; }

 private:
  void flush();
  GifFileType* gif_ = nullptr;
  std::string data_;  // the file as giflib writes it, written out at close()
  std::string path_;
  int w_, h_;
  Image previous_;  // the last frame written, as it was added
  Image pending_;  // the last frame added, not yet written (its time may still grow)
  int pending_delay_ = 0;
  int written_ = 0;
};

}  // namespace redlab::gui
