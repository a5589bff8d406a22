// `redlab bench`: the same scenario for a list of kernels and sizes, timed in one run on the GPU.
#include "bench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "../core/catalog.h"
#include "../core/reference.h"
#include "device.h"
#include "device_memory.h"
#include "reduction_plan.h"
#include "transpose.h"

namespace redlab {
namespace {

struct Stats {
  double median = 0, min = 0, max = 0;
};
Stats stats_of(std::vector<float> ms) {
  Stats s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  const std::size_t m = ms.size() / 2;
  s.median = ms.size() % 2 ? ms[m] : 0.5 * (double(ms[m - 1]) + ms[m]);
  s.min = ms.front();
  s.max = ms.back();
  return s;
}

double gbps(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0; }

}  // namespace

BenchReport run_bench(const BenchRequest& req) {
#if REDLAB_HAVE_CUDA
  std::string why;
  auto dev = make_cuda_device(&why);
#else
  std::string why = "no CUDA device: this redlab was built without CUDA";
  std::unique_ptr<Device> dev;
#endif
  if (!dev)
    throw ScenarioError("bench: " + why +
                        "; timings exist only on a GPU (recorded H200 figures: assets/reference_timings.json, "
                        "assets/reference_transpose_<type>.json)");
  if (req.kernels.empty() || req.sizes.empty()) throw ScenarioError("bench: give at least one kernel and one size");
  if (req.reps < 3 || req.reps > 1000 || req.warmup < 0 || req.warmup > 100)
    throw ScenarioError("--reps/--warmup: use 3..1000 repetitions and 0..100 warm-ups");
  unsigned transposes = 0;
  for (const std::string& id : req.kernels) {
    const KernelInfo* k = find_kernel(id);
    if (!k || !k->implemented)
      throw ScenarioError("--kernels: '" + id + "' is not a kernel redlab can time; use ids from redlab list");
    transposes += k->transpose;
  }
  if (transposes && transposes != req.kernels.size())
    throw ScenarioError("--kernels: time reductions and transposes in separate runs (they take different sizes)");
  BenchReport rep;
  rep.device = dev->name();
  rep.driver = dev->driver();
  rep.date = now_iso();
  rep.host = host_name();
  rep.request = req;
  const std::size_t es = elem_size(req.type);
  const std::size_t l2 = dev->l2_bytes();

  if (transposes) {
    Scenario s;
    s.type = req.type;
    s.rows = req.rows;
    s.cols = req.cols;
    s.block_rows = req.block_rows;
    const std::uint64_t n = std::uint64_t(req.rows) * req.cols;
    const double bytes = double(n) * double(es);
    BenchCeiling ceil;
    ceil.n = n;
    ceil.fits_l2 = l2 && 2 * bytes <= double(l2);
    {
      DeviceBuffer a(*dev, std::size_t(bytes)), b(*dev, std::size_t(bytes)), sink(*dev, 4096 * 4);
      dev->fill(a.p, 1, std::size_t(bytes));
      auto ms = dev->time_ms([](int) {}, [&](int) { dev->copy(b.p, a.p, std::size_t(bytes)); }, req.warmup, req.reps);
      ceil.copy_gbps = gbps(2.0 * bytes, stats_of(ms).median);
      auto rd = dev->time_ms([](int) {}, [&](int) { dev->read_only(a.p, std::size_t(bytes) / 16 * 16, sink.p); },
                             req.warmup, req.reps);
      ceil.read_gbps = gbps(double(std::size_t(bytes) / 16 * 16), stats_of(rd).median);
    }
    rep.ceilings.push_back(ceil);
    for (const std::string& id : req.kernels) {
      s.kernel = id;
      BenchRow row;
      row.kernel = id;
      row.n = n;
      const Stats st = stats_of(time_transpose_ms(*dev, s, req.warmup, req.reps));
      row.median_ms = st.median;
      row.min_ms = st.min;
      row.max_ms = st.max;
      row.reps = req.reps;
      row.gbps = gbps(transpose_bytes(s), st.median);
      row.pct_copy = ceil.copy_gbps > 0 ? 100.0 * row.gbps / ceil.copy_gbps : 0;
      row.pct_read = 0;
      row.speedup = rep.rows.empty() ? 1.0 : rep.rows.front().median_ms / st.median;
      row.step_speedup = rep.rows.empty() ? 1.0 : rep.rows.back().median_ms / st.median;
      row.correct = true;  // correctness of every transpose is selftest's (bit-exact against the CPU)
      rep.rows.push_back(row);
    }
    return rep;
  }

  for (std::uint64_t n : req.sizes) {
    Scenario base;
    base.n = n;
    base.block = req.block;
    base.type = req.type;
    base.op = req.op;
    base.finish = req.finish;
    base.input = InputKind::random;
    base.seed = 12345;
    std::vector<std::uint8_t> host(n * es);
    fill_input(base, host.data());
    const std::size_t bytes = n * es;
    BenchCeiling ceil;
    ceil.n = n;
    ceil.fits_l2 = l2 && bytes <= l2;
    const std::size_t copies = rotating_copies(bytes, l2);
    std::vector<DeviceBuffer> inputs;
    std::vector<const void*> ptrs;
    for (std::size_t c = 0; c < copies; ++c) {
      inputs.emplace_back(*dev, (bytes + 15) / 16 * 16);
      dev->upload(inputs.back().p, host.data(), bytes);
      ptrs.push_back(inputs.back().p);
    }
    DeviceBuffer dst(*dev, bytes), sink(*dev, 4096 * 4);
    {
      auto ms = dev->time_ms([](int) {}, [&](int r) { dev->copy(dst.p, ptrs[r % copies], bytes); }, req.warmup, req.reps);
      ceil.copy_gbps = gbps(2.0 * bytes, stats_of(ms).median);
      auto rd = dev->time_ms([](int) {}, [&](int r) { dev->read_only(ptrs[r % copies], bytes / 16 * 16, sink.p); },
                             req.warmup, req.reps);
      ceil.read_gbps = gbps(double(bytes / 16 * 16), stats_of(rd).median);
    }
    rep.ceilings.push_back(ceil);

    // Every timed run reads the next input copy, so none finds its input in L2 from the run before.
    std::size_t next_input = 0;
    auto timed = [&](ReductionPlan& t) {
      return Device::TimedRun{[&t](int) { t.prepare(); },
                              [&t, &next_input, &ptrs](int) {
                                t.run_first(nullptr, nullptr, ptrs[next_input++ % ptrs.size()]);
                                t.finish();
                              }};
    };
    auto fill_row = [&](const Scenario& s, ReductionPlan& t, const std::vector<float>& ms, BenchRow& row) {
      const Stats st = stats_of(ms);
      row.median_ms = st.median;
      row.min_ms = st.min;
      row.max_ms = st.max;
      row.reps = int(ms.size());
      row.correct = check_result(s, host.data(), t.result(), t.sequential_adds()).correct;
    };
    auto scenario_of = [&](const std::string& id) {
      Scenario s = base;
      s.kernel = id;
      if (std::string err = validate(s); !err.empty()) throw ScenarioError(err);
      return s;
    };

    // cub_device alone for its own row; every other kernel in rounds alternating with it, so x CUB is the
    // ratio of medians taken under the same conditions.
    const Scenario cub_s = scenario_of("cub_device");
    ReductionPlan cub_plan(*dev, *find_kernel("cub_device"), cub_s, host.data());
    BenchRow cub;
    cub.kernel = "cub_device";
    cub.n = n;
    fill_row(cub_s, cub_plan, dev->time_rounds_ms({timed(cub_plan)}, req.warmup, req.reps)[0], cub);

    const std::size_t first_row = rep.rows.size();
    for (const std::string& id : req.kernels) {
      const KernelInfo& k = *find_kernel(id);
      BenchRow row;
      row.kernel = id;
      row.n = n;
      double cub_ms = cub.median_ms;
      if (id == "cub_device") {
        row = cub;
      } else if (k.host_only) {
        std::vector<float> all;
        time_host_loop_ms(scenario_of(id), 1, std::min(req.reps, 5), &all);
        const Stats st = stats_of(all);
        row.median_ms = st.median;
        row.min_ms = st.min;
        row.max_ms = st.max;
        row.reps = int(all.size());
        row.correct = true;
      } else {
        const Scenario s = scenario_of(id);
        ReductionPlan plan(*dev, k, s, host.data());
        const auto ms = dev->time_rounds_ms({timed(cub_plan), timed(plan)}, req.warmup, req.reps);
        fill_row(s, plan, ms[1], row);
        cub_ms = stats_of(ms[0]).median;
      }
      row.gbps = gbps(double(bytes), row.median_ms);
      row.pct_copy = ceil.copy_gbps > 0 ? 100.0 * row.gbps / ceil.copy_gbps : 0;
      row.pct_read = ceil.read_gbps > 0 ? 100.0 * row.gbps / ceil.read_gbps : 0;
      row.ratio_cub = row.median_ms > 0 ? cub_ms / row.median_ms : 0;
      const BenchRow& first = rep.rows.size() > first_row ? rep.rows[first_row] : row;
      row.speedup = row.median_ms > 0 ? first.median_ms / row.median_ms : 0;
      const BenchRow& prev = rep.rows.size() > first_row ? rep.rows.back() : row;
      row.step_speedup = row.median_ms > 0 ? prev.median_ms / row.median_ms : 0;
      rep.rows.push_back(row);
    }
  }
  return rep;
}

nlohmann::json bench_json(const BenchReport& r) {
  using nlohmann::json;
  json ceilings = json::array(), rows = json::array();
  for (const auto& c : r.ceilings)
    ceilings.push_back({{"n", c.n}, {"copy_gbps", c.copy_gbps}, {"read_gbps", c.read_gbps}, {"fits_l2", c.fits_l2}});
  for (const auto& x : r.rows)
    rows.push_back({{"kernel", x.kernel}, {"n", x.n}, {"median_ms", x.median_ms}, {"min_ms", x.min_ms},
                    {"max_ms", x.max_ms}, {"reps", x.reps}, {"gbps", x.gbps}, {"pct_copy", x.pct_copy},
                    {"pct_read", x.pct_read}, {"speedup", x.speedup}, {"step_speedup", x.step_speedup},
                    {"ratio_cub", x.ratio_cub}, {"correct", x.correct}});
  return {{"device", r.device},
          {"driver", r.driver},
          {"date", r.date},
          {"host", r.host},
          {"type", to_string(r.request.type)},
          {"op", to_string(r.request.op)},
          {"block", r.request.block},
          {"matrix_rows", r.request.rows},
          {"matrix_cols", r.request.cols},
          {"matrix_block_rows", r.request.block_rows},
          {"finish", to_string(r.request.finish)},
          {"warmup", r.request.warmup},
          {"reps", r.request.reps},
          {"timing", "median of CUDA-event times of the whole reduction (every launch), after warm-up; inputs "
                     "smaller than 4x the L2 rotate over copies; GB/s = input bytes / median (decimal); copy ceiling "
                     "counts read + write; x CUB: each kernel timed in rounds alternating with cub_device, ratio of "
                     "the two medians"},
          {"ceilings", ceilings},
          {"rows", rows}};
}

BenchReport bench_from_json(const nlohmann::json& j) {
  BenchReport r;
  try {
    r.device = j.at("device");
    r.driver = j.at("driver");
    r.date = j.at("date");
    r.host = j.value("host", "");
    std::string err;
    if (auto t = parse_type(j.at("type"), &err)) r.request.type = *t;
    if (auto o = parse_op(j.at("op"), &err)) r.request.op = *o;
    r.request.block = j.at("block");
    r.request.rows = j.value("matrix_rows", 0u);
    r.request.cols = j.value("matrix_cols", 0u);
    r.request.block_rows = j.value("matrix_block_rows", 8u);
    r.request.reps = j.value("reps", 0);
    r.request.warmup = j.value("warmup", 0);
    for (const auto& c : j.at("ceilings"))
      r.ceilings.push_back({c.at("n"), c.at("copy_gbps"), c.at("read_gbps"), c.at("fits_l2")});
    for (const auto& x : j.at("rows")) {
      BenchRow row;
      row.kernel = x.at("kernel");
      row.n = x.at("n");
      row.median_ms = x.at("median_ms");
      row.min_ms = x.value("min_ms", 0.0);
      row.max_ms = x.value("max_ms", 0.0);
      row.reps = x.value("reps", 0);
      row.gbps = x.at("gbps");
      row.pct_copy = x.at("pct_copy");
      row.pct_read = x.at("pct_read");
      row.speedup = x.at("speedup");
      row.step_speedup = x.at("step_speedup");
      row.ratio_cub = x.at("ratio_cub");
      row.correct = x.at("correct");
      r.rows.push_back(row);
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("not a redlab bench file: ") + e.what());
  }
  return r;
}

std::string bench_text(const BenchReport& r) {
  std::ostringstream o;
  char line[256];
  o << r.device << ", " << r.driver << ", " << r.date << "\n";
  o << to_string(r.request.type) << " " << to_string(r.request.op) << ", block " << r.request.block << ", median of "
    << r.request.reps << " CUDA-event timings after " << r.request.warmup << " warm-ups (whole reduction)";
  if (!r.request.rows)
    o << "; inputs under 4x the L2 rotate over copies; x CUB from rounds alternating each kernel with cub_device";
  o << "\n";
  for (const auto& c : r.ceilings) {
    if (r.request.rows)
      o << "\ntranspose " << r.request.rows << " x " << r.request.cols << ", block (32, " << r.request.block_rows
        << "); GB/s counts read + write; x first is relative to the first kernel";
    std::snprintf(line, sizeof line, "\nn = %llu (%.1f MB%s): copy %.0f GB/s (read+write), read-only %.0f GB/s\n",
                  (unsigned long long)c.n, double(c.n * elem_size(r.request.type)) / 1e6,
                  c.fits_l2 ? ", fits in L2" : "", c.copy_gbps, c.read_gbps);
    o << line;
    std::snprintf(line, sizeof line, "  %-20s %10s %9s %7s %7s %8s %8s %8s  %s\n", "kernel", "median ms", "GB/s",
                  "%copy", "%read", "x first", "x prev", "x CUB", "check");
    o << line;
    for (const auto& x : r.rows) {
      if (x.n != c.n) continue;
      std::snprintf(line, sizeof line, "  %-20s %10.4f %9.1f %7.1f %7.1f %8.2f %8.2f %8.2f  %s\n", x.kernel.c_str(),
                    x.median_ms, x.gbps, x.pct_copy, x.pct_read, x.speedup, x.step_speedup, x.ratio_cub,
                    x.correct ? "ok" : "WRONG");
      o << line;
    }
  }
  return o.str();
}

}  // namespace redlab
