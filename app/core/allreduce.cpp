#include "core/allreduce.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace redlab::allreduce {

const char* to_string(Algorithm a) {
  switch (a) {
    case Algorithm::naive: return "naive";
    case Algorithm::ring: return "ring";
    case Algorithm::tree: return "tree";
    case Algorithm::nccl: return "nccl";
  }
  return "?";
}

std::uint64_t chunk_begin(std::uint64_t n, unsigned gpus, unsigned chunk) {
  // n < 2^40 and chunk <= 8: the product does not overflow.
  return n * chunk / gpus;
}

namespace {

std::vector<Step> naive(unsigned g, std::uint64_t n) {
  Step gather{"reduce", "reduce to GPU 0", {}};
  Step spread{"broadcast", "broadcast from GPU 0", {}};
  for (unsigned from = 1; from < g; ++from) {
    gather.transfers.push_back({.from = from, .to = 0, .lo = 0, .hi = n, .combine = true});
    spread.transfers.push_back({.from = 0, .to = from, .lo = 0, .hi = n, .combine = false});
  }
  return {gather, spread};
}

std::vector<Step> ring(unsigned g, std::uint64_t n) {
  std::vector<Step> steps;
  auto chunk = [&](unsigned from, unsigned c, bool combine) {
    return Transfer{.from = from,
                    .to = (from + 1) % g,
                    .chunk = c,
                    .lo = chunk_begin(n, g, c),
                    .hi = chunk_begin(n, g, c + 1),
                    .combine = combine};
  };
  // Reduce-scatter: at step k GPU i sends chunk i-k to its right neighbour, which combines it with its own; a chunk
  // that started on GPU c has passed through every GPU when it reaches c-1, after G-1 steps.
  for (unsigned k = 0; k + 1 < g; ++k) {
    Step s{"reduce_scatter", "reduce-scatter " + std::to_string(k + 1), {}, k + 1};
    for (unsigned i = 0; i < g; ++i) s.transfers.push_back(chunk(i, (i + g - k) % g, true));
    steps.push_back(std::move(s));
  }
  // All-gather: GPU i holds chunk i+1 finished and passes it on; at step k it sends the one it received at k-1.
  for (unsigned k = 0; k + 1 < g; ++k) {
    Step s{"all_gather", "all-gather " + std::to_string(k + 1), {}, k + 1};
    for (unsigned i = 0; i < g; ++i) s.transfers.push_back(chunk(i, (i + 1 + g - k) % g, false));
    steps.push_back(std::move(s));
  }
  return steps;
}

std::vector<Step> tree(unsigned g, std::uint64_t n) {
  std::vector<Step> steps;
  unsigned top = 1;
  for (unsigned d = 1; d < g; d *= 2) {
    Step s{"reduce", "reduce, distance " + std::to_string(d), {}, d};
    for (unsigned i = 0; i + d < g; i += 2 * d)
      s.transfers.push_back({.from = i + d, .to = i, .lo = 0, .hi = n, .combine = true});
    steps.push_back(std::move(s));
    top = d;
  }
  for (unsigned d = top; d >= 1; d /= 2) {
    Step s{"broadcast", "broadcast, distance " + std::to_string(d), {}, d};
    for (unsigned i = 0; i + d < g; i += 2 * d)
      s.transfers.push_back({.from = i, .to = i + d, .lo = 0, .hi = n, .combine = false});
    steps.push_back(std::move(s));
  }
  return steps;
}

}  // namespace

std::vector<Step> schedule(Algorithm a, unsigned gpus, std::uint64_t n) {
  if (gpus < kMinGpus || gpus > kMaxGpus)
    throw std::invalid_argument("--gpus: " + std::to_string(gpus) + " is out of range; use " +
                                std::to_string(kMinGpus) + ".." + std::to_string(kMaxGpus));
  if (n < 1) throw std::invalid_argument("--n: an all-reduce needs at least one element");
  switch (a) {
    case Algorithm::naive: return naive(gpus, n);
    case Algorithm::ring: return ring(gpus, n);
    case Algorithm::tree: return tree(gpus, n);
    case Algorithm::nccl: return {};
  }
  return {};
}

Traffic traffic(const std::vector<Step>& steps, unsigned gpus, unsigned elem_size) {
  Traffic t;
  t.sent.assign(gpus, 0);
  t.received.assign(gpus, 0);
  t.link.assign(gpus, std::vector<std::uint64_t>(gpus, 0));
  for (const Step& s : steps)
    for (const Transfer& x : s.transfers) {
      const std::uint64_t bytes = x.elements() * elem_size;
      t.sent.at(x.from) += bytes;
      t.received.at(x.to) += bytes;
      t.link.at(x.from).at(x.to) += bytes;
    }
  return t;
}

double lower_bound_bytes_per_gpu(unsigned gpus, double bytes) { return 2.0 * (gpus - 1) / gpus * bytes; }

double algbw(double bytes, double seconds) { return seconds > 0 ? bytes / seconds : 0; }

double busbw(double bytes, double seconds, unsigned gpus) { return algbw(bytes, seconds) * 2.0 * (gpus - 1) / gpus; }

std::vector<NcclRing> nccl_rings_from_log(std::istream& log, unsigned gpus) {
  // NCCL has at most 64 channels; a log that names more, or a GPU past `gpus`, is not one of this run's.
  constexpr unsigned kMaxChannels = 64;
  constexpr unsigned kNone = ~0u;
  if (gpus == 0) return {};
  struct Channel {
    std::vector<unsigned> next, prev;
    bool contradicted = false;
  };
  std::map<unsigned, Channel> channels;
  std::string line;
  // Lines are read whole but at most 4 KiB of each is kept: the log is NCCL's, written during this run.
  while (std::getline(log, line)) {
    if (line.size() > 4096) line.resize(4096);
    const auto at = line.find("Ring ");
    if (at == std::string::npos) continue;
    unsigned c = 0, prev = 0, self = 0, next = 0;
    char tail = 0;
    if (std::sscanf(line.c_str() + at, "Ring %u : %u -> %u -> %u%c", &c, &prev, &self, &next, &tail) < 4) continue;
    if (c >= kMaxChannels || prev >= gpus || self >= gpus || next >= gpus) continue;
    Channel& ch = channels[c];
    if (ch.next.empty()) ch.next.assign(gpus, kNone), ch.prev.assign(gpus, kNone);
    const auto agree = [&](unsigned& slot, unsigned value) {
      if (slot != kNone && slot != value) ch.contradicted = true;
      slot = value;
    };
    agree(ch.next[self], next);
    agree(ch.prev[self], prev);
  }
  std::vector<NcclRing> rings;
  for (const auto& [c, ch] : channels) {
    NcclRing ring;
    std::vector<bool> seen(gpus, false);
    unsigned g = 0;
    ring.order.push_back(0);
    seen[0] = true;
    while (ch.next[g] != kNone) {
      const unsigned to = ch.next[g];
      // The next GPU, where its own line was read, must name this one as its previous.
      if (ch.prev[to] != kNone && ch.prev[to] != g) break;
      ring.order.push_back(to);
      if (to == 0 || seen[to]) break;
      seen[to] = true;
      g = to;
    }
    ring.complete = !ch.contradicted && ring.order.size() == gpus + 1 && ring.order.back() == 0;
    const auto same = std::find_if(rings.begin(), rings.end(), [&](const NcclRing& r) {
      return r.order == ring.order && r.complete == ring.complete;
    });
    if (same != rings.end())
      ++same->channels;
    else
      ring.channels = 1, rings.push_back(ring);
  }
  return rings;
}

}  // namespace redlab::allreduce
