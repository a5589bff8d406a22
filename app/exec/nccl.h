// NCCL, the library multi-GPU programs reduce with, opened at run time (dlopen) as CUPTI and NVRTC are: Debian 12
// has no NCCL package and a redlab without it must still start and say why the comparison is missing. The few
// entry points redlab calls are declared here (exec/nccl.cpp), not taken from nccl.h.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "kernels/kernel_record.h"  // ElemType, OpKind

namespace redlab {

// The entry points, with NCCL's own types reduced to what crosses the call: a communicator is an opaque pointer,
// a stream CUDA's (cudaStream_t), results, data types and operators NCCL's enum values.
struct Nccl {
  using Comm = void*;
  using Result = int;  // ncclSuccess = 0
  int (*GetVersion)(int* version) = nullptr;
  Result (*CommInitAll)(Comm* comms, int ndev, const int* devlist) = nullptr;
  Result (*GroupStart)() = nullptr;
  Result (*GroupEnd)() = nullptr;
  Result (*AllReduce)(const void* send, void* recv, std::size_t count, int datatype, int op, Comm comm,
                      void* stream) = nullptr;
  Result (*CommDestroy)(Comm comm) = nullptr;
  const char* (*GetErrorString)(Result) = nullptr;
  std::string path;  // the library opened
};

// NCCL, or null with `why` ("NCCL (libnccl.so.2) was not found: ..."). Opened once per process; REDLAB_NCCL names a
// library to use instead of the loader's search. Opening it switches NVLink multicast off (no_nvlink_multicast).
const Nccl* nccl(std::string* why);

// ncclAllReduce in place on `buffers[g]` (GPU g's memory, `count` elements each) across GPUs 0..G-1, on each GPU's
// default stream; returns "" or what failed. The communicators for G GPUs are made on the first call (NCCL_ALGO and
// NCCL_PROTO as the environment says) and kept for the process.
std::string nccl_all_reduce_in_place(const std::vector<void*>& buffers, std::size_t count, ElemType, OpKind);

// "2.28.3", or "" with `why`.
std::string nccl_version(std::string* why);

// NCCL's numbers for an element type and an operator (ncclInt32 2, ncclFloat32 7, ncclFloat64 8; ncclSum 0,
// ncclMax 2, ncclMin 3).
int nccl_data_type(ElemType);
int nccl_op(OpKind);

// Sets NCCL_NVLS_ENABLE=0 where it is unset, before any communicator exists: NVLink SHARP (multicast) can take a
// shared machine's GPUs out of service, and redlab never uses it. A value the user set is left as it is.
void no_nvlink_multicast();

}  // namespace redlab
