// The scenario options every scenario command takes (--kernel, --n, --block, ...): added to a subcommand, then
// read into a Scenario with one message for each value that is not accepted.
#include "cli/arguments.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "core/catalog.h"
#include "core/family.h"
#include "core/printable.h"

namespace redlab::cli {

void ScenarioArgs::add_to(CLI::App& app) {
  // A value given empty (--n "") is refused, not taken for "not given" and run at the default.
  const auto not_empty = [](const std::string& v) {
    return v.empty() ? std::string("an empty value is not accepted") : std::string();
  };
  app.add_option("--kernel", kernel, "kernel id (redlab list)")->check(not_empty);
  app.add_option("--n", n, "elements: decimal, 2^k, or 2^k+c (1..2^31)")->check(not_empty);
  app.add_option("--block", block, "threads per block: a power of two, 32..1024")->check(not_empty);
  app.add_option("--type", type, "int32|float32|float64")->check(not_empty);
  app.add_option("--op", op, "sum|min|max")->check(not_empty);
  app.add_option("--backend", backend, "auto|cuda|cpu")->check(not_empty);
  app.add_option("--input", input, "random|ones|ramp")->check(not_empty);
  app.add_option("--seed", seed, "random input seed")->check(not_empty);
  app.add_option("--finish", finish, "relaunch|host|atomic")->check(not_empty);
  app.add_option("--coarse", coarse, "elements combined per thread before the tree (coarsened)")->check(not_empty);
  app.add_option("--focus", focus, "blocks recorded in full detail, e.g. 0,5")->check(not_empty);
  app.add_option("--algo", algo, "cub_block: warp_reductions|raking|raking_commutative")->check(not_empty);
  app.add_flag("--dynamic-smem", dynamic_smem, "interleaved: extern __shared__ array sized at launch");
  app.add_option("--rows", rows, "transposes: matrix rows (1..2^20; default 1024)")->check(not_empty);
  app.add_option("--cols", cols, "transposes: matrix columns (1..2^20; default 1024)")->check(not_empty);
  app.add_option("--block-rows", block_rows, "transposes: K, blocks of 32 x K threads (1..32, power of two; default 8)")
      ->check(not_empty);
  app.add_option("--gpus", gpus, "all-reduce kernels: GPUs, each with n elements (2..8; default 2)")->check(not_empty);
  app.add_option("--cluster", cluster,
                 "cluster kernels: blocks per thread block cluster (1, 2, 4, 8, or 16 where the card allows it; "
                 "default 4)")
      ->check(not_empty);
}

bool ScenarioArgs::any() const {
  return !(kernel.empty() && n.empty() && block.empty() && type.empty() && op.empty() && backend.empty() &&
           input.empty() && seed.empty() && finish.empty() && coarse.empty() && focus.empty() && algo.empty() &&
           !dynamic_smem && rows.empty() && cols.empty() && block_rows.empty() && gpus.empty() && cluster.empty());
}

std::string ScenarioArgs::parse(Scenario& s) const {
  std::string err;
  if (!kernel.empty()) s.kernel = kernel;
  if (!n.empty() && !parse_size(n, s.n))
    return "--n: '" + n + "' is not a size; use a whole number from 1 to " + std::to_string(kMaxN) +
           " (decimal, 2^k or 2^k+c)";
  if (!block.empty()) {
    std::uint64_t b = 0;
    if (!parse_size(block, b) || b > 1u << 20)
      return "--block: '" + block + "' is not accepted; use a power of two from 32 to 1024";
    s.block = unsigned(b);
  }
  if (!type.empty()) {
    auto v = parse_type(type, &err);
    if (!v) return err;
    s.type = *v;
  }
  if (!op.empty()) {
    auto v = parse_op(op, &err);
    if (!v) return err;
    s.op = *v;
  }
  if (!backend.empty()) {
    auto v = parse_backend(backend, &err);
    if (!v) return err;
    s.backend = *v;
  }
  if (!input.empty()) {
    auto v = parse_input(input, &err);
    if (!v) return err;
    s.input = *v;
  }
  if (!finish.empty()) {
    auto v = parse_finish(finish, &err);
    if (!v) return err;
    s.finish = *v;
  }
  if (!algo.empty()) {
    auto v = parse_algo(algo, &err);
    if (!v) return err;
    s.algo = *v;
  }
  if (!seed.empty() && !parse_size(seed, s.seed))
    return "--seed: '" + seed + "' is not accepted; use a whole number >= 0";
  if (!coarse.empty()) {
    std::uint64_t c = 0;
    if (!parse_size(coarse, c) || c < 1 || c > 64) return "--coarse: '" + coarse + "' is not accepted; use 1..64";
    s.coarse = unsigned(c);
  }
  if (!focus.empty()) {
    s.focus_blocks.clear();
    // Every item between commas is a block number ("0," and "0,,3" are refused, not read as "0" and "0,3").
    std::size_t start = 0;
    while (start <= focus.size()) {
      const std::size_t comma = std::min(focus.find(',', start), focus.size());
      const std::string item = focus.substr(start, comma - start);
      start = comma + 1;
      std::uint64_t b = 0;
      if (!parse_size(item, b) || b > 0xffffffffu)
        return "--focus: '" + focus + "' is not accepted; use block numbers separated by commas, e.g. 0,3";
      s.focus_blocks.push_back(std::uint32_t(b));
    }
    if (s.focus_blocks.empty() || s.focus_blocks.size() > kMaxFocusBlocks)
      return "--focus: give 1 to 256 block numbers, e.g. 0,3";
  }
  s.dynamic_smem = dynamic_smem;
  if (!gpus.empty()) {
    std::uint64_t g = 0;
    if (!parse_size(gpus, g) || g < 2 || g > 8) return "--gpus: '" + gpus + "' is not accepted; use 2..8";
    s.gpus = unsigned(g);
  }
  if (!cluster.empty()) {
    std::uint64_t c = 0;
    if (!parse_size(cluster, c) || c < 1 || c > 16 || (c & (c - 1)) != 0)
      return "--cluster: '" + cluster + "' is not accepted; use 1, 2, 4, 8 or 16 blocks per cluster";
    s.cluster = unsigned(c);
  }
  // Families that take a matrix (transposes): the matrix options give n and the block; float32 unless --type
  // says otherwise.
  const KernelRecord* k = find_kernel(s.kernel);
  const bool transpose = k && family_record(k->family).takes_matrix;
  if (!transpose && !(rows.empty() && cols.empty() && block_rows.empty()))
    return std::string(!rows.empty()   ? "--rows"
                       : !cols.empty() ? "--cols"
                                       : "--block-rows") +
           ": only the transposes (redlab list, group 8) take a matrix shape; '" + s.kernel + "' uses --n and --block";
  // Options the kernel does not take are refused, not ignored.
  if (!algo.empty() && !(k && k->has_algo))
    return "--algo: only cub_block takes a BlockReduce algorithm; '" + s.kernel + "' does not";
  if (transpose) {
    if (!op.empty()) return "--op: transposes move values, they do not combine them; '" + s.kernel + "' takes no --op";
    if (!finish.empty()) return "--finish: transposes have no finishing pass; '" + s.kernel + "' takes no --finish";
    if (dynamic_smem) return "--dynamic-smem: only interleaved sizes its shared array at launch";
    if (!n.empty())
      return "--n: transposes take their size from --rows and --cols (1.." + std::to_string(kMaxSide) + " each)";
    if (!block.empty()) return "--block: transposes use blocks of 32 x K threads; set K with --block-rows (1..32)";
    for (auto [text, option, out] : {std::tuple{&rows, "--rows", &s.rows}, std::tuple{&cols, "--cols", &s.cols}}) {
      if (text->empty()) continue;
      std::uint64_t v = 0;
      if (!parse_size(*text, v) || v < 1 || v > kMaxSide)
        return std::string(option) + ": '" + *text + "' is not accepted; use 1.." + std::to_string(kMaxSide);
      *out = std::uint32_t(v);
    }
    if (!block_rows.empty()) {
      std::uint64_t v = 0;
      if (!parse_size(block_rows, v) || v < 1 || v > 32 || (v & (v - 1)) != 0)
        return "--block-rows: '" + block_rows + "' is not accepted; use a power of two from 1 to 32";
      s.block_rows = unsigned(v);
    }
    if (type.empty()) s.type = ElemType::float32;
    resolve_shape(s);
  }
  return validate(s);
}

bool ScenarioArgs::parse_or_say(Scenario& s) const {
  const std::string err = parse(s);
  if (!err.empty()) print_message(stderr, "redlab: %s\n", err.c_str());
  return err.empty();
}

std::string parse_scenario_words(const std::vector<std::string>& words, Scenario& out) {
  CLI::App app{"playlist line"};
  app.set_help_flag();  // a line's -h is a word it does not take, not a request for CLI11's help
  ScenarioArgs a;
  a.add_to(app);
  app.allow_extras(false);
  try {
    std::string line;
    for (const std::string& w : words) line += (line.empty() ? "" : " ") + w;
    app.parse(line, false);
  } catch (const CLI::ParseError& e) { return e.what(); }
  if (a.kernel.empty()) return "no --kernel (each line names one: --kernel interleaved --n 256)";
  Scenario s;
  if (std::string err = a.parse(s); !err.empty()) return err;
  if (std::string err = validate(s); !err.empty()) return err;
  out = s;
  return "";
}

}  // namespace redlab::cli
