#include "gui/export/export_files.h"

#include <gif_lib.h>
#include <zlib.h>
#include <stb_image_resize.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "core/file_write.h"
#include "model/export.h"

namespace redlab::gui {

Image crop(const Image& img, int x, int y, int w, int h) {
  const int x0 = std::clamp(x, 0, img.w), y0 = std::clamp(y, 0, img.h);
  const int x1 = std::clamp(x + w, x0, img.w), y1 = std::clamp(y + h, y0, img.h);
  Image out;
  out.w = x1 - x0;
  out.h = y1 - y0;
  out.rgba.resize(std::size_t(out.w) * out.h * 4);
  for (int r = 0; r < out.h; ++r)
    std::memcpy(&out.rgba[std::size_t(r) * out.w * 4], &img.rgba[(std::size_t(y0 + r) * img.w + x0) * 4],
                std::size_t(out.w) * 4);
  return out;
}

Image scale_to_width(const Image& img, int width) {
  if (width <= 0 || width == img.w || img.empty()) return img;
  Image out;
  out.w = width;
  out.h = std::max(1, int(double(img.h) * width / img.w + 0.5));
  out.rgba.resize(std::size_t(out.w) * out.h * 4);
  if (!stbir_resize_uint8(img.rgba.data(), img.w, img.h, 0, out.rgba.data(), out.w, out.h, 0, 4))
    throw std::runtime_error("cannot scale the picture to " + std::to_string(width) + " pixels wide");
  return out;
}

void write_png_file(const std::string& path, const Image& img, bool keep_alpha, const std::string& source) {
  if (img.empty()) throw std::runtime_error("nothing to write to " + path + ": the picture is empty");
  std::vector<std::uint8_t> px = img.rgba;
  if (!keep_alpha)
    for (std::size_t i = 3; i < px.size(); i += 4) px[i] = 255;
  stbi_write_png_compression_level = 9;
  std::string png;
  auto append = [](void* to, void* data, int size) {
    static_cast<std::string*>(to)->append(static_cast<char*>(data), std::size_t(size));
  };
  if (!stbi_write_png_to_func(append, &png, img.w, img.h, 4, px.data(), img.w * 4))
    throw std::runtime_error("cannot encode " + path + " as PNG");
  // redlab's mark after the header chunk (model/export.h): a text chunk "Software" = "redlab", then the source's
  // text, each with its CRC-32.
  auto be32 = [](std::uint32_t v) {
    return std::string{char(v >> 24), char(v >> 16 & 255), char(v >> 8 & 255), char(v & 255)};
  };
  auto text_chunk = [&](const std::string& key, const std::string& value) {
    const std::string body = "tEXt" + key + '\0' + value;
    const auto crc = std::uint32_t(crc32(0L, reinterpret_cast<const Bytef*>(body.data()), uInt(body.size())));
    return be32(std::uint32_t(body.size() - 4)) + body + be32(crc);
  };
  constexpr std::size_t kAfterHeader = 8 + 25;  // the signature, then IHDR (length, type, 13 bytes, CRC)
  png.insert(kAfterHeader,
             text_chunk("Software", model::kExportMark) + (source.empty() ? "" : text_chunk("Source", source)));
  write_file_atomically(path, png);  // a failed write leaves the old file as it was
}

namespace {
[[noreturn]] void gif_fail(const std::string& path, int code) {
  const char* why = GifErrorString(code);
  throw std::runtime_error("cannot write " + path + ": " + (why ? why : "giflib error " + std::to_string(code)));
}
}  // namespace

GifWriter::GifWriter(const std::string& path, int width, int height) : path_(path), w_(width), h_(height) {
  if (width <= 0 || height <= 0 || width > 65535 || height > 65535)
    throw std::runtime_error("a GIF of " + std::to_string(width) + "x" + std::to_string(height) + " cannot be written");
  // The GIF is made in memory and written in one step at close() (write_file_atomically).
  int err = 0;
  gif_ = EGifOpen(
      &data_,
      [](GifFileType* g, const GifByteType* bytes, int n) {
        static_cast<std::string*>(g->UserData)->append(reinterpret_cast<const char*>(bytes), std::size_t(n));
        return n;
      },
      &err);
  if (!gif_) gif_fail(path, err);
  EGifSetGifVersion(gif_, true);  // GIF89a: frame times and looping
  if (EGifPutScreenDesc(gif_, width, height, 8, 0, nullptr) == GIF_ERROR) gif_fail(path, gif_->Error);
  // redlab's mark (model/export.h): an export replaces only a GIF that carries it.
  if (EGifPutComment(gif_, model::kExportMark) == GIF_ERROR) gif_fail(path, gif_->Error);
  // Loop forever (the Netscape application extension every viewer reads).
  static const GifByteType app[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  static const GifByteType loop[] = {1, 0, 0};
  if (EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(gif_, sizeof app, app) == GIF_ERROR ||
      EGifPutExtensionBlock(gif_, sizeof loop, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif_) == GIF_ERROR)
    gif_fail(path, gif_->Error);
}

GifWriter::~GifWriter() {
  try {
    close();
  } catch (...) {}
}

void GifWriter::add(const Image& frame, int delay_cs) {
  if (!gif_) throw std::runtime_error("the GIF " + path_ + " is already closed");
  if (frame.w != w_ || frame.h != h_)
    throw std::runtime_error("a GIF frame of " + std::to_string(frame.w) + "x" + std::to_string(frame.h) +
                             " in a GIF of " + std::to_string(w_) + "x" + std::to_string(h_));
  if (!pending_.empty() && pending_.rgba == frame.rgba) {
    pending_delay_ += delay_cs;
    return;
  }
  flush();
  pending_ = frame;
  pending_delay_ = delay_cs;
}

void GifWriter::flush() {
  if (pending_.empty()) return;
  // The rectangle that differs from what the GIF shows so far (all of it for the first frame).
  int x0 = 0, y0 = 0, x1 = w_, y1 = h_;
  if (!previous_.empty()) {
    x0 = w_, y0 = h_, x1 = 0, y1 = 0;
    for (int y = 0; y < h_; ++y) {
      const std::uint8_t* a = &pending_.rgba[std::size_t(y) * w_ * 4];
      const std::uint8_t* b = &previous_.rgba[std::size_t(y) * w_ * 4];
      if (std::memcmp(a, b, std::size_t(w_) * 4) == 0) continue;
      y0 = std::min(y0, y);
      y1 = y + 1;
      for (int x = 0; x < w_; ++x)
        if (std::memcmp(a + x * 4, b + x * 4, 4) != 0) {
          x0 = std::min(x0, x);
          x1 = std::max(x1, x + 1);
        }
    }
    if (x1 <= x0) x0 = y0 = 0, x1 = y1 = 1;  // no change (only after a time-only merge): one pixel
  }
  const int w = x1 - x0, h = y1 - y0;
  std::vector<GifByteType> r(std::size_t(w) * h), g(r.size()), b(r.size()), index(r.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::uint8_t* p = &pending_.rgba[(std::size_t(y0 + y) * w_ + x0 + x) * 4];
      const std::size_t i = std::size_t(y) * w + x;
      r[i] = p[0], g[i] = p[1], b[i] = p[2];
    }
  int colours = 256;
  GifColorType palette[256] = {};
  if (GifQuantizeBuffer(unsigned(w), unsigned(h), &colours, r.data(), g.data(), b.data(), index.data(), palette) ==
      GIF_ERROR)
    throw std::runtime_error("cannot reduce a frame of " + path_ + " to 256 colours");
  ColorMapObject* map = GifMakeMapObject(256, palette);
  if (!map) throw std::runtime_error("out of memory writing " + path_);
  GraphicsControlBlock gcb{};
  gcb.DisposalMode = DISPOSE_DO_NOT;  // the next frame's rectangle is drawn over this one
  gcb.DelayTime = std::max(2, pending_delay_);
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType ext[4];
  const std::size_t len = EGifGCBToExtension(&gcb, ext);
  bool ok = EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, int(len), ext) != GIF_ERROR &&
            EGifPutImageDesc(gif_, x0, y0, w, h, false, map) != GIF_ERROR;
  for (int y = 0; ok && y < h; ++y) ok = EGifPutLine(gif_, &index[std::size_t(y) * w], w) != GIF_ERROR;
  GifFreeMapObject(map);
  if (!ok) gif_fail(path_, gif_->Error);
  ++written_;
  // The next frame's rectangle is what differs from this frame as asked for (the quantiser's small colour
  // shifts stay until that part of the picture changes).
  previous_ = std::move(pending_);
  pending_ = Image{};
  pending_delay_ = 0;
}

void GifWriter::close() {
  if (!gif_) return;
  flush();
  int err = 0;
  GifFileType* g = gif_;
  gif_ = nullptr;
  if (EGifCloseFile(g, &err) == GIF_ERROR) gif_fail(path_, err);
  write_file_atomically(path_, data_);
  data_.clear();
}

}  // namespace redlab::gui
