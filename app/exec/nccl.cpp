#include "exec/nccl.h"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <type_traits>

namespace redlab {

void no_nvlink_multicast() { setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0); }

namespace {

struct Loaded {
  Nccl calls;
  std::string error;
  Loaded() {
    no_nvlink_multicast();
    void* handle = nullptr;
    std::string tried;
    // REDLAB_NCCL, where set, is the one library tried: a path that does not open is said, not passed over.
    const char* env = std::getenv("REDLAB_NCCL");
    const bool named = env && *env;
    for (const char* name : {named ? env : "libnccl.so.2", named ? nullptr : "libnccl.so"}) {
      if (!name) continue;
      tried += (tried.empty() ? "" : ", ") + std::string(name);
      if ((handle = dlopen(name, RTLD_NOW | RTLD_LOCAL))) {
        calls.path = name;
        break;
      }
    }
    if (!handle) {
      error = "NCCL (" + tried +
              ") was not found: install it (Debian 13: libnccl2, non-free; NVIDIA's packages) or "
              "set REDLAB_NCCL to its path";
      return;
    }
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name));
      if (!fn && error.empty()) error = "NCCL at " + calls.path + " has no " + name;
    };
    sym(calls.GetVersion, "ncclGetVersion");
    sym(calls.CommInitAll, "ncclCommInitAll");
    sym(calls.GroupStart, "ncclGroupStart");
    sym(calls.GroupEnd, "ncclGroupEnd");
    sym(calls.AllReduce, "ncclAllReduce");
    sym(calls.CommDestroy, "ncclCommDestroy");
    sym(calls.GetErrorString, "ncclGetErrorString");
  }
};

}  // namespace

const Nccl* nccl(std::string* why) {
  static const Loaded loaded;
  if (!loaded.error.empty()) {
    if (why) *why = loaded.error;
    return nullptr;
  }
  return &loaded.calls;
}

std::string nccl_all_reduce_in_place(const std::vector<void*>& buffers, std::size_t count, ElemType type, OpKind op) {
  std::string why;
  const Nccl* n = nccl(&why);
  if (!n) return why;
  const unsigned g = unsigned(buffers.size());
  // Made once per GPU count: a communicator takes NCCL a second or more to set up.
  static std::mutex lock;
  static std::map<unsigned, std::vector<Nccl::Comm>> made;
  const std::lock_guard<std::mutex> hold(lock);
  std::vector<Nccl::Comm>& comms = made[g];
  if (comms.empty()) {
    std::vector<Nccl::Comm> fresh(g, nullptr);
    std::vector<int> devs(g);
    for (unsigned i = 0; i < g; ++i) devs[i] = int(i);
    if (const int e = n->CommInitAll(fresh.data(), int(g), devs.data()); e != 0)
      return std::string("ncclCommInitAll: ") + n->GetErrorString(e);
    comms = fresh;
  }
  n->GroupStart();
  for (unsigned i = 0; i < g; ++i)
    if (const int e = n->AllReduce(buffers[i], buffers[i], count, nccl_data_type(type), nccl_op(op), comms[i], nullptr);
        e != 0) {
      n->GroupEnd();
      return std::string("ncclAllReduce: ") + n->GetErrorString(e);
    }
  if (const int e = n->GroupEnd(); e != 0) return std::string("ncclGroupEnd: ") + n->GetErrorString(e);
  return {};
}

std::string nccl_version(std::string* why) {
  const Nccl* n = nccl(why);
  if (!n) return {};
  int v = 0;
  if (n->GetVersion(&v) != 0) {
    if (why) *why = "ncclGetVersion failed";
    return {};
  }
  // NCCL 2.9 and later: major * 10000 + minor * 100 + patch.
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

int nccl_data_type(ElemType t) {
  switch (t) {
    case ElemType::int32: return 2;
    case ElemType::float32: return 7;
    case ElemType::float64: return 8;
  }
  return 2;
}

int nccl_op(OpKind op) {
  switch (op) {
    case OpKind::sum: return 0;
    case OpKind::max: return 2;
    case OpKind::min: return 3;
  }
  return 0;
}

}  // namespace redlab
