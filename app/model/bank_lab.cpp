#include "model/bank_lab.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <vector>

#include "model/i18n.h"

namespace redlab::model {

std::string lane_list(std::uint32_t lanes, unsigned max) {
  std::string s;
  unsigned shown = 0;
  const unsigned n = unsigned(std::popcount(lanes));
  for (unsigned l = 0; l < 32; ++l) {
    if (!(lanes >> l & 1u)) continue;
    if (shown == max && n > max) {
      // the last lane, after an ellipsis
      unsigned last = 31 - unsigned(std::countl_zero(lanes));
      s += ", ... " + std::to_string(last) + " " + trf("lab.n_lanes", {std::to_string(n)});
      break;
    }
    if (!s.empty()) s += ", ";
    s += std::to_string(l);
    ++shown;
  }
  return s;
}

std::string explain_bank_report(const BankReport& rep, const WarpAddresses& a) {
  const std::string sp = i18n_lang() == "zh_CN" ? "" : " ";  // Chinese sentences follow without a space
  const unsigned active = unsigned(std::popcount(a.mask));
  if (!active) return tr("lab.ex.none");
  const char* verb = a.store ? tr("lab.ex.write") : tr("lab.ex.read");
  std::size_t live_phases = 0;
  for (auto& ph : rep.phases) live_phases += ph.lanes ? 1 : 0;
  std::string out = trf("lab.ex.head", {std::to_string(active), verb, std::to_string(a.width),
                                        std::to_string(live_phases), std::to_string(rep.lanes_per_phase)});
  if (rep.paired) out += sp + std::string(tr("lab.ex.paired"));
  if (a.width > 4) out += sp + trf("lab.ex.wide", {std::to_string(a.width), std::to_string(a.width / 4)});

  // The busiest bank of the costliest phase.
  int worst_p = -1;
  unsigned worst_b = 0, worst_k = 0, equally = 0;
  for (std::size_t p = 0; p < rep.phases.size(); ++p)
    for (unsigned b = 0; b < kBanks; ++b) {
      const unsigned k = unsigned(rep.phases[p].words[b].size());
      if (k > worst_k) {
        worst_k = k;
        worst_p = int(p);
        worst_b = b;
        equally = 0;
      } else if (k == worst_k && k > 1 && int(p) == worst_p)
        ++equally;
    }
  if (rep.wavefronts > rep.ideal && worst_p >= 0 && worst_k > 1) {
    const BankPhase& ph = rep.phases[std::size_t(worst_p)];
    std::string where = rep.phases.size() > 1 ? trf("lab.ex.in_phase", {std::to_string(worst_p)}) : std::string();
    std::string c = trf("lab.ex.conflict", {where, lane_list(ph.bank_lanes[worst_b] & a.mask), verb,
                                            std::to_string(worst_k), std::to_string(worst_b)});
    if (!c.empty() && c[0] >= 'a' && c[0] <= 'z') c[0] = char(c[0] - 'a' + 'A');  // a sentence of its own
    out += sp + c;
    if (equally) out += sp + trf("lab.ex.also", {std::to_string(equally)});
    out += sp + trf("lab.ex.total_bad", {std::to_string(rep.wavefronts), std::to_string(rep.ideal),
                                         std::to_string(rep.wavefronts / std::max(1u, rep.ideal))});
  } else {
    out += sp + trf("lab.ex.ok", {std::to_string(rep.wavefronts)});
  }
  // A broadcast (loads) or merged write (stores): several lanes on one word of a bank.
  for (const BankPhase& ph : rep.phases)
    for (unsigned b = 0; b < kBanks; ++b) {
      if (ph.words[b].empty()) continue;
      const std::uint32_t w = ph.words[b][0];
      std::uint32_t on_word = 0;
      for (unsigned l = 0; l < 32; ++l)
        if ((ph.lanes >> l & 1u) && w >= a.addr[l] / 4 && w <= (a.addr[l] + a.width - 1) / 4) on_word |= 1u << l;
      if (std::popcount(on_word) > 1) {
        out += sp + trf(a.store ? "lab.ex.merge" : "lab.ex.broadcast", {lane_list(on_word, 4), std::to_string(b)});
        return out;
      }
    }
  return out;
}

std::string expr_error_text(ExprError e, const std::string& token, int lane) {
  switch (e) {
    case ExprError::none: return {};
    case ExprError::empty: return tr("lab.err.empty");
    case ExprError::unexpected: return token.empty() ? tr("lab.err.end") : trf("lab.err.unexpected", {token});
    case ExprError::unknown_name: return trf("lab.err.name", {token});
    case ExprError::missing_paren: return tr("lab.err.paren");
    case ExprError::bad_number: return trf("lab.err.number", {token});
    case ExprError::div_zero: return trf("lab.err.div_zero", {std::to_string(lane)});
    case ExprError::negative: return trf("lab.err.negative", {std::to_string(lane)});
    case ExprError::too_large: return trf("lab.err.too_large", {std::to_string(lane)});
    case ExprError::bad_shift: return trf("lab.err.shift", {std::to_string(lane)});
  }
  return {};
}

}  // namespace redlab::model
