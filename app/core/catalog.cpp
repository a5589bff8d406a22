#include "core/catalog.h"

#include "core/printable.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iterator>
#include <set>
#include <string>

namespace redlab {
namespace {

// The catalog in teaching order: `redlab list`, the window's kernel menu and the selftest go through the kernels
// in this order. A kernel not named here (a test kernel, a student's kernel file) comes after them, by id.
constexpr const char* kTeachingOrder[] = {
    "global_inplace",       "neighbored_modulo", "neighbored_strided", "interleaved",      "pmpp_simple",
    "pmpp_convergent",      "load_add",          "atomic_segmented",   "coarsened",        "warp_shuffle",
    "unroll_last_warp",     "unroll_complete",   "multi_element",      "grid_stride_warp", "cg_reduce",
    "vectorized",           "cub_block",         "cub_device",         "cpu_sequential",   "copy",
    "copy_shared",          "transpose_naive",   "transpose_tiled",    "transpose_padded", "transpose_swizzled",
    "transpose_vectorized", "allreduce_naive",   "allreduce_ring",     "allreduce_tree",   "nccl",
    "cluster_reduce",       "cluster_tree",
};

// Where a kernel stands: its place in the list, or after the list.
std::size_t teaching_place(const std::string& id) {
  const std::size_t n = std::size(kTeachingOrder);
  for (std::size_t i = 0; i < n; ++i)
    if (id == kTeachingOrder[i]) return i;
  return n;
}

struct Registry {
  std::deque<KernelRecord> records;  // stable addresses
  std::set<std::string> file_ids;  // records registered from kernel files' traces (data only)
  std::vector<const KernelRecord*> ordered;  // catalog order, rebuilt after a registration
  bool dirty = true;
};

// Function-local: records register from other translation units' static initialisers.
Registry& registry() {
  static Registry r;
  return r;
}

KernelRecord* lookup(const std::string& id) {
  for (KernelRecord& r : registry().records)
    if (r.id == id) return &r;
  return nullptr;
}

// A broken catalog stops redlab at start, where a test finds it (the second redlab of a kernel file too: its
// library registers its record there, never in the first redlab).
void broken_registry(const std::string& what) {
  print_message(stderr, "redlab: kernel registry: %s\n", what.c_str());
  std::abort();
}

}  // namespace

void register_kernel_record(const KernelRecord& r) {
  if (r.id.empty()) return broken_registry("a record without an id");
  if (KernelRecord* known = lookup(r.id)) {
    // The same record again (it is compiled once per backend and element type); two kernels may not share
    // an id.
    if (known->title != r.title || known->source_file != r.source_file)
      broken_registry("two different kernels are both called '" + r.id + "'");
    return;
  }
  registry().records.push_back(r);
  registry().dirty = true;
}

std::string register_file_record(const KernelRecord& data) {
  Registry& reg = registry();
  KernelRecord r = data;
  r.elems_per_block = nullptr;
  r.trace_shape = nullptr;
  for (auto& per_type : r.launch)
    for (LaunchFn& fn : per_type) fn = nullptr;
  if (r.id.empty()) return "the kernel file's record has no id";
  if (KernelRecord* known = lookup(r.id)) {
    if (!reg.file_ids.count(r.id))
      return "the kernel file's id '" + r.id + "' is a catalog kernel's; give the file an id of its own (.id = ...)";
    *known = r;  // the file run again: its new record where the old one was (the views hold its address)
  } else {
    reg.records.push_back(r);
    reg.file_ids.insert(r.id);
  }
  reg.dirty = true;
  return {};
}

bool is_file_record(const KernelRecord& k) { return registry().file_ids.count(k.id) > 0; }

void set_kernel_source_file(const std::string& id, const std::string& path) {
  if (KernelRecord* r = lookup(id)) r->source_file = path;
}

void register_kernel_launcher(const std::string& id, Backend b, ElemType t, LaunchFn fn) {
  KernelRecord* r = lookup(id);
  if (!r) return broken_registry("a launcher for '" + id + "', which has no record");
  r->launch[int(b)][int(t)] = fn;
}

const std::vector<const KernelRecord*>& catalog() {
  Registry& reg = registry();
  if (reg.dirty) {
    reg.ordered.clear();
    for (const KernelRecord& r : reg.records) reg.ordered.push_back(&r);
    std::sort(reg.ordered.begin(), reg.ordered.end(), [](const KernelRecord* a, const KernelRecord* b) {
      const std::size_t pa = teaching_place(a->id), pb = teaching_place(b->id);
      return pa != pb ? pa < pb : a->id < b->id;
    });
    reg.dirty = false;
  }
  return reg.ordered;
}

const KernelRecord* find_kernel(const std::string& id) { return lookup(id); }

const KernelRecord* reference_kernel(Family f) {
  for (const KernelRecord* k : catalog())
    if (k->family == f && k->reference) return k;
  return nullptr;
}

const KernelRecord* first_cluster_kernel(Family f) {
  for (const KernelRecord* k : catalog())
    if (k->family == f && k->clustered && !is_file_record(*k)) return k;
  return nullptr;
}

namespace {
// Lower-case ASCII letters, every run of white space one space, no space at either end (other bytes, UTF-8 included,
// as they are).
std::string search_form(const std::string& s) {
  std::string out;
  bool space = false;
  for (const char c : s) {
    if (c == ' ' || c == '\t' || c == '\n') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
  }
  return out;
}
}  // namespace

bool kernel_matches(const KernelRecord& k, const std::string& query, const std::string& also) {
  const std::string q = search_form(query);
  if (q.empty()) return true;
  const std::string text =
      search_form(k.id + "\n" + k.title + "\n" + k.teaches + "\n" + k.group + "\n" + k.sources + "\n" + also);
  return text.find(q) != std::string::npos;
}

std::string kernel_ids() {
  std::string s;
  for (const KernelRecord* k : catalog()) {
    s += s.empty() ? "" : ", ";
    s += k->id;
  }
  return s;
}

}  // namespace redlab
