// Instanced drawing of the reduction tree into an offscreen texture (GL 3.3 core, shaders/ cells.* and
// edges.*), shown in the window with ImGui::Image. One draw call for all cells, one for all lines.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace redlab::gui {

struct GpuInstance {
  float pos[4];  // from (x, y), to (x, y), world units
  std::uint32_t color;  // RGBA8 (ImU32 layout)
  float size[2];  // cells: quad size in world units; lines: unused
};
static_assert(sizeof(GpuInstance) == 28);

struct TreeView2D {  // the world rectangle shown
  float x0 = 0, y0 = 0, w = 1, h = 1;
};

class TreeRenderer {
 public:
  TreeRenderer() = default;
  TreeRenderer(const TreeRenderer&) = delete;
  TreeRenderer& operator=(const TreeRenderer&) = delete;
  ~TreeRenderer();

  // Draws into the texture (resized to w x h pixels); returns false (with error()) when GL refused.
  // The first `n_static` cells (and every line) do not move: they are drawn once into a still layer when the
  // instances change (`upload`); each later call with a new `t` copies that layer and draws only the moving
  // cells on it, and a call that changes nothing draws nothing (see changed()).
  // `changed_band` (y0, y1 in view units, with `upload`): the new instances differ from the last ones only
  // between those heights (a step change). The still layer is then redrawn only there, under a scissor: the
  // same instances drawn in the same order, so the pixels are those of a whole redraw (software GL pays for
  // the area it fills, and a step changes two or three rows of the tree, not all of it).
  bool render(int w, int h, const TreeView2D& view, float t, std::uint32_t background,
              const std::vector<GpuInstance>& lines, const std::vector<GpuInstance>& cells, bool upload = true,
              std::size_t n_static = 0, const float* changed_band = nullptr);
  unsigned texture() const { return tex_; }
  bool changed() const { return changed_; }  // the texture's pixels changed in the last render()
  const std::string& error() const { return error_; }

 private:
  bool init();
  unsigned fbo_ = 0, tex_ = 0, vao_ = 0, vbo_lines_ = 0, vbo_cells_ = 0, prog_cells_ = 0, prog_lines_ = 0;
  unsigned fbo_still_ = 0, tex_still_ = 0;
  int w_ = 0, h_ = 0;
  std::size_t n_lines_ = 0, n_cells_ = 0, n_static_ = 0;
  float last_t_ = -1;
  TreeView2D last_view_{};
  std::uint32_t last_bg_ = 0;
  bool still_valid_ = false;  // the still layer holds a whole drawing (a band may be redrawn over it)
  bool changed_ = false;
  bool init_done_ = false, init_ok_ = false;
  std::string error_;
};

}  // namespace redlab::gui
