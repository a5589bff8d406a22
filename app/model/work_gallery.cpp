// The work's gallery of mistakes: the index read once, an entry's file copied into the student's folder and
// followed in A, and the catalog kernel it was made from shown beside it in B.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/catalog.h"
#include "model/i18n.h"
#include "model/work.h"

namespace redlab::model {

const Gallery& Work::gallery() {
  if (!gallery_) {
    gallery_ = load_gallery();
    if (gallery_->path.empty()) gallery_->error = tr("gallery.none");  // no index found: said in the UI's language
    for (const GalleryEntry& e : gallery_->entries) {
      for (const auto& [lang, t] : e.title) need_glyphs(t);
      for (const auto& [lang, t] : e.explanation) need_glyphs(t);
    }
  }
  return *gallery_;
}

void Work::open_gallery_entry(GalleryEntry e, ExistingCopy existing) {
  gallery_question.reset();
  const std::string dir = student_kernel_dir();
  GalleryCopy c = copy_gallery_file(e, dir, existing == ExistingCopy::replace);
  if (c.outcome == GalleryCopy::differs && existing == ExistingCopy::ask) {
    gallery_question = e;
    gallery_message = trf("gallery.exists", {c.path});
    return;
  }
  if (c.outcome == GalleryCopy::failed) {
    gallery_message = c.error;
    return;
  }
  gallery_message = trf(c.outcome == GalleryCopy::copied ? "gallery.copied" : "gallery.reused", {c.path});
  Side& side = a;
  if (same_file(c.path, side.user.path)) {  // the copy A follows already: the entry's scenario, its edits kept
    side.scenario = e.scenario;
    sync_text_fields(side);
    side.user.gallery = std::move(e);
    // Replaced with the gallery's file: the editor sees it as any change on disk (taken, or asked about).
    if (c.outcome == GalleryCopy::copied) editor_sees_disk(side, stamp_of(side.user.path));
    run_user_source(side);
    show_beside(*side.user.gallery);
    return;
  }
  if (side.user.editor.dirty()) {  // unsaved edits to another file: asked first
    side.user.unsaved_question = PendingOpen{c.path, e};
    return;
  }
  side.scenario = e.scenario;
  sync_text_fields(side);
  show_beside(e);
  follow(side, c.path, e);
}

void Work::show_beside(const GalleryEntry& e) {
  if (follows_file(b) || !find_kernel(e.from)) return;
  b.scenario = e.scenario;
  b.scenario.kernel = e.from;
  sync_text_fields(b);
  compare = true;
  if (b.running()) {  // the run of B's scenario as it was (the start's demo): stopped, and B's new scenario runs after
    b.run.cancel();
    b.phase = RunPhase::overtaken_rerun;
    return;
  }
  request_run(b);
}

}  // namespace redlab::model
