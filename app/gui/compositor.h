// Draws ImGui's frame into an offscreen image that persists between frames and redraws only the regions
// whose draw lists changed (or where a GL texture drawn by a view changed), then copies the whole image to
// the window's back buffer, which the caller swaps as usual. Plain GL 3.3: no window-system calls.
// It pays where rasterising is dear: on software GL (llvmpipe under Xvfb, a lecture-hall PC without a GPU
// driver) the panels are most of a frame, and while the tree animates only its window changes. On hardware
// GL a whole ImGui frame costs well under a millisecond and the copy would only add work, so run_gui turns
// it on for software renderers alone (use_compositor()).
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <imgui.h>

namespace redlab::gui {

class Compositor {
 public:
  // `profile_lists`: print each draw list that changed (REDLAB_GUI_PROFILE_LISTS).
  explicit Compositor(bool enabled, bool profile_lists = false);
  Compositor(const Compositor&) = delete;
  Compositor& operator=(const Compositor&) = delete;
  ~Compositor();

  // Renders `dd` into the window's back buffer (framebuffer 0), size fb_w x fb_h, background `clear`.
  // `changed_textures`: textures whose pixels changed since the last call. Returns false when the frame is
  // the same as the one before (nothing redrawn): the back buffer was left alone and the window's picture
  // is still right, so the caller may skip the swap (unless the window system lost it: an expose).
  bool render(ImDrawData* dd, int fb_w, int fb_h, const float clear[4], const std::vector<unsigned>& changed_textures);
  // Copies the last image to the window's back buffer again (after render() returned false).
  void copy_to_window(int fb_w, int fb_h);
  bool enabled() const { return enabled_; }
  double last_dirty_fraction() const { return dirty_fraction_; }   // share of the window redrawn last frame

 private:
  struct ListState {
    std::uint64_t hash = 0;
    ImVec4 box{};
    bool seen = false;
  };
  bool enabled_, profile_lists_;
  unsigned fbo_ = 0, tex_ = 0;
  int w_ = 0, h_ = 0;
  std::unordered_map<const void*, ListState> lists_;
  std::vector<ImVec4> saved_clips_;
  double dirty_fraction_ = 1.0;
};

// Whether the GL_RENDERER string names a software rasteriser (llvmpipe, softpipe, swrast, SwiftShader, WARP).
bool is_software_renderer(const std::string& gl_renderer);

// The textures noted by note_texture_changed() (views.h) since the last call.
std::vector<unsigned> take_changed_textures();

}  // namespace redlab::gui
