// The fuzz target's seed corpus, made by the build it tests so that it always follows the trace format:
// traces recorded by the CPU emulator (small, but with every kind of step, access and element type: reductions
// with two focus blocks, shuffles, a vector load, float64, a padded transpose tile), each as a whole file and as
// a bare body, and the hostile bodies of tests/hostile_traces.h (bare, and as files with a right header and
// checksum, for the GUI monkey test to open).
//   redlab_fuzz_seeds DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/trace.h"
#include "exec/executor.h"
#include "hostile_traces.h"

namespace {

void write(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary);
  f << bytes;
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

}  // namespace

int main(int argc, char** argv) try {
  using namespace redlab;
  if (argc != 2) {
    std::fprintf(stderr, "usage: redlab_fuzz_seeds DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  struct Seed {
    const char* name;
    const char* kernel;
    unsigned n, block;
    ElemType type;
    bool two_focus_blocks;
  };
  const Seed seeds[] = {
      {"interleaved", "interleaved", 512, 128, ElemType::int32, true},
      {"warp_shuffle", "warp_shuffle", 256, 128, ElemType::int32, true},
      {"vectorized", "vectorized", 4096, 64, ElemType::float32, false},
      {"neighbored_float64", "neighbored_strided", 300, 64, ElemType::float64, true},
      {"transpose_padded", "transpose_padded", 0, 0, ElemType::float32, true},
  };
  const auto executor = make_cpu_executor();
  nlohmann::json first_body;
  for (const Seed& s : seeds) {
    Scenario sc;
    sc.kernel = s.kernel;
    sc.type = s.type;
    sc.backend = BackendChoice::cpu;
    if (s.n) {
      sc.n = s.n;
      sc.block = s.block;
    } else {
      sc.rows = sc.cols = 64;
      sc.block_rows = 8;
    }
    if (s.two_focus_blocks) sc.focus_blocks = {0, 1};
    resolve_shape(sc);
    const std::filesystem::path file = dir / (std::string(s.name) + ".rltrace");
    save_trace(executor->run(sc), file.string());
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string body = bytes.substr(28);   // magic, version, size, checksum
    write(dir / (std::string(s.name) + ".body"), body);
    if (first_body.is_null()) first_body = nlohmann::json::from_cbor(body);
  }
  int hostile = 0;
  for (const auto& h : testdata::hostile_bodies(first_body)) {
    write(dir / ("hostile-" + h.name + ".body"), std::string(h.cbor.begin(), h.cbor.end()));
    write(dir / ("hostile-" + h.name + ".rltrace"), trace_file_with_body(h.cbor.data(), h.cbor.size()));
    ++hostile;
  }
  std::printf("%zu traces and %d hostile ones (file and body each) in %s\n", std::size(seeds), hostile, dir.c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "redlab_fuzz_seeds: %s\n", e.what());
  return 1;
}
