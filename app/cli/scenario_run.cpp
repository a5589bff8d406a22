// A scenario run for a command that prints or writes its trace: progress on stderr, the exit code of its result.
#include "cli/scenario_run.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

#include "core/printable.h"
#include "exec/estimate.h"
#include "exec/executor.h"
#include "exec/job.h"

namespace redlab::cli {

Trace run_scenario(const Scenario& s) {
  std::string notice;
  auto ex = make_executor(s.backend, &notice);
  if (!notice.empty()) print_message(stderr, "redlab: %s\n", notice.c_str());
  if (ex->backend() == Backend::emulator) {
    const RunEstimate e = estimate_run(s, true);
    if (e.seconds > 10.0 && e.bytes <= double(host_free_for_runs()))  // one that cannot fit is refused instead
      print_message(stderr,
                    "redlab: this run takes about %.0f s on the CPU (%u chunk%s, %.2f GB of host "
                    "memory); Ctrl+C stops it\n",
                    e.seconds, e.chunks, e.chunks == 1 ? "" : "s", e.bytes / 1e9);
  }
  Job<Trace> run;
  run.start([&](RunControl& control) {
    RunOptions options;
    options.control = &control;
    return ex->run(s, options);
  });
  const RunControl& control = *run.control();
  const bool tty = isatty(fileno(stderr));
  bool printed = false;
  while (!run.finished_by(std::chrono::steady_clock::now() + std::chrono::seconds(1))) {
    const double secs = run.seconds();
    if (control.chunks)
      print_message(stderr, "redlab: traced %llu of %llu blocks, chunk %u of %u, %.0f s%s",
                    static_cast<unsigned long long>(control.blocks_run.load()),
                    static_cast<unsigned long long>(control.blocks_expected.load()),
                    std::min(control.chunks_done.load() + 1, control.chunks.load()), control.chunks.load(), secs,
                    tty ? "   \r" : "\n");
    else
      print_message(stderr, "redlab: preparing the input and buffers, %.0f s%s", secs, tty ? "   \r" : "\n");
    printed = true;
  }
  if (printed && tty) print_message(stderr, "\n");
  return run.get();
}

int run_outcome(const Trace& t) {
  if (!t.fault) return t.correct ? 0 : 1;
  print_message(stderr, "redlab: %s\n", t.fault->message.c_str());
  return 2;
}

}  // namespace redlab::cli
