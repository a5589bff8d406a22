#include "core/bank_model.h"

#include "kernels/trace_analysis.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <utility>

namespace redlab {

BankReport bank_report(const WarpAddresses& a) {
  BankReport r;
  const unsigned width = a.width == 8 || a.width == 16 ? a.width : 4;
  unsigned lanes_per_phase = 32 / (width / 4);
  const bool pairs = rec::lanes_pair(a.mask, a.addr.data(), 1) || rec::lanes_pair(a.mask, a.addr.data(), 2);
  if (!a.store && width > 4 && pairs) {
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

// The same totals as bank_report(a) without the per-bank lists: the code the trace analysis runs for
// every shared request of every block, on the host and on the GPU (kernels/trace_analysis.h).
BankCost bank_cost(const WarpAddresses& a) {
  const rec::BankTotals t = rec::bank_totals(a.mask, a.addr.data(), a.width, a.store);
  return {t.wavefronts, t.ideal};
}

unsigned wavefronts(const WarpAddresses& a) { return bank_cost(a).wavefronts; }

unsigned sectors(const WarpAddresses& a) { return rec::sector_count(a.mask, a.addr.data(), a.width); }

}  // namespace redlab
