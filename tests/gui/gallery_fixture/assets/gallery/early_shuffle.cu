// early_shuffle: your kernel, started from redlab's `interleaved` (Interleaved pairs (sequential addressing)).
//
// The file is in the catalog's own dialect: the same headers, probe calls and launch as every kernel redlab
// ships (kernels/reduce/interleaved.cuh and its record). Change the kernel; keep the probe calls around what you want to see.
//
// The probe (kernels/probe.cuh). Every kernel takes `Probe probe` last; in the timed build each call is nothing.
//   auto s = probe.shared(s_mem);               shared memory through the probe: every s[i] read or written
//                                               is recorded (lane, address, value)
//   auto x = probe.global(in, Buffer::input);   global memory likewise (Buffer::input, output, scratch, ticket)
//   probe.shared_flag(&flag, offset)            a shared flag whose value depends on the schedule (recorded
//                                               without its value), `offset` bytes after the main array
//   probe.step(Phase::tree, Label::stride, s)   a new step; every thread of the block calls it, in one order
//   probe.active()                              this thread does the step's work (its guard is true)
//   probe.shuffled(v, delta)                    the value a lane got from __shfl_down_sync(mask, v, delta)
//   probe.atomic(Op{}, out, v, Buffer::output)  v combined atomically into out[0] (an atomic, not a store)
//   probe.ticket(blocks_done)                   atomicAdd(blocks_done, 1): the last-block ticket
//   probe.last_block()                          this block finishes the launch (single-pass kernels)
//   probe.finish()                              the kernel's last call, by every thread
// An access that does not go through the probe is not seen: the trace would show fewer accesses than the
// kernel makes (tests/probe_audit.py checks the catalog's kernels for that).
//
// The record (kernels/kernel_record.h, kernels/register.cuh), at the end: what the kernel is (entry(...)), how
// many steps and requests per step a block records (trace_shape: steps, and slots per access class), and how
// it is launched (launch). Reductions: template <unsigned B, class T, class Op, class Probe>
// static void launch(const LaunchArgs&, const Probe&); transposes: template <unsigned BR, class T, class Probe>.
// The file compiles as the catalog's records do: -I<redlab>/kernels -I<redlab>/app, after a backend's launch
// header (exec/cpu_launch.h: the CPU SIMT emulator; exec/cuda_launch.h: the GPU) and
// #define REDLAB_RECORD_ELEMENT (std::int32_t, float or double).

#include "reduce/common.cuh"
#include "register.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void early_shuffle(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  __shared__ T s_mem[BLOCK];
  auto s = probe.shared(s_mem);
  auto input = probe.global(in, Buffer::input);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * BLOCK + tid;

  probe.step(Phase::load);
  probe.active();
  s[tid] = i < n ? input[i] : Op::identity();
  __syncthreads();

  for (unsigned offset = BLOCK / 2; offset > 0; offset /= 2) {
    probe.step(Phase::tree, Label::offset, offset);
    if (tid < offset) {
      probe.active();
      s[tid] = op(s[tid], s[tid + offset]);
    }
    __syncthreads();
  }

  probe.step(Phase::store);
  T total = s[0];
  // A full-mask shuffle inside a branch only half the warp takes: the other lanes never arrive.
  if (tid < 16) total = __shfl_down_sync(0xffffffffu, total, 0);
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, total);
  }
  probe.finish();
}

// The same kernel with its shared array sized at launch (`extern __shared__`, seed 002): one instantiation
// serves every block size, at the cost of a loop bound the compiler cannot unroll.
template <class T, class Op, class Probe>
__global__ void early_shuffle_dynamic(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  extern __shared__ unsigned char dynamic_smem[];
  auto s = probe.shared(reinterpret_cast<T*>(dynamic_smem));
  auto input = probe.global(in, Buffer::input);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;

  probe.step(Phase::load);
  probe.active();
  s[tid] = i < n ? input[i] : Op::identity();
  __syncthreads();

  for (unsigned offset = blockDim.x / 2; offset > 0; offset /= 2) {
    probe.step(Phase::tree, Label::offset, offset);
    if (tid < offset) {
      probe.active();
      s[tid] = op(s[tid], s[tid + offset]);
    }
    __syncthreads();
  }

  probe.step(Phase::store);
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, T(s[0]));
  }
  probe.finish();
}

}  // namespace redlab::kernels

namespace redlab::kernels {

struct early_shuffle_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r = entry(614352, "reduce", "early_shuffle", "Interleaved pairs (sequential addressing)",
                           "2 shared-memory tree", "000 交错归约, 001 reduce3, 002 reduce_shared, Harris 3",
                           "contiguous active threads and consecutive words: no divergence, no bank conflicts",
                           kSharedTree);
    r.has_dynamic_smem = true;
    return r;
  }
  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    if (a.dynamic_smem) {  // one instantiation for every block size, shared array sized at launch
      auto fn = early_shuffle_dynamic<T, Op, Probe>;
      REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), a.block * sizeof(T), input_of<T>(a), output_of<T>(a),
                    unsigned(a.n), a.atomic, probe);
    } else {
      auto fn = early_shuffle<B, T, Op, Probe>;
      REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic,
                    probe);
    }
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(early_shuffle_record)
