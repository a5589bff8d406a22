#include "gui/render/compositor.h"

#include <glad/gl.h>
// glad first
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <utility>

namespace redlab::gui {

namespace {
std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}
std::uint64_t hash_bytes(std::uint64_t h, const void* p, std::size_t n) {
  const unsigned char* c = static_cast<const unsigned char*>(p);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t v;
    std::memcpy(&v, c + i, 8);
    h = (h ^ v) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  std::uint64_t t = 0;
  for (; i < n; ++i) t = t << 8 | c[i];
  return mix(h, t ^ n);
}
std::uint64_t hash_list(const ImDrawList* l) {
  std::uint64_t h = 1469598103934665603ull;
  h = hash_bytes(h, l->VtxBuffer.Data, size_t(l->VtxBuffer.Size) * sizeof(ImDrawVert));
  h = hash_bytes(h, l->IdxBuffer.Data, size_t(l->IdxBuffer.Size) * sizeof(ImDrawIdx));
  for (const ImDrawCmd& c : l->CmdBuffer) {
    h = hash_bytes(h, &c.ClipRect, sizeof c.ClipRect);
    h = mix(h, std::uint64_t(reinterpret_cast<std::uintptr_t>(c.TextureId)));
    h = mix(h, (std::uint64_t(c.ElemCount) << 32) ^ c.IdxOffset ^ (std::uint64_t(c.VtxOffset) << 20));
    h = mix(h, std::uint64_t(reinterpret_cast<std::uintptr_t>(c.UserCallback)));
  }
  return h;
}
// The area a command can touch: its vertices' bounding box, met with its clip rectangle (a window's first
// commands clip to the whole viewport, so clip rectangles alone would mark everything).
ImVec4 cmd_box(const ImDrawList* l, const ImDrawCmd& c) {
  ImVec4 b(1e30f, 1e30f, -1e30f, -1e30f);
  const ImDrawIdx* idx = l->IdxBuffer.Data + c.IdxOffset;
  const ImDrawVert* vtx = l->VtxBuffer.Data + c.VtxOffset;
  for (unsigned i = 0; i < c.ElemCount; ++i) {
    const ImVec2 p = vtx[idx[i]].pos;
    b.x = std::min(b.x, p.x);
    b.y = std::min(b.y, p.y);
    b.z = std::max(b.z, p.x);
    b.w = std::max(b.w, p.y);
  }
  return ImVec4(std::max(b.x - 1, c.ClipRect.x), std::max(b.y - 1, c.ClipRect.y), std::min(b.z + 1, c.ClipRect.z),
                std::min(b.w + 1, c.ClipRect.w));
}
ImVec4 box_of(const ImDrawList* l) {
  ImVec4 b(1e30f, 1e30f, -1e30f, -1e30f);
  for (const ImDrawCmd& c : l->CmdBuffer) {
    if (c.ElemCount == 0 || c.UserCallback) continue;
    const ImVec4 q = cmd_box(l, c);
    if (q.z <= q.x || q.w <= q.y) continue;
    b.x = std::min(b.x, q.x);
    b.y = std::min(b.y, q.y);
    b.z = std::max(b.z, q.z);
    b.w = std::max(b.w, q.w);
  }
  return b;
}
bool empty(const ImVec4& r) { return r.z <= r.x || r.w <= r.y; }
ImVec4 meet(const ImVec4& a, const ImVec4& b) {
  return ImVec4(std::max(a.x, b.x), std::max(a.y, b.y), std::min(a.z, b.z), std::min(a.w, b.w));
}
bool overlap(const ImVec4& a, const ImVec4& b) { return !empty(meet(a, b)); }
ImVec4 join(const ImVec4& a, const ImVec4& b) {
  return ImVec4(std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.z, b.z), std::max(a.w, b.w));
}
}  // namespace

Compositor::Compositor(bool enabled, bool profile_lists) : enabled_(enabled), profile_lists_(profile_lists) {}

bool attach_color_image(unsigned fbo, unsigned tex, int w, int h) {
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

bool is_software_renderer(const std::string& r) {
  std::string s;
  for (char c : r) s += char(std::tolower(static_cast<unsigned char>(c)));
  for (const char* k : {"llvmpipe", "softpipe", "swrast", "software", "swiftshader", "basic render driver"})
    if (s.find(k) != std::string::npos) return true;
  return false;
}

Compositor::~Compositor() {
  if (fbo_ && glDeleteFramebuffers) {
    glDeleteFramebuffers(1, &fbo_);
    glDeleteTextures(1, &tex_);
  }
}

bool Compositor::render(ImDrawData* dd, int fb_w, int fb_h, const float clear[4],
                        const std::vector<unsigned>& changed_textures) {
  auto draw_all = [&] {
    glClearColor(clear[0], clear[1], clear[2], clear[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(dd);
  };
  if (!enabled_ || !dd || fb_w <= 0 || fb_h <= 0 || dd->FramebufferScale.x != 1.0f || dd->FramebufferScale.y != 1.0f) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fb_w, fb_h);
    draw_all();
    dirty_fraction_ = 1.0;
    return true;
  }
  bool full = false;
  if (!fbo_) {
    glGenFramebuffers(1, &fbo_);
    glGenTextures(1, &tex_);
  }
  if (fb_w != w_ || fb_h != h_) {  // a new size (first frame, or the window was resized): a new image, drawn whole
    if (!attach_color_image(fbo_, tex_, fb_w, fb_h)) {  // no offscreen image: draw whole
      enabled_ = false;
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      draw_all();
      return true;
    }
    w_ = fb_w;
    h_ = fb_h;
    full = true;
  }

  // What changed: lists whose content differs (their old and new area), lists gone, changed textures.
  const ImVec2 off = dd->DisplayPos;
  std::vector<ImVec4> dirty;
  auto add = [&](ImVec4 r) {
    r = meet(ImVec4(std::floor(r.x - off.x), std::floor(r.y - off.y), std::ceil(r.z - off.x), std::ceil(r.w - off.y)),
             ImVec4(0, 0, float(fb_w), float(fb_h)));
    if (!empty(r)) dirty.push_back(r);
  };
  for (auto& [k, s] : lists_) s.seen = false;
  for (int i = 0; i < dd->CmdListsCount; ++i) {
    const ImDrawList* l = dd->CmdLists[i];
    ListState& s = lists_[l];
    const std::uint64_t h = hash_list(l);
    const ImVec4 b = box_of(l);
    if (h != s.hash || b.x != s.box.x || b.y != s.box.y || b.z != s.box.z || b.w != s.box.w) {
      if (profile_lists_)
        std::printf("  changed: %s  %.0f %.0f %.0f %.0f (was %.0f %.0f %.0f %.0f)\n",
                    l->_OwnerName ? l->_OwnerName : "?", b.x, b.y, b.z, b.w, s.box.x, s.box.y, s.box.z, s.box.w);
      if (s.hash) add(s.box);
      add(b);
    }
    s.hash = h;
    s.box = b;
    s.seen = true;
    if (!changed_textures.empty())
      for (const ImDrawCmd& c : l->CmdBuffer)
        if (c.ElemCount && std::find(changed_textures.begin(), changed_textures.end(),
                                     unsigned(reinterpret_cast<std::uintptr_t>(c.TextureId))) != changed_textures.end())
          add(cmd_box(l, c));
  }
  for (auto it = lists_.begin(); it != lists_.end();) {
    if (!it->second.seen) {
      add(it->second.box);
      it = lists_.erase(it);
    } else
      ++it;
  }
  // Merge overlapping regions; many small ones become one.
  for (bool merged = true; merged;) {
    merged = false;
    for (size_t i = 0; i < dirty.size() && !merged; ++i)
      for (size_t j = i + 1; j < dirty.size(); ++j)
        if (overlap(dirty[i], dirty[j])) {
          dirty[i] = join(dirty[i], dirty[j]);
          dirty.erase(dirty.begin() + std::ptrdiff_t(j));
          merged = true;
          break;
        }
  }
  // Each region costs a pass over the commands that meet it: past eight, join the pair whose union adds the
  // least area.
  auto area_of = [](const ImVec4& r) { return double(r.z - r.x) * double(r.w - r.y); };
  while (dirty.size() > 8) {
    size_t bi = 0, bj = 1;
    double best = 1e300;
    for (size_t i = 0; i < dirty.size(); ++i)
      for (size_t j = i + 1; j < dirty.size(); ++j) {
        const double extra = area_of(join(dirty[i], dirty[j])) - area_of(dirty[i]) - area_of(dirty[j]);
        if (extra < best) {
          best = extra;
          bi = i;
          bj = j;
        }
      }
    dirty[bi] = join(dirty[bi], dirty[bj]);
    dirty.erase(dirty.begin() + std::ptrdiff_t(bj));
    for (bool merged = true; merged;) {  // the union may now overlap others
      merged = false;
      for (size_t j = 0; j < dirty.size(); ++j)
        if (j != bi && overlap(dirty[bi], dirty[j])) {
          dirty[bi] = join(dirty[bi], dirty[j]);
          dirty.erase(dirty.begin() + std::ptrdiff_t(j));
          if (j < bi) --bi;
          merged = true;
          break;
        }
    }
  }
  if (full) dirty.assign(1, ImVec4(0, 0, float(fb_w), float(fb_h)));
  if (dirty.empty()) {
    dirty_fraction_ = 0;
    return false;
  }

  double area = 0;
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, fb_w, fb_h);
  for (const ImVec4& r0 : dirty) {
    // Whole pixels, so that the cleared area and the clip rectangles agree.
    ImVec4 r(std::floor(r0.x), std::floor(r0.y), std::ceil(r0.z), std::ceil(r0.w));
    area += double(r.z - r.x) * double(r.w - r.y);
    glEnable(GL_SCISSOR_TEST);
    glScissor(int(r.x), fb_h - int(r.w), int(r.z - r.x), int(r.w - r.y));
    glClearColor(clear[0], clear[1], clear[2], clear[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    // Every command, clipped to the region (commands outside it are skipped by the backend).
    saved_clips_.clear();
    for (int i = 0; i < dd->CmdListsCount; ++i)
      for (ImDrawCmd& c : dd->CmdLists[i]->CmdBuffer) {
        saved_clips_.push_back(c.ClipRect);
        // The pixels the backend's glScissor would cover for this command (it truncates), met with the
        // region and handed back as whole numbers, so that the pixels drawn match a whole-frame draw exactly.
        const ImVec2 mn(c.ClipRect.x - off.x, c.ClipRect.y - off.y), mx(c.ClipRect.z - off.x, c.ClipRect.w - off.y);
        ImVec4 q(0, 0, 0, 0);
        if (mx.x > mn.x && mx.y > mn.y) {
          const int sx = int(mn.x), sw = int(mx.x - mn.x), sy = int(float(fb_h) - mx.y), sh = int(mx.y - mn.y);
          const ImVec4 px(float(sx), float(fb_h - sy - sh), float(sx + sw), float(fb_h - sy));
          q = meet(px, r);
          if (empty(q))
            q = ImVec4(0, 0, 0, 0);
          else
            q = ImVec4(q.x + off.x, q.y + off.y, q.z + off.x, q.w + off.y);
        }
        c.ClipRect = q;
      }
    ImGui_ImplOpenGL3_RenderDrawData(dd);
    size_t k = 0;
    for (int i = 0; i < dd->CmdListsCount; ++i)
      for (ImDrawCmd& c : dd->CmdLists[i]->CmdBuffer) c.ClipRect = saved_clips_[k++];
  }
  dirty_fraction_ = area / (double(fb_w) * fb_h);
  copy_to_window(fb_w, fb_h);
  return true;
}

void Compositor::copy_to_window(int fb_w, int fb_h) {
  if (!fbo_ || fb_w != w_ || fb_h != h_) return;
  // The whole image: after a swap the back buffer's old content is undefined.
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBlitFramebuffer(0, 0, fb_w, fb_h, 0, 0, fb_w, fb_h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

}  // namespace redlab::gui

namespace redlab::gui {
namespace {
std::vector<unsigned> g_changed_textures;
}
void note_texture_changed(unsigned tex) { g_changed_textures.push_back(tex); }
std::vector<unsigned> take_changed_textures() {
  std::vector<unsigned> v;
  v.swap(g_changed_textures);
  return v;
}
}  // namespace redlab::gui
