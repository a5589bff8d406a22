// Gallery of mistakes: missing_sync (expect: race). Interleaved pairs (seeds 000, 001 and 002; Harris's kernel 3)
// with the __syncthreads() of the tree loop left out.
//
// The mistake. At each level thread tid adds s[tid + offset] into s[tid]. The value in s[tid + offset] was written
// at the level before by thread tid + offset, which for most threads is in another warp; without a barrier between
// the levels nothing makes that write happen before this read.
//
// What redlab says (`redlab stats --source missing_sync.cu --n 4096 --block 256 --backend cpu`, exit code 2):
//   redlab: emulator: race in block 0 on shared s[32]: thread 32 (warp 1, lane 0) wrote it at kernel line 87 of
//   missing_sync.cu in step 'offset 128' and thread 0 (warp 0, lane 0) read it at kernel line 87 of missing_sync.cu
//   in step 'offset 32', with no __syncthreads between them: one belongs after the write at line 87 in step 'offset
//   128' and before the read at line 87 in step 'offset 32' (s[32]: byte 128 of s_mem, probe.shared at kernel line
//   72 of missing_sync.cu)
//
// Why. On a GPU the warps of a block run in any order and overtake one another: warp 0 may go through several levels
// before warp 1 has written what warp 0 reads. The sum is then right or wrong by the schedule, from run to run and GPU
// to GPU: on an H200 (NVRTC 13.0, sm_90, 2026-11-25) this file summed to 52935 where the reference is 56134, and
// compute-sanitizer --tool racecheck reported the read and write hazard on the tree's line. The emulator's schedule is fixed (each
// thread runs until it waits), so on its own it would give the same wrong sum every time; its race detector (the
// traced build: every shared access goes through the probe) keeps, per shared element, the last write and the reads
// since, with their threads and the barrier interval they fell in. A write and another access to one element by
// threads of different warps in one interval is a race, and the first one ends the run. Here thread 0 went through
// all its levels first, reading s[32] at offset 32; thread 32 then wrote s[32] at offset 128, with no barrier in
// between. (Lanes of one warp are taken as ordered, so the levels below offset 32 are not what is reported.)
//
// The fix. Put __syncthreads() back at the end of the loop body, outside the `if` (every thread of the block must
// reach it), as redlab's interleaved has it.
//
// Below: what `redlab new-kernel missing_sync.cu --from interleaved` writes, with the mistake made in it (marked THE
// MISTAKE, in both kernels: the extern __shared__ variant, --dynamic-smem, races the same way).
// `redlab new-kernel mine.cu --from gallery/missing_sync` copies it to start from.
//
// missing_sync: your kernel, started from redlab's `interleaved` (Interleaved pairs (sequential addressing)).
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
__global__ void missing_sync(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
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
    // THE MISTAKE: no __syncthreads() here, so the next level reads s[tid + offset] before other warps wrote it
  }

  probe.step(Phase::store);
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, T(s[0]));
  }
  probe.finish();
}

// The same kernel with its shared array sized at launch (`extern __shared__`, seed 002): one instantiation
// serves every block size, at the cost of a loop bound the compiler cannot unroll.
template <class T, class Op, class Probe>
__global__ void missing_sync_dynamic(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
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
    // THE MISTAKE: no __syncthreads() here, so the next level reads s[tid + offset] before other warps wrote it
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

struct missing_sync_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "missing_sync",
                   .title = "Interleaved pairs without the tree's __syncthreads",
                   .group = "2 shared-memory tree",
                   .sources = "000 交错归约, 001 reduce3, 002 reduce_shared, Harris 3",
                   .teaches = "a missing barrier: a data race between warps, named with both threads",
                   .slots = kSharedTree};
    r.has_dynamic_smem = true;
    return r;
  }
  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    if (a.dynamic_smem) {  // one instantiation for every block size, shared array sized at launch
      auto fn = missing_sync_dynamic<T, Op, Probe>;
      REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), a.block * sizeof(T), input_of<T>(a), output_of<T>(a),
                    unsigned(a.n), a.atomic, probe);
    } else {
      auto fn = missing_sync<B, T, Op, Probe>;
      REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic,
                    probe);
    }
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(missing_sync_record)
