// Occupancy: how many blocks of a kernel one SM holds at once, and which of its resources sets that number (the
// registers, the shared memory, the warps, the count of blocks). The figures as the trace keeps them; NVIDIA's
// calculator computes them (exec/occupancy_calc.h).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace redlab {

// One SM's limits: the GPU's own (cudaGetDeviceProperties), or the reference card's as recorded
// (assets/reference/sm_limits.json) for a run on the emulator.
struct SmLimits {
  std::string card;  // "NVIDIA H200"
  int major = 0, minor = 0;  // compute capability
  int sms = 0;
  int warp_size = 32, max_threads_per_block = 0, max_threads_per_sm = 0, max_blocks_per_sm = 0;
  int regs_per_block = 0, regs_per_sm = 0;
  std::uint64_t smem_per_block = 0, smem_per_sm = 0, smem_per_block_optin = 0, smem_reserved_per_block = 0;
  bool operator==(const SmLimits&) const = default;
};

// What the compiled kernel (its timed build) asks of an SM, as cudaFuncGetAttributes reports it.
struct SharedDeclaration;

struct KernelResources {
  int registers = 0;  // per thread
  std::uint64_t static_smem = 0;  // bytes per block: its __shared__ arrays
  int max_threads_per_block = 0;  // the most a launch may ask (fewer than the SM's where registers forbid more)
  bool operator==(const KernelResources&) const = default;
};

// The resources that can hold the number of blocks down.
enum class OccupancyLimit : std::uint8_t { warps, registers, shared_memory, blocks };
const char* to_string(OccupancyLimit);

struct Occupancy {
  SmLimits sm;
  bool sm_is_device = false;  // the GPU the run was on (else the reference card's limits)
  std::optional<KernelResources> kernel;  // none on the emulator: registers and static shared memory are a GPU's
  // On the emulator, the static shared memory the kernel's arrays take as it declares them to the probe (the end of
  // the last one in the block's shared window; the compiler's figure can differ by alignment): none where no array
  // was declared (a timed run, a library's kernel).
  std::optional<std::uint64_t> declared_smem;
  std::uint32_t block = 0;  // threads per block
  std::uint64_t dynamic_smem = 0;  // bytes per block given at launch
  // Blocks per SM each resource allows; none where it sets no limit (no registers known, no shared memory used).
  int by_warps = 0, by_blocks = 0;
  std::optional<int> by_registers, by_shared;
  std::uint64_t shared_allocated = 0;  // bytes one block takes of the SM's shared memory, the reserved part included
  int blocks = 0;  // blocks one SM holds at once: the least of the above
  std::vector<OccupancyLimit> limiting;  // the resources at that least
  // The CUDA runtime's own answer (cudaOccupancyMaxActiveBlocksPerMultiprocessor) on a GPU: equal to `blocks`, or
  // the calculator and the runtime disagree (a selftest failure).
  std::optional<int> runtime_blocks;
  // Cluster kernels: blocks per thread block cluster (1: no clusters). A cluster's blocks are resident at once, on
  // the SMs of one GPC, so the card holds clusters whole.
  std::uint32_t cluster = 1;
  // The CUDA runtime's count of clusters the whole card holds at once (cudaOccupancyMaxActiveClusters), on a GPU.
  std::optional<int> runtime_clusters;
  // Clusters the card holds at once if its SMs' blocks were one pool: SMs x blocks per SM / cluster, rounded down
  // (0 without clusters). An upper bound: a cluster may not span two GPCs, and SMs a GPC has left over hold none.
  std::int64_t clusters_at_most() const {
    return cluster > 1 ? std::int64_t(sm.sms) * std::int64_t(blocks) / std::int64_t(cluster) : 0;
  }
  int warps_per_block() const { return int((block + std::uint32_t(sm.warp_size) - 1) / std::uint32_t(sm.warp_size)); }
  int active_warps() const { return blocks * warps_per_block(); }
  int max_warps() const { return sm.warp_size ? sm.max_threads_per_sm / sm.warp_size : 0; }
  // Active warps over the most an SM holds (the glossary's occupancy, the theoretical one: the hardware's achieved
  // figure is lower where blocks end unevenly).
  double fraction() const { return max_warps() ? double(active_warps()) / double(max_warps()) : 0.0; }
  bool operator==(const Occupancy&) const = default;
};

// An SM's limits as JSON (the "sm" of occupancy_json, and assets/reference/sm_limits.json); the reader throws
// std::runtime_error on a missing key or a value out of range.
nlohmann::json sm_limits_json(const SmLimits&);
SmLimits sm_limits_from_json(const nlohmann::json&);

// The static shared memory of a launch's arrays as the emulator saw them declared (core/trace.h): the end of the
// last one with an extent; none where none has one.
std::optional<std::uint64_t> declared_static_smem(const std::vector<SharedDeclaration>&);

// Lines for `stats` ("occupancy: 8 blocks of 256 threads per SM (64 of 64 warps, 100 %), limited by warps").
std::string occupancy_text(const Occupancy&);
nlohmann::json occupancy_json(const Occupancy&);
// From occupancy_json's form (a trace file); throws std::runtime_error on a malformed one.
Occupancy occupancy_from_json(const nlohmann::json&);

}  // namespace redlab
