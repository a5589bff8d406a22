#include "gui/render/tree_renderer.h"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "gui/render/compositor.h"
#include "redlab_shaders.h"

namespace redlab::gui {
namespace {
unsigned compile(GLenum kind, const char* src, std::string* err) {
  GLuint s = glCreateShader(kind);
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    *err = std::string("shader: ") + log;
    glDeleteShader(s);
    return 0;
  }
  return s;
}
unsigned link(const char* vs, const char* fs, std::string* err) {
  GLuint v = compile(GL_VERTEX_SHADER, vs, err), f = compile(GL_FRAGMENT_SHADER, fs, err);
  if (!v || !f) return 0;
  GLuint p = glCreateProgram();
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  glDeleteShader(v);
  glDeleteShader(f);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetProgramInfoLog(p, sizeof log, nullptr, log);
    *err = std::string("program: ") + log;
    return 0;
  }
  return p;
}
}  // namespace

TreeRenderer::~TreeRenderer() {
  if (!init_done_ || !glDeleteFramebuffers) return;
  glDeleteFramebuffers(1, &fbo_);
  glDeleteTextures(1, &tex_);
  glDeleteFramebuffers(1, &fbo_still_);
  glDeleteTextures(1, &tex_still_);
  glDeleteBuffers(1, &vbo_lines_);
  glDeleteBuffers(1, &vbo_cells_);
  glDeleteVertexArrays(1, &vao_);
  glDeleteProgram(prog_cells_);
  glDeleteProgram(prog_lines_);
}

bool TreeRenderer::init() {
  init_done_ = true;
  prog_cells_ = link(kShader_cells_vert, kShader_cells_frag, &error_);
  prog_lines_ = link(kShader_edges_vert, kShader_edges_frag, &error_);
  if (!prog_cells_ || !prog_lines_) return false;
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_lines_);
  glGenBuffers(1, &vbo_cells_);
  glGenFramebuffers(1, &fbo_);
  glGenTextures(1, &tex_);
  glGenFramebuffers(1, &fbo_still_);
  glGenTextures(1, &tex_still_);
  return init_ok_ = true;
}

bool TreeRenderer::render(int w, int h, const TreeView2D& v, float t, std::uint32_t bg,
                          const std::vector<GpuInstance>& lines, const std::vector<GpuInstance>& cells, bool upload_now,
                          std::size_t n_static, const float* changed_band) {
  changed_ = false;
  if (!init_done_) init();
  if (!init_ok_ || w <= 0 || h <= 0) return false;
  const bool resized = w != w_ || h != h_;
  const bool view_changed =
      v.x0 != last_view_.x0 || v.y0 != last_view_.y0 || v.w != last_view_.w || v.h != last_view_.h;
  const bool redo_still = upload_now || resized || view_changed || bg != last_bg_;
  const bool has_moving = (upload_now ? cells.size() - std::min(n_static, cells.size()) : n_cells_ - n_static_) > 0;
  if (!redo_still && (t == last_t_ || !has_moving)) return true;  // the texture already shows this

  GLint prev_fbo = 0, prev_vp[4], prev_vao = 0, prev_buf = 0, prev_prog = 0;
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev_fbo);
  glGetIntegerv(GL_VIEWPORT, prev_vp);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &prev_vao);
  glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &prev_buf);
  glGetIntegerv(GL_CURRENT_PROGRAM, &prev_prog);
  GLboolean blend = glIsEnabled(GL_BLEND), scissor = glIsEnabled(GL_SCISSOR_TEST);
  auto restore = [&] {
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(prev_fbo));
    glViewport(prev_vp[0], prev_vp[1], prev_vp[2], prev_vp[3]);
    glBindVertexArray(GLuint(prev_vao));
    glBindBuffer(GL_ARRAY_BUFFER, GLuint(prev_buf));
    glUseProgram(GLuint(prev_prog));
    if (!blend) glDisable(GL_BLEND);
    if (scissor) glEnable(GL_SCISSOR_TEST);
  };

  if (resized) {
    for (auto [fbo, tex] : {std::pair{fbo_, tex_}, std::pair{fbo_still_, tex_still_}}) {
      if (!attach_color_image(fbo, tex, w, h)) {
        error_ = "framebuffer incomplete";
        restore();
        return false;
      }
    }
    w_ = w;
    h_ = h;
  }
  glViewport(0, 0, w, h);
  glDisable(GL_SCISSOR_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);

  const float sx = 2.0f / v.w, sy = -2.0f / v.h;
  const float ox = -1.0f - v.x0 * sx, oy = 1.0f - v.y0 * sy;
  glBindVertexArray(vao_);

  auto attribs = [&](GLuint vbo) {
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(GpuInstance), (void*)0);
    glVertexAttribDivisor(0, 1);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(GpuInstance), (void*)16);
    glVertexAttribDivisor(1, 1);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, sizeof(GpuInstance), (void*)20);
    glVertexAttribDivisor(2, 1);
  };
  if (upload_now) {  // the instances stay on the GPU until they change
    n_lines_ = lines.size();
    n_cells_ = cells.size();
    n_static_ = std::min(n_static, cells.size());
    glBindBuffer(GL_ARRAY_BUFFER, vbo_lines_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(lines.size() * sizeof(GpuInstance)), lines.data(), GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, vbo_cells_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(cells.size() * sizeof(GpuInstance)), cells.data(), GL_DYNAMIC_DRAW);
  }
  auto draw_cells = [&](std::size_t first, std::size_t count) {
    if (!count) return;
    glUseProgram(prog_cells_);
    glUniform2f(glGetUniformLocation(prog_cells_, "u_scale"), sx, sy);
    glUniform2f(glGetUniformLocation(prog_cells_, "u_offset"), ox, oy);
    glUniform1f(glGetUniformLocation(prog_cells_, "u_t"), t);
    glUniform2f(glGetUniformLocation(prog_cells_, "u_px_per_unit"), float(w) / v.w, float(h) / v.h);
    attribs(vbo_cells_);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(GpuInstance), (void*)(first * sizeof(GpuInstance)));
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(GpuInstance),
                          (void*)(first * sizeof(GpuInstance) + 16));
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, sizeof(GpuInstance), (void*)(first * sizeof(GpuInstance) + 20));
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(count));
  };

  // The still layer: every line and the cells that do not move. Only the changed band when that is all that
  // changed and the layer holds the rest (same size, view and background as when it was drawn whole).
  const bool band_only = changed_band && still_valid_ && !resized && !view_changed && bg == last_bg_;
  if (redo_still) {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_still_);
    if (band_only) {
      // View heights to texture rows (row 0 at the bottom), two pixels of margin.
      const float y_top = (changed_band[0] - v.y0) / v.h * float(h),
                  y_bottom = (changed_band[1] - v.y0) / v.h * float(h);
      const int lo = std::clamp(int(std::floor(float(h) - y_bottom)) - 2, 0, h);
      const int hi = std::clamp(int(std::ceil(float(h) - y_top)) + 2, 0, h);
      glEnable(GL_SCISSOR_TEST);
      glScissor(0, lo, w, std::max(0, hi - lo));
    }
    glClearColor(float(bg & 255) / 255.f, float(bg >> 8 & 255) / 255.f, float(bg >> 16 & 255) / 255.f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (n_lines_) {
      glUseProgram(prog_lines_);
      glUniform2f(glGetUniformLocation(prog_lines_, "u_scale"), sx, sy);
      glUniform2f(glGetUniformLocation(prog_lines_, "u_offset"), ox, oy);
      attribs(vbo_lines_);
      glDrawArraysInstanced(GL_LINES, 0, 2, GLsizei(n_lines_));
    }
    draw_cells(0, n_static_);
    glDisable(GL_SCISSOR_TEST);
    still_valid_ = true;
  }
  // The shown texture: the still layer, then the moving cells at t.
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_still_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
  glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  draw_cells(n_static_, n_cells_ - n_static_);

  last_t_ = t;
  last_view_ = v;
  last_bg_ = bg;
  changed_ = true;
  restore();
  return true;
}

}  // namespace redlab::gui
