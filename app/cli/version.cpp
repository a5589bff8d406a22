// `redlab --version [-v]`: the version, and with -v what this redlab finds on the machine.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "core/printable.h"
#include "core/resources.h"
#include "core/version.h"
#include "exec/device.h"
#include "exec/executor.h"
#include "exec/hw_collect.h"
#include "exec/nccl.h"
#if REDLAB_HAVE_CUDA
#include "exec/nvrtc.h"
#endif

namespace redlab::cli {

int print_version(bool verbose, WindowFontsEntry window_fonts) {
  std::printf("redlab %s\n", version());
  if (!verbose) return 0;
  // One line each: what it is, or why it is not there.
  auto line = [](const char* what, const std::string& found, const std::string& why) {
    print_message(stdout, "%-8s %s\n", what, found.empty() ? ("none: " + why).c_str() : found.c_str());
  };
  const std::string root = resource_root();
  line("data:", root,
       "its assets, lessons and kernels' sources were not found beside the executable; set REDLAB_DATA_DIR");
  std::string why;
#if REDLAB_HAVE_CUDA
  line("built:", std::string("CUDA ") + REDLAB_BUILT_CUDA + ", the catalog for " + REDLAB_BUILT_ARCHITECTURES, "");
  const std::unique_ptr<Device> gpu = make_cuda_device(&why);
  line("GPU:", gpu ? gpu->name() + ", " + gpu->driver() : "", why);
  std::string path;
  const std::string nvrtc = nvrtc_version(&why, &path);
  line("NVRTC:", nvrtc.empty() ? "" : nvrtc + ", " + path, why);
#else
  line("built:", "without CUDA (REDLAB_CUDA=OFF): every kernel runs on the CPU emulator", "");
  line("NVRTC:", "", "this redlab was built without CUDA");
#endif
  const std::string cupti = cupti_library(&why);
  line("CUPTI:", cupti, why);
  const std::string nccl = nccl_version(&why);
  line("NCCL:", nccl, why);
  if (!window_fonts) {
    line("font:", "", "this redlab was built without its window (REDLAB_GUI=OFF)");
    return 0;
  }
  for (const std::string& font : window_fonts()) line("font:", font, "");
  return 0;
}

}  // namespace redlab::cli
