// A step's name as people read it ("offset 128", "stride 4", "load"), from what probe.step recorded: host code
// only (std::string; never compiled by nvcc for the device, nor by NVRTC). Two readers need it: the trace
// (app/core: the per-step table, the views) and the emulator's shared-memory checks (app/emu/shared_check.cpp:
// "thread 64 wrote it in step 'offset 128'"), so the names live once, beside the records they name.
#pragma once
#include <cstdint>
#include <string>

#include "trace_record.h"

namespace redlab::rec {

inline const char* phase_name(Phase p) {
  switch (p) {
    case Phase::load: return "load";
    case Phase::tree: return "tree";
    case Phase::warp: return "warp";
    case Phase::store: return "store";
    case Phase::tile_load: return "tile_load";
    case Phase::tile_store: return "tile_store";
    case Phase::reduce_scatter: return "reduce_scatter";
    case Phase::all_gather: return "all_gather";
    case Phase::reduce: return "reduce";
    case Phase::broadcast: return "broadcast";
    case Phase::cluster: return "cluster";
  }
  return "?";
}

inline std::string describe_step(Phase phase, Label label, std::int32_t param) {
  switch (label) {
    case Label::stride: return "stride " + std::to_string(param);
    case Label::offset: return (phase == Phase::warp ? "shuffle offset " : "offset ") + std::to_string(param);
    case Label::warp_sums_store: return "warp sums to shared";
    case Label::warp_sums_load: return "first warp loads warp sums";
    case Label::last_warp: return "last warp: s[tid] + s[tid+32]";
    case Label::grid_stride: return "grid-stride " + std::to_string(param);
    case Label::to_shared: return "running value to shared";
    case Label::warp_reduce: return "warp reduce";
    case Label::partials_load: return "last block loads the partials";
    case Label::tail: return "tail (n mod vector width)";
    case Label::barrier: return "after barrier " + std::to_string(param);
    case Label::exchange: return (phase == Phase::reduce_scatter ? "reduce-scatter " : "all-gather ") + std::to_string(param);
    case Label::distance: return (phase == Phase::reduce ? "reduce, distance " : "broadcast, distance ") + std::to_string(param);
    case Label::root: return phase == Phase::reduce ? "reduce to GPU 0" : "broadcast from GPU 0";
    case Label::cluster_gather: return "rank 0 gathers partials";
    case Label::rank_stride: return "rank stride " + std::to_string(param);
    case Label::none: break;
  }
  return phase_name(phase);
}

}  // namespace redlab::rec
