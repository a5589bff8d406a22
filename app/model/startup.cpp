#include "model/startup.h"

#include <exception>
#include <optional>
#include <sstream>
#include <vector>

#include "core/catalog.h"
#include "core/file_write.h"
#include "model/export.h"
#include "model/i18n.h"

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

Scenario partner_of(const Model& model) {
  const Scenario& a = model.work.a.scenario;
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
  if (!model.work.opts.debug.compare_kernel.empty()) b.kernel = model.work.opts.debug.compare_kernel;
  // An all-reduce beside another over as many GPUs (a one-GPU kernel takes none).
  const KernelRecord* kb = find_kernel(b.kernel);
  b.gpus = kb && kb->family == Family::allreduce ? a.gpus : 0;
  resolve_shape(b);
  return b;
}

void start_work(Model& model) {
  const GuiOptions& o = model.work.opts;
  // A playlist: A starts at its first scenario, unless another is given.
  model.work.playlist = o.playlist;
  std::optional<Scenario> given = o.scenario;
  if (!model.work.playlist.entries.empty() && !given && o.trace_file.empty()) {
    model.work.playlist.current = 0;
    given = model.work.playlist.entries[0].scenario;
  }
  // What to show: a trace file, the scenario given, or the default demo (divergent vs convergent tree).
  if (!o.trace_file.empty()) {
    model.open_trace(o.trace_file);
    model.work.b.scenario = partner_of(model);
    sync_text_fields(model.work.b);
  } else if (!o.source_file.empty()) {  // a kernel file of the student's own, on the scenario given
    if (given) model.work.a.scenario = *given;
    sync_text_fields(model.work.a);
    model.work.b.scenario = partner_of(model);
    sync_text_fields(model.work.b);
    model.work.open_kernel_source(model.work.a, o.source_file);
  } else if (given) {
    model.work.a.scenario = *given;
    sync_text_fields(model.work.a);
    model.work.request_run(model.work.a);
    model.work.b.scenario = partner_of(model);
    sync_text_fields(model.work.b);
  } else if (!o.source_file_b.empty()) {  // B alone a file of the student's own: beside interleaved
    model.work.a.scenario = default_demo("interleaved");
    model.work.a.scenario.n = 4096;
    sync_text_fields(model.work.a);
    model.work.request_run(model.work.a);
  } else if (!o.lesson.empty()) {  // a lesson: its first beat's scenarios (start_scenarios opens it)
    model.work.a.scenario = default_demo("interleaved");
    sync_text_fields(model.work.a);
  } else {
    model.work.a.scenario = default_demo("neighbored_modulo");
    model.work.b.scenario = default_demo("interleaved");
    model.work.compare = true;
    model.work.request_run(model.work.a);
    model.work.request_run(model.work.b);
  }
  // B a kernel file of the student's own, at A's shape, beside A (a catalog kernel, a trace, or A's own file).
  if (!o.source_file_b.empty()) {
    model.work.b.scenario = partner_of(model);
    sync_text_fields(model.work.b);
    model.work.compare = true;
    model.work.open_kernel_source(model.work.b, o.source_file_b);
  }
  if (o.compare) model.work.compare = true;
  // The compare layout shows B beside A.
  if (o.layout == "compare") model.work.compare = true;
}

std::string export_csv_without_window(Model& model, const std::string& path, bool force) {
  std::string why;
  if (!force && !export_may_write(path, ExportFormat::csv, &why)) return why;
  // The steps' names in the language the window would use (--lang, REDLAB_LANG, else the system's).
  const GuiOptions& o = model.work.opts;
  i18n_load(!o.debug.lang.empty() ? o.debug.lang : !o.lang.empty() ? o.lang : i18n_system_default());
  start_work(model);
  if (model.work.compare && !model.work.b.trace && !side_running(model.work.b) && !model.work.b.user.running())
    model.work.request_run(model.work.b);
  model.poll(true);
  if (!model.work.a.trace)
    return "nothing to export: " + (model.work.a.user.errors.empty() ? model.work.a.error : model.work.a.user.errors);
  std::ostringstream csv;
  write_steps_csv(csv, *model.work.a.trace, model.work.compare && model.work.b.trace ? &*model.work.b.trace : nullptr);
  try {
    write_file_atomically(path, csv.str());
  } catch (const std::exception& e) { return e.what(); }
  return {};
}

}  // namespace redlab::model
