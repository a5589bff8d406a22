// libFuzzer target: a trace file from anyone, through everything the window does when it opens one.
//
// Each input is opened twice: as a whole file (magic, version, size and checksum are checked first), and as the
// CBOR body of a file whose header and checksum are right. Random bytes almost never pass a checksum, so the
// second form is what carries mutations into the body's parser, the per-field bounds and the views' models:
// it is a tampered file, as a student could make one. A file that loads is then taken through what the window
// derives from it: the tree model, the summary, each step's name, the per-step CSV, the bank grid of every
// shared access and the sectors of every global one. Any sanitizer report, crash, leak or allocation over
// -rss_limit_mb is a failure.
#include <array>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <cstdio>
#include <cstdlib>

#include "core/bank_model.h"
#include "core/catalog.h"
#include "core/trace.h"
#include "model/export.h"
#include "model/tree_model.h"

namespace {

void open_as_the_window_does(std::string_view file) {
  using namespace redlab;
  Trace t;
  try {
    t = parse_trace(file, "fuzz input");
  } catch (const std::runtime_error&) {
    return;  // refused with a reason: what a hostile file should get
  }
  const model::TreeModel tree = model::build_tree(t);
  (void)tree;
  (void)summarize(t);
  for (unsigned s = 0; s < t.steps.size(); ++s) (void)model::step_name(t, s);
  std::ostringstream csv;
  model::write_steps_csv(csv, t, &t);
  for (const FocusBlock& f : t.focus)
    for (const auto& step : f.steps)
      for (const WarpStep& w : step)
        for (const WarpAccess& a : w.accesses) {
          const WarpAddresses wa = addresses_of(a);
          if (a.space == Space::shared) (void)bank_report(wa);
          if (a.space == Space::global) (void)sectors(wa);
          for (unsigned l = 0; l < 32; ++l)
            if (a.mask >> l & 1u) (void)format_value(t.scenario.type, a.bits[l]);
        }
}

}  // namespace

// Without the kernel catalog every trace would be refused (its kernel unknown) and nothing past the loader's
// first check would be reached: refuse to fuzz instead of passing without testing anything.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (redlab::catalog().size() < 20) {
    std::fprintf(stderr, "fuzz_trace: the kernel catalog has %zu records: link redlab_kernel_catalog whole\n",
                 redlab::catalog().size());
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  open_as_the_window_does(std::string_view(reinterpret_cast<const char*>(data), size));
  open_as_the_window_does(redlab::trace_file_with_body(data, size));
  return 0;
}
