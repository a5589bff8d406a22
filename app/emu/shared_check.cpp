// The shared-memory checks' records and reports (shared_check.h says what they check and why).
#include "emu/shared_check.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <regex>
#include <string>
#include <utility>

namespace redlab::emu {

namespace detail {

std::atomic<bool> g_race_check{true};

namespace {

// Per worker (a worker runs one block at a time): the arrays it has seen, and the steps of its current block.
thread_local std::vector<std::unique_ptr<SharedArray>> tl_arrays;
thread_local SharedArray* tl_last_array = nullptr;
thread_local std::vector<StepMark> tl_steps;

// "in step 'offset 128'", from the block's step marks.
std::string step_text(int step) {
  if (step < 0) return "before the kernel's first probe.step";
  if (unsigned(step) >= tl_steps.size()) return "in step " + std::to_string(step);
  const StepMark& n = tl_steps[unsigned(step)];
  return n.name ? "in step '" + n.name(n) + "'" : "in step " + std::to_string(step);
}

std::string thread_text(unsigned linear) {
  const BlockView& b = *tl_block;
  ThreadView t{};
  t.thread_idx = {linear % b.block_dim.x, (linear / b.block_dim.x) % b.block_dim.y,
                  linear / (b.block_dim.x * b.block_dim.y)};
  t.linear = linear;
  t.lane = linear % 32;
  t.warp = linear / 32;
  return thread_name(t, b);
}

// What the kernel calls the array: the view the probe call made and the array it was given, read from the call's
// line (`auto s = probe.shared(s_mem);` gives "s" and "s_mem"); empty when the file cannot be read or the line says
// otherwise (an array given as an expression has no name: `probe.shared(reinterpret_cast<T*>(dynamic_smem))`).
struct ArrayNames {
  std::string view, array;
};
ArrayNames names_of(const char* file, unsigned line_number) {
  ArrayNames n;
  std::ifstream f(file ? file : "");
  std::string line;
  for (unsigned i = 0; i < line_number && std::getline(f, line); ++i) {}
  // A probe call is one short line; a longer one is not searched (the pattern backtracks over white space).
  if (!f || line.size() > 1024) return n;
  static const std::regex call(
      R"(([A-Za-z_]\w*)\s*=\s*probe\s*\.\s*shared(?:_flag)?\s*\(\s*(?:&?\s*([A-Za-z_]\w*)\s*[,)])?)");
  std::smatch m;
  if (!std::regex_search(line, m, call)) return n;
  n.view = m[1];
  n.array = m[2];
  return n;
}
ArrayNames names_of(const SharedArray& a) { return names_of(a.file, a.line); }

// The declarations of the launch running now (launch() runs one at a time in a process): every worker adds an
// array the first time the launch gives it to the probe.
std::atomic<std::uint64_t> g_launch_number{0};
std::mutex g_declared_mutex;
std::vector<DeclaredShared> g_declared;
thread_local std::vector<DeclaredShared> tl_last_declared;  // the launching thread's last launch's

void declare(SharedArray& a, std::uint64_t launch) {
  a.declared_in = launch;
  DeclaredShared d;
  d.file = a.file ? a.file : "";
  d.line = a.line;
  d.elem_size = a.elem_size;
  d.rows = a.rows;
  d.row_length = a.row_length;
  d.window_offset = a.window_offset;
  d.flag = a.flag;
  const std::lock_guard lock(g_declared_mutex);
  if (std::find(g_declared.begin(), g_declared.end(), d) == g_declared.end()) g_declared.push_back(std::move(d));
}

// "s[64]" or "tile[3][7]" (the view's name, else "element 64", "element [3][7]").
std::string index_text(const SharedArray& a, std::uint64_t element) {
  if (a.row_length)
    return "[" + std::to_string(element / a.row_length) + "][" + std::to_string(element % a.row_length) + "]";
  return "[" + std::to_string(element) + "]";
}
std::string element_text(const SharedArray& a, const ArrayNames& n, std::uint64_t element) {
  return (n.view.empty() ? std::string("element ") : n.view) + index_text(a, element);
}

// "s_mem, probe.shared at kernel line 45 of mine.cu" (the array, and where the kernel gave it to the probe), or "the
// array given to probe.shared at ..." when it has no name there.
std::string array_text(const SharedArray& a, const ArrayNames& n) {
  return (n.array.empty() ? std::string("the array given to ") : n.array + ", ") +
         (a.flag ? "probe.shared_flag" : "probe.shared") + " at " + kernel_place(a.file, a.line);
}

}  // namespace

void name_fault_step(FaultSite& site) {
  if (site.step < 0 || unsigned(site.step) >= tl_steps.size()) return;
  const StepMark& n = tl_steps[unsigned(site.step)];
  site.step_phase = n.phase;
  site.step_label = n.label;
  site.step_param = n.param;
  site.step_line = n.line;
}

void add_step_mark(unsigned index, const StepMark& mark) {
  if (tl_steps.size() <= index) tl_steps.resize(index + 1);
  tl_steps[index] = mark;
}

void begin_launch_declarations() {
  g_launch_number.fetch_add(1);
  const std::lock_guard lock(g_declared_mutex);
  g_declared.clear();
}

void end_launch_declarations() {
  const std::lock_guard lock(g_declared_mutex);
  tl_last_declared = std::move(g_declared);
  g_declared.clear();
}

SharedShadow* grow_shadow(SharedArray& a, std::uint64_t element) {
  if (element >= kMaxDynamicSmem / (a.elem_size ? a.elem_size : 1)) return nullptr;
  a.shadow.resize(element + 1);
  a.shadows = a.shadow.data();
  a.shadow_count = a.shadow.size();
  return &a.shadow[element];
}

// "at kernel line 57 of mine.cu " (the indexing expression's place), or nothing when the line is not known.
std::string at_line(const Where& at) { return at.line ? "at " + kernel_place(at.file, at.line) + " " : std::string(); }

FaultSite::Access site_access(unsigned thread, int step, const Where& at, bool write) {
  FaultSite::Access x;
  x.thread = thread;
  x.step = step;
  x.file = at.file;
  x.line = at.line;
  x.write = write;
  return x;
}

// A race's site and where its barrier belongs. The two accesses go in the kernel's order (its steps, then its lines),
// which need not be the order the emulator's schedule ran them in (a thread may run ahead to a later step); the
// barrier (`barrier`: "barrier", "cluster.sync()") belongs between them, or, when both are one statement of one step,
// none can come between them and `rule` says what the kernel must not do.
struct RaceSite {
  FaultSite site;
  std::string place;
};
RaceSite race_site(const SharedArray& a, const ArrayNames& n, std::uint64_t element, FaultSite::Access x,
                   FaultSite::Access y, const std::string& barrier, const char* rule) {
  if (std::pair(y.step, y.line) < std::pair(x.step, x.line)) std::swap(x, y);
  auto access_text = [&](const FaultSite::Access& w) {
    return std::string(w.write ? "the write" : "the read") +
           (w.line ? " at line " + std::to_string(w.line) : std::string()) + " " + step_text(w.step);
  };
  RaceSite r;
  r.place = std::pair(x.step, x.line) == std::pair(y.step, y.line)
                ? "both are at line " + std::to_string(x.line) + " " + step_text(x.step) + ", where no " + barrier +
                      " can come between them: " + rule
                : "one belongs after " + access_text(x) + " and before " + access_text(y);
  FaultSite& site = r.site;
  site.kind = FaultSite::Kind::race;
  site.block = tl_block->linear;
  site.step = std::max(x.step, y.step);
  site.accesses[0] = x;
  site.accesses[1] = y;
  site.access_count = 2;
  site.element = element_text(a, n, element);
  site.byte = static_cast<long long>(a.window_offset + element * a.elem_size);
  return r;
}

void report_out_of_bounds(const SharedArray& a, std::int64_t row, std::uint64_t index, const Where& at) {
  const ArrayNames n = names_of(a);
  const std::string name = n.view.empty() ? std::string("the array") : n.view;
  std::string used, limit;
  if (a.row_length == 0) {
    used = name + "[" + std::to_string(index) + "]";
    limit = "has " + std::to_string(a.rows) +
            (a.rows == 1 ? " element (index 0)" : " elements (indices 0 to " + std::to_string(a.rows - 1) + ")");
  } else if (row < 0) {
    used = name + "[" + std::to_string(index) + "]";
    limit = "has " + std::to_string(a.rows) + " rows (0 to " + std::to_string(a.rows - 1) + ") of " +
            std::to_string(a.row_length) + " elements";
  } else {
    used = name + "[" + std::to_string(row) + "][" + std::to_string(index) + "]";
    limit = "has rows of " + std::to_string(a.row_length) + " elements (columns 0 to " +
            std::to_string(a.row_length - 1) + ")";
  }
  const ThreadView& t = thread();
  const std::string array = n.array.empty() ? array_text(a, n) : "the array (" + array_text(a, n) + ")";
  FaultSite site;
  site.kind = FaultSite::Kind::out_of_bounds;
  site.block = tl_block->linear;
  site.step = t.step;
  // Whether the index read or wrote is not known before the access: a read, as the view's first use is.
  site.accesses[0] = site_access(t.linear, t.step, at, false);
  site.access_count = 1;
  site.element = used;
  throw LaunchError("out-of-bounds shared index in " + block_name(*tl_block) + ": " + thread_name(t, *tl_block) +
                        " used " + used + " " + at_line(at) + step_text(t.step) + ", but " + array + " " + limit,
                    site);
}

void report_race(const SharedArray& a, std::uint64_t element, const SharedShadow& e, bool write, const Where& at) {
  const ThreadView& t = thread();
  // The earlier access, of another warp: the write in this interval if there was one, else a read.
  const bool earlier_wrote = e.write_epoch == tl_block->sync_epoch && e.writer / 32u != t.warp;
  const bool first_reader = e.reader / 32u != t.warp;
  const unsigned other = earlier_wrote ? e.writer : first_reader ? e.reader : e.other_reader;
  const int other_step = earlier_wrote ? e.writer_step : first_reader ? e.reader_step : e.other_reader_step;
  const Where other_at = earlier_wrote  ? Where{e.writer_file, e.writer_line}
                         : first_reader ? Where{e.reader_file, e.reader_line}
                                        : Where{e.other_reader_file, e.other_reader_line};
  const std::string before =
      thread_text(other) + (earlier_wrote ? " wrote" : " read") + " it " + at_line(other_at) + step_text(other_step);
  const std::string now =
      thread_name(t, *tl_block) + (write ? " wrote" : " read") + " it " + at_line(at) + step_text(t.step);
  const ArrayNames n = names_of(a);
  const RaceSite r = race_site(a, n, element, site_access(other, other_step, other_at, earlier_wrote),
                               site_access(t.linear, t.step, at, write), "barrier",
                               "in one step, a thread must not use an element a thread of another warp writes");
  const FaultSite& site = r.site;
  // The writer first: "thread 64 wrote it ... and thread 0 read it ...".
  throw LaunchError("race in " + block_name(*tl_block) + " on shared " + site.element + ": " +
                        (write && !earlier_wrote ? now + " and " + before : before + " and " + now) +
                        ", with no __syncthreads between them: " + r.place + " (" + site.element + ": byte " +
                        std::to_string(site.byte) + " of " + array_text(a, n) + ")",
                    site);
}

namespace {

// "block 3 (rank 1 in its cluster)": a block of the running launch by its linear index.
std::string cluster_block_text(unsigned long long linear, unsigned rank) {
  BlockView b = *tl_block;
  b.block_idx = {unsigned(linear % b.grid_dim.x), unsigned(linear / b.grid_dim.x % b.grid_dim.y),
                 unsigned(linear / (static_cast<unsigned long long>(b.grid_dim.x) * b.grid_dim.y))};
  return block_name(b) + " (rank " + std::to_string(rank) + " in its cluster)";
}

SharedArray* find_array(const std::vector<std::unique_ptr<SharedArray>>& arrays, const void* start,
                        unsigned elem_size) {
  for (const auto& a : arrays)
    if (a->start == start && a->elem_size == elem_size && !a->flag) return a.get();
  return nullptr;
}

// One of the two accesses of a race across the cluster's blocks.
struct ClusterSide {
  unsigned long long block = 0;
  unsigned rank = 0, thread = 0;
  int step = -1;
  Where at;
  bool write = false;
  bool remote = false;  // made through distributed shared memory (else the owner's own access)
};
ClusterSide side_of(const RemoteAccess& r, bool write) {
  return {r.block, r.rank, r.thread, r.step, Where{r.file, r.line}, write, true};
}

// A race on `element` of the owner's array `a` between `before` (noted earlier) and the calling thread's `now`.
[[noreturn]] void report_cluster_race(const SharedArray& a, unsigned long long owner, unsigned owner_rank,
                                      std::uint64_t element, const ClusterSide& before, const ClusterSide& now) {
  auto text = [&](const ClusterSide& x) {
    return thread_text(x.thread) + " of " + cluster_block_text(x.block, x.rank) + (x.write ? " wrote" : " read") +
           " it" + (x.remote ? " through distributed shared memory " : " ") + at_line(x.at) + step_text(x.step);
  };
  FaultSite::Access x = site_access(before.thread, before.step, before.at, before.write),
                    y = site_access(now.thread, now.step, now.at, now.write);
  x.block = static_cast<long long>(before.block);
  y.block = static_cast<long long>(now.block);
  const ArrayNames n = names_of(a);
  RaceSite r = race_site(a, n, element, x, y, "cluster.sync()",
                         "in one step, a block must not use an element another block writes");
  FaultSite& site = r.site;
  site.element_block = static_cast<long long>(owner);
  const bool writer_first = before.write || !now.write;
  throw LaunchError("race across the cluster on shared " + site.element + " of " +
                        cluster_block_text(owner, owner_rank) + ": " +
                        (writer_first ? text(before) + " and " + text(now) : text(now) + " and " + text(before)) +
                        ", with no cluster.sync() between them: " + r.place + " (" + site.element + ": byte " +
                        std::to_string(site.byte) + " of that block's shared memory, " + array_text(a, n) + ")",
                    site);
}

ClusterSide this_side(bool write, const Where& at, bool remote) {
  const ThreadView& t = thread();
  return {tl_block->linear, tl_block->cluster_rank, t.linear, t.step, at, write, remote};
}

}  // namespace

void check_against_remote(SharedArray& a, std::uint64_t element, bool write, const Where& at) {
  const auto it = a.remote.find(element);
  if (it == a.remote.end() || it->second.phase != tl_block->cluster_phase) return;
  const RemoteShadow& r = it->second;
  const BlockView& me = *tl_block;
  if (r.written)
    report_cluster_race(a, me.linear, me.cluster_rank, element, side_of(r.writer, true), this_side(write, at, false));
  if (write && !r.readers.empty())
    report_cluster_race(a, me.linear, me.cluster_rank, element, side_of(r.readers.front(), false),
                        this_side(write, at, false));
}

}  // namespace detail

void remote_shared_access(const void* start, unsigned elem_size, std::uint64_t element, unsigned rank, bool write,
                          const Where& at) {
  using namespace detail;
  if (!g_race_check.load(std::memory_order_relaxed)) return;
  const BlockView& me = *tl_block;
  const ThreadView& t = thread();
  if (rank == me.cluster_rank) {  // the block's own shared memory, by another name
    if (SharedArray* a = find_array(tl_arrays, start, elem_size)) shared_access(*a, element, write, at);
    return;
  }
  const BlockView* owner = cluster_peer(rank);
  if (owner == nullptr || owner->shared_arrays == nullptr) return;
  SharedArray* a = find_array(*owner->shared_arrays, start, elem_size);
  if (a == nullptr) return;
  SharedShadow* e = element < a->shadow_count ? a->shadows + element : grow_shadow(*a, element);
  if (e == nullptr) return;
  const RemoteAccess now{me.linear, me.cluster_rank, std::uint16_t(t.linear), me.sync_epoch, t.step, at.line, at.file};
  // The owner's own accesses in this cluster barrier interval: those since it began, if the owner has run in it.
  const bool owner_ran = owner->cluster_phase == me.cluster_phase;
  auto owners = [&](std::uint64_t epoch) { return owner_ran && epoch >= owner->phase_start_epoch; };
  auto owner_side = [&](unsigned thread, int step, const char* file, unsigned line, bool wrote) {
    return ClusterSide{owner->linear, owner->cluster_rank, thread, step, Where{file, line}, wrote, false};
  };
  if (owners(e->write_epoch))
    report_cluster_race(*a, owner->linear, owner->cluster_rank, element,
                        owner_side(e->writer, e->writer_step, e->writer_file, e->writer_line, true),
                        this_side(write, at, true));
  if (write && owners(e->read_epoch))
    report_cluster_race(*a, owner->linear, owner->cluster_rank, element,
                        owner_side(e->reader, e->reader_step, e->reader_file, e->reader_line, false),
                        this_side(write, at, true));
  RemoteShadow& r = a->remote[element];
  if (r.phase != me.cluster_phase) {
    r.phase = me.cluster_phase;
    r.written = false;
    r.readers.clear();
  }
  if (r.written && !now.follows(r.writer))
    report_cluster_race(*a, owner->linear, owner->cluster_rank, element, side_of(r.writer, true),
                        this_side(write, at, true));
  if (write) {
    for (const RemoteAccess& reader : r.readers)
      if (!now.follows(reader))
        report_cluster_race(*a, owner->linear, owner->cluster_rank, element, side_of(reader, false),
                            this_side(write, at, true));
    r.written = true;
    r.writer = now;
  } else {
    const auto same_warp = [&](const RemoteAccess& x) {
      return x.rank == now.rank && x.thread / 32u == now.thread / 32u;
    };
    if (const auto it = std::find_if(r.readers.begin(), r.readers.end(), same_warp); it != r.readers.end())
      *it = now;
    else
      r.readers.push_back(now);
  }
  e->remote_phase = me.cluster_phase;
}

SharedArray* shared_array(const void* start, unsigned elem_size, std::uint64_t rows, std::uint64_t row_length,
                          std::uint64_t window_offset, bool flag, const std::source_location& where) {
  auto same = [&](const SharedArray* a) {
    return a->start == start && a->elem_size == elem_size && a->rows == rows && a->row_length == row_length &&
           a->window_offset == window_offset && a->flag == flag;
  };
  // Known to this worker: declared once more if this is a new launch.
  auto known = [](SharedArray* a) {
    const std::uint64_t launch = detail::g_launch_number.load(std::memory_order_relaxed);
    if (a->declared_in != launch) detail::declare(*a, launch);
    return detail::tl_last_array = a;
  };
  // Another block of the cluster finds this worker's arrays through its block.
  if (detail::tl_block) detail::tl_block->shared_arrays = &detail::tl_arrays;
  if (detail::tl_last_array && same(detail::tl_last_array)) return known(detail::tl_last_array);
  for (const auto& a : detail::tl_arrays)
    if (same(a.get())) return known(a.get());
  auto a = std::make_unique<SharedArray>();
  a->start = start;
  a->elem_size = elem_size;
  a->rows = rows;
  a->row_length = row_length;
  a->window_offset = window_offset;
  a->flag = flag;
  a->file = where.file_name();
  a->line = where.line();
  a->shadow.resize(rows ? rows * (row_length ? row_length : 1) : 0);
  a->shadows = a->shadow.data();
  a->shadow_count = a->shadow.size();
  detail::tl_arrays.push_back(std::move(a));
  return known(detail::tl_arrays.back().get());
}

std::vector<DeclaredShared> last_launch_shared_arrays() { return detail::tl_last_declared; }

void name_shared_arrays(std::vector<DeclaredShared>& arrays) {
  for (DeclaredShared& d : arrays) {
    const detail::ArrayNames n = detail::names_of(d.file.c_str(), d.line);
    d.view = n.view;
    d.array = n.array;
  }
}

void set_race_check(bool on) { detail::g_race_check.store(on); }
bool race_check() { return detail::g_race_check.load(); }

namespace {
// The process's places. A worker asks its own cache first: a traced block makes every access from a few places.
std::mutex g_places_mutex;
std::vector<AccessPlace> g_places;  // number k at k - 1
std::map<std::tuple<std::string, unsigned, unsigned>, std::uint16_t> g_place_numbers;
thread_local std::map<std::tuple<const char*, unsigned, unsigned>, std::uint16_t> tl_place_numbers;
// In front of it, the places met last: a traced access asks for its place's number every time it is made.
struct RecentPlace {
  const char* file = nullptr;
  unsigned line = 0, column = 0;
  std::uint16_t number = 0;
};
thread_local RecentPlace tl_recent_places[64];
}  // namespace

std::uint16_t place_number(const Where& at) {
  if (at.file == nullptr || at.line == 0) return 0;
  RecentPlace& recent =
      tl_recent_places[(reinterpret_cast<std::uintptr_t>(at.file) / 8 + at.line * 31u + at.column * 7u) % 64];
  if (recent.file == at.file && recent.line == at.line && recent.column == at.column) return recent.number;
  const auto key = std::make_tuple(at.file, at.line, at.column);
  if (const auto it = tl_place_numbers.find(key); it != tl_place_numbers.end()) {
    recent = {at.file, at.line, at.column, it->second};
    return it->second;
  }
  std::uint16_t number = 0;
  {
    const std::lock_guard<std::mutex> lock(g_places_mutex);
    const auto [it, added] = g_place_numbers.try_emplace({at.file, at.line, at.column}, 0);
    if (added && g_places.size() < 0xffff) {
      g_places.push_back({at.file, at.line, at.column});
      it->second = std::uint16_t(g_places.size());
    }
    number = it->second;
  }
  tl_place_numbers.emplace(key, number);
  recent = {at.file, at.line, at.column, number};
  return number;
}

AccessPlace place_of(std::uint16_t number) {
  const std::lock_guard<std::mutex> lock(g_places_mutex);
  return number >= 1 && number <= g_places.size() ? g_places[number - 1u] : AccessPlace{};
}

}  // namespace redlab::emu
