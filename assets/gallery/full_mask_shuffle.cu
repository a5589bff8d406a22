// Gallery of mistakes: full_mask_shuffle (expect: deadlock). Seed 000's warp-shuffle reduction, second stage as the
// seed writes it.
//
// The mistake. Each warp writes its sum to warp_sums; then the second stage reduces those sums inside
// `if (tid < WARPS)` with __shfl_down_sync(0xffffffff, v, offset). The mask 0xffffffff names all 32 lanes of warp
// 0, but only its first WARPS lanes (8 in a block of 256 threads) take the branch: lanes 8-31 never call the
// shuffle that lanes 0-7 wait in.
//
// What redlab says (`redlab stats --source full_mask_shuffle.cu --n 4096 --block 256 --backend cpu`, exit code 2):
//   redlab: emulator: deadlock in block 0: __shfl_down_sync (kernel line 105 of full_mask_shuffle.cu) in warp 0
//   names lanes 8-31 in its mask 0xffffffff, but they exited without calling it [8 arrived, 248 exited, 0 wait
//   elsewhere]
//
// Why. Every lane that a *_sync intrinsic's mask names must execute that intrinsic, with that mask; anything else is
// undefined behaviour, and undefined means nothing is promised: not a hang, not a wrong sum, not a right one. On an
// H200 (this file through NVRTC 13.0 for sm_90, 2026-11-25) it ran to its end with the right sum for three inputs,
// and compute-sanitizer's synccheck, racecheck and memcheck all reported nothing: lanes 0-7 read whatever lanes
// 16-31 held, which there happened to do no harm. Another GPU, driver or compiler may hang or return garbage, and no
// run can show that it will not. The emulator does not guess: it runs every CUDA thread as a fiber and every warp
// intrinsic as a meeting of the lanes in its mask, and when lanes 0-7 wait there while lanes 8-31 have left the
// kernel, no thread can run any more: it stops and says which lanes were missing and what became of them.
//
// The fix. Let the whole warp take part and give the lanes past the warp count the identity, as redlab's
// warp_shuffle does (`if (warp == 0) { v = lane < WARPS ? warp_sums[lane] : Op::identity(); ... }`), or shuffle
// with the mask of the lanes that do call it: `(1u << WARPS) - 1`.
//
// Below: what `redlab new-kernel full_mask_shuffle.cu --from warp_shuffle` writes, with the mistake made in it
// (marked THE MISTAKE). `redlab new-kernel mine.cu --from gallery/full_mask_shuffle` copies it to start from.
//
// full_mask_shuffle: your kernel, started from redlab's `warp_shuffle` (Warp shuffles).
//
// The file is in the catalog's own dialect: the same headers, probe calls and launch as every kernel redlab
// ships (kernels/reduce/warp_shuffle.cuh and its record). Change the kernel; keep the probe calls around what you want to see.
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
__global__ void full_mask_shuffle(const T* in, T* out, unsigned n, bool atomic_finish, Probe probe) {
  constexpr unsigned WARPS = BLOCK / kWarpSize;
  __shared__ T warp_sums_mem[WARPS];
  auto warp_sums = probe.shared(warp_sums_mem);
  auto input = probe.global(in, Buffer::input);
  const Op op;
  const unsigned tid = threadIdx.x;
  const unsigned lane = tid % kWarpSize;
  const unsigned warp = tid / kWarpSize;
  const unsigned i = blockIdx.x * BLOCK + tid;

  probe.step(Phase::load);
  probe.active();
  T v = i < n ? input[i] : Op::identity();

  for (unsigned offset = kWarpSize / 2; offset > 0; offset /= 2) {
    probe.step(Phase::warp, Label::offset, offset);
    probe.active();
    v = op(v, __shfl_down_sync(kFullMask, v, offset));
    probe.shuffled(v, offset);
  }

  probe.step(Phase::warp, Label::warp_sums_store);
  if (lane == 0) {
    probe.active();
    warp_sums[warp] = v;
  }
  __syncthreads();

  probe.step(Phase::warp, Label::warp_sums_load);
  if (tid < WARPS) {
    probe.active();
    v = warp_sums[tid];
  }
  for (unsigned offset = WARPS / 2; offset > 0; offset /= 2) {
    probe.step(Phase::warp, Label::offset, offset);
    if (tid < WARPS) {   // THE MISTAKE: only WARPS lanes come to a shuffle whose mask names all 32
      probe.active();
      v = op(v, __shfl_down_sync(kFullMask, v, offset));
      probe.shuffled(v, offset);
    }
  }

  probe.step(Phase::store);
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, v);
  }
  probe.finish();
}

}  // namespace redlab::kernels

namespace redlab::kernels {

struct full_mask_shuffle_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "full_mask_shuffle",
                   .title = "Warp shuffles, the seed's full mask under a guard",
                   .group = "5 warp level",
                   .sources = "000 线程束内函数",
                   .teaches = "a full-mask __shfl_down_sync that only some lanes reach: undefined on a GPU, a deadlock "
                               "report here",
                   .slots = {.shared_load = 1, .shared_store = 1, .global_load = 1, .global_store = 1, .reg = 1,
                             .global_atomic = 1}};
    return r;
  }
  // load, 5 shuffle levels, warp sums to shared, first warp loads them, its shuffle levels, store.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t) {
    return with_slots(r, 1 + 5 + 1 + 1 + (tree_levels(s) - 5) + 1);
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = full_mask_shuffle<B, T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, input_of<T>(a), output_of<T>(a), unsigned(a.n), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(full_mask_shuffle_record)
