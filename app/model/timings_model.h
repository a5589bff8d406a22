// What the Timings window shows of a bench report (bench_json format, `redlab bench --json`), without ImGui:
// reference files are read here, and the transposes' table (every kernel of the file, % of copy) is worked
// out here, so tests can check the figures against the shipped files.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/scenario.h"
#include "exec/bench.h"

namespace redlab::model {

struct TimRow {
  std::string kernel;
  std::uint64_t n = 0;
  double median_ms = 0, gbps = 0, pct_copy = 0, pct_read = 0, speedup = 0, ratio_cub = 0;
  bool correct = false;
  unsigned block = 0;  // threads per block; 0: the library chose (cub_device)
};
struct TimCeiling {
  std::uint64_t n = 0;
  double copy_gbps = 0, read_gbps = 0;
  bool fits_l2 = false;
};
struct TimReport {
  std::string device, driver, date, host, type, op;
  unsigned block = 0;
  std::vector<unsigned> blocks;  // a block-size sweep's blocks (bench --blocks); empty: every row at `block`
  unsigned mat_rows = 0, mat_cols = 0, mat_block_rows = 0;  // transposes: the matrix timed (0: reductions)
  std::vector<TimRow> rows;  // result rows, in file order
  std::vector<TimCeiling> ceilings;
  bool transpose() const { return mat_rows && mat_cols; }
};

// The keys bench_json() writes (bench_from_json where the bench library is linked). Throws on a bad file.
TimReport parse_timings(const nlohmann::json&);
TimReport from_bench(const BenchReport&);

// One line of the transposes' table: every kernel of the report at its matrix, in file order.
struct TransposeLine {
  std::string kernel;
  double median_ms = 0;
  double gbps = 0;  // bytes read + written / median time
  double pct_of_copy = -1;  // copy's median / this median x 100 (the `copy` row of the same run); -1: no copy row
};
std::vector<TransposeLine> transpose_lines(const TimReport&);

// A kernel's time against the block size, from a block-size sweep (bench --blocks): what the Timings window
// plots, beside the family's reference (CUB, which launches its own blocks) at the same size.
struct SweepPoint {
  unsigned block = 0;
  double median_ms = 0, pct_read = 0, ratio_cub = 0;
  bool correct = false;
};
struct BlockSweep {
  std::string kernel;
  std::uint64_t n = 0;  // the size swept: the scenario's, else the recorded size nearest it (log scale)
  bool own_n = false;  // n is the scenario's
  std::vector<SweepPoint> points;  // by block, ascending
  std::string reference;  // the reference kernel's id ("" when the file has no row of it at n)
  double reference_ms = 0, reference_pct_read = 0;
  const SweepPoint* fastest() const;  // the point of the lowest median (nullptr: no point)
  const SweepPoint* at(unsigned block) const;  // the point of that block (nullptr: not swept)
};
// The sweep of `kernel` in the report at the size nearest `n`; nullopt when the report holds no sweep of it.
std::optional<BlockSweep> block_sweep(const TimReport&, const std::string& kernel, std::uint64_t n);

// "assets/reference/blocks_<type>_<card>.json": the shipped block-size sweeps of one element type, one file per card.
std::string block_sweep_prefix(ElemType);

// "assets/reference/transpose_<type>.json": the shipped reference figures for transposes of that type.
std::string transpose_reference_name(ElemType);

// The live measurement of the scenario: its kernel at its n, or for a transpose copy and the kernel at the
// scenario's matrix (so % of copy comes from the same run).
BenchRequest measure_request(const Scenario&);
// The scenario's kernel at every block size (32 to 1024) at its n, and the family's reference (CUB) beside it.
BenchRequest sweep_request(const Scenario&);
// What the Timings window offers for a block-size sweep of the scenario: the sweep (a catalog reduction), or why not:
// a kernel file is compiled for one block size (bench times it block by block); a transpose's block is 32 x K.
enum class SweepOffer : std::uint8_t { sweep, kernel_file, transpose };
SweepOffer sweep_offer(const Scenario&);

// A report's driver ("CUDA driver API 13.0", as the device names it) in the UI's language; another text after the
// word for a driver.
std::string driver_text(const std::string& driver);

}  // namespace redlab::model
