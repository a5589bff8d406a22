#include "exec/toolkit_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace redlab {

ToolkitLibrary open_toolkit_library(const char* file, const char* env, const char* built,
                                    std::initializer_list<const char*> extra_dirs) {
  std::vector<std::string> tries;
  if (const char* e = std::getenv(env)) tries.push_back(e);
  if (built) tries.push_back(built);
  for (const char* dir : {"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib"})
    tries.push_back(std::string(dir) + "/" + file);
  for (const char* dir : extra_dirs) tries.push_back(std::string(dir) + "/" + file);
  tries.push_back(file);
  // Without the development package (Debian's libnvrtc12 and libcupti12 alone) only the versioned names exist.
  for (const char* major : {".13", ".12"}) tries.push_back(std::string(file) + major);
  ToolkitLibrary lib;
  for (const std::string& t : tries)
    if ((lib.handle = dlopen(t.c_str(), RTLD_NOW | RTLD_LOCAL))) {
      lib.path = t;
      break;
    }
  return lib;
}

}  // namespace redlab
