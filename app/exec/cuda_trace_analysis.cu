// The trace analysis (kernels/trace_analysis.h) on the GPU: one CUDA block per traced block, one thread per
// (step, warp) of it. The step sums gather in shared memory first (one global atomic per step and sum
// per block, not per warp); thread 0 then hashes the block's warp hashes in order.
#include "kernels/trace_analysis.h"
#include "exec/cuda_launch.h"

namespace redlab {
namespace {

constexpr unsigned kAnalysisThreads = 128;

template <bool SumsInShared>
__global__ void __launch_bounds__(kAnalysisThreads) analyse_chunk(rec::Layout l, rec::Buffers raw, rec::Analysis out) {
  extern __shared__ unsigned long long block_sums[];  // [step][rec::Sum] when SumsInShared
  const std::uint32_t b = blockIdx.x;
  const unsigned per_block = l.max_steps * l.warps;
  unsigned long long* sums = SumsInShared ? block_sums : out.sums;
  if (SumsInShared) {
    for (unsigned i = threadIdx.x; i < l.max_steps * rec::kSums; i += blockDim.x) block_sums[i] = 0;
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < per_block; i += blockDim.x) {
    const unsigned s = i / l.warps, w = i % l.warps;
    const rec::WarpStepResult r = rec::analyse_warp_step(l, raw, b, s, w);
    for (unsigned k = 0; k < rec::kSums; ++k)
      if (r.sums[k]) atomicAdd(&sums[s * rec::kSums + k], (unsigned long long)r.sums[k]);
    out.warp_hash[std::uint64_t(b) * per_block + i] = r.hash;
  }
  __syncthreads();  // also makes every thread's warp_hash visible to thread 0
  if (SumsInShared)
    for (unsigned i = threadIdx.x; i < l.max_steps * rec::kSums; i += blockDim.x)
      if (block_sums[i]) atomicAdd(&out.sums[i], block_sums[i]);
  if (threadIdx.x == 0) out.block_hash[b] = rec::block_hash(out.warp_hash + std::uint64_t(b) * per_block, per_block);
}

}  // namespace

void cuda_analyse_trace(const rec::Layout& l, const rec::Buffers& raw, const rec::Analysis& out) {
  if (!l.blocks()) return;
  const std::size_t shared = std::size_t(l.max_steps) * rec::kSums * sizeof(unsigned long long);
  if (shared <= 48 * 1024)
    analyse_chunk<true><<<l.blocks(), kAnalysisThreads, shared>>>(l, raw, out);
  else
    analyse_chunk<false><<<l.blocks(), kAnalysisThreads>>>(l, raw, out);
  cuda_check(cudaGetLastError(), "launch of the trace analysis");
  cuda_check(cudaDeviceSynchronize(), "the trace analysis");
}

}  // namespace redlab
