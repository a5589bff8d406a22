// `redlab selftest`: every implemented kernel x type x op x awkward size x block size must give the
// reference result; on a GPU, traced runs must equal the CPU emulator's traces (masks, addresses, values).
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"
#include "core/catalog.h"
#include "exec/executor.h"

namespace redlab::cli {
namespace {

const ElemType kTypes[] = {ElemType::int32, ElemType::float32, ElemType::float64};
const OpKind kOps[] = {OpKind::sum, OpKind::min, OpKind::max};
const unsigned kBlocks[] = {32, 64, 128, 256, 512, 1024};
const Finish kFinishes[] = {Finish::relaunch, Finish::host, Finish::atomic};

// Compares two traces of one scenario; returns "" or what differs first. `focus_detail` false: single-pass
// kernels, whose focus blocks may or may not be the one that took the last ticket.
std::string trace_difference(const Trace& g, const Trace& c, bool focus_detail = true) {
  if (g.result != c.result && g.scenario.type == ElemType::int32) return "results differ: " + g.result + " vs " + c.result;
  if (g.steps.size() != c.steps.size()) return "step counts differ";
  for (std::size_t s = 0; s < g.steps.size(); ++s) {
    StepStats a = g.steps[s].stats, b = c.steps[s].stats;
    a.cycles.reset();
    b.cycles.reset();
    if (!(a == b)) return "step " + std::to_string(s) + " (" + g.steps[s].label + ") statistics differ";
    if (g.steps[s].label != c.steps[s].label) return "step " + std::to_string(s) + " labels differ";
  }
  if (g.digest != c.digest) return "digests of all blocks' records differ";
  if (!focus_detail) return {};
  if (g.focus.size() != c.focus.size()) return "focus blocks differ";
  for (std::size_t f = 0; f < g.focus.size(); ++f)
    for (std::size_t s = 0; s < g.focus[f].steps.size(); ++s)
      for (std::size_t w = 0; w < g.focus[f].steps[s].size(); ++w) {
        const WarpStep& x = g.focus[f].steps[s][w];
        const WarpStep& y = c.focus[f].steps[s][w];
        const std::string where = "block " + std::to_string(g.focus[f].block) + " step " + std::to_string(s) +
                                  " warp " + std::to_string(w);
        if (x.active != y.active) return where + ": active masks differ";
        if (x.accesses.size() != y.accesses.size()) return where + ": request counts differ";
        for (std::size_t k = 0; k < x.accesses.size(); ++k) {
          const WarpAccess& p = x.accesses[k];
          const WarpAccess& q = y.accesses[k];
          if (p.mask != q.mask || p.space != q.space || p.kind != q.kind || p.width != q.width)
            return where + ": request " + std::to_string(k) + " differs (mask/space/kind/width)";
          for (unsigned lane = 0; lane < 32; ++lane) {
            if (!(p.mask >> lane & 1u)) continue;
            if (p.addr[lane] != q.addr[lane]) return where + ": lane " + std::to_string(lane) + " addresses differ";
            if (p.bits[lane] != q.bits[lane]) return where + ": lane " + std::to_string(lane) + " values differ";
          }
        }
      }
  return {};
}

// Transposes: every kernel x float32/float64 x awkward shapes x K (--block-rows) in {1, 8, 32} against a
// CPU transpose, bit for bit; on a GPU also the traces of smaller shapes against the emulator's.
void selftest_transposes(Executor& ex, bool quick, unsigned& index, unsigned& passed, unsigned& failed) {
  const std::pair<std::uint32_t, std::uint32_t> shapes[] = {{1, 1},     {31, 33},     {32, 32},    {33, 31},
                                                            {100, 257}, {1024, 1024}, {2048, 1000}};
  const unsigned block_rows[] = {1, 8, 32};
  const ElemType types[] = {ElemType::float32, ElemType::float64};
  RunOptions timed;
  timed.trace = false;
  for (const KernelInfo& k : catalog()) {
    if (!k.implemented || !k.transpose) continue;
    unsigned kp = 0, kf = 0;
    for (ElemType type : types)
      for (auto [rows, cols] : shapes)
        for (unsigned K : block_rows) {
          if (quick && std::uint64_t(rows) * cols > 100000 && K != 8) continue;
          Scenario s;
          s.kernel = k.id;
          s.type = type;
          s.rows = rows;
          s.cols = cols;
          s.block_rows = K;
          s.seed = 2000 + index++;
          derive_transpose_shape(s);
          try {
            const Trace t = ex.run(s, timed);
            if (t.correct) {
              ++kp;
              continue;
            }
            std::printf("FAIL %s: %s\n", describe(s).c_str(), t.result.c_str());
          } catch (const std::exception& e) {
            std::printf("FAIL %s: %s\n", describe(s).c_str(), e.what());
          }
          ++kf;
        }
    std::printf("  %-20s correctness: %u passed, %u failed\n", k.id.c_str(), kp, kf);
    std::fflush(stdout);
    passed += kp;
    failed += kf;
  }
  if (std::string(ex.backend()) != "cuda") return;
  auto cpu = make_cpu_executor();
  const std::pair<std::uint32_t, std::uint32_t> trace_shapes[] = {{1, 1}, {33, 31}, {64, 96}, {100, 257}};
  for (const KernelInfo& k : catalog()) {
    if (!k.implemented || !k.transpose) continue;
    unsigned kp = 0, kf = 0;
    for (ElemType type : types)
      for (auto [rows, cols] : trace_shapes)
        for (unsigned K : block_rows) {
          Scenario s;
          s.kernel = k.id;
          s.type = type;
          s.rows = rows;
          s.cols = cols;
          s.block_rows = K;
          s.seed = 7 + index++;
          derive_transpose_shape(s);
          const std::uint32_t grid = first_grid(k, s);
          s.focus_blocks = {0};
          if (grid > 1) s.focus_blocks.push_back(grid - 1);
          try {
            const Trace g = ex.run(s);
            const Trace c = cpu->run(s);
            const std::string diff = trace_difference(g, c);
            if (diff.empty() && g.correct && c.correct) {
              ++kp;
              continue;
            }
            std::printf("FAIL trace %s: %s\n", describe(s).c_str(), diff.empty() ? "a result is wrong" : diff.c_str());
          } catch (const std::exception& e) {
            std::printf("FAIL trace %s: %s\n", describe(s).c_str(), e.what());
          }
          ++kf;
        }
    std::printf("  %-20s GPU trace == CPU trace: %u passed, %u failed\n", k.id.c_str(), kp, kf);
    std::fflush(stdout);
    passed += kp;
    failed += kf;
  }
}

}  // namespace

int cmd_selftest(const std::string& backend_text, bool quick) {
  std::string err;
  auto choice = parse_backend(backend_text, &err);
  if (!choice) {
    std::fprintf(stderr, "redlab: %s\n", err.c_str());
    return 2;
  }
  std::string notice;
  auto ex = make_executor(*choice, &notice);
  if (!notice.empty()) std::fprintf(stderr, "redlab: %s\n", notice.c_str());
  std::printf("selftest on %s: %s\n", ex->backend(), ex->device().c_str());
  const auto t0 = std::chrono::steady_clock::now();

  std::vector<std::uint64_t> sizes = {1, 2, 31, 32, 33, 255, 256, 257, 1000, 4097, (1u << 20) + 3};
  unsigned passed = 0, failed = 0, index = 0;
  RunOptions timed;
  timed.trace = false;
  const bool on_gpu = std::string(ex->backend()) == "cuda";
  for (const KernelInfo& k : catalog()) {
    if (!k.implemented || (k.gpu_only && !on_gpu) || k.transpose) continue;
    unsigned kp = 0, kf = 0;
    for (ElemType type : kTypes)
      for (OpKind op : kOps)
        for (std::uint64_t n : sizes)
          for (unsigned block : kBlocks) {
            if (quick && n > 100000 && block != 256 && block != 1024) continue;
            Scenario s;
            s.kernel = k.id;
            s.type = type;
            s.op = op;
            s.n = n;
            s.block = block;
            s.seed = 1000 + index;
            s.finish = kFinishes[index % 3];
            if (k.no_atomic && s.finish == Finish::atomic) s.finish = Finish::relaunch;
            s.algo = index % 3;  // cub_block: every algorithm in turn
            s.dynamic_smem = k.id == "interleaved" && index % 2 == 1;
            ++index;
            try {
              Trace t = ex->run(s, timed);
              if (t.correct) {
                ++kp;
                continue;
              }
              std::printf("FAIL %s: result %s, reference %s (|error| %.3g, bound %.3g)\n", describe(s).c_str(),
                          t.result.c_str(), t.reference.c_str(), t.abs_error, t.error_bound);
            } catch (const std::exception& e) {
              std::printf("FAIL %s: %s\n", describe(s).c_str(), e.what());
            }
            ++kf;
          }
    std::printf("  %-20s correctness: %u passed, %u failed\n", k.id.c_str(), kp, kf);
    std::fflush(stdout);
    passed += kp;
    failed += kf;
  }

  // GPU traces against the emulator's, for the same scenarios.
  if (std::string(ex->backend()) == "cuda") {
    auto cpu = make_cpu_executor();
    const std::uint64_t trace_sizes[] = {1, 33, 257, 4097, 65539};
    const unsigned trace_blocks[] = {32, 256, 1024};
    for (const KernelInfo& k : catalog()) {
      if (!k.implemented || k.gpu_only || k.transpose || !k.traceable) continue;
      unsigned kp = 0, kf = 0;
      for (ElemType type : kTypes)
        for (OpKind op : kOps)
          for (std::uint64_t n : trace_sizes)
            for (unsigned block : trace_blocks) {
              Scenario s;
              s.kernel = k.id;
              s.type = type;
              s.op = op;
              s.n = n;
              s.block = block;
              s.seed = 7 + index++;
              s.finish = Finish::relaunch;
              const std::uint64_t grid = first_grid(k, s);
              s.focus_blocks = {0};
              if (grid > 1) s.focus_blocks.push_back(std::uint32_t(grid - 1));
              // The largest size also runs on the GPU in chunks of a few blocks (1 MiB of trace memory):
              // the device's analysis, chunk by chunk, against the emulator's in one chunk.
              RunOptions gpu_options;
              if (n == 65539 && block == 256) gpu_options.trace_budget = std::size_t(1) << 20;
              try {
                const Trace g = ex->run(s, gpu_options);
                const Trace c = cpu->run(s);
                // A single-pass kernel's last steps run in whichever block finished last: compare the
                // per-step figures and the digest (the launch row names no block), not the focus detail.
                const std::string diff = trace_difference(g, c, !k.single_pass);
                if (diff.empty() && g.correct && c.correct) {
                  ++kp;
                  continue;
                }
                std::printf("FAIL trace %s: %s\n", describe(s).c_str(),
                            diff.empty() ? "a result is wrong" : diff.c_str());
              } catch (const std::exception& e) {
                std::printf("FAIL trace %s: %s\n", describe(s).c_str(), e.what());
              }
              ++kf;
            }
      std::printf("  %-20s GPU trace == CPU trace: %u passed, %u failed\n", k.id.c_str(), kp, kf);
      std::fflush(stdout);
      passed += kp;
      failed += kf;
    }
  }
  selftest_transposes(*ex, quick, index, passed, failed);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("selftest (%s, %.1f s): %u passed, %u failed\n", ex->backend(), secs, passed, failed);
  return failed ? 1 : 0;
}

}  // namespace redlab::cli
