#include "startup.h"

#include <exception>
#include <optional>
#include <sstream>
#include <vector>

#include "../core/catalog.h"
#include "../core/file_write.h"
#include "export.h"
#include "i18n.h"

namespace redlab::model {

Scenario default_demo(const std::string& kernel) {
  Scenario s;
  s.kernel = kernel;
  s.n = 256;
  s.block = 256;
  s.type = ElemType::int32;
  s.op = OpKind::sum;
  s.input = InputKind::ones;
  return s;
}

Scenario partner_of(const Model& st) {
  const Scenario& a = st.work.a.scenario;
  Scenario b = default_demo("interleaved");
  const KernelRecord* ka = find_kernel(a.kernel);
  b.kernel = ka && !ka->compare_with.empty() ? ka->compare_with : family_of(a).default_compare;
  if (takes_matrix(a)) {
    b.rows = a.rows;
    b.cols = a.cols;
    b.block_rows = a.block_rows;
    b.focus_blocks = a.focus_blocks;
  }
  b.backend = a.backend;
  b.n = a.n;
  b.block = a.block;
  b.type = a.type;
  b.op = a.op;
  b.input = a.input;
  if (!st.work.opts.debug.compare_kernel.empty()) b.kernel = st.work.opts.debug.compare_kernel;
  // An all-reduce beside another over as many GPUs (a one-GPU kernel takes none).
  const KernelRecord* kb = find_kernel(b.kernel);
  b.gpus = kb && kb->family == Family::allreduce ? a.gpus : 0;
  resolve_shape(b);
  return b;
}

void start_work(Model& st) {
  const GuiOptions& o = st.work.opts;
  // A playlist: A starts at its first scenario, unless another is given.
  st.work.playlist = o.playlist;
  std::optional<Scenario> given = o.scenario;
  if (!st.work.playlist.entries.empty() && !given && o.trace_file.empty()) {
    st.work.playlist.current = 0;
    given = st.work.playlist.entries[0].scenario;
  }
  // What to show: a trace file, the scenario given, or the default demo (divergent vs convergent tree).
  if (!o.trace_file.empty()) {
    st.open_trace(o.trace_file);
    st.work.b.scenario = partner_of(st);
    sync_text_fields(st.work.b);
  } else if (!o.source_file.empty()) {   // a kernel file of the student's own, on the scenario given
    if (given) st.work.a.scenario = *given;
    sync_text_fields(st.work.a);
    st.work.b.scenario = partner_of(st);
    sync_text_fields(st.work.b);
    st.work.open_kernel_source(st.work.a, o.source_file);
  } else if (given) {
    st.work.a.scenario = *given;
    sync_text_fields(st.work.a);
    st.work.request_run(st.work.a);
    st.work.b.scenario = partner_of(st);
    sync_text_fields(st.work.b);
  } else if (!o.source_file_b.empty()) {   // B alone a file of the student's own: beside interleaved
    st.work.a.scenario = default_demo("interleaved");
    st.work.a.scenario.n = 4096;
    sync_text_fields(st.work.a);
    st.work.request_run(st.work.a);
  } else if (!o.lesson.empty()) {   // a lesson: its first beat's scenarios (start_scenarios opens it)
    st.work.a.scenario = default_demo("interleaved");
    sync_text_fields(st.work.a);
  } else {
    st.work.a.scenario = default_demo("neighbored_modulo");
    st.work.b.scenario = default_demo("interleaved");
    st.work.compare = true;
    st.work.request_run(st.work.a);
    st.work.request_run(st.work.b);
  }
  // B a kernel file of the student's own, at A's shape, beside A (a catalog kernel, a trace, or A's own file).
  if (!o.source_file_b.empty()) {
    st.work.b.scenario = partner_of(st);
    sync_text_fields(st.work.b);
    st.work.compare = true;
    st.work.open_kernel_source(st.work.b, o.source_file_b);
  }
  if (o.compare) st.work.compare = true;
  // The compare layout shows B beside A.
  if (o.layout == "compare") st.work.compare = true;
}

std::string export_csv_without_window(Model& st, const std::string& path, bool force) {
  std::string why;
  if (!force && !export_may_write(path, ExportFormat::csv, &why)) return why;
  // The steps' names in the language the window would use (--lang, REDLAB_LANG, else the system's).
  const GuiOptions& o = st.work.opts;
  i18n_load(!o.debug.lang.empty() ? o.debug.lang : !o.lang.empty() ? o.lang : i18n_system_default());
  start_work(st);
  if (st.work.compare && !st.work.b.trace && !slot_running(st.work.b) && !st.work.b.user.running())
    st.work.request_run(st.work.b);
  st.poll(true);
  if (!st.work.a.trace)
    return "nothing to export: " + (st.work.a.user.errors.empty() ? st.work.a.error : st.work.a.user.errors);
  std::ostringstream csv;
  write_steps_csv(csv, *st.work.a.trace, st.work.compare && st.work.b.trace ? &*st.work.b.trace : nullptr);
  try {
    write_file_atomically(path, csv.str());
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

}  // namespace redlab::model
