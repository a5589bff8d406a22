// `redlab trace -o FILE`: a scenario's trace as a file the window opens anywhere.
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cli/command.h"
#include "cli/scenario_run.h"
#include "cli/source.h"
#include "core/catalog.h"
#include "core/file_write.h"
#include "core/printable.h"
#include "core/trace.h"

namespace redlab::cli {
namespace {

int cmd_trace(const Scenario& s, const std::string& out) {
  Trace t = run_scenario(s);
  const int code = run_outcome(t);
  // A kernel file's trace carries its record as data: the redlab that asked for it (the window, an exercise) reads
  // the record from here and never loads the file's library itself.
  if (kernel_file_loaded())
    if (const KernelRecord* k = find_kernel(s.kernel)) t.kernel_record = *k;
  save_trace(t, out);
  print_message(stderr, "redlab: wrote %s (%s, %zu steps, %s)\n", out.c_str(), describe(s).c_str(), t.steps.size(),
                t.fault     ? "up to the kernel's fault"
                : t.correct ? "result correct"
                            : "RESULT WRONG");
  return code;
}

class TraceCommand : public Command {
  ScenarioArgs scenario_;
  SourceArgs source_;
  std::string out_;
  bool force_ = false;

 public:
  CLI::App* declare(CLI::App& parent) override {
    CLI::App* trace = parent.add_subcommand("trace", "record a trace file the GUI opens anywhere");
    scenario_.add_to(*trace);
    trace->add_option("-o,--output", out_, "trace file to write")->required();
    trace->add_flag("--force", force_, "replace an existing file that is not a redlab trace");
    source_.add_to(*trace);
    return trace;
  }
  int run(const Invocation& in) override {
    const SourceCommand file{scenario_.type,
                             scenario_.block,
                             scenario_.block_rows,
                             scenario_.op,
                             scenario_.backend,
                             scenario_.kernel,
                             false,
                             ""};
    if (const auto rc = kernel_file_part(in.argc, in.argv, source_, file)) return *rc;
    Scenario s;
    if (!scenario_.parse_or_say(s)) return 2;
    // Before the run: a file that is not a trace is replaced only when asked.
    if (out_.empty()) {
      print_message(stderr, "redlab: -o: give a file name (it is empty)\n");
      return 2;
    }
    if (!force_ && exists_and_is_not_a_trace(out_)) {
      print_message(stderr, "redlab: -o: '%s' exists and is not a redlab trace; use --force to replace it\n",
                    printable(out_).c_str());
      return 2;
    }
    if (const std::string why = why_folder_is_not_writable(out_); !why.empty()) {
      print_message(stderr, "redlab: %s\n", why.c_str());
      return 2;
    }
    return cmd_trace(s, out_);
  }
};

const CommandRegistration trace_command{Order::trace, [] { return std::unique_ptr<Command>(new TraceCommand); }};

}  // namespace
}  // namespace redlab::cli
