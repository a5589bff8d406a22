// All-reduce across G GPUs as a schedule: which GPU sends which range of the buffer to which, step by step, and
// whether the receiver combines it with its own or copies it. Every GPU starts with n elements of its own and ends
// with the element-wise combination of all G buffers. The schedule is the algorithm; the kernels that move and
// combine a range (kernels/allreduce/) are the same for every algorithm, as NCCL's primitives are.
//
//   naive: every GPU sends its buffer to GPU 0, which combines them; GPU 0 sends the result to every GPU.
//   ring:  the buffer in G chunks; reduce-scatter (G-1 steps: GPU g sends chunk g-k to g+1, which combines it),
//          then all-gather (G-1 steps: GPU g sends the finished chunk g+1-k to g+1, which copies it). Each GPU
//          sends 2(G-1)/G of the buffer: the least any all-reduce can (Patarasuk and Yuan, 2009).
//   tree:  a binary tree over the GPUs: combine towards GPU 0 (GPU g+d into g at distance d = 1, 2, 4, ...), then
//          copy back down; 2 ceil(log2 G) steps, the whole buffer on every link it uses.
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace redlab::allreduce {

// nccl: NCCL's ncclAllReduce, which chooses its own algorithm and protocol by size: no schedule of redlab's.
enum class Algorithm : std::uint8_t { naive, ring, tree, nccl };
const char* to_string(Algorithm);

inline constexpr unsigned kMinGpus = 2, kMaxGpus = 8;

// One range of the buffer going from one GPU to another in a step.
struct Transfer {
  unsigned from = 0, to = 0;  // sender and receiver
  unsigned chunk = 0;  // the ring's chunk (0..G-1); 0 where the whole buffer moves
  std::uint64_t lo = 0, hi = 0;  // elements [lo, hi) of the buffer (the same offsets on both GPUs)
  bool combine = false;  // the receiver combines (its own op the sender's) instead of copying
  std::uint64_t elements() const { return hi - lo; }
  bool operator==(const Transfer&) const = default;
};

// A step: transfers that run at the same time (a receiver named twice takes them in order).
struct Step {
  std::string phase;  // "reduce_scatter", "all_gather" (ring); "reduce", "broadcast" (naive, tree)
  std::string label;  // "reduce-scatter 1" .. : what the views and stats call it
  std::vector<Transfer> transfers;
  unsigned param = 0;  // the ring's step within its half (1..G-1), the tree's distance, 0 for the naive's
};

// Chunk c of G over n elements: [c n / G, (c+1) n / G), so that chunks differ by at most one element and a G that
// does not divide n is not a special case.
std::uint64_t chunk_begin(std::uint64_t n, unsigned gpus, unsigned chunk);

// The steps of `algorithm` over `gpus` GPUs (kMinGpus..kMaxGpus) of n elements each (n >= 1); none for nccl.
std::vector<Step> schedule(Algorithm, unsigned gpus, std::uint64_t n);

// Bytes each GPU sends and receives, and each directed link carries (link[from][to]), over a whole schedule.
struct Traffic {
  std::vector<std::uint64_t> sent, received;
  std::vector<std::vector<std::uint64_t>> link;
};
Traffic traffic(const std::vector<Step>&, unsigned gpus, unsigned elem_size);

// The least bytes one GPU must send in any all-reduce of S bytes over G GPUs: 2 (G-1) / G x S.
double lower_bound_bytes_per_gpu(unsigned gpus, double bytes);

// nccl-tests' definitions for a run of S bytes per GPU that took `seconds`: algbw = S / t; all-reduce's
// busbw = algbw x 2 (G-1) / G, comparable with one link's bandwidth. In bytes per second.
double algbw(double bytes, double seconds);
double busbw(double bytes, double seconds, unsigned gpus);

// A ring NCCL built, read from its log (NCCL_DEBUG=INFO, subsystem GRAPH). Each GPU of each communicator prints
// one line per channel, "Ring 03 : 3 -> 0 -> 1" (its previous GPU, itself, its next), so one ring of G GPUs is G
// lines, and the same lines repeat for every communicator made with the same GPUs. `order` follows `next` from
// GPU 0 until it comes back (0 1 2 3 0); a channel some GPU's line is missing from, or whose lines contradict each
// other, has `complete` false and its order stops where the lines do. `channels` counts the channels that take
// this ring; rings are listed by their first channel.
struct NcclRing {
  std::vector<unsigned> order;
  unsigned channels = 0;
  bool complete = false;
  bool operator==(const NcclRing&) const = default;
};
std::vector<NcclRing> nccl_rings_from_log(std::istream& log, unsigned gpus);

}  // namespace redlab::allreduce
