#include "exec/multi_gpu.h"

#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/allreduce.h"
#include "core/catalog.h"
#include "core/family.h"
#include "core/reference.h"
#include "exec/cuda_launch.h"
#include "core/trace.h"
#include "exec/device.h"
#include "exec/nccl.h"

namespace redlab {

namespace {

std::string cuda_text(cudaError_t e) { return cudaGetErrorString(e); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Whether `got` is `want` for the type and operator: integers and min/max exactly, float sums within the rounding
// of G additions in another order.
bool same_value(ElemType t, OpKind op, std::uint64_t got, std::uint64_t want, unsigned gpus) {
  if (t == ElemType::int32 || op != OpKind::sum) return got == want;
  double a = 0, b = 0;
  if (t == ElemType::float32) {
    float x, y;
    std::memcpy(&x, &got, 4);
    std::memcpy(&y, &want, 4);
    a = x, b = y;
    return std::fabs(a - b) <= 1e-6 * gpus * std::max(1.0, std::fabs(b));
  }
  std::memcpy(&a, &got, 8);
  std::memcpy(&b, &want, 8);
  return std::fabs(a - b) <= 1e-14 * gpus * std::max(1.0, std::fabs(b));
}

// Buffers on each GPU: the input slice and the result.
struct GpuBuffers {
  unsigned gpus = 0;
  std::vector<void*> send, recv;
  std::vector<cudaStream_t> streams;
  ~GpuBuffers() {
    for (unsigned g = 0; g < gpus; ++g) {
      cudaSetDevice(int(g));
      if (g < send.size()) cudaFree(send[g]);
      if (g < recv.size()) cudaFree(recv[g]);
      if (g < streams.size()) cudaStreamDestroy(streams[g]);
    }
  }
};

}  // namespace

unsigned usable_gpus(unsigned want, std::string* why) {
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    cudaGetLastError();  // not sticky for the calls after
    if (why) *why = "no CUDA device: " + cuda_text(e);
    return 0;
  }
  if (unsigned(count) < want) {
    if (why)
      *why = std::to_string(want) + " GPUs asked, this machine has " + std::to_string(count) +
             (count == 1 ? " GPU" : " GPUs");
    return 0;
  }
  for (unsigned a = 0; a < want; ++a)
    for (unsigned b = 0; b < want; ++b) {
      if (a == b) continue;
      int can = 0;
      cudaDeviceCanAccessPeer(&can, int(a), int(b));
      if (!can) {
        if (why)
          *why = "GPU " + std::to_string(a) + " cannot read GPU " + std::to_string(b) +
                 "'s memory: the two have no peer access (no NVLink or PCIe peer path between them)";
        return 0;
      }
    }
  return want;
}

namespace {

// One column of the table: NCCL through its own communicators (NCCL_ALGO is read when they are made), or a catalog
// kernel's schedule on redlab's devices.
struct Engine {
  std::string name;
  std::vector<void*> comms;  // NCCL
  const KernelRecord* kernel = nullptr;  // a catalog all-reduce
};

// The schedule's launches, enqueued: at each step every GPU first waits (on the GPU, by event) for every other
// GPU's previous step, then the step's transfers are launched on their receivers, reading the senders' memory.
void enqueue_schedule(const KernelRecord& k, const std::vector<allreduce::Step>& steps,
                      const std::vector<std::unique_ptr<Device>>& devices, const std::vector<void*>& buffers,
                      ElemType type, OpKind op, unsigned block, const std::vector<cudaEvent_t>& done) {
  const unsigned g = unsigned(devices.size());
  const std::size_t es = elem_size(type);
  for (const allreduce::Step& step : steps) {
    for (unsigned j = 0; j < g; ++j) {
      cuda_check(cudaSetDevice(int(j)), "cudaSetDevice");
      for (unsigned h = 0; h < g; ++h)
        if (h != j) cuda_check(cudaStreamWaitEvent(nullptr, done[h], 0), "cudaStreamWaitEvent");
    }
    for (const allreduce::Transfer& x : step.transfers) {
      LaunchArgs a;
      a.op = op;
      a.block = block;
      a.n = x.elements();
      a.grid = allreduce_launch_grid(a.n, block);
      a.in = static_cast<const std::uint8_t*>(buffers[x.from]) + x.lo * es;
      a.out = static_cast<std::uint8_t*>(buffers[x.to]) + x.lo * es;
      a.combine = x.combine;
      a.phase = parse_phase(step.phase).value_or(Phase::reduce);
      if (a.n) devices[x.to]->launch(k, type, a);
    }
    for (unsigned h = 0; h < g; ++h) {
      cuda_check(cudaSetDevice(int(h)), "cudaSetDevice");
      cuda_check(cudaEventRecord(done[h], nullptr), "cudaEventRecord");
    }
  }
}

}  // namespace

AllReduceReport time_allreduce(const AllReduceRequest& r, const AllReduceRowDone& row_done) {
  AllReduceReport rep;
  std::string why;
  if (usable_gpus(r.gpus, &why) != r.gpus) return rep.error = why, rep;
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  rep.device = std::to_string(r.gpus) + " x " + prop.name;

  bool with_nccl = false;
  for (const AllReduceEngine& e : r.engines) with_nccl = with_nccl || e.is_nccl();
  const Nccl* n = nullptr;
  if (with_nccl) {
    n = nccl(&why);
    if (!n) return rep.error = why, rep;
    rep.nccl_version = nccl_version(nullptr);
  }
  // NCCL reads these when its first communicator is made: the rings it builds go to a log of this run's own.
  const std::string log =
      (std::filesystem::temp_directory_path() / ("redlab-nccl-" + std::to_string(getpid()) + ".log")).string();
  if (with_nccl && !std::getenv("NCCL_DEBUG")) {
    setenv("NCCL_DEBUG", "INFO", 1);
    setenv("NCCL_DEBUG_SUBSYS", "INIT,GRAPH", 1);
    setenv("NCCL_DEBUG_FILE", log.c_str(), 1);
  }
  const char* user_algo = std::getenv("NCCL_ALGO");
  const std::string saved_algo = user_algo ? user_algo : "";

  std::vector<Engine> engines;
  struct Release {
    const Nccl* n;
    std::vector<Engine>& e;
    ~Release() {
      for (Engine& x : e)
        for (void* c : x.comms) n->CommDestroy(c);
    }
  } release{n, engines};
  std::vector<std::unique_ptr<Device>> devices;
  for (const AllReduceEngine& engine : r.engines) {
    const std::string name = engine.name();
    Engine e;
    e.name = name;
    if (engine.is_nccl()) {
      const std::string& algo = engine.nccl_algo;
      if (algo.empty()) {
        if (saved_algo.empty())
          unsetenv("NCCL_ALGO");
        else
          setenv("NCCL_ALGO", saved_algo.c_str(), 1);
      } else {
        setenv("NCCL_ALGO", algo.c_str(), 1);
      }
      e.comms.assign(r.gpus, nullptr);
      std::vector<int> devs(r.gpus);
      for (unsigned g = 0; g < r.gpus; ++g) devs[g] = int(g);
      const int status = n->CommInitAll(e.comms.data(), int(r.gpus), devs.data());
      if (saved_algo.empty())
        unsetenv("NCCL_ALGO");
      else
        setenv("NCCL_ALGO", saved_algo.c_str(), 1);
      if (status != 0) {
        e.comms.clear();
        return rep.error = std::string("ncclCommInitAll (") + name + "): " + n->GetErrorString(status), rep;
      }
    } else {
      e.kernel = engine.kernel;
      if (e.kernel->family != Family::allreduce || !e.kernel->launch[int(Backend::cuda)][int(r.type)])
        return rep.error = "'" + name + "' is not an all-reduce kernel built for the GPU", rep;
      if (devices.empty()) devices = make_cuda_devices(r.gpus, &why);
      if (devices.empty()) return rep.error = why, rep;
    }
    rep.columns.push_back({engine, {}});
    engines.push_back(std::move(e));
  }

  std::vector<cudaEvent_t> done(r.gpus, nullptr);
  struct Events {
    std::vector<cudaEvent_t>& e;
    ~Events() {
      for (std::size_t g = 0; g < e.size(); ++g)
        if (e[g]) {
          cudaSetDevice(int(g));
          cudaEventDestroy(e[g]);
        }
    }
  } destroy_events{done};
  for (unsigned g = 0; g < r.gpus; ++g) {
    cudaSetDevice(int(g));
    if (cudaEventCreateWithFlags(&done[g], cudaEventDisableTiming) != cudaSuccess)
      return rep.error = "cudaEventCreate on GPU " + std::to_string(g) + " failed", rep;
    cudaEventRecord(done[g], nullptr);
  }

  const std::size_t es = elem_size(r.type);
  for (const std::uint64_t count : r.sizes) {
    const std::uint64_t bytes = count * es;
    GpuBuffers b;
    b.gpus = r.gpus;
    b.send.assign(r.gpus, nullptr);
    b.recv.assign(r.gpus, nullptr);
    b.streams.assign(r.gpus, nullptr);
    // GPU g's input: elements [g n, (g+1) n) of one random sequence; made once per size for every engine.
    Scenario s;
    s.type = r.type;
    s.op = r.op;
    s.n = count * r.gpus;
    s.input = InputKind::random;
    std::vector<std::uint8_t> input(s.n * es);
    fill_input(s, input.data());
    for (unsigned g = 0; g < r.gpus; ++g) {
      cudaSetDevice(int(g));
      if (cudaMalloc(&b.send[g], bytes) != cudaSuccess || cudaMalloc(&b.recv[g], bytes) != cudaSuccess ||
          cudaStreamCreate(&b.streams[g]) != cudaSuccess)
        return rep.error = "cudaMalloc of " + std::to_string(bytes) + " bytes on GPU " + std::to_string(g) + " failed",
               rep;
      cudaMemcpy(b.send[g], input.data() + g * bytes, bytes, cudaMemcpyHostToDevice);
    }
    // The element-wise combination every GPU must end with, in the element type: an exact one (integers, min, max)
    // is then one memcmp per GPU (at 1 GiB on 4 GPUs the check per element took longer than the timings).
    std::vector<std::uint8_t> want(bytes);
    combine_slices(r.type, r.op, input.data(), count, r.gpus, want.data());
    const bool exact = r.type == ElemType::int32 || r.op != OpKind::sum;
    const std::vector<allreduce::Step> no_steps;
    auto wait = [&] {
      for (unsigned g = 0; g < r.gpus; ++g) {
        cudaSetDevice(int(g));
        cudaDeviceSynchronize();
      }
    };
    for (std::size_t ei = 0; ei < engines.size(); ++ei) {
      const Engine& e = engines[ei];
      AllReduceTiming row;
      row.elements = count;
      row.bytes = bytes;
      const std::vector<allreduce::Step> steps =
          e.kernel ? allreduce::schedule(allreduce::Algorithm(e.kernel->algorithm), r.gpus, count) : no_steps;
      auto all_reduce = [&]() -> std::string {
        if (e.kernel) {
          cuda_wait_for_kernels = false;
          try {
            enqueue_schedule(*e.kernel, steps, devices, b.recv, r.type, r.op, r.block, done);
          } catch (const std::exception& ex) {
            cuda_wait_for_kernels = true;
            return ex.what();
          }
          cuda_wait_for_kernels = true;
          return {};
        }
        n->GroupStart();
        for (unsigned g = 0; g < r.gpus; ++g)
          if (const int x = n->AllReduce(b.send[g], b.recv[g], count, nccl_data_type(r.type), nccl_op(r.op), e.comms[g],
                                         b.streams[g]);
              x != 0)
            return std::string("ncclAllReduce: ") + n->GetErrorString(x);
        if (const int x = n->GroupEnd(); x != 0) return std::string("ncclGroupEnd: ") + n->GetErrorString(x);
        return {};
      };
      // Checked once: the kernels work in place on a copy of the input, NCCL from it.
      for (unsigned g = 0; g < r.gpus; ++g) {
        cudaSetDevice(int(g));
        cudaMemcpy(b.recv[g], b.send[g], bytes, cudaMemcpyDeviceToDevice);
      }
      if (std::string x = all_reduce(); !x.empty()) return rep.error = e.name + ": " + x, rep;
      wait();
      if (const cudaError_t x = cudaGetLastError(); x != cudaSuccess)
        return rep.error = e.name + ": " + cuda_text(x), rep;
      row.correct = true;
      std::vector<std::uint8_t> got(bytes);
      for (unsigned g = 0; g < r.gpus && row.correct; ++g) {
        cudaSetDevice(int(g));
        cudaMemcpy(got.data(), b.recv[g], bytes, cudaMemcpyDeviceToHost);
        if (exact) {
          row.correct = std::memcmp(got.data(), want.data(), bytes) == 0;
          continue;
        }
        for (std::uint64_t i = 0; i < count && row.correct; ++i) {
          std::uint64_t x = 0, w = 0;
          std::memcpy(&x, got.data() + i * es, es);
          std::memcpy(&w, want.data() + i * es, es);
          row.correct = same_value(r.type, r.op, x, w, r.gpus);
        }
      }
      for (int w = 0; w < r.warmup; ++w) all_reduce();
      wait();
      std::vector<double> samples;
      for (int rep_i = 0; rep_i < r.reps; ++rep_i) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < r.iters; ++i) all_reduce();
        wait();
        samples.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / r.iters);
      }
      row.seconds = median(samples);
      row.algbw = allreduce::algbw(double(row.bytes), row.seconds);
      row.busbw = allreduce::busbw(double(row.bytes), row.seconds, r.gpus);
      rep.columns[ei].rows.push_back(row);
    }
    if (row_done) row_done(rep, rep.columns.front().rows.size() - 1);
  }
  // NCCL's rings, as its log printed them (every communicator's GPUs, channel by channel).
  if (std::ifstream f(log); f) rep.rings = allreduce::nccl_rings_from_log(f, r.gpus);
  std::filesystem::remove(log);
  return rep;
}

double peer_copy_bandwidth(std::uint64_t bytes, std::string* why) {
  if (usable_gpus(2, why) != 2) return 0;
  void *to = nullptr, *from = nullptr;
  cudaSetDevice(0);
  cudaDeviceEnablePeerAccess(1, 0);
  cudaGetLastError();  // already enabled: not an error here
  if (cudaMalloc(&to, bytes) != cudaSuccess) return *why = "cudaMalloc on GPU 0 failed", 0;
  cudaSetDevice(1);
  cudaDeviceEnablePeerAccess(0, 0);
  cudaGetLastError();
  if (cudaMalloc(&from, bytes) != cudaSuccess) {
    cudaSetDevice(0);
    cudaFree(to);
    return *why = "cudaMalloc on GPU 1 failed", 0;
  }
  cudaSetDevice(0);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<double> samples;
  for (int i = 0; i < 9; ++i) {
    cudaEventRecord(a);
    cudaMemcpyPeerAsync(to, 0, from, 1, bytes);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    if (i >= 2) samples.push_back(ms / 1e3);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaFree(to);
  cudaSetDevice(1);
  cudaFree(from);
  cudaSetDevice(0);
  const double t = median(samples);
  return t > 0 ? double(bytes) / t : 0;
}

}  // namespace redlab
