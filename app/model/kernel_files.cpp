// The work's kernel files of the student's own: a side follows a file, its editor loaded from it; the file is
// compiled and traced by a second redlab on every save (here or in another editor), and the trace adopted.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/catalog.h"
#include "core/child_process.h"
#include "core/trace.h"
#include "exec/user_kernel.h"
#include "model/i18n.h"
#include "model/work.h"

namespace redlab::model {

void Work::need_glyphs(const std::string& text) {
  // Only characters beyond ASCII; each once (the fonts are built again when one is new).
  bool fresh = false;
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    if (len > 1 && i + len <= text.size()) {
      const std::string ch = text.substr(i, len);
      if (extra_glyphs_.find(ch) == std::string::npos) {
        extra_glyphs_ += ch;
        fresh = true;
      }
    }
    i += len;
  }
  if (fresh) ++glyphs_added_;
}

void Work::edited(Side& side) {
  need_glyphs(side.user.editor.text);
  title_dirty = true;  // the title says when A's file has unsaved edits
}

bool Work::open_kernel_source(Side& side, const std::string& path) {
  UserSource& u = side.user;
  if (same_file(path, u.path)) {  // followed already: run it again, the editor's edits kept
    run_user_source(side);
    return true;
  }
  if (u.editor.dirty()) {
    u.unsaved_question = PendingOpen{path, std::nullopt};
    return false;
  }
  follow(side, path, std::nullopt);
  return true;
}

bool Work::close_kernel_source(Side& side) {
  UserSource& u = side.user;
  if (!follows_file(side)) return true;
  if (u.editor.dirty()) {
    u.unsaved_question = PendingOpen{"", std::nullopt};
    return false;
  }
  follow(side, "", std::nullopt);
  return true;
}

void Work::resolve_unsaved(Side& side, Unsaved answer) {
  UserSource& u = side.user;
  if (!u.unsaved_question) return;
  if (answer == Unsaved::cancel) {
    u.unsaved_question.reset();
    return;
  }
  // Saved without a run: the side goes on to another file (or none) at once.
  if (answer == Unsaved::save && !save_kernel_source(side, false)) return;  // the editor says why; the question stays
  PendingOpen next = std::move(*u.unsaved_question);
  u.unsaved_question.reset();
  if (next.gallery) {
    side.scenario = next.gallery->scenario;
    sync_text_fields(side);
    if (side.id == SideId::a) show_beside(*next.gallery);
  }
  follow(side, next.path, std::move(next.gallery));
}

// The side follows `path` ("" : no file), its editor loaded from it, and runs it.
void Work::follow(Side& side, const std::string& path, std::optional<GalleryEntry> gallery) {
  UserSource& u = side.user;
  u.job.cancel();  // a run for the file followed before is stopped; its result is dropped on arrival
  u.path = path;
  u.id.clear();
  u.errors.clear();
  u.marks.clear();
  u.stale = false;
  u.missing = false;
  u.unsaved_question.reset();
  u.gallery = std::move(gallery);
  u.run_stamp = u.editor_stamp = FileStamp{};
  u.editor = SourceEditor{};
  title_dirty = true;
  if (path.empty()) return;
  if (side.running()) {  // a run of the scenario as it was: the file's run takes its place
    side.run.cancel();
    side.phase = RunPhase::overtaken;
  }
  if (!u.editor.load(path)) {
    u.errors = u.editor.error;
    side.error = u.editor.error;
    return;
  }
  u.editor_stamp = stamp_of(path);
  need_glyphs(u.editor.text);
  // The scenario names the file's kernel from now on (its record loads with the first good run).
  std::string why;
  if (const std::string id = user_kernel_id(u.editor.saved(), &why); !id.empty()) {
    u.id = id;
    side.scenario.kernel = id;
  }
  if (kernel_file_takes_matrix(u.editor.saved()) && side.scenario.type == ElemType::int32) {
    side.scenario.type = ElemType::float32;  // transposes move float matrices (as the scenario panel switches)
    side.type_switched = true;
  }
  if (u.running()) return;  // the run in flight ends soon (cancelled); its arrival starts this file's
  run_user_source(side);
}

bool Work::save_kernel_source(Side& side, bool run) {
  UserSource& u = side.user;
  if (!follows_file(side)) return false;
  if (!u.editor.save()) return false;
  u.editor_stamp = stamp_of(u.path);
  u.missing = false;
  title_dirty = true;
  if (!run) {  // quitting: the file is written, nothing more starts
    u.run_stamp = u.editor_stamp;
    return true;
  }
  // The save runs the file as a save in another editor would, at once rather than at the watch's next look. A run
  // under way compiled the text before this save: it is stopped and its result dropped.
  if (u.running()) {
    u.stale = true;
    u.job.cancel();
  } else {
    run_user_source(side);
  }
  return true;
}

void Work::run_user_source(Side& side) {
  UserSource& u = side.user;
  if (u.running() || u.path.empty()) return;
  u.run_stamp = stamp_of(u.path);
  u.stale = false;
  ++u.runs;
  const std::string self = self_executable_path();
  // Each side and window its own trace file, outside the sealed folder of the compiled kernel: A and B may run the
  // same kernel file at two shapes at once, and two windows the same file.
  const std::string trace_name = std::to_string(getpid()) + (side.id == SideId::a ? "-A.rltrace" : "-B.rltrace");
  u.job.start([path = u.path, scenario = side.scenario, self, trace_name](RunControl& control) {
    UserSourceResult r;
    r.path = path;
    std::string text;
    read_regular_file(path, std::size_t(kMaxKernelFileBytes), &text);  // (compile_user_kernel says why it cannot)
    const bool matrix = kernel_file_takes_matrix(text);
    Scenario s = scenario;
    if (matrix && s.type == ElemType::int32) s.type = ElemType::float32;
    // Where it may run on a GPU, its traced instance compiles through NVRTC beside the host compiler.
    UserKernelTarget target{s.type, s.block, s.block_rows, s.op};
    if (s.backend != BackendChoice::cpu) target.gpu_arch = 0;
    const UserKernelBuild b = compile_user_kernel(path, target);
    r.id = b.id;
    r.compile_seconds = b.seconds;
    if (!b.ok) {
      r.errors = b.errors;
      return r;
    }
    if (control.cancel) {
      r.errors = "cancelled";
      return r;
    }
    r.library = b.library;
    // The scenario's options for the file's family (a transpose file takes the matrix options).
    // On the scenario's backend: the emulator, or the GPU through NVRTC (exec/nvrtc.h). `auto` is settled here, as
    // a catalog run settles it, so that the second redlab prints no notice of its own above the kernel's messages.
    std::string backend = to_string(s.backend);
    if (s.backend == BackendChoice::auto_) {
      std::string notice;
      const auto ex = make_executor(BackendChoice::auto_, &notice);
      backend = to_string(ex ? ex->backend() : Backend::emulator);
    }
    std::vector<std::string> args = {"trace",
                                     "--load-kernel",
                                     b.library,
                                     "--time-limit",
                                     "60",
                                     "--backend",
                                     backend,
                                     "--type",
                                     to_string(s.type),
                                     "--input",
                                     to_string(s.input),
                                     "--seed",
                                     std::to_string(s.seed),
                                     "--kernel",
                                     b.id};
    if (matrix) {
      args.insert(args.end(), {"--rows", std::to_string(s.rows), "--cols", std::to_string(s.cols), "--block-rows",
                               std::to_string(s.block_rows)});
    } else {
      args.insert(args.end(), {"--n", std::to_string(s.n), "--block", std::to_string(s.block), "--op", to_string(s.op),
                               "--finish", to_string(s.finish), "--coarse", std::to_string(s.coarse)});
      if (s.cluster) args.insert(args.end(), {"--cluster", std::to_string(s.cluster)});
    }
    std::string focus;
    for (std::uint32_t f : s.focus_blocks) focus += (focus.empty() ? "" : ",") + std::to_string(f);
    if (!focus.empty()) args.insert(args.end(), {"--focus", focus});
    const std::filesystem::path runs = std::filesystem::path(b.library).parent_path().parent_path() / "runs";
    std::error_code made;
    std::filesystem::create_directory(runs, made);
    r.trace_path = (runs / trace_name).string();
    args.insert(args.end(), {"-o", r.trace_path, "--force"});
    std::error_code ec;
    std::filesystem::remove(r.trace_path, ec);
    const ChildResult c = run_child(self, args, 120.0, &control.cancel);
    // The trace written with exit 1: the kernel ran to its end with a wrong result; with exit 2: it stopped at a fault
    // (a race, an index out of bounds), the trace kept up to there, or the file's process failed after the run had
    // ended (a global's destructor: the trace stands, the line says so). The views show each.
    const bool traced = (c.exit_code == 1 || c.exit_code == 2) && std::filesystem::exists(r.trace_path, ec);
    if (traced) r.after_run = failed_after_the_run(c.err);
    if (c.exit_code != 0 && !traced) {
      r.errors = c.err.empty() ? "the run of " + path +
                                     " failed: " + (c.why.empty() ? "exit " + std::to_string(c.exit_code) : c.why)
                               : c.err;
      return r;
    }
    r.ok = true;
    return r;
  });
}

bool Work::poll_user_source(Side& side, bool wait) {
  UserSource& u = side.user;
  if (!u.running()) return false;
  // Loading a compiled kernel registers its record, which the other side's work may be reading (its compile looks
  // its id up in the registry; a run of the catalog reads it while it prepares): that result waits until they are
  // past it. Waiting for everything, the other side is finished first.
  Side& other = this->other(side);
  if (wait) {
    other.user.job.wait();
    other.run.wait();
  }
  if (!u.job.finished(wait)) return false;
  if ((other.user.running() && !other.user.job.finished()) ||
      (other.running() && other.run.control()->blocks_expected == 0 && !other.run.finished()))
    return false;
  std::optional<JobOutcome<UserSourceResult>> got = u.job.collect();
  UserSourceResult r = got->value ? std::move(*got->value) : UserSourceResult{};
  if (!got->value) {
    r.path = u.path;
    r.errors = got->error;
  }
  if (r.path != u.path || u.stale) {  // a file no longer followed, or saved again since: the newest text runs
    run_user_source(side);
    return wait ? poll_user_source(side, wait) : false;
  }
  if (!r.id.empty()) u.id = r.id;
  u.last_compile_seconds = r.compile_seconds;
  if (!r.ok && u.job.cancel_asked()) {  // Esc, or Cancel: the last good trace stays
    u.errors.clear();
    side.error = tr("sc.cancelled");
    return false;
  }
  if (!r.ok) {
    u.errors = r.errors;
    u.marks = source_marks(r.errors, u.path);
    // The side's one line: the first error the messages give (not "In function ...").
    std::istringstream in(u.errors);
    std::string first, line;
    while (std::getline(in, line) && first.empty())
      if (line.find("error") != std::string::npos || line.rfind("redlab: ", 0) == 0) first = line;
    side.error = first.empty() ? u.errors.substr(0, u.errors.find('\n')) : first;
    return false;
  }
  // Two files whose records share an id cannot both be loaded (the second would replace the first's record).
  const std::string here = std::filesystem::absolute(u.path).lexically_normal().string();
  if (follows_file(other) && other.user.id == r.id && !same_file(other.user.path, u.path)) {
    u.errors = trf("source.same_id", {u.path, other.user.path, r.id});
    u.marks.clear();
    side.error = u.errors;
    return false;
  }
  // Its trace, and from it its record as data (the views read the record): the file's library is never loaded here,
  // so nothing of the student's code (a constructor, a destructor, a formula) runs in the window's process.
  std::optional<Trace> t;
  std::string why;
  try {
    t = load_trace(r.trace_path);
    if (!t->kernel_record || t->kernel_record->id != r.id)
      throw std::runtime_error("the run wrote a trace without the kernel file's record");
    why = register_file_record(*t->kernel_record);
  } catch (const std::exception& e) { why = r.trace_path + ": " + e.what(); }
  if (!why.empty()) {
    u.errors = side.error = why;
    return false;
  }
  set_kernel_source_file(r.id, here);
  sources_.erase(here);
  kernel_sources_.clear();
  adopt(side, std::move(*t));
  side.origin.clear();
  u.errors = r.after_run;  // (the file's process failed after its run: the trace stands, its panel says what happened)
  // A fault marks the lines of its accesses (the source panel says the rest); a run to the end marks none.
  u.marks = fault_marks(*side.trace, u.path);
  u.last_run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - u.job.started()).count();
  if (side.id == SideId::a) title_dirty = true;
  return true;
}

// The file on disk (at `stamp`) reaches the side's editor: reloaded when it has no unsaved edits, else the question.
void Work::editor_sees_disk(Side& side, const FileStamp& stamp) {
  UserSource& u = side.user;
  std::string text;
  if (!read_regular_file(u.path, std::size_t(kMaxKernelFileBytes), &text).empty()) return;
  u.editor_stamp = stamp;
  if (u.editor.disk_changed(text) == SourceEditor::DiskChange::reloaded) need_glyphs(u.editor.text);
  title_dirty = true;
}

// Twice a second: the file changed on disk (another editor saved it, or this window did) reaches the editor (it
// reloads, or asks when it has unsaved edits) and runs again.
void Work::watch_user_source(Side& side) {
  UserSource& u = side.user;
  if (u.path.empty() || std::chrono::steady_clock::now() - u.checked < std::chrono::milliseconds(500)) return;
  u.checked = std::chrono::steady_clock::now();
  const FileStamp now = stamp_of(u.path);
  u.missing = !now.exists;
  if (!now.exists) return;
  if (now != u.editor_stamp) editor_sees_disk(side, now);
  if (now == u.run_stamp) return;
  if (u.running()) {  // what is being compiled is already old
    u.stale = true;
    u.job.cancel();
    return;
  }
  run_user_source(side);
}

}  // namespace redlab::model
