// Partial presentation (GLX_MESA_copy_sub_buffer): the compositor then draws the changed regions straight into
// the back buffer, which is never swapped and so keeps the rest of the frame, and only those regions are
// copied to the window. Software GL (llvmpipe under Xvfb) offers it; elsewhere the compositor falls back to an
// offscreen image and a whole swap.
#pragma once
#include <vector>

struct GLFWwindow;

namespace redlab::gui {

struct PresentRect {
  int x, y, w, h;   // window pixels, origin bottom-left (GL)
};
bool present_partial_available(GLFWwindow*);
void present_partial(GLFWwindow*, const std::vector<PresentRect>&);

}  // namespace redlab::gui
