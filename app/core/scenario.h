// A scenario: what to run. Parsed from the command line or the GUI's controls, validated in one place so
// both refuse bad values with the same message (naming the option and what it accepts).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/kernel_record.h"  // ElemType, OpKind

namespace redlab {

enum class InputKind : std::uint8_t { random, ones, ramp };
enum class Finish : std::uint8_t { relaunch, host, atomic };
enum class BackendChoice : std::uint8_t { auto_, cuda, cpu };

const char* to_string(ElemType);
const char* to_string(OpKind);
const char* to_string(InputKind);
const char* to_string(Finish);
const char* to_string(BackendChoice);
// The backend a trace was recorded on, as files and the command line name it: "cuda" | "cpu" (the emulator).
const char* to_string(Backend);
std::optional<Backend> parse_recorded_backend(const std::string&);
std::size_t elem_size(ElemType);

struct Scenario {
  std::string kernel = "interleaved";
  std::uint64_t n = 4096;
  unsigned block = 256;
  ElemType type = ElemType::int32;
  OpKind op = OpKind::sum;
  BackendChoice backend = BackendChoice::auto_;
  InputKind input = InputKind::random;
  std::uint64_t seed = 1;
  Finish finish = Finish::relaunch;
  unsigned coarse = 4;
  bool dynamic_smem = false;
  std::vector<std::uint32_t> focus_blocks = {0};  // blocks recorded in full detail (values, addresses)
  unsigned algo = 0;  // cub_block: 0 warp_reductions, 1 raking, 2 raking_commutative (--algo)
  // Transposes (catalog group "8 transposes"): a rows x cols matrix, blocks of 32 x block_rows threads.
  // For them n = rows * cols and block = 32 * block_rows (derive_transpose_shape); op and finish are unused.
  std::uint32_t rows = 1024, cols = 1024;
  unsigned block_rows = 8;
  // All-reduce kernels (catalog group "9 across GPUs"): GPUs, each with n elements of its own (2..8; 0: not given,
  // and the family's default, 2). Every other kernel runs on one GPU and refuses --gpus.
  unsigned gpus = 0;
  // Cluster kernels (reductions with `clustered` records): blocks per thread block cluster, a power of two 1..16 (0:
  // not given, and kDefaultCluster). Every other kernel refuses --cluster.
  unsigned cluster = 0;
};
constexpr unsigned kDefaultCluster = 4;
// The blocks per cluster a cluster kernel's scenario launches: its --cluster, or the default where it has none.
constexpr unsigned cluster_size(const Scenario& s) { return s.cluster ? s.cluster : kDefaultCluster; }
// Blocks a scenario may put in focus (recorded in full detail), as many as a trace file keeps.
constexpr std::size_t kMaxFocusBlocks = 256;

// A scenario that cannot run (bad value, GPU-only kernel on the CPU, too large for memory): the message
// says what was wrong and what is accepted. CLI exit code 2.
struct ScenarioError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A kernel file that does not compile (for the GPU, through NVRTC): its text is the compiler's messages, each line
// naming the file and line as the student wrote them, shown as they are.
struct KernelFileError : ScenarioError {
  using ScenarioError::ScenarioError;
};

// Sets the options that follow from others in the kernel's family (transposes: n = rows * cols and
// block = 32 * block_rows); a scenario whose kernel is unknown is left as it is.
void resolve_shape(Scenario&);
// Matrix sides accepted by --rows and --cols (rows * cols must also stay within kMaxN).
constexpr std::uint32_t kMaxSide = std::uint32_t(1) << 20;

// Parsing single option values; each returns nullopt for a bad value and fills `error` with a one-line
// message naming the option and the accepted values.
std::optional<ElemType> parse_type(const std::string&, std::string* error);
std::optional<OpKind> parse_op(const std::string&, std::string* error);
std::optional<InputKind> parse_input(const std::string&, std::string* error);
std::optional<Finish> parse_finish(const std::string&, std::string* error);
std::optional<BackendChoice> parse_backend(const std::string&, std::string* error);
std::optional<unsigned> parse_algo(const std::string&, std::string* error);
const char* algo_name(unsigned algo);

// Checks a whole scenario against the catalog and the kernel's family (make_plan's refusal): kernel known,
// n in range, block a power of two in 32..1024, GPU-only kernels not on the CPU backend, ... Empty when valid.
std::string validate(const Scenario&);

// The block sizes the reductions take: a power of two from 32 (one warp) to 1024 (the most a block holds).
bool is_block_size(std::uint64_t threads);
// Every one of them, ascending (bench --blocks all).
std::vector<unsigned> all_block_sizes();

// Largest n accepted (kernels index with 32-bit unsigned arithmetic).
constexpr std::uint64_t kMaxN = std::uint64_t(1) << 31;
// A size as the command line and the window's fields take it: decimal (digit groups by ' ', '_' or ','),
// 2^k (k <= 40) or 2^k+c / 2^k-c. False when the text is not one; the caller checks the range.
bool parse_size(const std::string& text, std::uint64_t& out);

// The input data, reproducible: random from `seed`, ones, or ramp (element i = (i mod 251) - 125). With
// `cancel`, stops early (returning false) once it is set: large inputs take a while.
bool fill_input(const Scenario&, void* dst, const std::atomic<bool>* cancel = nullptr);

// The scenario as `redlab stats` options ("--kernel", "interleaved", "--n", "4096", ...): only the options its
// kernel takes, so the command line accepts them (the window runs the hardware counts in a child process).
std::vector<std::string> scenario_options(const Scenario&);

// A compact one-line description ("interleaved int32 sum n=4096 block=256 random seed 1").
std::string describe(const Scenario&);

}  // namespace redlab
