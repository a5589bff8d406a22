// The bank lab's micro-benchmark: every warp of one block issues the same shared-memory access `reps`
// times back to back (independent accesses; `asm volatile` and ld/st.volatile keep the compiler and ptxas from merging them); thread 0 reads clock64 around the
// loop. With enough warps the shared pipeline, not the issue rate, is the limit: it serves one wavefront
// per cycle, so cycles per request follow the request's wavefronts (loads and stores alike). GPU only.
#pragma once

namespace redlab::kernels {

constexpr unsigned kBankLabBytes = 48 * 1024;

template <unsigned WIDTH, bool STORE>
__device__ __forceinline__ unsigned shared_access(unsigned saddr, unsigned v) {
  unsigned x = 0, y = 0, z = 0, w = 0;
  if (STORE) {
    if (WIDTH == 4) asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(saddr), "r"(v) : "memory");
    if (WIDTH == 8) asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %1};" ::"r"(saddr), "r"(v) : "memory");
    if (WIDTH == 16) asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %1, %1, %1};" ::"r"(saddr), "r"(v) : "memory");
  } else {
    if (WIDTH == 4) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"(saddr));
    if (WIDTH == 8) asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(saddr));
    if (WIDTH == 16)
      asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(saddr));
  }
  return x ^ y ^ z ^ w;
}

template <unsigned WIDTH, bool STORE>
__global__ void bank_access(const unsigned* addr, unsigned mask, unsigned reps, long long* cycles, unsigned* sink) {
  __shared__ __align__(16) unsigned char buf[kBankLabBytes];
  const unsigned lane = threadIdx.x % 32;
  for (unsigned i = threadIdx.x; i < kBankLabBytes / 4; i += blockDim.x) reinterpret_cast<unsigned*>(buf)[i] = i;
  __syncthreads();
  const bool on = (mask >> lane) & 1u;
  const unsigned saddr = unsigned(__cvta_generic_to_shared(buf)) + (on ? addr[lane] : 0);
  unsigned acc = 0;
  __syncthreads();
  const long long t0 = clock64();
#pragma unroll 8
  for (unsigned r = 0; r < reps; ++r)
    if (on) acc ^= shared_access<WIDTH, STORE>(saddr, r);
  __syncthreads();
  const long long t1 = clock64();
  if (threadIdx.x == 0) *cycles = t1 - t0;
  if (acc == 0xdeadbeefu) sink[0] = acc;
}

}  // namespace redlab::kernels
