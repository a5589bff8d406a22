#include "multi_gpu.h"

#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "../core/allreduce.h"
#include "../core/reference.h"
#include "nccl.h"

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
    if (why) *why = "no CUDA device: " + cuda_text(e);
    return 0;
  }
  if (unsigned(count) < want) {
    if (why) *why = std::to_string(want) + " GPUs asked, this machine has " + std::to_string(count);
    return 0;
  }
  for (unsigned a = 0; a < want; ++a)
    for (unsigned b = 0; b < want; ++b) {
      if (a == b) continue;
      int can = 0;
      cudaDeviceCanAccessPeer(&can, int(a), int(b));
      if (!can) {
        if (why) *why = "GPU " + std::to_string(a) + " cannot access GPU " + std::to_string(b) + "'s memory (no peer access)";
        return 0;
      }
    }
  return want;
}

AllReduceReport time_nccl_allreduce(const AllReduceRequest& r) {
  AllReduceReport rep;
  std::string why;
  const Nccl* n = nccl(&why);
  if (!n) return rep.error = why, rep;
  rep.nccl_version = nccl_version(nullptr);
  if (usable_gpus(r.gpus, &why) != r.gpus) return rep.error = why, rep;
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  rep.device = std::to_string(r.gpus) + " x " + prop.name;

  // NCCL reads these when its first communicator is made: the rings it builds go to a log of this run's own.
  const std::string log = (std::filesystem::temp_directory_path() / ("redlab-nccl-" + std::to_string(getpid()) + ".log")).string();
  if (!std::getenv("NCCL_DEBUG")) {
    setenv("NCCL_DEBUG", "INFO", 1);
    setenv("NCCL_DEBUG_SUBSYS", "INIT,GRAPH", 1);
    setenv("NCCL_DEBUG_FILE", log.c_str(), 1);
  }
  if (r.algo.empty()) unsetenv("NCCL_ALGO");
  else setenv("NCCL_ALGO", r.algo.c_str(), 1);

  std::vector<void*> comms(r.gpus, nullptr);
  std::vector<int> devs(r.gpus);
  for (unsigned g = 0; g < r.gpus; ++g) devs[g] = int(g);
  if (const int e = n->CommInitAll(comms.data(), int(r.gpus), devs.data()); e != 0)
    return rep.error = std::string("ncclCommInitAll: ") + n->GetErrorString(e), rep;
  struct Comms {
    const Nccl* n;
    std::vector<void*>& c;
    ~Comms() {
      for (void* x : c) n->CommDestroy(x);
    }
  } destroy{n, comms};

  const std::size_t es = elem_size(r.type);
  for (const std::uint64_t count : r.sizes) {
    AllReduceTiming row;
    row.elements = count;
    row.bytes = count * es;
    GpuBuffers b;
    b.gpus = r.gpus;
    b.send.assign(r.gpus, nullptr);
    b.recv.assign(r.gpus, nullptr);
    b.streams.assign(r.gpus, nullptr);
    // GPU g's input: elements [g n, (g+1) n) of one random sequence.
    Scenario s;
    s.type = r.type;
    s.op = r.op;
    s.n = count * r.gpus;
    s.input = InputKind::random;
    std::vector<std::uint8_t> input(s.n * es);
    fill_input(s, input.data());
    for (unsigned g = 0; g < r.gpus; ++g) {
      cudaSetDevice(int(g));
      if (cudaMalloc(&b.send[g], row.bytes) != cudaSuccess || cudaMalloc(&b.recv[g], row.bytes) != cudaSuccess ||
          cudaStreamCreate(&b.streams[g]) != cudaSuccess)
        return rep.error = "cudaMalloc of " + std::to_string(row.bytes) + " bytes on GPU " + std::to_string(g) + " failed", rep;
      cudaMemcpy(b.send[g], input.data() + g * row.bytes, row.bytes, cudaMemcpyHostToDevice);
    }
    auto all_reduce = [&]() -> std::string {
      n->GroupStart();
      for (unsigned g = 0; g < r.gpus; ++g)
        if (const int e = n->AllReduce(b.send[g], b.recv[g], count, nccl_data_type(r.type), nccl_op(r.op), comms[g],
                                       b.streams[g]); e != 0)
          return std::string("ncclAllReduce: ") + n->GetErrorString(e);
      if (const int e = n->GroupEnd(); e != 0) return std::string("ncclGroupEnd: ") + n->GetErrorString(e);
      return {};
    };
    auto wait = [&] {
      for (unsigned g = 0; g < r.gpus; ++g) {
        cudaSetDevice(int(g));
        cudaStreamSynchronize(b.streams[g]);
      }
    };
    if (std::string e = all_reduce(); !e.empty()) return rep.error = e, rep;
    wait();
    // Every GPU against the host's element-wise combination.
    row.correct = true;
    std::vector<std::uint8_t> got(row.bytes);
    for (unsigned g = 0; g < r.gpus && row.correct; ++g) {
      cudaSetDevice(int(g));
      cudaMemcpy(got.data(), b.recv[g], row.bytes, cudaMemcpyDeviceToHost);
      for (std::uint64_t i = 0; i < count; ++i) {
        std::uint64_t want = identity_bits(r.type, r.op), v = 0, x = 0;
        for (unsigned h = 0; h < r.gpus; ++h) {
          std::memcpy(&v, input.data() + (h * count + i) * es, es);
          want = combine_bits(r.type, r.op, want, v);
        }
        std::memcpy(&x, got.data() + i * es, es);
        if (!same_value(r.type, r.op, x, want, r.gpus)) {
          row.correct = false;
          break;
        }
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
    rep.rows.push_back(row);
  }
  // NCCL's rings, as its log printed them.
  std::ifstream f(log);
  for (std::string line; std::getline(f, line);)
    if (const auto at = line.find("Ring "); at != std::string::npos && line.find(" : ", at) != std::string::npos &&
                                            rep.rings.size() < 64)
      rep.rings.push_back(line.substr(at));
  std::filesystem::remove(log);
  return rep;
}

double peer_copy_bandwidth(std::uint64_t bytes, std::string* why) {
  if (usable_gpus(2, why) != 2) return 0;
  void *to = nullptr, *from = nullptr;
  cudaSetDevice(0);
  cudaDeviceEnablePeerAccess(1, 0);
  cudaGetLastError();   // already enabled: not an error here
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
