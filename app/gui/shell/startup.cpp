#include "gui/shell/startup.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/catalog.h"
#include "core/printable.h"
#include "gui/shell/chrome.h"
#include "model/i18n.h"
#include "model/layout.h"
#include "model/startup.h"
#include "gui/shell/palette.h"

namespace redlab::gui {

using namespace redlab::model;

Settings start_settings(Model& model) {
  const GuiOptions& o = model.work.opts;
  Settings s;
  s.lang = i18n_system_default();
  if (!model.view.headless) load_settings(s);
  if (!o.lang.empty()) s.lang = o.lang;
  if (!o.debug.lang.empty()) s.lang = o.debug.lang;
  if (o.ui_scale > 0) s.ui_scale = o.ui_scale;
  if (o.debug.scale > 0) s.ui_scale = std::clamp(o.debug.scale, 0.75f, 3.0f);
  s.colorblind = s.colorblind || o.colorblind || o.debug.colorblind;
  model.view.lang = s.lang;
  model.view.ui_scale = s.ui_scale;
  model.view.colorblind = s.colorblind;
  // The layout: --layout, else the one chosen last time (an unknown name in the settings file: study).
  model.view.layout = parse_layout(o.layout.empty() ? s.layout : o.layout).value_or(LayoutKind::study);
  model.view.show_hint = (!s.hint_seen && !model.view.headless) || o.debug.hint;
  model.view.show_help = o.debug.help;
  palette_set_colorblind(model.view.colorblind);
  i18n_load(model.view.lang);
  return s;
}

void say_font_notice(Model& model, const std::string& notice) {
  if (!notice.empty() && notice != model.view.font_notice) print_message(stderr, "redlab gui: %s\n", notice.c_str());
  model.view.font_notice = notice;
}

void apply_settings(Model& model, Platform& platform, Settings& s) {
  // A resize (or a new scale) that moves the bars' scale: their font is built again. A minimised window keeps it.
  if (const int h = platform.window_height();
      h > 0 && chrome_scale(model.view.ui_scale, float(h)) != model.view.chrome_scale) {
    model.view.chrome_scale = chrome_scale(model.view.ui_scale, float(h));
    model.view.fonts_dirty = true;
  }
  if (model.view.fonts_dirty) {
    say_font_notice(model, platform.build_fonts(model.view.ui_scale, model.view.chrome_scale, model.view.lang,
                                                model.work.extra_glyphs()));
    model.view.fonts_dirty = false;
  }
  if (model.view.lang_dirty) {
    i18n_load(model.view.lang);
    // A fault's marked lines were said in the old language when its trace came (a compiler's messages stay).
    for (Side* side : {&model.work.a, &model.work.b})
      if (side->trace && side->trace->fault && side->user.errors.empty() && follows_file(*side))
        side->user.marks = fault_marks(*side->trace, side->user.path);
    model.view.fonts_dirty = true;  // the next frame: glyphs for the new language's text
    model.view.lang_dirty = false;
    model.work.title_dirty = true;
  }
  if (palette_colorblind() != model.view.colorblind) palette_set_colorblind(model.view.colorblind);
  if (model.work.title_dirty) {
    platform.set_title(model.work.window_title());
    model.work.title_dirty = false;
  }
  s.ui_scale = model.view.ui_scale;
  s.colorblind = model.view.colorblind;
  s.lang = model.view.lang;
  s.layout = to_string(model.view.layout);
  s.hint_seen = s.hint_seen || !model.view.show_hint;
}

void start_scenarios(Model& model, Views& views) {
  const GuiOptions& o = model.work.opts;
  start_work(model);
  // A kernel file given: the code view, where it is edited, comes to the front (B's when only B has one).
  if (!o.source_file.empty() || !o.source_file_b.empty()) {
    model.view.memory.code_side = o.source_file.empty() ? 1 : 0;
    model.view.views_to_open.push_back(ViewId::code);
  }
  apply_layout(model, views);  // the layout's views open (the compare layout turns compare on)
  // A lesson (checked by the command line): its beat's scenarios, layout, step and view.
  if (!o.lesson.empty() && open_lesson(model, o.lesson, o.lesson_beat, o.lesson_fresh) && model.view.layout_reset)
    apply_layout(model, views);
  if (model.work.compare && !model.work.b.trace && !side_running(model.work.b)) model.work.request_run(model.work.b);
  hide_views(views, o.debug.hide);
  // REDLAB_GUI_HIDE wins over a kernel file's own opening of the code view.
  std::erase_if(model.view.views_to_open, [&](ViewId id) { return hidden_by(o.debug.hide, view_key(id)); });
  const GuiDebugOptions& d = o.debug;
  if (!d.bank_lab.empty()) {  // the bank lab on an expression: screenshots and classroom set-ups
    find_view(views, ViewId::bank_lab)->open = true;
    model.view.lab_expr = d.bank_lab;
    model.view.lab_width = d.bank_lab_width;
    model.view.lab_store = d.bank_lab_store;
    model.view.lab_mask = d.bank_lab_mask;
  }
  if (!d.gallery.empty()) {  // the gallery window, or one of its entries opened (screenshots, classroom set-ups)
    bool found = false;
    for (const GalleryEntry& e : model.work.gallery().entries)
      if (e.id == d.gallery) {
        model.work.open_gallery_entry(e);
        model.view.views_to_open.push_back(ViewId::code);
        found = true;
      }
    if (!found) find_view(views, ViewId::gallery)->open = true;
  }
  if (!model.view.headless) return;
  // Screenshots: settle everything before the first frame, then the step and what the windows show.
  model.poll(true);
  const int k = d.step >= -1 ? d.step : o.step;
  const bool fault = model.work.a.trace && model.work.a.trace->fault;  // where it happened, unless a step is asked for
  // (A lesson's beat has gone to its own step.)
  if (!(model.lesson.open() && k < 0))
    model.view.step = std::clamp(k < 0 ? fault ? int(model.work.a.trace->fault->step) : model.max_step() / 2 : k, 0,
                                 model.max_step());
  model.view.anim = 1.0f;
  if (d.focus_block >= 0 && model.work.a.trace)
    for (std::size_t i = 0; i < model.work.a.trace->focus.size(); ++i)
      if (model.work.a.trace->focus[i].block == std::uint32_t(d.focus_block)) model.view.sel_focus = int(i);
  if (d.warp >= 0) model.view.sel_warp = d.warp;
  if (d.bank >= 0) model.select_bank_column(d.bank);
  if (d.access >= 0) model.view.sel_access = d.access;
  if (d.tile_req >= 0) model.view.sel_tile_req = d.tile_req;
  if (d.play) {  // play from step 0 on a fixed clock (exercises stepping and animation)
    model.view.step = 0;
    model.view.playing = true;
    model.view.speed = 3.0f;
  }
}

}  // namespace redlab::gui
