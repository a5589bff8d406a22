// The emulator's per-thread settings a run makes, put back when it ends (an exception included): the run's cancel
// flag and block counter, and the blocks a launch runs. Runs on the GPU set them too; the GPU reads none.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/trace_builder.h"
#include "exec/device.h"
#include "emu/shared_check.h"
#include "emu/simt.h"

namespace redlab {

// The emulator stops between blocks once the control says cancel (a GPU launch runs to its end), and counts the
// blocks it runs.
struct EmulatorRunScope {
  explicit EmulatorRunScope(RunControl* c) {
    emu::set_cancel_flag(c ? &c->cancel : nullptr);
    emu::set_block_counter(c ? &c->blocks_run : nullptr);
  }
  ~EmulatorRunScope() {
    emu::set_cancel_flag(nullptr);
    emu::set_block_counter(nullptr);
  }
  EmulatorRunScope(const EmulatorRunScope&) = delete;
  EmulatorRunScope& operator=(const EmulatorRunScope&) = delete;
};

// Emulator launches that are not the run's own (the focus blocks run again to name a GPU trace's accesses) count no
// block into the run's progress (a GPU run's line read "traced 49153 of 49152 blocks").
struct EmulatorBlocksUncounted {
  EmulatorBlocksUncounted() : saved_(emu::block_counter()) { emu::set_block_counter(nullptr); }
  ~EmulatorBlocksUncounted() { emu::set_block_counter(saved_); }
  EmulatorBlocksUncounted(const EmulatorBlocksUncounted&) = delete;
  EmulatorBlocksUncounted& operator=(const EmulatorBlocksUncounted&) = delete;

 private:
  std::atomic<std::uint64_t>* saved_;
};

// An emulator launch runs blocks [first, end) only (a chunk of a traced launch, a focus block alone).
struct EmulatorBlockRange {
  EmulatorBlockRange(unsigned long long first, unsigned long long end) { emu::set_block_range(first, end); }
  ~EmulatorBlockRange() { emu::set_block_range(0, 0); }
  EmulatorBlockRange(const EmulatorBlockRange&) = delete;
  EmulatorBlockRange& operator=(const EmulatorBlockRange&) = delete;
};

// The emulator's records number the places accesses were made from (file, line, column): the trace names them.
inline void name_emulator_sites(TraceBuilder& builder) {
  builder.name_sites([](std::uint16_t site) {
    const emu::AccessPlace place = emu::place_of(site);
    return TraceBuilder::SourcePlace{place.file, place.line, place.column};
  });
}

// The shared arrays of the calling thread's last emulator launch added to `to`, each once (a traced run's chunks are
// launches of their own).
inline void add_launch_shared_arrays(std::vector<emu::DeclaredShared>& to) {
  for (const emu::DeclaredShared& d : emu::last_launch_shared_arrays())
    if (std::find(to.begin(), to.end(), d) == to.end()) to.push_back(d);
}

// Those arrays as a trace keeps them, named from their probe calls.
inline std::vector<SharedDeclaration> trace_shared_arrays(std::vector<emu::DeclaredShared> arrays) {
  emu::name_shared_arrays(arrays);
  std::vector<SharedDeclaration> out;
  for (const emu::DeclaredShared& d : arrays)
    out.push_back({.name = d.array,
                   .elem_bytes = d.elem_size,
                   .rows = d.rows,
                   .row_length = d.row_length,
                   .offset = d.window_offset,
                   .flag = d.flag});
  return out;
}

// An access's file as a Trace numbers it (1 + its index in `files`), added to `files` where it is not there yet: a
// trace that gathers accesses from several runs (each with its own list) renumbers them with it.
inline std::uint16_t access_file_number(std::vector<std::string>& files, const std::string& name) {
  auto it = std::find(files.begin(), files.end(), name);
  if (it == files.end()) it = files.insert(files.end(), name);
  return std::uint16_t(it - files.begin() + 1);
}

}  // namespace redlab
