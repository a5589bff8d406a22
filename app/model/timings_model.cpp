#include "model/timings_model.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "core/catalog.h"
#include "core/family.h"
#include "model/i18n.h"
#include "model/side.h"

namespace redlab::model {

TimReport from_bench(const BenchReport& b) {
  TimReport r;
  r.device = b.device;
  r.driver = b.driver;
  r.date = b.date;
  r.host = b.host;
  r.type = to_string(b.request.type);
  r.op = to_string(b.request.op);
  r.block = b.request.block;
  r.blocks = b.request.blocks;
  r.mat_rows = b.request.rows;
  r.mat_cols = b.request.cols;
  r.mat_block_rows = b.request.block_rows;
  for (const BenchRow& x : b.rows)
    r.rows.push_back(
        {x.kernel, x.n, x.median_ms, x.gbps, x.pct_copy, x.pct_read, x.speedup, x.ratio_cub, x.correct, x.block});
  for (const BenchCeiling& c : b.ceilings) r.ceilings.push_back({c.n, c.copy_gbps, c.read_gbps, c.fits_l2});
  return r;
}

TimReport parse_timings(const nlohmann::json& j) { return from_bench(bench_from_json(j)); }

std::vector<TransposeLine> transpose_lines(const TimReport& r) {
  // The rows at the report's matrix (a file holds one; keep every row if it names none).
  const std::uint64_t n = std::uint64_t(r.mat_rows) * r.mat_cols;
  // The transposes' reference kernel (copy) is what "% of copy" divides by.
  const KernelRecord* ref = reference_kernel(Family::transpose);
  double copy_ms = 0;
  for (const TimRow& x : r.rows)
    if ((n == 0 || x.n == n) && ref && x.kernel == ref->id) {
      copy_ms = x.median_ms;
      break;
    }
  std::vector<TransposeLine> out;
  for (const TimRow& x : r.rows) {
    if (n != 0 && x.n != n) continue;
    TransposeLine l;
    l.kernel = x.kernel;
    l.median_ms = x.median_ms;
    l.gbps = x.gbps;
    // Both move the same bytes, so the ratio of times is the ratio of bandwidths (bench's `speedup` when copy
    // is the first kernel; worked out here so the column never depends on the file's kernel order).
    if (copy_ms > 0 && x.median_ms > 0) l.pct_of_copy = 100.0 * copy_ms / x.median_ms;
    out.push_back(l);
  }
  return out;
}

const SweepPoint* BlockSweep::fastest() const {
  const auto best = std::min_element(
      points.begin(), points.end(), [](const SweepPoint& a, const SweepPoint& b) { return a.median_ms < b.median_ms; });
  return best == points.end() ? nullptr : &*best;
}

const SweepPoint* BlockSweep::at(unsigned block) const {
  const auto p = std::find_if(points.begin(), points.end(), [block](const SweepPoint& x) { return x.block == block; });
  return p == points.end() ? nullptr : &*p;
}

std::optional<BlockSweep> block_sweep(const TimReport& r, const std::string& kernel, std::uint64_t n) {
  if (r.blocks.empty() || r.transpose()) return std::nullopt;
  // The recorded size nearest n, by ratio (2^20 is nearer 2^21 than 2^24 is).
  std::uint64_t best = 0;
  double best_distance = 0;
  for (const TimRow& x : r.rows) {
    if (x.kernel != kernel || x.n == 0) continue;
    const double d = std::fabs(std::log(double(x.n)) - std::log(double(std::max<std::uint64_t>(n, 1))));
    if (best == 0 || d < best_distance || (d == best_distance && x.n > best)) {
      best = x.n;
      best_distance = d;
    }
  }
  if (best == 0) return std::nullopt;
  BlockSweep s;
  s.kernel = kernel;
  s.n = best;
  s.own_n = best == n;
  const KernelRecord* k = find_kernel(kernel);
  const KernelRecord* ref = k ? reference_kernel(k->family) : nullptr;
  for (const TimRow& x : r.rows) {
    if (x.n != best) continue;
    if (x.kernel == kernel && !s.at(x.block))
      s.points.push_back({x.block, x.median_ms, x.pct_read, x.ratio_cub, x.correct});
    if (ref && x.kernel == ref->id && x.kernel != kernel && s.reference.empty()) {
      s.reference = x.kernel;
      s.reference_ms = x.median_ms;
      s.reference_pct_read = x.pct_read;
    }
  }
  std::sort(s.points.begin(), s.points.end(),
            [](const SweepPoint& a, const SweepPoint& b) { return a.block < b.block; });
  return s;
}

std::string block_sweep_prefix(ElemType t) { return std::string("assets/reference/blocks_") + to_string(t) + "_"; }

std::string transpose_reference_name(ElemType t) {
  return std::string("assets/reference/transpose_") + to_string(t) + ".json";
}

BenchRequest measure_request(const Scenario& sc) {
  BenchRequest req;
  req.type = sc.type;
  if (const KernelRecord* k = find_kernel(sc.kernel); k && family_record(k->family).takes_matrix) {
    // The family's reference (copy) first, so that % of copy comes from the same run.
    const KernelRecord* ref = reference_kernel(k->family);
    req.kernels.clear();
    if (ref) req.kernels.push_back(ref->id);
    if (!ref || sc.kernel != ref->id) req.kernels.push_back(sc.kernel);
    req.rows = sc.rows;
    req.cols = sc.cols;
    req.block_rows = sc.block_rows;
    req.sizes = {std::uint64_t(sc.rows) * sc.cols};  // run_bench wants a size; transposes time the matrix
    req.block = 32 * sc.block_rows;
    return req;
  }
  req.kernels = {sc.kernel};
  req.sizes = {sc.n};
  req.op = sc.op;
  req.block = sc.block;
  req.finish = sc.finish;
  return req;
}

BenchRequest sweep_request(const Scenario& sc) {
  BenchRequest req = measure_request(sc);
  const KernelRecord* k = find_kernel(sc.kernel);
  const KernelRecord* ref = k ? reference_kernel(k->family) : nullptr;
  if (ref && sc.kernel != ref->id) req.kernels.push_back(ref->id);
  req.blocks = all_block_sizes();
  req.block = req.blocks.front();
  return req;
}

SweepOffer sweep_offer(const Scenario& sc) {
  const KernelRecord* k = find_kernel(sc.kernel);
  if (k == nullptr || is_user_kernel(*k)) return SweepOffer::kernel_file;
  return family_record(k->family).takes_matrix ? SweepOffer::transpose : SweepOffer::sweep;
}

std::string driver_text(const std::string& driver) {
  const std::string prefix = "CUDA driver API ";
  return trf(driver.rfind(prefix, 0) == 0 ? "tim.driver" : "tim.driver.other",
             {driver.rfind(prefix, 0) == 0 ? driver.substr(prefix.size()) : driver});
}

}  // namespace redlab::model
