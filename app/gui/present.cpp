#include "present.h"

#include <cstring>

#define GLFW_EXPOSE_NATIVE_X11
#define GLFW_EXPOSE_NATIVE_GLX
#include <GLFW/glfw3.h>
#include <GLFW/glfw3native.h>
#include <GL/glx.h>

namespace redlab::gui {

namespace {
using CopySubBuffer = void (*)(Display*, GLXDrawable, int, int, int, int);
CopySubBuffer g_copy = nullptr;
}  // namespace

bool present_partial_available(GLFWwindow* win) {
  Display* dpy = glfwGetX11Display();
  if (!dpy || !glfwGetGLXWindow(win)) return false;
  const char* ext = glXQueryExtensionsString(dpy, DefaultScreen(dpy));
  if (!ext || !std::strstr(ext, "GLX_MESA_copy_sub_buffer")) return false;
  g_copy = reinterpret_cast<CopySubBuffer>(glXGetProcAddressARB(reinterpret_cast<const GLubyte*>("glXCopySubBufferMESA")));
  return g_copy != nullptr;
}

void present_partial(GLFWwindow* win, const std::vector<PresentRect>& rects) {
  Display* dpy = glfwGetX11Display();
  GLXWindow d = glfwGetGLXWindow(win);
  glFlush();
  for (const PresentRect& r : rects)
    if (r.w > 0 && r.h > 0) g_copy(dpy, d, r.x, r.y, r.w, r.h);
}

}  // namespace redlab::gui
