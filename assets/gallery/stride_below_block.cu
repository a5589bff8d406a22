// Gallery of mistakes: stride_below_block (expect: wrong_result). PMPP's simple reduction with the book's own loop
// (seed 003, section 10.3).
//
// The mistake. Each block owns 2B elements (B = blockDim.x) of an in-place copy x, and thread t starts at x[2t]. The
// loop runs stride = 1, 2, 4, ... while stride < blockDim.x, so it stops at B/2, one level short: afterwards x[0]
// holds the sum of the block's first B elements and x[B] the sum of its last B, and the level that adds x[B] into
// x[0] (stride = B) never runs. Thread 0 writes x[0] out: half of every block's elements are missing from the sum.
//
// What redlab says (`redlab stats --source stride_below_block.cu --n 4096 --block 128 --backend cpu`, exit code 1: a wrong result):
//   result 26721  reference 56134  WRONG
//   what reached each focus block's result (data flow over its recorded accesses):
//   block 0: inputs 128-255 (128 of 256) never reached its result
// The last line comes from a data-flow analysis of block 0's recorded accesses: which of the elements the block
// loaded can have flowed, through registers, shared and global memory and shuffles, into the value it wrote out.
// `--focus 0,5` analyses other blocks too, and `stats --json` gives it as "lost_inputs".
//
// Why. Nothing crashes and nothing races: the kernel does what its loop says, on a GPU and on the emulator alike,
// and both give the same wrong sum. A tree over 2B elements has log2(2B) levels, strides 1 to B; `stride <
// blockDim.x` runs log2(B) of them. (The record's trace_shape declares one tree level fewer than pmpp_simple's, as
// this loop makes: redlab checks that every thread records the steps its record promises.)
//
// The fix. `stride <= blockDim.x`, as redlab's pmpp_simple has it (and tree_levels(s) + 1 + 1 steps).
//
// Below: what `redlab new-kernel stride_below_block.cu --from pmpp_simple` writes, with the mistake made in it
// (marked THE MISTAKE). `redlab new-kernel mine.cu --from gallery/stride_below_block` copies it to start from.
//
// stride_below_block: your kernel, started from redlab's `pmpp_simple` (PMPP simple (divergent) kernel).
//
// The file is in the catalog's own dialect: the same headers, probe calls and launch as every kernel redlab
// ships (kernels/reduce/pmpp_simple.cuh and its record). Change the kernel; keep the probe calls around what you want to see.
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

template <class T, class Op, class Probe>
__global__ void stride_below_block(T* x_buf, T* out, bool atomic_finish, Probe probe) {
  auto x = probe.global(x_buf, Buffer::scratch);
  const Op op;
  const unsigned segment = 2 * blockDim.x * blockIdx.x;
  const unsigned i = segment + 2 * threadIdx.x;

  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {   // THE MISTAKE: the book's `<`, one level short
    probe.step(Phase::tree, Label::stride, stride);
    if (threadIdx.x % stride == 0) {
      probe.active();
      x[i] = op(x[i], x[i + stride]);
    }
    __syncthreads();
  }

  probe.step(Phase::store);
  if (threadIdx.x == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, T(x[segment]));
  }
  probe.finish();
}

}  // namespace redlab::kernels

namespace redlab::kernels {

struct stride_below_block_record : reduction_kernel {
  static KernelRecord record() {
    KernelRecord r{.id = "stride_below_block",
                   .title = "PMPP simple kernel, the book's loop (stride < blockDim.x)",
                   .group = "3 PMPP chapter 10",
                   .sources = "003 §10.3",
                   .teaches = "a loop one level short: half of each block's elements never reach its sum",
                   .slots = kGlobalTree};
    r.in_place_global = true;
    return r;
  }
  static std::uint64_t elems_per_block(const KernelShape& s) { return 2ull * s.block; }
  // tree levels up to stride B/2 (the loop stops one short of the catalog's), store.
  static TraceShape trace_shape(const KernelRecord& r, const KernelShape& s, std::uint32_t) {
    return with_slots(r, tree_levels(s) + 1);
  }

  template <unsigned B, class T, class Op, class Probe>
  static void launch(const LaunchArgs& a, const Probe& probe) {
    auto fn = stride_below_block<T, Op, Probe>;
    REDLAB_LAUNCH(fn, dim3(a.grid), dim3(a.block), 0, const_cast<T*>(input_of<T>(a)), output_of<T>(a), a.atomic, probe);
  }
};

}  // namespace redlab::kernels

REDLAB_KERNEL_RECORD(stride_below_block_record)
