#include "startup.h"

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
#include "chrome.h"
#include "model/i18n.h"
#include "model/layout.h"
#include "model/startup.h"
#include "palette.h"

namespace redlab::gui {

using namespace redlab::model;

Settings start_settings(Model& st) {
  const GuiOptions& o = st.work.opts;
  Settings s;
  s.lang = i18n_system_default();
  if (!st.view.headless) load_settings(s);
  if (!o.lang.empty()) s.lang = o.lang;
  if (!o.debug.lang.empty()) s.lang = o.debug.lang;
  if (o.ui_scale > 0) s.ui_scale = o.ui_scale;
  if (o.debug.scale > 0) s.ui_scale = std::clamp(o.debug.scale, 0.75f, 3.0f);
  s.colorblind = s.colorblind || o.colorblind || o.debug.colorblind;
  st.view.lang = s.lang;
  st.view.ui_scale = s.ui_scale;
  st.view.colorblind = s.colorblind;
  // The layout: --layout, else the one chosen last time (an unknown name in the settings file: study).
  st.view.layout = parse_layout(o.layout.empty() ? s.layout : o.layout).value_or(LayoutKind::study);
  st.view.show_hint = (!s.hint_seen && !st.view.headless) || o.debug.hint;
  st.view.show_help = o.debug.help;
  palette_set_colorblind(st.view.colorblind);
  i18n_load(st.view.lang);
  return s;
}

void say_font_notice(Model& st, const std::string& notice) {
  if (!notice.empty() && notice != st.view.font_notice) print_message(stderr, "redlab gui: %s\n", notice.c_str());
  st.view.font_notice = notice;
}

void apply_settings(Model& st, Platform& platform, Settings& s) {
  // A resize (or a new scale) that moves the bars' scale: their font is built again. A minimised window keeps it.
  if (const int h = platform.window_height(); h > 0 && chrome_scale(st.view.ui_scale, float(h)) != st.view.chrome_scale) {
    st.view.chrome_scale = chrome_scale(st.view.ui_scale, float(h));
    st.view.fonts_dirty = true;
  }
  if (st.view.fonts_dirty) {
    say_font_notice(st, platform.build_fonts(st.view.ui_scale, st.view.chrome_scale, st.view.lang, st.work.extra_glyphs()));
    st.view.fonts_dirty = false;
  }
  if (st.view.lang_dirty) {
    i18n_load(st.view.lang);
    // A fault's marked lines were said in the old language when its trace came (a compiler's messages stay).
    for (Slot* slot : {&st.work.a, &st.work.b})
      if (slot->trace && slot->trace->fault && slot->user.errors.empty() && follows_file(*slot))
        slot->user.marks = fault_marks(*slot->trace, slot->user.path);
    st.view.fonts_dirty = true;   // the next frame: glyphs for the new language's text
    st.view.lang_dirty = false;
    st.work.title_dirty = true;
  }
  if (palette_colorblind() != st.view.colorblind) palette_set_colorblind(st.view.colorblind);
  if (st.work.title_dirty) {
    platform.set_title(st.work.window_title());
    st.work.title_dirty = false;
  }
  s.ui_scale = st.view.ui_scale;
  s.colorblind = st.view.colorblind;
  s.lang = st.view.lang;
  s.layout = to_string(st.view.layout);
  s.hint_seen = s.hint_seen || !st.view.show_hint;
}

void start_scenarios(Model& st, Views& views) {
  const GuiOptions& o = st.work.opts;
  start_work(st);
  // A kernel file given: the code view, where it is edited, comes to the front (B's when only B has one).
  if (!o.source_file.empty() || !o.source_file_b.empty()) {
    st.view.memory.code_side = o.source_file.empty() ? 1 : 0;
    st.view.views_to_open.push_back(ViewId::code);
  }
  apply_layout(st, views);   // the layout's views open (the compare layout turns compare on)
  // A lesson (checked by the command line): its beat's scenarios, layout, step and view.
  if (!o.lesson.empty() && open_lesson(st, o.lesson, o.lesson_beat, o.lesson_fresh) && st.view.layout_reset) apply_layout(st, views);
  if (st.work.compare && !st.work.b.trace && !slot_running(st.work.b)) st.work.request_run(st.work.b);
  hide_views(views, o.debug.hide);
  // REDLAB_GUI_HIDE wins over a kernel file's own opening of the code view.
  std::erase_if(st.view.views_to_open, [&](ViewId id) { return hidden_by(o.debug.hide, view_key(id)); });
  const GuiDebugOptions& d = o.debug;
  if (!d.bank_lab.empty()) {  // the bank lab on an expression: screenshots and classroom set-ups
    find_view(views, ViewId::bank_lab)->open = true;
    st.view.lab_expr = d.bank_lab;
    st.view.lab_width = d.bank_lab_width;
    st.view.lab_store = d.bank_lab_store;
    st.view.lab_mask = d.bank_lab_mask;
  }
  if (!d.gallery.empty()) {   // the gallery window, or one of its entries opened (screenshots, classroom set-ups)
    bool found = false;
    for (const GalleryEntry& e : st.work.gallery().entries)
      if (e.id == d.gallery) {
        st.work.open_gallery_entry(e);
        st.view.views_to_open.push_back(ViewId::code);
        found = true;
      }
    if (!found) find_view(views, ViewId::gallery)->open = true;
  }
  if (!st.view.headless) return;
  // Screenshots: settle everything before the first frame, then the step and what the windows show.
  st.poll(true);
  const int k = d.step >= -1 ? d.step : o.step;
  const bool fault = st.work.a.trace && st.work.a.trace->fault;   // where it happened, unless a step is asked for
  // (A lesson's beat has gone to its own step.)
  if (!(st.lesson.open() && k < 0))
    st.view.step = std::clamp(k < 0 ? fault ? int(st.work.a.trace->fault->step) : st.max_step() / 2 : k, 0, st.max_step());
  st.view.anim = 1.0f;
  if (d.focus_block >= 0 && st.work.a.trace)
    for (std::size_t i = 0; i < st.work.a.trace->focus.size(); ++i)
      if (st.work.a.trace->focus[i].block == std::uint32_t(d.focus_block)) st.view.sel_focus = int(i);
  if (d.warp >= 0) st.view.sel_warp = d.warp;
  if (d.bank >= 0) st.select_bank_column(d.bank);
  if (d.access >= 0) st.view.sel_access = d.access;
  if (d.tile_req >= 0) st.view.sel_tile_req = d.tile_req;
  if (d.play) {  // play from step 0 on a fixed clock (exercises stepping and animation)
    st.view.step = 0;
    st.view.playing = true;
    st.view.speed = 3.0f;
  }
}

}  // namespace redlab::gui
