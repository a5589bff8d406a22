// A library of the CUDA toolkit opened at run time (dlopen): CUPTI for the hardware's counts (hw_collect.cpp),
// NVRTC for kernel files on the GPU (nvrtc.cpp). The toolkit keeps them outside the loader's path, and a redlab
// without them must still start and say why a feature is missing.
#pragma once
#include <initializer_list>
#include <string>

namespace redlab {

struct ToolkitLibrary {
  void* handle = nullptr;
  std::string path;  // the one opened
};

// Opens `file` ("libnvrtc.so") from, in turn: the path in environment variable `env`, `built` (where the build found
// it; may be null), the toolkit's folders under /usr/local/cuda (lib64, targets/x86_64-linux/lib and `extra_dirs`),
// and the loader's own path, under `file` and then its CUDA 13 and 12 names ("libnvrtc.so.12"), which is where
// Debian's packages put them. handle is null when none opens.
ToolkitLibrary open_toolkit_library(const char* file, const char* env, const char* built,
                                    std::initializer_list<const char*> extra_dirs = {});

}  // namespace redlab
