#include "exec/occupancy_calc.h"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "core/file_write.h"
#include "core/json_read.h"
#include "core/resources.h"
#include "exec/family_run.h"
#if REDLAB_HAVE_CUDA
#include "exec/cuda_occupancy.h"
#endif

#if REDLAB_HAVE_OCCUPANCY
#include <cuda_occupancy.h>
#endif

namespace redlab {

std::optional<Occupancy> compute_occupancy(const SmLimits& sm, const std::optional<KernelResources>& kernel,
                                           std::uint32_t block, std::uint64_t dynamic_smem, std::string* why) {
#if REDLAB_HAVE_OCCUPANCY
  cudaOccDeviceProp props;
  props.computeMajor = sm.major;
  props.computeMinor = sm.minor;
  props.maxThreadsPerBlock = sm.max_threads_per_block;
  props.maxThreadsPerMultiprocessor = sm.max_threads_per_sm;
  props.regsPerBlock = sm.regs_per_block;
  props.regsPerMultiprocessor = sm.regs_per_sm;
  props.warpSize = sm.warp_size;
  props.sharedMemPerBlock = sm.smem_per_block;
  props.sharedMemPerMultiprocessor = sm.smem_per_sm;
  props.numSms = sm.sms;
  props.sharedMemPerBlockOptin = sm.smem_per_block_optin;
  props.reservedSharedMemPerBlock = sm.smem_reserved_per_block;
  cudaOccFuncAttributes attributes;
  // (unknown: no registers and no static shared memory, which can only raise the figure)
  attributes.maxThreadsPerBlock = kernel ? kernel->max_threads_per_block : sm.max_threads_per_block;
  attributes.numRegs = kernel ? kernel->registers : 0;
  attributes.sharedSizeBytes = kernel ? std::size_t(kernel->static_smem) : 0;
  cudaOccDeviceState state;
  cudaOccResult result;
  const cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&result, &props, &attributes, &state, int(block),
                                                                 std::size_t(dynamic_smem));
  if (e != CUDA_OCC_SUCCESS) {
    if (why)
      *why = e == CUDA_OCC_ERROR_UNKNOWN_DEVICE
                 ? "the occupancy calculator does not know compute capability " + std::to_string(sm.major) + "." +
                       std::to_string(sm.minor)
                 : "the occupancy calculator refused block " + std::to_string(block) + " on this SM";
    return std::nullopt;
  }
  Occupancy o;
  o.sm = sm;
  o.kernel = kernel;
  o.block = block;
  o.dynamic_smem = dynamic_smem;
  o.blocks = result.activeBlocksPerMultiprocessor;
  o.by_warps = result.blockLimitWarps;
  o.by_blocks = result.blockLimitBlocks;
  if (kernel && result.blockLimitRegs != INT_MAX) o.by_registers = result.blockLimitRegs;
  if (result.blockLimitSharedMem != INT_MAX) o.by_shared = result.blockLimitSharedMem;
  o.shared_allocated = result.allocatedSharedMemPerBlock;
  if (result.limitingFactors & OCC_LIMIT_WARPS) o.limiting.push_back(OccupancyLimit::warps);
  if (result.limitingFactors & OCC_LIMIT_REGISTERS) o.limiting.push_back(OccupancyLimit::registers);
  if (result.limitingFactors & OCC_LIMIT_SHARED_MEMORY) o.limiting.push_back(OccupancyLimit::shared_memory);
  if (result.limitingFactors & OCC_LIMIT_BLOCKS) o.limiting.push_back(OccupancyLimit::blocks);
  return o;
#else
  (void)sm, (void)kernel, (void)block, (void)dynamic_smem;
  if (why) *why = "this redlab was built without the CUDA toolkit's occupancy calculator (cuda_occupancy.h)";
  return std::nullopt;
#endif
}

std::optional<Occupancy> occupancy_of(const Device& dev, const Plan& p, std::string* why,
                                      std::optional<std::uint64_t> declared_smem) {
  const std::optional<LaunchArgs> first = first_launch_args(p);
  if (!first || p.kernel->family == Family::allreduce) {
    if (why) *why = "no kernel of its own: " + p.kernel->id + " runs on the host or as a library's launches";
    return std::nullopt;
  }
  // (the catalog's one kernel with dynamic shared memory, interleaved, and kernel files made from it: one element
  // a thread, sized at launch)
  const std::uint64_t dynamic_smem = first->dynamic_smem ? std::uint64_t(first->block) * elem_size(p.scenario.type) : 0;
  if (dev.backend() == Backend::cuda) {
#if REDLAB_HAVE_CUDA
    return cuda_occupancy(*p.kernel, p.scenario.type, *first, dynamic_smem, why);  // (its clusters too)
#endif
  }
  const std::optional<SmLimits> sm = reference_sm(why);
  if (!sm) return std::nullopt;
  std::optional<Occupancy> o =
      compute_occupancy(*sm, std::nullopt, first->block, dynamic_smem + declared_smem.value_or(0), why);
  if (o) {  // (the declared arrays counted as dynamic shared memory is, which the calculator treats alike)
    o->dynamic_smem = dynamic_smem;
    o->declared_smem = declared_smem;
    if (p.kernel->clustered) o->cluster = std::max(first->cluster, 1u);
  }
  return o;
}

std::optional<SmLimits> reference_sm(std::string* why) {
  // Read once (redlab's own file; every run on the emulator asks for it), with the reason where it cannot be.
  struct Read {
    std::optional<SmLimits> sm;
    std::string why;
  };
  static const Read read = [] {
    Read r;
    const std::string path = find_resource("assets/reference/sm_limits.json");
    std::string text;
    if (r.why = read_regular_file(path, 64 << 10, &text); !r.why.empty()) return r;
    try {
      r.sm = sm_limits_from_json(parse_json(text).at("sm"));
    } catch (const std::exception& e) { r.why = path + ": " + e.what(); }
    return r;
  }();
  if (!read.sm && why) *why = read.why;
  return read.sm;
}

}  // namespace redlab
