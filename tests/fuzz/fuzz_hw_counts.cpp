// libFuzzer target: recorded hardware counts from anyone (`stats --hw-from FILE`), read as that command reads
// them for a trace of the scenario the counts name, then compared with that trace and written out as its text
// and JSON are. The trace is one the seed maker recorded (REDLAB_FUZZ_TRACE). Besides sanitizer reports, crashes
// and leaks, a failure is text from the file that reaches the output with a control character in it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/catalog.h"
#include "core/hw_counts.h"
#include "core/kernel_source.h"
#include "core/printable.h"
#include "core/trace.h"

namespace {

redlab::Trace g_trace;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* path = std::getenv("REDLAB_FUZZ_TRACE");
  try {
    if (!path) throw std::runtime_error("REDLAB_FUZZ_TRACE is not set");
    g_trace = redlab::load_trace(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_hw_counts: a trace to compare the counts with: %s\n", e.what());
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace redlab;
  HwCounts hw;
  try {
    hw = hw_counts_from_text(std::string_view(reinterpret_cast<const char*>(data), size), g_trace.scenario);
  } catch (const std::exception&) {
    return 0;  // refused with a reason (the command prints it)
  }
  (void)hw_lines(hw);
  (void)compare_hw(g_trace, hw);
  const std::string text = hw_text(g_trace, hw, KernelSources{});
  if (printable(text, true) != text) {
    std::fprintf(stderr, "fuzz_hw_counts: a control character reached the text: %s\n", printable(text, true).c_str());
    std::abort();
  }
  (void)hw_json(g_trace, hw).dump();
  return 0;
}
