#include "timings_model.h"

#include "../core/catalog.h"

namespace redlab::gui {

#if REDLAB_GUI_HAVE_BENCH
TimReport from_bench(const BenchReport& b) {
  TimReport r;
  r.device = b.device; r.driver = b.driver; r.date = b.date; r.host = b.host;
  r.type = to_string(b.request.type); r.op = to_string(b.request.op); r.block = b.request.block;
  r.mat_rows = b.request.rows; r.mat_cols = b.request.cols; r.mat_block_rows = b.request.block_rows;
  for (const BenchRow& x : b.rows)
    r.rows.push_back({x.kernel, x.n, x.median_ms, x.gbps, x.pct_copy, x.pct_read, x.speedup, x.ratio_cub, x.correct});
  for (const BenchCeiling& c : b.ceilings) r.ceilings.push_back({c.n, c.copy_gbps, c.read_gbps, c.fits_l2});
  return r;
}
#endif

TimReport parse_timings(const nlohmann::json& j) {
#if REDLAB_GUI_HAVE_BENCH
  return from_bench(bench_from_json(j));
#else
  TimReport r;
  r.device = j.at("device"); r.driver = j.at("driver"); r.date = j.at("date"); r.host = j.value("host", "");
  r.type = j.value("type", ""); r.op = j.value("op", ""); r.block = j.value("block", 0u);
  r.mat_rows = j.value("matrix_rows", 0u); r.mat_cols = j.value("matrix_cols", 0u);
  r.mat_block_rows = j.value("matrix_block_rows", 8u);
  for (const auto& x : j.at("rows"))
    r.rows.push_back({x.at("kernel"), x.at("n"), x.at("median_ms"), x.at("gbps"), x.value("pct_copy", 0.0),
                      x.value("pct_read", 0.0), x.value("speedup", 0.0), x.value("ratio_cub", 0.0), x.value("correct", false)});
  for (const auto& c : j.value("ceilings", nlohmann::json::array()))
    r.ceilings.push_back({c.at("n"), c.at("copy_gbps"), c.at("read_gbps"), c.value("fits_l2", false)});
  return r;
#endif
}

std::vector<TransposeLine> transpose_lines(const TimReport& r) {
  // The rows at the report's matrix (a file holds one; keep every row if it names none).
  const std::uint64_t n = std::uint64_t(r.mat_rows) * r.mat_cols;
  double copy_ms = 0;
  for (const TimRow& x : r.rows)
    if ((n == 0 || x.n == n) && x.kernel == "copy") { copy_ms = x.median_ms; break; }
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

std::string transpose_reference_name(ElemType t) {
  return std::string("assets/reference_transpose_") + to_string(t) + ".json";
}

#if REDLAB_GUI_HAVE_BENCH
BenchRequest measure_request(const Scenario& sc) {
  BenchRequest req;
  req.type = sc.type;
  if (const KernelInfo* k = find_kernel(sc.kernel); k && k->transpose) {
    req.kernels = {"copy"};
    if (sc.kernel != "copy") req.kernels.push_back(sc.kernel);
    req.rows = sc.rows;
    req.cols = sc.cols;
    req.block_rows = sc.block_rows;
    req.sizes = {std::uint64_t(sc.rows) * sc.cols};   // run_bench wants a size; transposes time the matrix
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
#endif

}  // namespace redlab::gui
