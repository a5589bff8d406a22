// The shared-memory bank model, measured on an H200
// (assets/reference/h200-shared-wavefronts.csv): a warp's request splits into phases (4-byte: the warp;
// 8-byte: half-warps; 16-byte: quarter-warps); for loads, when every active lane shares its address with
// lane n^1 (or n^2), or that lane is inactive, the phases double; a phase costs the largest number of
// distinct 32-bit words it touches in any one bank (broadcast / merged writes).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace redlab {

constexpr unsigned kBanks = 32;

struct WarpAddresses {
  std::uint32_t mask = 0;  // active lanes
  std::array<std::uint32_t, 32> addr{};  // byte offsets; ignored for inactive lanes
  unsigned width = 4;  // bytes per lane: 4, 8 or 16
  bool store = false;
};

struct BankPhase {
  std::uint32_t lanes = 0;  // lanes served by this phase
  unsigned wavefronts = 0;  // the busiest bank's distinct words
  std::array<std::vector<std::uint32_t>, kBanks> words;  // distinct word indices per bank
  std::array<std::uint32_t, kBanks> bank_lanes{};  // lanes touching each bank
};

struct BankReport {
  std::vector<BankPhase> phases;
  unsigned wavefronts = 0;  // sum over phases
  unsigned ideal = 0;  // with no conflicts: per phase ceil(distinct words / 32), at least 1
  unsigned lanes_per_phase = 32;
  bool paired = false;  // the load pairing rule merged phases
};

BankReport bank_report(const WarpAddresses&);

// The two totals alone, without per-bank lists (fast: used for every request of every block).
struct BankCost {
  unsigned wavefronts = 0, ideal = 0;
};
BankCost bank_cost(const WarpAddresses&);
unsigned wavefronts(const WarpAddresses&);

// Global memory: distinct 32-byte sectors the active lanes' accesses touch.
unsigned sectors(const WarpAddresses&);

}  // namespace redlab
