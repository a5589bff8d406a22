// Draws ImGui's frame into an offscreen image that persists between frames and redraws only the regions
// whose draw lists changed (or where a GL texture drawn by a view changed), then copies the image to the
// window (or, in direct mode, draws into the never-swapped back buffer and presents only those regions).
// On llvmpipe (Xvfb, software GL) rasterising the panels is most of a frame; while the tree animates only its
// window changes. REDLAB_GUI_FULL_REDRAW=1 turns it off (every frame drawn whole and swapped);
// REDLAB_GUI_NO_PARTIAL=1 keeps the offscreen image but swaps whole frames.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <imgui.h>

#include "present.h"

namespace redlab::gui {

class Compositor {
 public:
  Compositor();
  Compositor(const Compositor&) = delete;
  Compositor& operator=(const Compositor&) = delete;
  ~Compositor();

  // Renders `dd` into the window's framebuffer (bound as 0), size fb_w x fb_h, background `clear`.
  // `changed_textures`: textures whose pixels changed since the last call.
  void render(ImDrawData* dd, int fb_w, int fb_h, const float clear[4], const std::vector<unsigned>& changed_textures);
  bool enabled() const { return enabled_; }
  // Direct mode: draw into the window's back buffer, which the caller never swaps but presents with
  // present_partial(presented()); it then keeps the unchanged regions itself (no offscreen copy).
  void set_direct(bool d) { direct_ = d && enabled_; }
  bool direct() const { return direct_; }
  const std::vector<PresentRect>& presented() const { return presented_; }
  double last_dirty_fraction() const { return dirty_fraction_; }   // share of the window redrawn last frame

 private:
  struct ListState {
    std::uint64_t hash = 0;
    ImVec4 box{};
    bool seen = false;
  };
  bool enabled_ = true, direct_ = false;
  std::vector<PresentRect> presented_;
  unsigned fbo_ = 0, tex_ = 0;
  int w_ = 0, h_ = 0;
  std::unordered_map<const void*, ListState> lists_;
  std::vector<ImVec4> saved_clips_;
  double dirty_fraction_ = 1.0;
};

// The textures noted by note_texture_changed() (views.h) since the last call.
std::vector<unsigned> take_changed_textures();

}  // namespace redlab::gui
