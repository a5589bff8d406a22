#include "bank_model.h"

#include <algorithm>
#include <bit>

namespace redlab {
namespace {

// Loads only: the hardware serves a warp's 8- and 16-byte loads in twice as many lanes per phase when
// lanes pair up on one address (lane n with n^1, or with n^2), the partner being inactive counting as a
// match. Found by the H200 measurements in shared/reference/h200-shared-wavefronts.csv.
bool pairs_with(const WarpAddresses& a, unsigned partner_xor) {
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(a.mask >> lane & 1u)) continue;
    unsigned p = lane ^ partner_xor;
    if ((a.mask >> p & 1u) && a.addr[p] != a.addr[lane]) return false;
  }
  return true;
}

}  // namespace

BankReport bank_report(const WarpAddresses& a) {
  BankReport r;
  const unsigned width = a.width == 8 || a.width == 16 ? a.width : 4;
  unsigned lanes_per_phase = 32 / (width / 4);
  if (!a.store && width > 4 && (pairs_with(a, 1) || pairs_with(a, 2))) {
    lanes_per_phase = std::min(32u, lanes_per_phase * 2);
    r.paired = true;
  }
  r.lanes_per_phase = lanes_per_phase;
  const unsigned words_per_lane = width / 4;
  for (unsigned first = 0; first < 32; first += lanes_per_phase) {
    BankPhase ph;
    for (unsigned lane = first; lane < first + lanes_per_phase; ++lane) {
      if (!(a.mask >> lane & 1u)) continue;
      ph.lanes |= 1u << lane;
      const std::uint32_t word0 = a.addr[lane] / 4;
      for (unsigned k = 0; k < words_per_lane; ++k) {
        const std::uint32_t word = word0 + k;
        auto& words = ph.words[word % kBanks];
        if (std::find(words.begin(), words.end(), word) == words.end()) words.push_back(word);
        ph.bank_lanes[word % kBanks] |= 1u << lane;
      }
    }
    std::size_t distinct = 0;
    for (auto& words : ph.words) {
      std::sort(words.begin(), words.end());
      ph.wavefronts = std::max<unsigned>(ph.wavefronts, unsigned(words.size()));
      distinct += words.size();
    }
    if (ph.lanes) {
      r.wavefronts += ph.wavefronts;
      r.ideal += unsigned(std::max<std::size_t>(1, (distinct + kBanks - 1) / kBanks));
    }
    r.phases.push_back(std::move(ph));
  }
  return r;
}

// The same figures as bank_report(a) without building the per-bank lists: the trace decoder
// calls it for every shared request of every block.
BankCost bank_cost(const WarpAddresses& a) {
  const unsigned width = a.width == 8 || a.width == 16 ? a.width : 4;
  unsigned lanes_per_phase = 32 / (width / 4);
  if (!a.store && width > 4 && (pairs_with(a, 1) || pairs_with(a, 2))) lanes_per_phase = std::min(32u, lanes_per_phase * 2);
  const unsigned words_per_lane = width / 4;
  BankCost cost;
  for (unsigned first = 0; first < 32; first += lanes_per_phase) {
    std::uint32_t words[128];
    unsigned count = 0;
    for (unsigned lane = first; lane < first + lanes_per_phase; ++lane) {
      if (!(a.mask >> lane & 1u)) continue;
      for (unsigned k = 0; k < words_per_lane; ++k) words[count++] = a.addr[lane] / 4 + k;
    }
    if (!count) continue;
    std::sort(words, words + count);
    count = unsigned(std::unique(words, words + count) - words);
    unsigned per_bank[kBanks] = {};
    unsigned worst = 0;
    for (unsigned i = 0; i < count; ++i) worst = std::max(worst, ++per_bank[words[i] % kBanks]);
    cost.wavefronts += worst;
    cost.ideal += std::max(1u, (count + kBanks - 1) / kBanks);
  }
  return cost;
}

unsigned wavefronts(const WarpAddresses& a) { return bank_cost(a).wavefronts; }

unsigned sectors(const WarpAddresses& a) {
  std::uint32_t seen[64];
  unsigned count = 0;
  const unsigned width = a.width ? a.width : 4;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(a.mask >> lane & 1u)) continue;
    for (std::uint32_t s = a.addr[lane] / 32; s <= (a.addr[lane] + width - 1) / 32; ++s) {
      if (std::find(seen, seen + count, s) == seen + count) seen[count++] = s;
    }
  }
  return count;
}

}  // namespace redlab
