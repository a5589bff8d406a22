#include "gui/export/exporter.h"

#include <glad/gl.h>
// glad first
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/file_write.h"

#include "gui/render/compositor.h"
#include "model/i18n.h"

namespace redlab::gui {

using namespace redlab::model;

std::string picture_source_of(const Model& model) {
  const Work& w = model.work;
  return picture_source(w.a.trace ? &*w.a.trace : nullptr, w.compare, w.b.trace ? &*w.b.trace : nullptr);
}

struct Exporter::Job {
  ExportRequest req;
  std::optional<ViewId> view;  // the view captured (none: the whole window)
  std::vector<GifFrame> schedule;  // GIF: the frames to capture
  std::size_t next = 0;  // GIF: the next frame of the schedule
  int settle = 2;  // frames drawn before the first capture (tabs come to the front, layout)
  std::unique_ptr<GifWriter> gif;
  // The step clock as it was, given back when the GIF is done.
  int step = 0;
  bool playing = false;
  float anim = 1.0f;
  ImVec4 window_bg, child_bg;
};

ViewId centre_view(const Model& model) {
  if (model.work.compare && model.work.b.trace) return ViewId::compare;
  return shows_tiles(model) ? ViewId::tile : shows_ring(model) ? ViewId::ring : ViewId::tree;
}

Exporter::Exporter() = default;

Exporter::~Exporter() {
  if (fbo_ && glDeleteFramebuffers) glDeleteFramebuffers(1, &fbo_);
  if (tex_ && glDeleteTextures) glDeleteTextures(1, &tex_);
}

double Exporter::progress() const {
  if (!job_ || job_->schedule.empty()) return 0;
  return double(job_->next) / double(job_->schedule.size());
}

bool Exporter::gif() const { return job_ && job_->req.format == ExportFormat::gif; }

std::optional<ViewId> Exporter::front_view() const { return job_ ? job_->view : std::nullopt; }

bool Exporter::start(Model& model, const Views& views, ExportRequest req) {
  failed = false;
  auto refuse = [&](const std::string& why) {  // the export does not start: say why
    message = why;
    failed = true;
    return false;
  };
  if (job_) { return refuse(tr("export.busy")); }
  std::string why;
  if (!export_format_of(req.path, &why)) { return refuse(why); }
  if (!model.work.a.trace) { return refuse(tr("export.no_trace")); }
  if (!req.force && !export_may_write(req.path, req.format, nullptr)) return refuse(trf("export.exists", {req.path}));
  if (req.format == ExportFormat::csv) {
    std::ostringstream csv;
    write_steps_csv(csv, *model.work.a.trace,
                    model.work.compare && model.work.b.trace ? &*model.work.b.trace : nullptr);
    try {
      write_file_atomically(req.path, csv.str());
    } catch (const std::exception& e) { return refuse(e.what()); }
    message = trf("export.done", {req.path});
    return true;
  }
  // No view named: a file named after a view ("tree.png", "compare.gif") is that view; else a PNG is the
  // whole window and a GIF the centre view.
  std::optional<ViewId> view;
  if (req.view.empty()) {
    std::string stem = req.path.substr(req.path.find_last_of('/') + 1);
    stem = stem.substr(0, stem.find_last_of('.'));
    if (const View* v = find_view(views, stem); v && !v->floating && v->applies(model)) view = v->id;
  } else {
    const View* v = find_view(views, req.view);
    if (v) view = v->id;
    if (!v || v->floating) {
      std::string ids;
      for (const auto& w : views)
        if (!w->floating) ids += (ids.empty() ? "" : ", ") + std::string(view_key(w->id));
      return refuse(trf("export.no_view", {req.view, ids}));
    }
  }
  if (req.format == ExportFormat::gif && !view) view = centre_view(model);
  if (view) {
    View* v = find_view(views, *view);
    if (!v->applies(model)) return refuse(trf("export.view_not_shown", {view_key(*view)}));
    v->open = true;
  }
  job_ = std::make_unique<Job>();
  job_->req = std::move(req);
  job_->view = view;
  job_->step = model.view.step;
  job_->playing = model.view.playing;
  job_->anim = model.view.anim;
  if (job_->req.format == ExportFormat::gif)
    job_->schedule = gif_schedule(model.max_step(), job_->req.speed, job_->req.hold);
  // One view: a slide (no toolbars, the caption above it); the whole window as it is.
  model.view.slide_view = view;
  model.view.slide_caption = job_->req.caption;
  message = trf("export.working", {job_->req.path});
  return true;
}

void Exporter::before_frame(Model& model) {
  if (!job_) return;
  ImGuiStyle& style = ImGui::GetStyle();
  job_->window_bg = style.Colors[ImGuiCol_WindowBg];
  job_->child_bg = style.Colors[ImGuiCol_ChildBg];
  if (job_->req.transparent) {
    style.Colors[ImGuiCol_WindowBg].w = 0;
    style.Colors[ImGuiCol_ChildBg].w = 0;
  }
  if (job_->req.format != ExportFormat::gif) return;
  const GifFrame& f = job_->schedule[std::min(job_->next, job_->schedule.size() - 1)];
  model.view.playing = false;
  model.view.step = f.step;
  model.view.anim_from = std::max(0, f.step - 1);
  model.view.anim = f.anim;
}

void Exporter::after_frame(Model& model, const Views& views, ImDrawData* dd, int fb_w, int fb_h) {
  if (!job_) return;
  ImGuiStyle& style = ImGui::GetStyle();
  style.Colors[ImGuiCol_WindowBg] = job_->window_bg;
  style.Colors[ImGuiCol_ChildBg] = job_->child_bg;
  if (job_->settle > 0) {
    --job_->settle;
    return;
  }
  const ExportRequest& req = job_->req;
  try {
    Image img = capture(dd, fb_w, fb_h, req.transparent);
    if (job_->view) {
      const View* v = find_view(views, *job_->view);
      const ImVec4 r = v ? v->rect : ImVec4();
      const float sx = dd->FramebufferScale.x, sy = dd->FramebufferScale.y;
      img = crop(img, int(std::lround((r.x - dd->DisplayPos.x) * sx)), int(std::lround((r.y - dd->DisplayPos.y) * sy)),
                 int(std::lround(r.z * sx)), int(std::lround(r.w * sy)));
    }
    img = scale_to_width(img, req.width);
    if (req.format == ExportFormat::png) {
      write_png_file(req.path, img, req.transparent, picture_source_of(model));
      finish(model, trf("export.done", {req.path}), true);
      return;
    }
    if (!job_->gif) job_->gif = std::make_unique<GifWriter>(req.path, img.w, img.h);
    job_->gif->add(img, job_->schedule[job_->next].delay_cs);
    if (++job_->next < job_->schedule.size()) return;
    job_->gif->close();
    finish(
        model,
        trf("export.done_gif", {req.path, std::to_string(job_->schedule.size()), std::to_string(model.max_step() + 1)}),
        true);
  } catch (const std::exception& e) { finish(model, e.what(), false); }
}

void Exporter::finish(Model& model, const std::string& outcome, bool ok) {
  model.view.slide_view.reset();
  if (job_->req.format == ExportFormat::gif) {  // the step clock as it was
    model.view.step = job_->step;
    model.view.playing = job_->playing;
    model.view.anim = job_->anim;
  }
  job_.reset();
  message = outcome;
  failed = !ok;
}

Image Exporter::capture(ImDrawData* dd, int fb_w, int fb_h, bool transparent) {
  if (!fbo_) {
    glGenFramebuffers(1, &fbo_);
    glGenTextures(1, &tex_);
  }
  if (fb_w != w_ || fb_h != h_) {
    if (!attach_color_image(fbo_, tex_, fb_w, fb_h)) {
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      throw std::runtime_error("cannot draw the export's picture (an incomplete GL framebuffer)");
    }
    w_ = fb_w;
    h_ = fb_h;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, fb_w, fb_h);
  if (transparent)
    glClearColor(0, 0, 0, 0);
  else
    glClearColor(kBackground[0], kBackground[1], kBackground[2], kBackground[3]);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(dd);
  Image img;
  img.w = fb_w;
  img.h = fb_h;
  std::vector<std::uint8_t> px(std::size_t(fb_w) * fb_h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, fb_w, fb_h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  img.rgba.resize(px.size());
  for (int y = 0; y < fb_h; ++y)
    std::copy_n(&px[std::size_t(fb_h - 1 - y) * fb_w * 4], std::size_t(fb_w) * 4, &img.rgba[std::size_t(y) * fb_w * 4]);
  return img;
}

}  // namespace redlab::gui
