// All-reduce across the GPUs of this machine, measured: NCCL's ncclAllReduce (exec/nccl.h) with nccl-tests'
// figures (algbw = S / t, busbw = algbw x 2(G-1)/G: app/core/allreduce.h) and the link's own ceiling, a peer copy.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/allreduce.h"
#include "core/catalog.h"
#include "core/scenario.h"
#include "exec/device.h"

namespace redlab {

// One column of an all-reduce timing: NCCL (its own choice of algorithm, or one forced), or a schedule of the catalog.
struct AllReduceEngine {
  const KernelRecord* kernel = nullptr;  // a schedule of the catalog (its record); nullptr: NCCL
  std::string nccl_algo;  // NCCL: "" its own choice, else NCCL_ALGO forced ("Ring", "Tree")
  bool is_nccl() const { return kernel == nullptr; }
  // "nccl", "nccl:Ring" or the kernel's id.
  std::string name() const { return kernel ? kernel->id : nccl_algo.empty() ? "nccl" : "nccl:" + nccl_algo; }
  // "NCCL (its choice)", "NCCL_ALGO=Ring" or the kernel's id.
  std::string heading() const {
    return kernel ? kernel->id : nccl_algo.empty() ? "NCCL (its choice)" : "NCCL_ALGO=" + nccl_algo;
  }
};
// NCCL's columns: its own choice, then Ring and Tree forced.
inline std::vector<AllReduceEngine> nccl_engines() { return {{nullptr, ""}, {nullptr, "Ring"}, {nullptr, "Tree"}}; }

struct AllReduceRequest {
  unsigned gpus = 2;
  ElemType type = ElemType::float32;
  OpKind op = OpKind::sum;
  std::vector<std::uint64_t> sizes;  // elements per GPU
  // What is timed, each a column: NCCL, or an all-reduce schedule of the catalog (one launch per transfer on the
  // receiving GPU).
  std::vector<AllReduceEngine> engines = {AllReduceEngine{}};
  unsigned block = 256;  // the catalog kernels' block size
  int warmup = 5, reps = 7;  // samples: the median is reported
  int iters = 20;  // all-reduces per sample, back to back (as nccl-tests times them)
};

struct AllReduceReport;
// Called as each size's row is done for every engine (a long table shows its first rows while the rest run).
using AllReduceRowDone = std::function<void(const AllReduceReport&, std::size_t row)>;

struct AllReduceTiming {
  std::uint64_t elements = 0, bytes = 0;  // per GPU
  double seconds = 0;  // one all-reduce: median over samples of (sample time / iters)
  bool correct = false;  // every GPU holds the element-wise combination of every GPU's input
  double algbw = 0, busbw = 0;  // bytes per second
};

struct AllReduceColumn {
  AllReduceEngine engine;
  std::vector<AllReduceTiming> rows;  // one per size
};

struct AllReduceReport {
  std::string error;  // why nothing was measured ("" when measured)
  std::string nccl_version, device;
  std::vector<AllReduceColumn> columns;  // one per engine, in the request's order
  std::vector<allreduce::NcclRing> rings;  // the rings NCCL built, read from its log, when it printed them
};

// Each engine's all-reduce on GPUs 0..gpus-1, each GPU's input a slice of the scenario's input (GPU g holds
// elements [g n, (g+1) n) of one random sequence of G n elements), made once per size and checked once per engine
// before it is timed. NCCL runs out of place; the catalog's kernels in place on a copy of the input, their steps
// ordered on the GPUs by events (every GPU waits for every other's previous step), no host in between.
AllReduceReport time_allreduce(const AllReduceRequest&, const AllReduceRowDone& row_done = {});

// The link's ceiling: bytes per second of cudaMemcpyPeer from GPU 1 to GPU 0 (median of 7), one direction.
double peer_copy_bandwidth(std::uint64_t bytes, std::string* why);

}  // namespace redlab
