// Trace files: a header (magic, format version, body size, FNV-1a checksum) around the trace as CBOR. Loading
// checks every field before it is used, and refuses a damaged or foreign file with a message saying what is wrong.
#include "core/trace.h"

#include "core/family.h"
#include "core/json_read.h"
#include "core/file_write.h"
#include "core/printable.h"
#include "core/stats_json.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <exception>
#include <fstream>
#include <nlohmann/json.hpp>
#include <initializer_list>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace redlab {

using nlohmann::json;

namespace {

constexpr char kMagic[8] = {'R', 'E', 'D', 'L', 'A', 'B', 'T', 'R'};

std::uint64_t fnv1a(const std::uint8_t* p, std::size_t n) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

json to_json(const Scenario& s) {
  return {{"kernel", s.kernel},
          {"n", s.n},
          {"block", s.block},
          {"type", to_string(s.type)},
          {"op", to_string(s.op)},
          {"backend", to_string(s.backend)},
          {"input", to_string(s.input)},
          {"seed", s.seed},
          {"finish", to_string(s.finish)},
          {"coarse", s.coarse},
          {"dynamic_smem", s.dynamic_smem},
          {"focus_blocks", s.focus_blocks},
          {"algo", s.algo},
          {"rows", s.rows},
          {"cols", s.cols},
          {"block_rows", s.block_rows},
          {"gpus", s.gpus},
          {"cluster", s.cluster}};
}

// A whole number from a file, checked before it is used for anything (a file may say -1, 1.5 or
// 2^31 where a block size belongs): not negative, not fractional, at most `max`.
std::uint64_t whole(const json& j, const char* key, std::uint64_t max) {
  const json& v = j.at(key);
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
    throw std::runtime_error(std::string(key) + " is " + json_excerpt(v) + ", not a whole number >= 0");
  const std::uint64_t x = v.get<std::uint64_t>();
  if (x > max)
    throw std::runtime_error(std::string(key) + " = " + std::to_string(x) + " is out of range (at most " +
                             std::to_string(max) + ")");
  return x;
}

template <class E>
E enum_from(const json& j, const char* key, std::optional<E> (*parse)(const std::string&, std::string*)) {
  std::string err;
  auto v = parse(j.at(key).get<std::string>(), &err);
  if (!v) throw std::runtime_error(err);
  return *v;
}

Scenario scenario_from(const json& j) {
  Scenario s;
  s.kernel = j.at("kernel").get<std::string>();
  s.n = whole(j, "n", kMaxN);
  s.block = unsigned(whole(j, "block", 1024));
  s.type = enum_from<ElemType>(j, "type", parse_type);
  s.op = enum_from<OpKind>(j, "op", parse_op);
  s.backend = enum_from<BackendChoice>(j, "backend", parse_backend);
  s.input = enum_from<InputKind>(j, "input", parse_input);
  s.seed = whole(j, "seed", ~std::uint64_t(0));
  s.finish = enum_from<Finish>(j, "finish", parse_finish);
  s.coarse = unsigned(whole(j, "coarse", 64));
  s.dynamic_smem = j.at("dynamic_smem").get<bool>();
  s.focus_blocks.clear();
  for (const json& b : j.at("focus_blocks")) {
    if (!b.is_number_unsigned() || b.get<std::uint64_t>() > 0xffffffffu)
      throw std::runtime_error("focus_blocks holds " + json_excerpt(b));
    s.focus_blocks.push_back(b.get<std::uint32_t>());
  }
  if (s.focus_blocks.size() > kMaxFocusBlocks) throw std::runtime_error("focus_blocks has more than 256 blocks");
  s.algo = j.value("algo", 0u);
  if (j.contains("gpus")) s.gpus = unsigned(whole(j, "gpus", 8));  // all-reduce (absent in older files)
  if (j.contains("cluster")) s.cluster = unsigned(whole(j, "cluster", 16));  // cluster kernels (the same)
  s.rows = j.value("rows", s.rows);  // transposes (absent in older files)
  s.cols = j.value("cols", s.cols);
  s.block_rows = j.value("block_rows", s.block_rows);
  return s;
}

json stats_to_json(const StepStats& s) {
  json j = {{"active_threads", s.active_threads},
            {"active_warps", s.active_warps},
            {"divergent_warps", s.divergent_warps},
            {"smem_load_requests", s.smem_load_requests},
            {"smem_load_wavefronts", s.smem_load_wavefronts},
            {"smem_load_ideal", s.smem_load_ideal},
            {"smem_store_requests", s.smem_store_requests},
            {"smem_store_wavefronts", s.smem_store_wavefronts},
            {"smem_store_ideal", s.smem_store_ideal},
            {"gmem_load_requests", s.gmem_load_requests},
            {"gmem_load_sectors", s.gmem_load_sectors},
            {"gmem_store_requests", s.gmem_store_requests},
            {"gmem_store_sectors", s.gmem_store_sectors},
            {"smem_atomic_requests", s.smem_atomic_requests},
            {"smem_atomic_wavefronts", s.smem_atomic_wavefronts},
            {"gmem_atomic_requests", s.gmem_atomic_requests},
            {"gmem_atomic_sectors", s.gmem_atomic_sectors}};
  if (s.dsmem_load_requests || s.dsmem_store_requests) {  // a cluster kernel's (older readers know none)
    j["dsmem_load_requests"] = s.dsmem_load_requests;
    j["dsmem_load_bytes"] = s.dsmem_load_bytes;
    j["dsmem_store_requests"] = s.dsmem_store_requests;
    j["dsmem_store_bytes"] = s.dsmem_store_bytes;
  }
  j["cycles"] = s.cycles ? json(*s.cycles) : json(nullptr);
  return j;
}

StepStats stats_from(const json& j) {
  StepStats s;
  s.active_threads = j.at("active_threads");
  s.active_warps = j.at("active_warps");
  s.divergent_warps = j.at("divergent_warps");
  s.smem_load_requests = j.at("smem_load_requests");
  s.smem_load_wavefronts = j.at("smem_load_wavefronts");
  s.smem_load_ideal = j.at("smem_load_ideal");
  s.smem_store_requests = j.at("smem_store_requests");
  s.smem_store_wavefronts = j.at("smem_store_wavefronts");
  s.smem_store_ideal = j.at("smem_store_ideal");
  s.gmem_load_requests = j.at("gmem_load_requests");
  s.gmem_load_sectors = j.at("gmem_load_sectors");
  s.gmem_store_requests = j.at("gmem_store_requests");
  s.gmem_store_sectors = j.at("gmem_store_sectors");
  s.smem_atomic_requests = j.at("smem_atomic_requests");
  s.smem_atomic_wavefronts = j.at("smem_atomic_wavefronts");
  s.gmem_atomic_requests = j.at("gmem_atomic_requests");
  s.gmem_atomic_sectors = j.at("gmem_atomic_sectors");
  // Distributed shared memory: only a cluster kernel's steps have the figures (files written before them have none).
  auto optional = [&](const char* key) { return j.contains(key) ? whole(j, key, ~std::uint64_t(0) >> 1) : 0; };
  s.dsmem_load_requests = optional("dsmem_load_requests");
  s.dsmem_load_bytes = optional("dsmem_load_bytes");
  s.dsmem_store_requests = optional("dsmem_store_requests");
  s.dsmem_store_bytes = optional("dsmem_store_bytes");
  if (!j.at("cycles").is_null()) s.cycles = j.at("cycles").get<double>();
  return s;
}

json access_to_json(const WarpAccess& a) {
  json addr = json::array(), bits = json::array();
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(a.mask >> lane & 1u)) continue;
    addr.push_back(a.addr[lane]);
    bits.push_back(a.bits[lane]);
  }
  json j = {{"space", int(a.space)},      {"kind", int(a.kind)}, {"op", int(a.op)},     {"width", a.width},
            {"buffer", a.buffer},         {"mask", a.mask},      {"addr", addr},        {"bits", bits},
            {"wavefronts", a.wavefronts}, {"ideal", a.ideal},    {"sectors", a.sectors}};
  if (a.line) {  // where the kernel made it, when known (older files have none)
    j["line"] = a.line;
    j["column"] = a.column;
    j["file"] = a.file;
  }
  return j;
}

// `files`: how many names the trace's access_files holds (an access's file is one of them, or 0).
WarpAccess access_from(const json& j, std::size_t files) {
  WarpAccess a;
  const int space = j.at("space"), kind = j.at("kind");
  if (space < 0 || space > 3 || kind < 0 || kind > 3) throw std::runtime_error("bad access space/kind");
  a.space = Space(space);
  a.kind = AccessKind(kind);
  if ((a.kind == AccessKind::value) != (a.space == Space::reg) ||
      (a.kind == AccessKind::atomic && (a.space == Space::reg || a.space == Space::remote_shared)))
    throw std::runtime_error("an access of kind " + std::string(to_string(a.kind)) + " in " + to_string(a.space) +
                             " memory");
  a.op = rec::AtomicOp(whole(j, "op", 4));
  if ((a.op != rec::AtomicOp::none) != (a.kind == AccessKind::atomic))
    throw std::runtime_error("an atomic operation on a non-atomic access, or an atomic without one");
  a.width = unsigned(whole(j, "width", 16));
  if (a.width != 1 && a.width != 2 && a.width != 4 && a.width != 8 && a.width != 16)
    throw std::runtime_error("an access of width " + std::to_string(a.width) + " (1, 2, 4, 8 or 16 bytes)");
  a.buffer = unsigned(whole(j, "buffer", 7));
  a.mask = std::uint32_t(whole(j, "mask", 0xffffffffu));
  const auto& addr = j.at("addr");
  const auto& bits = j.at("bits");
  if (addr.size() != unsigned(__builtin_popcount(a.mask)) || bits.size() != addr.size())
    throw std::runtime_error("access lane lists do not match its mask");
  unsigned k = 0;
  // Shared memory is at most 228 KB per block on the GPUs redlab knows; a register access names a lane.
  // Another block's shared memory: its rank (at most 16 blocks) above the offset (rec::remote_address).
  const std::uint64_t max_addr = a.space == Space::shared          ? (256u << 10) - 1
                                 : a.space == Space::remote_shared ? rec::remote_address(15, (256u << 10) - 1)
                                 : a.space == Space::reg           ? 31
                                                                   : 0xffffffffu;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(a.mask >> lane & 1u)) continue;
    if (!addr[k].is_number_unsigned() || addr[k].get<std::uint64_t>() > max_addr)
      throw std::runtime_error("an access address " + json_excerpt(addr[k]) + " out of range (at most " +
                               std::to_string(max_addr) + ")");
    if (!bits[k].is_number_unsigned())
      throw std::runtime_error("an access value " + json_excerpt(bits[k]) + " is not a bit pattern");
    a.addr[lane] = addr[k].get<std::uint32_t>();
    a.bits[lane] = bits[k].get<std::uint64_t>();
    ++k;
  }
  a.wavefronts = unsigned(whole(j, "wavefronts", 1024));
  a.ideal = unsigned(whole(j, "ideal", 1024));
  a.sectors = unsigned(whole(j, "sectors", 1024));
  if (j.contains("line")) {
    a.line = std::uint32_t(whole(j, "line", 10'000'000));
    a.column = std::uint16_t(whole(j, "column", 0xffff));
    a.file = std::uint16_t(whole(j, "file", files));
  }
  return a;
}

// All-reduce: per step, what moved between which GPUs.
json transfers_to_json(const Trace& t) {
  json steps = json::array();
  for (const auto& step : t.transfers) {
    json moved = json::array();
    for (const GpuTransfer& x : step)
      moved.push_back({{"from", x.from},
                       {"to", x.to},
                       {"chunk", x.chunk},
                       {"lo", x.lo},
                       {"hi", x.hi},
                       {"bytes", x.bytes},
                       {"combine", x.combine},
                       {"stats", stats_to_json(x.stats)}});
    steps.push_back(moved);
  }
  return steps;
}

// A file's transfers, checked against its own GPUs, steps and n before anything reads them.
void transfers_from(const json& j, Trace& t) {
  if (j.contains("gpus")) t.gpus = std::uint32_t(whole(j, "gpus", 8));
  if (t.gpus < 1) throw std::runtime_error("gpus = 0");
  if (!j.contains("transfers")) return;
  const json& steps = j.at("transfers");
  if (!steps.is_array() || (!steps.empty() && steps.size() != t.steps.size()))
    throw std::runtime_error("transfers: one list per step");
  for (const json& step : steps) {
    if (!step.is_array() || step.size() > 64) throw std::runtime_error("transfers: at most 64 in a step");
    std::vector<GpuTransfer> moved;
    for (const json& x : step) {
      GpuTransfer g;
      g.from = std::uint32_t(whole(x, "from", t.gpus - 1));
      g.to = std::uint32_t(whole(x, "to", t.gpus - 1));
      g.chunk = std::uint32_t(whole(x, "chunk", t.gpus - 1));
      g.hi = whole(x, "hi", t.scenario.n);
      g.lo = whole(x, "lo", g.hi);
      g.bytes = whole(x, "bytes", (g.hi - g.lo) * 8);
      g.combine = x.at("combine").get<bool>();
      g.stats = stats_from(x.at("stats"));
      moved.push_back(g);
    }
    t.transfers.push_back(std::move(moved));
  }
}

json shared_arrays_to_json(const Trace& t) {
  if (!t.shared_arrays) return nullptr;
  json list = json::array();
  for (const SharedDeclaration& d : *t.shared_arrays)
    list.push_back({{"name", d.name},
                    {"elem_bytes", d.elem_bytes},
                    {"rows", d.rows},
                    {"row_length", d.row_length},
                    {"offset", d.offset},
                    {"flag", d.flag}});
  return list;
}

// A file's shared arrays (older files have none), each within what one block's shared window can hold.
void shared_arrays_from(const json& j, Trace& t) {
  if (!j.contains("shared_arrays") || j.at("shared_arrays").is_null()) return;
  const json& list = j.at("shared_arrays");
  if (!list.is_array() || list.size() > 64) throw std::runtime_error("shared_arrays: a list of at most 64 arrays");
  constexpr std::uint64_t kWindow = 256 * 1024;  // more than a block's shared memory on any GPU
  std::vector<SharedDeclaration> arrays;
  for (const json& a : list) {
    SharedDeclaration d;
    d.name = printable(a.at("name").get<std::string>());
    if (d.name.size() > 128) throw std::runtime_error("shared_arrays: a name longer than 128 bytes");
    d.elem_bytes = std::uint32_t(whole(a, "elem_bytes", kWindow));
    d.rows = whole(a, "rows", kWindow);
    d.row_length = whole(a, "row_length", kWindow);
    d.offset = whole(a, "offset", kWindow);
    d.flag = a.at("flag").get<bool>();
    arrays.push_back(std::move(d));
  }
  t.shared_arrays = std::move(arrays);
}

// A kernel file's record as data. Its text is the student's (printable, bounded); its tile's declaration is kept
// once per distinct text for the life of the process (a record holds it as a C string).
json kernel_record_to_json(const std::optional<KernelRecord>& k) {
  if (!k) return nullptr;
  const TileLayout& tile = k->tile;
  const Slots& sl = k->slots;
  return {{"id", k->id},
          {"title", k->title},
          {"group", k->group},
          {"seed", k->sources},
          {"teaches", k->teaches},
          {"source_file", k->source_file},
          {"family", int(k->family)},
          {"gpu_only", k->gpu_only},
          {"traceable", k->traceable},
          {"host_only", k->host_only},
          {"in_place_global", k->in_place_global},
          {"always_atomic", k->always_atomic},
          {"no_atomic", k->no_atomic},
          {"single_pass", k->single_pass},
          {"has_dynamic_smem", k->has_dynamic_smem},
          {"has_algo", k->has_algo},
          {"bounded_grid", k->bounded_grid},
          {"balanced_grid", k->balanced_grid},
          {"copies", k->copies},
          {"reference", k->reference},
          {"clustered", k->clustered},
          {"compare_with", k->compare_with},
          {"note", k->remark},  // (the key kept from before the field was renamed)
          {"algorithm", k->algorithm},
          {"tile",
           {{"shared", tile.shared},
            {"dim", tile.dim},
            {"pitch", tile.pitch},
            {"vector", tile.vector},
            {"swizzled", tile.swizzled},
            {"decl", tile.decl ? tile.decl : ""}}},
          {"slots",
           {sl.shared_load, sl.shared_store, sl.global_load, sl.global_store, sl.reg, sl.shared_atomic,
            sl.global_atomic, sl.remote_shared_load, sl.remote_shared_store}}};
}

const char* kept_text(const std::string& text) {
  static std::mutex lock;
  static std::set<std::string> texts;
  std::lock_guard<std::mutex> hold(lock);
  return texts.insert(text).first->c_str();
}

std::optional<KernelRecord> kernel_record_from(const json& j) {
  if (!j.contains("kernel_record") || j.at("kernel_record").is_null()) return std::nullopt;
  const json& r = j.at("kernel_record");
  if (!r.is_object()) throw std::runtime_error("kernel_record is not an object");
  auto text = [&](const char* key, std::size_t max) {
    const json& v = r.at(key);
    if (!v.is_string()) throw std::runtime_error(std::string("kernel_record: ") + key + " is not text");
    if (v.get_ref<const std::string&>().size() > max)
      throw std::runtime_error(std::string("kernel_record: ") + key + " is longer than " + std::to_string(max) +
                               " bytes");
    return printable(v.get<std::string>());
  };
  auto flag = [&](const char* key) {
    const json& v = r.at(key);
    if (!v.is_boolean()) throw std::runtime_error(std::string("kernel_record: ") + key + " is not true or false");
    return v.get<bool>();
  };
  KernelRecord k;
  k.id = text("id", 64);
  if (k.id.empty() ||
      k.id.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
    throw std::runtime_error("kernel_record: id '" + k.id + "' is not a name of letters, digits and _");
  k.title = text("title", 1024);
  k.group = text("group", 1024);
  k.sources = text("seed", 1024);  // (the key kept from before the field was renamed)
  k.teaches = text("teaches", 4096);
  k.source_file = text("source_file", 4096);
  k.family = Family(whole(r, "family", std::uint64_t(Family::allreduce)));
  k.gpu_only = flag("gpu_only");
  k.traceable = flag("traceable");
  k.host_only = flag("host_only");
  k.in_place_global = flag("in_place_global");
  k.always_atomic = flag("always_atomic");
  k.no_atomic = flag("no_atomic");
  k.single_pass = flag("single_pass");
  k.has_dynamic_smem = flag("has_dynamic_smem");
  k.has_algo = flag("has_algo");
  k.bounded_grid = unsigned(whole(r, "bounded_grid", 1u << 24));
  k.balanced_grid = flag("balanced_grid");
  k.copies = flag("copies");
  k.reference = flag("reference");
  k.compare_with = text("compare_with", 64);
  k.remark = text("note", 4096);  // (the key kept from before the field was renamed)
  k.algorithm = std::uint8_t(whole(r, "algorithm", 3));
  const json& tile = r.at("tile");
  if (!tile.is_object()) throw std::runtime_error("kernel_record: tile is not an object");
  k.tile.shared = tile.at("shared").get<bool>();
  k.tile.dim = unsigned(whole(tile, "dim", 1024));
  k.tile.pitch = unsigned(whole(tile, "pitch", 4096));
  k.tile.vector = unsigned(whole(tile, "vector", 16));
  k.tile.swizzled = tile.at("swizzled").get<bool>();
  const json& decl = tile.at("decl");
  if (!decl.is_string() || decl.get_ref<const std::string&>().size() > 128)
    throw std::runtime_error("kernel_record: tile.decl is not text of at most 128 bytes");
  k.tile.decl = kept_text(printable(decl.get<std::string>()));
  const json& slots = r.at("slots");
  // Seven counts, or nine with distributed shared memory's (files written before those classes have seven).
  if (!slots.is_array() || (slots.size() != 7 && slots.size() != 9))
    throw std::runtime_error("kernel_record: slots is not a list of 7 or 9 counts");
  std::uint32_t counts[9] = {};
  for (std::size_t c = 0; c < slots.size(); ++c) {
    const json one = {{"slot", slots[c]}};
    counts[c] = std::uint32_t(whole(one, "slot", 1u << 16));
  }
  k.slots = {counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6], counts[7], counts[8]};
  k.clustered = r.contains("clustered") && flag("clustered");  // (absent in files written before clusters)
  return k;
}

json trace_to_json(const Trace& t) {
  json steps = json::array();
  for (const Step& s : t.steps)
    steps.push_back({{"phase", to_string(s.phase)},
                     {"label_kind", int(s.label_kind)},
                     {"param", s.param},
                     {"line", s.line},
                     {"label", s.label},
                     {"stats", stats_to_json(s.stats)}});
  json focus = json::array();
  for (const FocusBlock& f : t.focus) {
    json fsteps = json::array();
    for (const auto& warps : f.steps) {
      json ws = json::array();
      for (const WarpStep& w : warps) {
        json acc = json::array();
        for (const auto& a : w.accesses) acc.push_back(access_to_json(a));
        ws.push_back({{"warp", w.warp}, {"active", w.active}, {"cycles", w.cycles}, {"accesses", acc}});
      }
      fsteps.push_back(ws);
    }
    focus.push_back({{"block", f.block}, {"steps", fsteps}});
  }
  json passes = json::array();
  for (const Pass& p : t.passes)
    passes.push_back({{"kernel", p.on_host ? "host" : p.kernel},
                      {"n", p.n},
                      {"grid", p.grid},
                      {"block", p.block},
                      {"atomic", p.atomic}});
  return {{"scenario", to_json(t.scenario)},
          {"backend", to_string(t.backend)},
          {"device", t.device},
          {"host", t.host},
          {"recorded_at", t.recorded_at},
          {"redlab_version", t.redlab_version},
          {"grid", t.grid},
          {"block", t.block},
          {"warps_per_block", t.warps_per_block},
          {"elems_per_block", t.elems_per_block},
          {"result", t.result},
          {"reference", t.reference},
          {"abs_error", t.abs_error},
          {"error_bound", t.error_bound},
          {"correct", t.correct},
          {"steps", steps},
          {"focus", focus},
          {"passes", passes},
          {"digest", t.digest},
          {"traced_blocks", t.traced_blocks},
          {"trace_bytes_peak", t.trace_bytes_peak},
          {"trace_chunks", t.trace_chunks},
          {"trace_ms", t.trace_ms},
          {"fault", t.fault ? fault_json(*t.fault) : json(nullptr)},
          {"access_files", t.access_files},
          {"shared_arrays", shared_arrays_to_json(t)},
          {"kernel_record", kernel_record_to_json(t.kernel_record)},
          {"occupancy", t.occupancy ? occupancy_json(*t.occupancy) : json(nullptr)},
          {"gpus", t.gpus},
          {"transfers", transfers_to_json(t)}};
}

// A fault as a file gives it, checked against the trace it belongs to (its block and steps exist).
Fault fault_from(const json& j, const Trace& t) {
  Fault f;
  const std::string kind = j.at("kind").get<std::string>();
  if (kind == "race")
    f.kind = FaultKind::race;
  else if (kind == "out_of_bounds")
    f.kind = FaultKind::out_of_bounds;
  else if (kind == "other")
    f.kind = FaultKind::other;
  else
    throw std::runtime_error("fault kind '" + printable(kind) + "' (race, out_of_bounds or other)");
  f.message = printable(j.at("message").get<std::string>());
  f.element = printable(j.value("element", std::string()));
  if (f.element.size() > 256) throw std::runtime_error("a fault's element name longer than 256 bytes");
  if (j.contains("byte")) {  // -1, or a shared-memory offset a block can have
    const json& byte = j.at("byte");
    if (!byte.is_number_integer() || byte.get<std::int64_t>() < -1 || byte.get<std::int64_t>() >= (256 << 10))
      throw std::runtime_error("a fault's byte " + json_excerpt(byte) + " (-1, or an offset in shared memory)");
    f.byte = byte.get<std::int64_t>();
  }
  if (f.message.size() > 64 * 1024) throw std::runtime_error("a fault message longer than 64 KB");
  f.block = std::uint32_t(whole(j, "block", t.grid - 1));
  // Another block of the cluster (a race through distributed shared memory); a file without it: the fault's.
  f.element_block = j.contains("element_block") ? std::uint32_t(whole(j, "element_block", t.grid - 1)) : f.block;
  if (t.steps.empty()) throw std::runtime_error("a fault in a trace without steps");
  f.step = std::uint32_t(whole(j, "step", t.steps.size() - 1));
  if (t.focus.size() != 1 || t.focus[0].block != f.block)
    throw std::runtime_error("a fault's trace holds the faulting block alone");
  if (j.at("accesses").size() > 2) throw std::runtime_error("a fault with more than 2 accesses");
  for (const json& a : j.at("accesses")) {
    FaultAccess x;
    x.block = a.contains("block") ? std::uint32_t(whole(a, "block", t.grid - 1)) : f.block;
    x.thread = std::uint32_t(whole(a, "thread", t.block - 1));
    const json& step = a.at("step");
    if (!step.is_number_integer() || step.get<std::int64_t>() < -1 || step.get<std::int64_t>() > std::int64_t(f.step))
      throw std::runtime_error("a fault's access in step " + json_excerpt(step) + " (at most the fault's)");
    x.step = step.get<std::int32_t>();
    x.file = printable(a.at("file").get<std::string>());
    if (x.file.size() > 4096) throw std::runtime_error("a fault's file name longer than 4096 bytes");
    x.line = std::uint32_t(whole(a, "line", 10'000'000));
    x.write = a.at("write").get<bool>();
    f.accesses.push_back(std::move(x));
  }
  return f;
}

Phase phase_from(const std::string& s) {
  if (const std::optional<Phase> p = parse_phase(s)) return *p;
  throw std::runtime_error("unknown phase '" + s + "'");
}

Trace trace_from_json(const json& j) {
  Trace t;
  t.scenario = scenario_from(j.at("scenario"));
  const std::optional<Backend> backend = parse_recorded_backend(j.at("backend").get<std::string>());
  if (!backend) throw std::runtime_error("backend: \"cuda\" or \"cpu\" expected");
  t.backend = *backend;
  // Free text from the file, as a terminal and the window may show it (core/printable.h).
  t.device = printable(j.at("device").get<std::string>());
  t.host = printable(j.at("host").get<std::string>());
  t.recorded_at = printable(j.at("recorded_at").get<std::string>());
  t.redlab_version = printable(j.at("redlab_version").get<std::string>());
  t.grid = std::uint32_t(whole(j, "grid", 0x7fffffffu));
  t.block = std::uint32_t(whole(j, "block", 1024));
  t.warps_per_block = std::uint32_t(whole(j, "warps_per_block", 32));
  if (t.grid < 1 || t.block < 1 || t.warps_per_block != (t.block + 31) / 32)
    throw std::runtime_error("grid " + std::to_string(t.grid) + ", block " + std::to_string(t.block) + " and " +
                             std::to_string(t.warps_per_block) + " warps per block do not go together");
  t.elems_per_block = whole(j, "elems_per_block", kMaxN);
  t.result = j.at("result");
  t.reference = j.at("reference");
  t.abs_error = j.at("abs_error");
  t.error_bound = j.at("error_bound");
  t.correct = j.at("correct");
  if (j.at("steps").size() > 4096) throw std::runtime_error("more than 4096 steps");
  if (j.at("focus").size() > kMaxFocusBlocks) throw std::runtime_error("more than 256 focus blocks");
  if (j.contains("access_files")) {  // older files have none
    const json& files = j.at("access_files");
    if (!files.is_array() || files.size() > 256) throw std::runtime_error("access_files: a list of at most 256 names");
    for (const json& f : files) {
      std::string name = printable(f.get<std::string>());
      if (name.size() > 4096) throw std::runtime_error("an access's file name longer than 4096 bytes");
      t.access_files.push_back(std::move(name));
    }
  }
  for (const auto& s : j.at("steps")) {
    Step step;
    step.phase = phase_from(s.at("phase"));
    step.label_kind = rec::Label(s.at("label_kind").get<int>());
    step.param = s.at("param");
    step.line = s.at("line");
    step.label = printable(s.at("label").get<std::string>());
    step.stats = stats_from(s.at("stats"));
    t.steps.push_back(std::move(step));
  }
  for (const auto& f : j.at("focus")) try {
      FocusBlock fb;
      fb.block = std::uint32_t(whole(f, "block", t.grid - 1));
      for (const auto& ws : f.at("steps")) {
        std::vector<WarpStep> warps;
        if (ws.size() > t.warps_per_block) throw std::runtime_error("a focus step with more warps than a block has");
        for (const auto& w : ws) {
          WarpStep step;
          step.warp = std::uint32_t(whole(w, "warp", t.warps_per_block - 1));
          if (w.at("accesses").size() > 4096) throw std::runtime_error("a warp step with more than 4096 accesses");
          step.active = std::uint32_t(whole(w, "active", 0xffffffffu));
          step.cycles = w.at("cycles");
          for (const auto& a : w.at("accesses")) step.accesses.push_back(access_from(a, t.access_files.size()));
          warps.push_back(std::move(step));
        }
        fb.steps.push_back(std::move(warps));
      }
      if (fb.steps.size() != t.steps.size()) throw std::runtime_error("its steps do not match the trace's steps");
      t.focus.push_back(std::move(fb));
    } catch (const std::exception& e) {  // name the focus block (its position in the file) in the message
      throw std::runtime_error("focus block #" + std::to_string(t.focus.size() + 1) + ": " + e.what());
    }
  for (const auto& p : j.at("passes")) {
    const std::string kernel = p.at("kernel");
    t.passes.push_back({.kernel = kernel == "host" ? "" : kernel,
                        .on_host = kernel == "host",
                        .n = p.at("n"),
                        .grid = p.at("grid"),
                        .block = p.at("block"),
                        .atomic = p.at("atomic")});
  }
  t.digest = j.at("digest");
  t.traced_blocks = j.at("traced_blocks");
  t.trace_bytes_peak = j.at("trace_bytes_peak");
  t.trace_chunks = j.at("trace_chunks");
  t.trace_ms = j.value("trace_ms", 0.0);
  if (j.contains("fault") && !j.at("fault").is_null()) t.fault = fault_from(j.at("fault"), t);
  shared_arrays_from(j, t);
  t.kernel_record = kernel_record_from(j);
  if (j.contains("occupancy") && !j.at("occupancy").is_null()) t.occupancy = occupancy_from_json(j.at("occupancy"));
  transfers_from(j, t);
  return t;
}

// The body's CBOR, its nesting bounded (a trace needs 9 levels; json_read.h says why there is a bound).
json parse_body(const std::uint8_t* body, std::size_t size) {
  constexpr int kMaxDepth = 32;
  try {
    return parse_cbor(body, size, kMaxDepth);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string(e.what()).find("deeper") != std::string::npos
                                 ? "its data nests deeper than " + std::to_string(kMaxDepth) +
                                       " levels (a trace needs 9)"
                                 : std::string("its data is not CBOR"));
  }
}

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

std::string trace_file_with_body(const std::uint8_t* body, std::size_t size) {
  std::string file(kMagic, sizeof kMagic);
  put<std::uint32_t>(file, Trace::kFormatVersion);
  put<std::uint64_t>(file, size);
  put<std::uint64_t>(file, fnv1a(body, size));
  file.append(reinterpret_cast<const char*>(body), size);
  return file;
}

void save_trace(const Trace& t, const std::string& path) {
  const std::vector<std::uint8_t> body = json::to_cbor(trace_to_json(t));
  write_file_atomically(path, trace_file_with_body(body.data(), body.size()));  // a failed write leaves the old file
}

Trace load_trace(const std::string& path) {
  // A regular file of at most kMaxTraceFileBytes, never waited on: /dev/zero, a FIFO or a 3 GB file in its place was
  // read until the memory ran out or for ever.
  std::string data;
  if (const std::string why = read_regular_file(path, kMaxTraceFileBytes, &data); !why.empty())
    throw std::runtime_error("cannot open trace file: " + why);
  return parse_trace(data, printable(path));
}

Trace parse_trace(std::string_view data, const std::string& path) {
  const std::size_t header = sizeof kMagic + 4 + 8 + 8;
  if (data.size() < header || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0)
    throw std::runtime_error("'" + path + "' is not a redlab trace file (no REDLABTR header)");
  std::uint32_t version;
  std::uint64_t size, sum;
  std::memcpy(&version, data.data() + 8, 4);
  std::memcpy(&size, data.data() + 12, 8);
  std::memcpy(&sum, data.data() + 20, 8);
  if (version != Trace::kFormatVersion)
    throw std::runtime_error("'" + path + "' is a redlab trace of format version " + std::to_string(version) +
                             "; this redlab reads version " + std::to_string(Trace::kFormatVersion));
  if (data.size() - header != size)
    throw std::runtime_error("'" + path + "' is damaged: " + std::to_string(data.size() - header) +
                             " bytes of trace data where the header says " + std::to_string(size));
  const auto* body = reinterpret_cast<const std::uint8_t*>(data.data() + header);
  if (fnv1a(body, size) != sum) throw std::runtime_error("'" + path + "' is damaged: checksum mismatch");
  try {
    Trace t = trace_from_json(parse_body(body, size));
    // The scenario must be one redlab could have run (the views derive sizes from it). A kernel file's, which the
    // catalog does not know, is checked by its family's rules against the record the trace carries.
    std::string why;
    if (t.kernel_record && t.kernel_record->id == t.scenario.kernel) {
      const FamilyRecord& family = family_record(t.kernel_record->family);
      Scenario resolved = t.scenario;
      family.resolve(resolved);
      why = family.validate(*t.kernel_record, resolved);
    } else {
      why = validate(t.scenario);
    }
    if (!why.empty()) throw std::runtime_error("its scenario: " + why);
    return t;
  } catch (const std::exception& e) {
    throw std::runtime_error("'" + path + "' is not a valid redlab trace: " + e.what());
  }
}

}  // namespace redlab
