#include "core/scenario.h"

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>
#include <utility>

#include "core/catalog.h"
#include "core/family.h"
#include "core/plan.h"

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
const char* to_string(Backend b) { return b == Backend::cuda ? "cuda" : "cpu"; }
std::optional<Backend> parse_recorded_backend(const std::string& s) {
  if (s == "cuda") return Backend::cuda;
  if (s == "cpu") return Backend::emulator;
  return std::nullopt;
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

void resolve_shape(Scenario& s) {
  if (const KernelRecord* k = find_kernel(s.kernel)) family_record(k->family).resolve(s);
}

const char* algo_name(unsigned a) { return a == 0 ? "warp_reductions" : a == 1 ? "raking" : "raking_commutative"; }

std::optional<unsigned> parse_algo(const std::string& s, std::string* e) {
  for (unsigned a = 0; a < 3; ++a)
    if (s == algo_name(a)) return a;
  if (e) *e = "--algo: '" + s + "' is not accepted; use warp_reductions|raking|raking_commutative";
  return std::nullopt;
}

std::string validate(const Scenario& s) {
  try {
    make_plan(s);
    return {};
  } catch (const ScenarioError& e) { return e.what(); }
}

bool fill_input(const Scenario& s, void* dst, const std::atomic<bool>* cancel) {
  std::mt19937_64 rng(s.seed);
  bool stopped = false;
  auto fill = [&](auto* out, auto random_value) {
    for (std::uint64_t i = 0; i < s.n; ++i) {
      if (cancel && (i & 0xfffff) == 0 && cancel->load(std::memory_order_relaxed)) {
        stopped = true;
        return;
      }
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
  return !stopped;
}

std::vector<std::string> scenario_options(const Scenario& s) {
  const KernelRecord* k = find_kernel(s.kernel);
  std::vector<std::string> o = {
      "--kernel",           s.kernel,  "--type",           to_string(s.type), "--backend",
      to_string(s.backend), "--input", to_string(s.input), "--seed",          std::to_string(s.seed)};
  auto add = [&](const char* option, std::string value) {
    o.push_back(option);
    o.push_back(std::move(value));
  };
  if (k && k->family == Family::allreduce) {
    add("--n", std::to_string(s.n));
    add("--block", std::to_string(s.block));
    add("--op", to_string(s.op));
    add("--gpus", std::to_string(s.gpus ? s.gpus : 2));
  } else if (k && family_record(k->family).takes_matrix) {
    add("--rows", std::to_string(s.rows));
    add("--cols", std::to_string(s.cols));
    add("--block-rows", std::to_string(s.block_rows));
  } else {
    add("--n", std::to_string(s.n));
    add("--block", std::to_string(s.block));
    add("--op", to_string(s.op));
    add("--finish", to_string(s.finish));
    add("--coarse", std::to_string(s.coarse));
    if (k && k->has_algo) add("--algo", algo_name(s.algo));
    if (s.dynamic_smem) o.push_back("--dynamic-smem");
    if (k && k->clustered) add("--cluster", std::to_string(cluster_size(s)));
  }
  std::string focus;
  for (std::uint32_t b : s.focus_blocks) focus += (focus.empty() ? "" : ",") + std::to_string(b);
  if (!focus.empty()) add("--focus", focus);
  return o;
}

std::string describe(const Scenario& s) { return family_of(s).describe(s); }

bool is_block_size(std::uint64_t threads) { return threads >= 32 && threads <= 1024 && (threads & (threads - 1)) == 0; }

std::vector<unsigned> all_block_sizes() {
  std::vector<unsigned> b;
  for (unsigned x = 32; is_block_size(x); x *= 2) b.push_back(x);
  return b;
}

bool parse_size(const std::string& text, std::uint64_t& out) {
  std::string s;
  for (char c : text)
    if (c != ' ' && c != '_' && c != ',') s += c;  // 1_048_576, 1,048,576
  // Digits only (no sign, no "0x": std::stoull would take "-1" and wrap it), and no 64-bit overflow.
  auto digits = [](const std::string& d, std::uint64_t* v) {
    if (d.empty() || d.size() > 19) return false;  // 19 digits always fit in 64 bits
    std::uint64_t x = 0;
    for (char c : d) {
      if (c < '0' || c > '9') return false;
      x = x * 10 + std::uint64_t(c - '0');
    }
    *v = x;
    return true;
  };
  if (s.rfind("2^", 0) == 0) {
    const std::size_t sign = s.find_first_of("+-", 2);
    std::uint64_t k = 0;
    if (!digits(s.substr(2, sign == std::string::npos ? std::string::npos : sign - 2), &k) || k > 40) return false;
    std::uint64_t v = std::uint64_t(1) << k;
    if (sign != std::string::npos) {
      std::uint64_t c = 0;
      if (!digits(s.substr(sign + 1), &c) || c > (std::uint64_t(1) << 41)) return false;  // beyond any size
      if (s[sign] == '-' && c >= v) return false;
      v = s[sign] == '+' ? v + c : v - c;
    }
    out = v;
    return true;
  }
  return digits(s, &out);
}

}  // namespace redlab
