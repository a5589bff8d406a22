#include "core/occupancy.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "core/trace.h"

namespace redlab {

const char* to_string(OccupancyLimit l) {
  switch (l) {
    case OccupancyLimit::warps: return "warps";
    case OccupancyLimit::registers: return "registers";
    case OccupancyLimit::shared_memory: return "shared_memory";
    case OccupancyLimit::blocks: return "blocks";
  }
  return "?";
}

namespace {

// A count from a file (a trace, the reference's limits): a whole number in 0..max, else a sentence why.
std::uint64_t count(const nlohmann::json& j, const char* key, std::uint64_t max) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
    throw std::runtime_error(std::string("occupancy: ") + key + " is not a count");
  const std::uint64_t n = v.get<std::uint64_t>();
  if (n > max) throw std::runtime_error(std::string("occupancy: ") + key + " above " + std::to_string(max));
  return n;
}
constexpr std::uint64_t kMaxCount = 1 << 24, kMaxBytes = std::uint64_t(1) << 32;

OccupancyLimit limit_from(const std::string& s) {
  for (OccupancyLimit l :
       {OccupancyLimit::warps, OccupancyLimit::registers, OccupancyLimit::shared_memory, OccupancyLimit::blocks})
    if (s == to_string(l)) return l;
  throw std::runtime_error("occupancy: unknown limit '" + s + "'");
}

const char* limit_words(OccupancyLimit l) {
  switch (l) {
    case OccupancyLimit::warps: return "the SM's warps";
    case OccupancyLimit::registers: return "registers";
    case OccupancyLimit::shared_memory: return "shared memory";
    case OccupancyLimit::blocks: return "the SM's block limit";
  }
  return "?";
}

}  // namespace

std::optional<std::uint64_t> declared_static_smem(const std::vector<SharedDeclaration>& arrays) {
  std::optional<std::uint64_t> end;
  for (const SharedDeclaration& d : arrays) {
    if (d.rows == 0) continue;  // (a pointer: the dynamic array, or one whose extent is not given)
    const std::uint64_t bytes =
        d.offset + std::uint64_t(d.elem_bytes) * d.rows * std::max<std::uint64_t>(d.row_length, 1);
    end = std::max(end.value_or(0), bytes);
  }
  return end;
}

std::string occupancy_text(const Occupancy& o) {
  const std::string arch = "sm_" + std::to_string(o.sm.major) + std::to_string(o.sm.minor);
  std::string s = o.sm_is_device ? "occupancy on " + o.sm.card + " (" + arch + "): "
                                 : "occupancy for " + o.sm.card + " (" + arch +
                                       ", the reference card; this run was on "
                                       "the emulator): at most ";
  char line[256];
  std::snprintf(line, sizeof line, "%d blocks of %u threads per SM (%d of %d warps: %.0f %%), limited by ", o.blocks,
                o.block, o.active_warps(), o.max_warps(), 100.0 * o.fraction());
  s += line;
  for (std::size_t i = 0; i < o.limiting.size(); ++i)
    s += std::string(i == 0 ? "" : i + 1 == o.limiting.size() ? " and " : ", ") + limit_words(o.limiting[i]);
  s += "\n  blocks per SM allowed by warps " + std::to_string(o.by_warps) + " (" + std::to_string(o.warps_per_block()) +
       " a block, " + std::to_string(o.max_warps()) + " an SM)";
  if (o.by_registers)
    s +=
        ", by registers " + std::to_string(*o.by_registers) + " (" + std::to_string(o.kernel->registers) + " a thread)";
  s += o.by_shared ? ", by shared memory " + std::to_string(*o.by_shared) + " (" + std::to_string(o.shared_allocated) +
                         " bytes a block with the reserved part, of " + std::to_string(o.sm.smem_per_sm) + ")"
                   : ", shared memory no limit (none used)";
  s += ", by the block limit " + std::to_string(o.by_blocks) + "\n";
  if (o.kernel) {
    s += "  the compiled kernel: " + std::to_string(o.kernel->registers) + " registers a thread, " +
         std::to_string(o.kernel->static_smem) + " bytes of static shared memory, " + std::to_string(o.dynamic_smem) +
         " dynamic (cudaFuncGetAttributes)";
    if (o.runtime_blocks)
      s += *o.runtime_blocks == o.blocks ? "; the CUDA runtime agrees"
                                         : "; the CUDA runtime says " + std::to_string(*o.runtime_blocks) +
                                               " blocks: the calculator and the runtime DISAGREE";
    s += "\n";
  } else if (o.declared_smem) {
    s += "  static shared memory " + std::to_string(*o.declared_smem) +
         " bytes as the kernel declares its arrays (the emulator's count), " + std::to_string(o.dynamic_smem) +
         " dynamic; registers are the compiled kernel's, read on a GPU (cudaFuncGetAttributes): not known here, and "
         "they may lower this figure\n";
  } else {
    s += "  registers and static shared memory are the compiled kernel's, read on a GPU (cudaFuncGetAttributes): on "
         "the emulator they are not known, and may lower this figure\n";
  }
  if (o.cluster > 1) {
    s += "  clusters of " + std::to_string(o.cluster) + " blocks: at most " + std::to_string(o.clusters_at_most()) +
         " at once on the card (" + std::to_string(o.sm.sms) + " SMs x " + std::to_string(o.blocks) + " blocks / " +
         std::to_string(o.cluster) + "; a cluster stays within one GPC, which can leave SMs without one)";
    if (o.runtime_clusters)
      s += "; the CUDA runtime (cudaOccupancyMaxActiveClusters): " + std::to_string(*o.runtime_clusters);
    s += "\n";
  }
  return s;
}

nlohmann::json sm_limits_json(const SmLimits& l) {
  return {{"card", l.card},
          {"compute_capability", std::to_string(l.major) + "." + std::to_string(l.minor)},
          {"sms", l.sms},
          {"warp_size", l.warp_size},
          {"max_threads_per_block", l.max_threads_per_block},
          {"max_threads_per_sm", l.max_threads_per_sm},
          {"max_blocks_per_sm", l.max_blocks_per_sm},
          {"regs_per_block", l.regs_per_block},
          {"regs_per_sm", l.regs_per_sm},
          {"smem_per_block", l.smem_per_block},
          {"smem_per_sm", l.smem_per_sm},
          {"smem_per_block_optin", l.smem_per_block_optin},
          {"smem_reserved_per_block", l.smem_reserved_per_block}};
}

nlohmann::json occupancy_json(const Occupancy& o) {
  nlohmann::json limiting = nlohmann::json::array();
  for (OccupancyLimit l : o.limiting) limiting.push_back(to_string(l));
  auto optional = [](const std::optional<int>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  nlohmann::json j = {
      {"sm", sm_limits_json(o.sm)},
      {"sm_is_device", o.sm_is_device},
      {"kernel", o.kernel ? nlohmann::json{{"registers", o.kernel->registers},
                                           {"static_smem", o.kernel->static_smem},
                                           {"max_threads_per_block", o.kernel->max_threads_per_block}}
                          : nlohmann::json(nullptr)},
      {"block", o.block},
      {"dynamic_smem", o.dynamic_smem},
      {"declared_static_smem", o.declared_smem ? nlohmann::json(*o.declared_smem) : nlohmann::json(nullptr)},
      {"blocks_per_sm", o.blocks},
      {"by_warps", o.by_warps},
      {"by_registers", optional(o.by_registers)},
      {"by_shared", optional(o.by_shared)},
      {"by_blocks", o.by_blocks},
      {"shared_allocated", o.shared_allocated},
      {"limiting", limiting},
      {"active_warps", o.active_warps()},
      {"max_warps", o.max_warps()},
      {"occupancy", o.fraction()},
      {"runtime_blocks_per_sm", optional(o.runtime_blocks)}};
  if (o.cluster > 1) {  // (no keys for a kernel without clusters: its JSON as before)
    j["cluster"] = o.cluster;
    j["clusters_at_most"] = o.clusters_at_most();
    j["runtime_clusters"] = optional(o.runtime_clusters);
  }
  return j;
}

SmLimits sm_limits_from_json(const nlohmann::json& sm) {
  SmLimits l;
  l.card = sm.at("card").get<std::string>();
  if (l.card.size() > 128) throw std::runtime_error("occupancy: a card's name longer than 128 bytes");
  const std::string cc = sm.at("compute_capability").get<std::string>();
  if (cc.size() > 8 || std::sscanf(cc.c_str(), "%d.%d", &l.major, &l.minor) != 2 || l.major < 1 || l.major > 99 ||
      l.minor < 0 || l.minor > 9)
    throw std::runtime_error("occupancy: compute capability '" + cc.substr(0, 8) + "'");
  l.sms = int(count(sm, "sms", kMaxCount));
  l.warp_size = int(count(sm, "warp_size", 64));
  l.max_threads_per_block = int(count(sm, "max_threads_per_block", kMaxCount));
  l.max_threads_per_sm = int(count(sm, "max_threads_per_sm", kMaxCount));
  l.max_blocks_per_sm = int(count(sm, "max_blocks_per_sm", kMaxCount));
  l.regs_per_block = int(count(sm, "regs_per_block", kMaxCount));
  l.regs_per_sm = int(count(sm, "regs_per_sm", kMaxCount));
  l.smem_per_block = count(sm, "smem_per_block", kMaxBytes);
  l.smem_per_sm = count(sm, "smem_per_sm", kMaxBytes);
  l.smem_per_block_optin = count(sm, "smem_per_block_optin", kMaxBytes);
  l.smem_reserved_per_block = count(sm, "smem_reserved_per_block", kMaxBytes);
  // (a warp is 32 threads on every card; the others are counts an SM has, each at least one)
  if (l.warp_size != 32 || l.max_threads_per_block <= 0 || l.max_threads_per_sm <= 0 || l.max_blocks_per_sm <= 0 ||
      l.regs_per_block <= 0 || l.regs_per_sm <= 0 || l.sms <= 0)
    throw std::runtime_error("occupancy: an SM limit out of range");
  return l;
}

Occupancy occupancy_from_json(const nlohmann::json& j) {
  Occupancy o;
  o.sm = sm_limits_from_json(j.at("sm"));
  o.sm_is_device = j.at("sm_is_device").get<bool>();
  if (const nlohmann::json& k = j.at("kernel"); !k.is_null())
    o.kernel = KernelResources{int(count(k, "registers", 255)), count(k, "static_smem", kMaxBytes),
                               int(count(k, "max_threads_per_block", kMaxCount))};
  o.block = std::uint32_t(count(j, "block", kMaxCount));
  o.dynamic_smem = count(j, "dynamic_smem", kMaxBytes);
  if (j.contains("declared_static_smem") && !j.at("declared_static_smem").is_null())
    o.declared_smem = count(j, "declared_static_smem", kMaxBytes);
  o.blocks = int(count(j, "blocks_per_sm", kMaxCount));
  o.by_warps = int(count(j, "by_warps", kMaxCount));
  o.by_blocks = int(count(j, "by_blocks", kMaxCount));
  if (!j.at("by_registers").is_null()) o.by_registers = int(count(j, "by_registers", kMaxCount));
  if (!j.at("by_shared").is_null()) o.by_shared = int(count(j, "by_shared", kMaxCount));
  if (!j.at("runtime_blocks_per_sm").is_null()) o.runtime_blocks = int(count(j, "runtime_blocks_per_sm", kMaxCount));
  o.shared_allocated = count(j, "shared_allocated", kMaxBytes);
  if (j.contains("cluster")) {
    o.cluster = std::uint32_t(count(j, "cluster", 16));
    if (o.cluster < 2) throw std::runtime_error("occupancy: a cluster of fewer than 2 blocks");
    if (!j.at("runtime_clusters").is_null()) o.runtime_clusters = int(count(j, "runtime_clusters", kMaxCount));
  }
  const nlohmann::json& limiting = j.at("limiting");
  if (!limiting.is_array() || limiting.size() > 4) throw std::runtime_error("occupancy: limiting is not a short list");
  for (const nlohmann::json& l : limiting) o.limiting.push_back(limit_from(l.get<std::string>()));
  if (o.block == 0) throw std::runtime_error("occupancy: a block of no threads");
  return o;
}

}  // namespace redlab
