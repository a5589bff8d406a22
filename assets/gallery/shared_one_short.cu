// Gallery of mistakes: shared_one_short (expect: out_of_bounds). Interleaved pairs with its shared array declared
// one element short: `__shared__ T s_mem[BLOCK - 1]` for BLOCK threads.
//
// The mistake. Every thread stores its element to s[tid], tid = 0 .. BLOCK-1, but s_mem holds BLOCK - 1 elements:
// the last thread's store lands one past its end (and so would the first tree level's read of s[BLOCK - 1]).
//
// What redlab says (`redlab stats --source shared_one_short.cu --n 4096 --block 256 --backend cpu`, exit code 2):
//   redlab: emulator: out-of-bounds shared index in block 0: thread 255 (warp 7, lane 31) used s[255] at kernel
//   line 74 of shared_one_short.cu in step 'load', but the array (s_mem, probe.shared at kernel line 66 of
//   shared_one_short.cu) has 255 elements (indices 0 to 254)
//
// Why. C++ checks no array index, on a GPU or anywhere else. On a GPU the store goes to the bytes after s_mem: another
// shared variable, or past the block's shared allocation; without a tool the sum may come out right or wrong, or the
// kernel may fault, depending on what lies there. On an H200 (NVRTC 13.0, sm_90, 2026-11-25) the sum came out right,
// and compute-sanitizer --tool memcheck reported "Invalid __shared__ write of size 4 bytes", once per block. On the emulator a __shared__ array is an ordinary variable of the worker running the block, and the
// store would overwrite whatever the compiler put after it. Because the kernel hands the probe the array itself
// (`probe.shared(s_mem)`), the traced build knows its extent: every index is checked before the access, and the first
// bad one is reported instead of performed. (An `extern __shared__` array, handed over as a pointer, has no extent to
// check against; the catalog's interleaved has such a variant, left out of this file.)
//
// The fix. `__shared__ T s_mem[BLOCK];`: one element per thread.
//
// Below: what `redlab new-kernel shared_one_short.cu --from interleaved` writes, with the mistake made in it (marked
// THE MISTAKE; the extern __shared__ variant left out). `redlab new-kernel mine.cu --from gallery/shared_one_short`
// copies it to start from.
//
// shared_one_short: your kernel, started from redlab's `interleaved` (Interleaved pairs (sequential addressing)).
//
// The file is in the catalog's own dialect: the same headers, probe calls and launch as every kernel redlab
// ships (kernels/reduce/interleaved.cuh and its record). Change the kernel; keep the probe calls around what you want to see.
//
// The probe (kernels/probe.cuh). Every kernel takes `Probe probe` last; in the timed build each call is nothing.
//   auto s = probe.shared(s_mem);               shared memory through the probe: every s[i] read or written
//                                               is recorded (lane, address, value); given the array itself,
//                                               the emulator checks every index and watches for races
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
// The record (kernels/kernel_record.h, kernels/register.cuh), at the end: what the kernel is (its fields by
// name, .id = "...", .title = "...": only what differs from the defaults), the room a block's trace starts
// with (trace_shape: steps and requests per class; redlab counts both and adds room) and its launch (launch).
// Reductions: template <unsigned B, class T, class Op, class Probe> static void launch(const LaunchArgs&,
// const Probe&); transposes: template <unsigned BR, class T, class Probe>.
// The file compiles as the catalog's records do: -I<redlab>/kernels -I<redlab>/app, after a backend's launch
// header (exec/cpu_launch.h: the CPU SIMT emulator; exec/cuda_launch.h: the GPU) and
// #define REDLAB_RECORD_ELEMENT (std::int32_t, float or double).

#include "reduce/common.cuh"
#include "register.cuh"

namespace redlab::kernels {

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void shared_one_short(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  __shared__ T s_mem[BLOCK - 1];   // THE MISTAKE: one element short of the BLOCK threads that store into it
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
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, T(s[0]));
  }
  probe.finish();
}

}  // namespace redlab::kernels

namespace redlab::kernels {

struct shared_one_short_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "shared_one_short",
                   .title = "Interleaved pairs, the shared array one element short",
                   .group = "2 shared-memory tree",
                   .sources = "000 交错归约, 001 reduce3, 002 reduce_shared, Harris 3",
                   .teaches = "an index past the end of a shared array: the emulator names the array, its size and the thread",
                   .slots = kSharedTree};
    return r;
  }
  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = shared_one_short<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(shared_one_short_record)
