// The trace model's small helpers: the names of its enums, the request the bank model reads, the summary
// figures, and element values as text or as double. The trace files are trace_file.cpp.
#include "core/trace.h"

#include "kernels/step_label.h"

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>

namespace redlab {

const char* to_string(Phase p) { return rec::phase_name(p); }
std::optional<Phase> parse_phase(const std::string& s) {
  for (int p = 0; p <= int(Phase::cluster); ++p)
    if (s == to_string(Phase(p))) return Phase(p);
  return std::nullopt;
}
const char* to_string(Space s) {
  switch (s) {
    case Space::shared: return "shared";
    case Space::global: return "global";
    case Space::reg: return "register";
    case Space::remote_shared: return "remote_shared";
  }
  return "?";
}
const char* to_string(AccessKind k) {
  switch (k) {
    case AccessKind::load: return "load";
    case AccessKind::store: return "store";
    case AccessKind::value: return "value";
    case AccessKind::atomic: return "atomic";
  }
  return "?";
}
const char* to_string(rec::AtomicOp op) {
  switch (op) {
    case rec::AtomicOp::none: return "";
    case rec::AtomicOp::add: return "add";
    case rec::AtomicOp::min: return "min";
    case rec::AtomicOp::max: return "max";
    case rec::AtomicOp::cas: return "cas";
  }
  return "?";
}

const char* to_string(FaultKind k) {
  switch (k) {
    case FaultKind::race: return "race";
    case FaultKind::out_of_bounds: return "out_of_bounds";
    case FaultKind::other: return "other";
  }
  return "?";
}

bool Fault::across_cluster() const {
  if (element_block != block) return true;
  for (const FaultAccess& a : accesses)
    if (a.block != block) return true;
  return false;
}

WarpAddresses addresses_of(const WarpAccess& a) {
  WarpAddresses wa;
  wa.mask = a.mask;
  wa.addr = a.addr;
  wa.width = a.width;
  wa.store = a.kind == AccessKind::store || a.kind == AccessKind::atomic;  // an atomic writes its word
  return wa;
}

bool uses_distributed_shared_memory(const Trace& t) {
  return std::any_of(t.steps.begin(), t.steps.end(),
                     [](const Step& s) { return s.stats.dsmem_load_requests || s.stats.dsmem_store_requests; });
}

Summary summarize(const Trace& t) {
  Summary s;
  for (const Step& step : t.steps) {
    const StepStats& st = step.stats;
    s.smem_wavefronts += st.smem_load_wavefronts + st.smem_store_wavefronts;
    s.smem_ideal += st.smem_load_ideal + st.smem_store_ideal;
    s.smem_requests += st.smem_load_requests + st.smem_store_requests;
    s.gmem_sectors += st.gmem_load_sectors + st.gmem_store_sectors;
    s.gmem_requests += st.gmem_load_requests + st.gmem_store_requests;
    s.smem_atomic_requests += st.smem_atomic_requests;
    s.gmem_atomic_requests += st.gmem_atomic_requests;
    s.dsmem_requests += st.dsmem_load_requests + st.dsmem_store_requests;
    s.dsmem_bytes += st.dsmem_load_bytes + st.dsmem_store_bytes;
    if (step.phase != Phase::tree) continue;
    ++s.tree_steps;
    s.tree_active_threads += st.active_threads;
    s.tree_active_warps += st.active_warps;
  }
  if (s.tree_active_warps)
    s.tree_simd_efficiency = double(s.tree_active_threads) / (32.0 * double(s.tree_active_warps));
  return s;
}

std::string format_value(ElemType t, std::uint64_t bits) {
  std::ostringstream o;
  switch (t) {
    case ElemType::int32: {
      std::int32_t v;
      std::uint32_t b = std::uint32_t(bits);
      std::memcpy(&v, &b, 4);
      o << v;
      break;
    }
    case ElemType::float32: {
      float v;
      std::uint32_t b = std::uint32_t(bits);
      std::memcpy(&v, &b, 4);
      o << std::setprecision(std::numeric_limits<float>::max_digits10) << v;
      break;
    }
    case ElemType::float64: {
      double v;
      std::memcpy(&v, &bits, 8);
      o << std::setprecision(std::numeric_limits<double>::max_digits10) << v;
      break;
    }
  }
  return o.str();
}

double value_as_double(ElemType t, std::uint64_t bits) {
  switch (t) {
    case ElemType::int32: {
      std::int32_t v;
      std::uint32_t b = std::uint32_t(bits);
      std::memcpy(&v, &b, 4);
      return v;
    }
    case ElemType::float32: {
      float v;
      std::uint32_t b = std::uint32_t(bits);
      std::memcpy(&v, &b, 4);
      return v;
    }
    case ElemType::float64: {
      double v;
      std::memcpy(&v, &bits, 8);
      return v;
    }
  }
  return 0;
}

}  // namespace redlab
