#include "scenario.h"

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

#include "catalog.h"

namespace redlab {

const char* to_string(ElemType t) {
  switch (t) {
    case ElemType::int32: return "int32";
    case ElemType::float32: return "float32";
    case ElemType::float64: return "float64";
  }
  return "?";
}
const char* to_string(OpKind o) {
  switch (o) {
    case OpKind::sum: return "sum";
    case OpKind::min: return "min";
    case OpKind::max: return "max";
  }
  return "?";
}
const char* to_string(InputKind i) {
  switch (i) {
    case InputKind::random: return "random";
    case InputKind::ones: return "ones";
    case InputKind::ramp: return "ramp";
  }
  return "?";
}
const char* to_string(Finish f) {
  switch (f) {
    case Finish::relaunch: return "relaunch";
    case Finish::host: return "host";
    case Finish::atomic: return "atomic";
  }
  return "?";
}
const char* to_string(BackendChoice b) {
  switch (b) {
    case BackendChoice::auto_: return "auto";
    case BackendChoice::cuda: return "cuda";
    case BackendChoice::cpu: return "cpu";
  }
  return "?";
}
std::size_t elem_size(ElemType t) { return t == ElemType::float64 ? 8 : 4; }

namespace {
template <class E, std::size_t N>
std::optional<E> parse_enum(const std::string& s, const char* option, const E (&values)[N], std::string* error) {
  std::string accepted;
  for (E v : values) {
    if (s == to_string(v)) return v;
    accepted += accepted.empty() ? "" : "|";
    accepted += to_string(v);
  }
  if (error) *error = std::string("--") + option + ": '" + s + "' is not accepted; use " + accepted;
  return std::nullopt;
}
}  // namespace

std::optional<ElemType> parse_type(const std::string& s, std::string* e) {
  static const ElemType v[] = {ElemType::int32, ElemType::float32, ElemType::float64};
  return parse_enum(s, "type", v, e);
}
std::optional<OpKind> parse_op(const std::string& s, std::string* e) {
  static const OpKind v[] = {OpKind::sum, OpKind::min, OpKind::max};
  return parse_enum(s, "op", v, e);
}
std::optional<InputKind> parse_input(const std::string& s, std::string* e) {
  static const InputKind v[] = {InputKind::random, InputKind::ones, InputKind::ramp};
  return parse_enum(s, "input", v, e);
}
std::optional<Finish> parse_finish(const std::string& s, std::string* e) {
  static const Finish v[] = {Finish::relaunch, Finish::host, Finish::atomic};
  return parse_enum(s, "finish", v, e);
}
std::optional<BackendChoice> parse_backend(const std::string& s, std::string* e) {
  static const BackendChoice v[] = {BackendChoice::auto_, BackendChoice::cuda, BackendChoice::cpu};
  return parse_enum(s, "backend", v, e);
}

void derive_transpose_shape(Scenario& s) {
  const KernelInfo* k = find_kernel(s.kernel);
  if (!k || !k->transpose) return;
  s.n = std::uint64_t(s.rows) * s.cols;
  s.block = 32 * s.block_rows;
}

namespace {
// Transposes: the matrix options instead of --n and --block; float types only.
std::string validate_transpose(const KernelInfo& k, const Scenario& given) {
  Scenario s = given;
  if (s.rows < 1 || s.rows > kMaxSide)
    return "--rows: " + std::to_string(s.rows) + " is out of range; use 1.." + std::to_string(kMaxSide);
  if (s.cols < 1 || s.cols > kMaxSide)
    return "--cols: " + std::to_string(s.cols) + " is out of range; use 1.." + std::to_string(kMaxSide);
  if (std::uint64_t(s.rows) * s.cols > kMaxN)
    return "--rows/--cols: " + std::to_string(s.rows) + " x " + std::to_string(s.cols) +
           " is more than " + std::to_string(kMaxN) + " elements; use a smaller matrix";
  if (s.block_rows < 1 || s.block_rows > 32 || (s.block_rows & (s.block_rows - 1)) != 0)
    return "--block-rows: " + std::to_string(s.block_rows) + " is not accepted; use a power of two from 1 to 32";
  if (s.type == ElemType::int32)
    return "--type: transposes move float32 or float64 matrices, not int32; use float32|float64";
  derive_transpose_shape(s);
  const std::uint64_t grid = first_grid(k, s);
  for (auto b : s.focus_blocks)
    if (b >= grid)
      return "--focus: block " + std::to_string(b) + " does not exist; the transpose has " + std::to_string(grid) +
             " block(s), 0.." + std::to_string(grid - 1) + " (x fastest)";
  return {};
}
}  // namespace

const char* algo_name(unsigned a) {
  return a == 0 ? "warp_reductions" : a == 1 ? "raking" : "raking_commutative";
}

std::optional<unsigned> parse_algo(const std::string& s, std::string* e) {
  for (unsigned a = 0; a < 3; ++a)
    if (s == algo_name(a)) return a;
  if (e) *e = "--algo: '" + s + "' is not accepted; use warp_reductions|raking|raking_commutative";
  return std::nullopt;
}

std::string validate(const Scenario& s) {
  const KernelInfo* k = find_kernel(s.kernel);
  if (!k)
    return "--kernel: '" + s.kernel + "' is not a kernel redlab has; use one of " + kernel_ids();
  if (!k->implemented)
    return "--kernel: '" + s.kernel + "' is in the catalog but not built yet; use one of " + kernel_ids();
  if (k->transpose) return validate_transpose(*k, s);
  if (s.n < 1 || s.n > kMaxN)
    return "--n: " + std::to_string(s.n) + " is out of range; use 1.." + std::to_string(kMaxN);
  if (s.block < 32 || s.block > 1024 || (s.block & (s.block - 1)) != 0)
    return "--block: " + std::to_string(s.block) + " is not accepted; use a power of two from 32 to 1024";
  if (s.coarse < 1 || s.coarse > 64)
    return "--coarse: " + std::to_string(s.coarse) + " is out of range; use 1..64";
  if (k->no_atomic && s.finish == Finish::atomic)
    return "--finish atomic: kernel '" + s.kernel + "' writes one partial per block; use --finish relaunch or host";
  if (s.dynamic_smem && s.kernel != "interleaved")
    return "--dynamic-smem: only the interleaved kernel has a dynamic shared-memory variant";
  if (k->gpu_only && s.backend == BackendChoice::cpu)
    return "--backend cpu: kernel '" + s.kernel + "' runs on the GPU only (it uses CUDA library code the "
           "emulator cannot run); use --backend cuda or auto";
  const std::uint64_t grid = first_grid(*k, s);
  for (auto b : s.focus_blocks)
    if (b >= grid)
      return "--focus: block " + std::to_string(b) + " does not exist; the first launch has " +
             std::to_string(grid) + " block(s), 0.." + std::to_string(grid - 1);
  return {};
}

void fill_input(const Scenario& s, void* dst) {
  std::mt19937_64 rng(s.seed);
  auto fill = [&](auto* out, auto random_value) {
    for (std::uint64_t i = 0; i < s.n; ++i) {
      switch (s.input) {
        case InputKind::ones: out[i] = 1; break;
        case InputKind::ramp: out[i] = decltype(+out[i])(std::int64_t(i % 251) - 125); break;
        case InputKind::random: out[i] = random_value(); break;
      }
    }
  };
  switch (s.type) {
    case ElemType::int32: {
      std::uniform_int_distribution<std::int32_t> d(-1000, 1000);
      fill(static_cast<std::int32_t*>(dst), [&] { return d(rng); });
      break;
    }
    case ElemType::float32: {
      std::uniform_real_distribution<float> d(-1.0f, 1.0f);
      fill(static_cast<float*>(dst), [&] { return d(rng); });
      break;
    }
    case ElemType::float64: {
      std::uniform_real_distribution<double> d(-1.0, 1.0);
      fill(static_cast<double*>(dst), [&] { return d(rng); });
      break;
    }
  }
}

std::string describe(const Scenario& s) {
  std::ostringstream o;
  const KernelInfo* k = find_kernel(s.kernel);
  if (k && k->transpose) {
    o << s.kernel << ' ' << to_string(s.type) << ' ' << s.rows << 'x' << s.cols << " block 32x" << s.block_rows
      << ' ' << to_string(s.input);
    if (s.input == InputKind::random) o << " seed " << s.seed;
    return o.str();
  }
  o << s.kernel << (s.dynamic_smem ? " (dynamic smem)" : "") << ' ' << to_string(s.type) << ' '
    << to_string(s.op) << " n=" << s.n << " block=" << s.block << ' ' << to_string(s.input);
  if (s.input == InputKind::random) o << " seed " << s.seed;
  o << " finish " << to_string(s.finish);
  return o.str();
}

}  // namespace redlab
