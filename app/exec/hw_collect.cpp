#include "exec/hw_collect.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "core/catalog.h"
#include "core/family.h"
#include "exec/executor.h"
#include "exec/toolkit_library.h"

#if REDLAB_HAVE_CUDA
#include <cuda_runtime.h>
#include <cupti_callbacks.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

// CUPTI's idiom: a params struct initialised with its size, every other member zero.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif

namespace redlab {

#if REDLAB_HAVE_CUDA
namespace {

// libcupti's entry points, opened at run time: the toolkit keeps it outside the loader's path
// (/usr/local/cuda/lib64 or .../targets/x86_64-linux/lib), and a redlab without it must still start.
struct Cupti {
  void* handle = nullptr;
  std::string path;
#define REDLAB_CUPTI_FN(name) decltype(&::name) name = nullptr;
// (a list of names, a few a line: clang-format would stair-step it)
// clang-format off
#define REDLAB_CUPTI_FNS(X)                                                                                      \
  X(cuptiGetResultString) X(cuptiSubscribe) X(cuptiUnsubscribe) X(cuptiEnableCallback) X(cuptiProfilerInitialize)  \
  X(cuptiProfilerDeInitialize) X(cuptiProfilerDeviceSupported) X(cuptiDeviceGetChipName)                          \
  X(cuptiSassMetricsGetNumOfMetrics) X(cuptiSassMetricsGetMetrics) X(cuptiSassMetricsGetProperties)               \
  X(cuptiSassMetricsSetConfig) X(cuptiSassMetricsUnsetConfig) X(cuptiSassMetricsEnable)                          \
  X(cuptiSassMetricsDisable) X(cuptiSassMetricsGetDataProperties) X(cuptiSassMetricsFlushData)                   \
  X(cuptiGetSassToSourceCorrelation) X(cuptiGetCubinCrc)
  REDLAB_CUPTI_FNS(REDLAB_CUPTI_FN)
  // clang-format on
#undef REDLAB_CUPTI_FN

  // "" or why it could not be opened.
  std::string open() {
#ifdef REDLAB_CUPTI_LIBRARY
    const char* built = REDLAB_CUPTI_LIBRARY;  // where the build found it
#else
    const char* built = nullptr;
#endif
    const ToolkitLibrary lib = open_toolkit_library("libcupti.so", "REDLAB_CUPTI", built,
                                                    {"/usr/local/cuda/extras/CUPTI/lib64", "/usr/local/cuda/lib"});
    handle = lib.handle;
    path = lib.path;
    if (!handle) return "CUPTI (libcupti.so, in the CUDA toolkit) was not found; set REDLAB_CUPTI to its path";
#define REDLAB_CUPTI_SYM(name)                                      \
  name = reinterpret_cast<decltype(&::name)>(dlsym(handle, #name)); \
  if (!name) return "CUPTI at " + path + " has no " #name " (CUDA 12.6 or later has the SASS metrics API)";
    REDLAB_CUPTI_FNS(REDLAB_CUPTI_SYM)
#undef REDLAB_CUPTI_SYM
    return {};
  }
  std::string text(CUptiResult r) const {
    const char* s = nullptr;
    if (cuptiGetResultString) cuptiGetResultString(r, &s);
    return s ? s : "CUPTI error " + std::to_string(int(r));
  }
};

// Every cubin that loads while the collection runs (CUPTI's resource callback), kept by CRC.
struct Cubins {
  std::mutex mutex;
  std::vector<std::string> images;
};
void CUPTIAPI on_resource(void* user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {  // REDLAB_HW_DEBUG: the driver calls of the run
    const auto* cd = static_cast<const CUpti_CallbackData*>(data);
    if (cd->callbackSite == CUPTI_API_ENTER)
      std::fprintf(stderr, "redlab: CUPTI: driver %s %s\n", cd->functionName, cd->symbolName ? cd->symbolName : "");
    return;
  }
  if (domain != CUPTI_CB_DOMAIN_RESOURCE || cbid != CUPTI_CBID_RESOURCE_MODULE_LOADED) return;
  const auto* rd = static_cast<const CUpti_ResourceData*>(data);
  const auto* mod = static_cast<const CUpti_ModuleResourceData*>(rd->resourceDescriptor);
  if (!mod || !mod->pCubin || !mod->cubinSize) return;
  auto* c = static_cast<Cubins*>(user);
  std::lock_guard<std::mutex> lock(c->mutex);
  c->images.emplace_back(mod->pCubin, mod->cubinSize);
}

struct CuptiError {
  std::string why;
};

class Session {
 public:
  explicit Session(Cupti& c) : c_(c) {}
  ~Session() {
    if (enabled_) {
      CUpti_SassMetricsDisable_Params p{CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
      c_.cuptiSassMetricsDisable(&p);
    }
    if (configured_) {
      CUpti_SassMetricsUnsetConfig_Params p{CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
      p.deviceIndex = 0;
      c_.cuptiSassMetricsUnsetConfig(&p);
    }
    if (initialized_) {
      CUpti_Profiler_DeInitialize_Params p{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
      c_.cuptiProfilerDeInitialize(&p);
    }
    if (subscriber_) c_.cuptiUnsubscribe(subscriber_);
  }
  void check(CUptiResult r, const char* what) {
    if (r == CUPTI_SUCCESS) return;
    std::string why = std::string(what) + ": " + c_.text(r);
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
      why +=
          " (the driver lets only administrators read GPU performance counters: NVreg_RestrictProfilingToAdminUsers)";
    if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
      why += " (another profiler, such as Nsight Compute, already holds the GPU's counters)";
    throw CuptiError{why};
  }
  void subscribe(Cubins* cubins) {
    check(c_.cuptiSubscribe(&subscriber_, reinterpret_cast<CUpti_CallbackFunc>(&on_resource), cubins),
          "cuptiSubscribe");
    check(c_.cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED),
          "cuptiEnableCallback");
    if (std::getenv("REDLAB_HW_DEBUG"))
      for (CUpti_CallbackId id = 1; id < 900; ++id)
        c_.cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, id);
  }
  std::string init() {  // returns the chip name
    CUpti_Profiler_Initialize_Params ip{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    check(c_.cuptiProfilerInitialize(&ip), "cuptiProfilerInitialize");
    initialized_ = true;
    CUpti_Profiler_DeviceSupported_Params sp{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
    sp.cuDevice = 0;
    sp.api = CUPTI_PROFILER_SASS_METRICS;
    check(c_.cuptiProfilerDeviceSupported(&sp), "cuptiProfilerDeviceSupported");
    if (sp.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
      std::string why = "CUPTI cannot collect SASS metrics on this GPU";
      if (sp.architecture == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
        why += ": its architecture is not supported";
      else if (sp.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        why += ": profiling is not enabled for this vGPU";
      else if (sp.confidentialCompute == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
        why += ": confidential compute is on";
      else if (sp.wsl == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
        why += ": WSL is not supported";
      throw CuptiError{why};
    }
    CUpti_Device_GetChipName_Params cp{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cp.deviceIndex = 0;
    check(c_.cuptiDeviceGetChipName(&cp), "cuptiDeviceGetChipName");
    return cp.pChipName ? cp.pChipName : "";
  }
  void configure(std::vector<CUpti_SassMetrics_Config>& configs) {
    CUpti_SassMetricsSetConfig_Params p{CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
    p.pConfigs = configs.data();
    p.numOfMetricConfig = configs.size();
    p.deviceIndex = 0;
    check(c_.cuptiSassMetricsSetConfig(&p), "cuptiSassMetricsSetConfig");
    configured_ = true;
  }
  void enable() {
    CUpti_SassMetricsEnable_Params p{CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
    p.ctx = nullptr;  // the current context
    p.enableLazyPatching = 1;  // patch a kernel at its first launch in the range: only what the run launches
    check(c_.cuptiSassMetricsEnable(&p), "cuptiSassMetricsEnable");
    enabled_ = true;
  }
  // Every patched instruction's values (GPU granularity: one instance per metric).
  std::vector<CUpti_SassMetrics_Data> flush(std::vector<std::vector<CUpti_SassMetrics_InstanceValue>>& values) {
    CUpti_SassMetricsGetDataProperties_Params dp{CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
    check(c_.cuptiSassMetricsGetDataProperties(&dp), "cuptiSassMetricsGetDataProperties");
    if (std::getenv("REDLAB_HW_DEBUG"))
      std::fprintf(stderr, "redlab: CUPTI: %zu patched instruction records, %zu instances\n",
                   dp.numOfPatchedInstructionRecords, dp.numOfInstances);
    std::vector<CUpti_SassMetrics_Data> data(dp.numOfPatchedInstructionRecords);
    values.assign(data.size(), std::vector<CUpti_SassMetrics_InstanceValue>(dp.numOfInstances * metrics_));
    if (data.empty() || !dp.numOfInstances) return {};
    for (std::size_t i = 0; i < data.size(); ++i) {
      data[i].structSize = sizeof(CUpti_SassMetrics_Data);
      data[i].pInstanceValues = values[i].data();
    }
    CUpti_SassMetricsFlushData_Params fp{CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
    fp.numOfPatchedInstructionRecords = data.size();
    fp.numOfInstances = dp.numOfInstances;
    fp.pMetricsData = data.data();
    check(c_.cuptiSassMetricsFlushData(&fp), "cuptiSassMetricsFlushData");
    instances_ = dp.numOfInstances;
    return data;
  }
  void disable() {
    CUpti_SassMetricsDisable_Params p{CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
    enabled_ = false;
    check(c_.cuptiSassMetricsDisable(&p), "cuptiSassMetricsDisable");
  }
  std::size_t metrics_ = 1, instances_ = 0;

 private:
  Cupti& c_;
  CUpti_SubscriberHandle subscriber_ = nullptr;
  bool initialized_ = false, configured_ = false, enabled_ = false;
};

}  // namespace

HwCounts collect_hw_counts(const Scenario& s) {
  HwCounts hw;
  const KernelRecord* k = find_kernel(s.kernel);
  if (!k) {
    hw.why = "'" + s.kernel + "' is not a kernel redlab has";
    return hw;
  }
  hw.source_file = k->source_file;
  Cupti c;
  if (std::string why = c.open(); !why.empty()) {
    hw.why = why;
    return hw;
  }
  Cubins cubins;
  try {
    Session session(c);
    std::string why;
    try {
      session.subscribe(&cubins);  // before CUDA loads the kernels' modules
    } catch (const CuptiError&) {
      // Without a GPU driver CUPTI only says "unknown error": name the missing GPU instead.
      if (!make_cuda_executor(&why)) throw CuptiError{"the hardware's counts need a CUDA GPU (" + why + ")"};
      throw;
    }
    std::unique_ptr<Executor> ex = make_cuda_executor(&why);
    if (!ex) {
      hw.why = "the hardware's counts need a CUDA GPU (" + why + ")";
      return hw;
    }
    hw.device = ex->device();
    hw.chip = session.init();
    std::vector<CUpti_SassMetrics_Config> configs;
    std::vector<int> slot;  // configs[i] is HwMetric slot[i]
    std::map<std::uint64_t, int> by_id;
    for (int m = 0; m < kHwMetrics; ++m) {
      CUpti_SassMetrics_GetProperties_Params p{CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
      p.pChipName = hw.chip.c_str();
      p.pMetricName = hw_metric_cupti(HwMetric(m));
      if (c.cuptiSassMetricsGetProperties(&p) != CUPTI_SUCCESS) {
        hw.missing.push_back(hw_metric_cupti(HwMetric(m)));
        continue;
      }
      configs.push_back({p.metric.metricId, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
      slot.push_back(m);
      by_id[p.metric.metricId] = m;
    }
    if (configs.empty()) throw CuptiError{"CUPTI offers none of the SASS metrics redlab reads on chip " + hw.chip};
    session.metrics_ = configs.size();
    session.configure(configs);

    std::vector<CUpti_SassMetrics_Data> data;
    std::vector<std::vector<CUpti_SassMetrics_InstanceValue>> values;
    RunOptions o;
    o.trace = false;
    o.before_first = [&] { session.enable(); };
    o.after_first = [&] {
      if (cudaDeviceSynchronize() != cudaSuccess) throw CuptiError{"the kernel failed under CUPTI"};
      data = session.flush(values);
      session.disable();
    };
    Scenario timed = s;
    timed.backend = BackendChoice::cuda;
    ex->run(timed, o);

    // The line table of each instruction, from the cubin whose CRC CUPTI gives.
    std::map<std::uint32_t, const std::string*> cubin_by_crc;
    for (const std::string& img : cubins.images) {
      CUpti_GetCubinCrcParams p{CUpti_GetCubinCrcParamsSize};
      p.cubin = img.data();
      p.cubinSize = img.size();
      if (c.cuptiGetCubinCrc(&p) == CUPTI_SUCCESS) cubin_by_crc[std::uint32_t(p.cubinCrc)] = &img;
    }
    // A record per instruction and metric (its instances: one, at GPU granularity): merged per instruction.
    std::map<std::pair<std::string, std::uint32_t>, std::pair<HwInstruction, std::uint32_t>> merged;  // -> crc
    for (std::size_t r = 0; r < data.size(); ++r) {
      const CUpti_SassMetrics_Data& d = data[r];
      const std::string function = d.functionName ? d.functionName : "";
      auto& [in, crc] = merged[{function, d.pcOffset}];
      in.function = function;
      in.pc = d.pcOffset;
      crc = d.cubinCrc;
      for (std::size_t v = 0; v < session.instances_ && v < values[r].size(); ++v) {
        const auto it = by_id.find(values[r][v].metricId);
        if (it == by_id.end()) continue;
        auto& slot_value = in.values[std::size_t(it->second)];
        slot_value = slot_value.value_or(0) + values[r][v].value;
      }
      std::free(const_cast<char*>(d.functionName));
    }
    for (auto& [key, entry] : merged) {
      auto& [in, crc] = entry;
      for (int m : slot)
        if (!in.values[std::size_t(m)]) in.values[std::size_t(m)] = 0;
      // The cubin CUPTI's CRC names, else each one loaded until one has the function.
      std::vector<const std::string*> candidates;
      if (const auto it = cubin_by_crc.find(crc); it != cubin_by_crc.end()) candidates.push_back(it->second);
      for (const std::string& img : cubins.images) candidates.push_back(&img);
      for (const std::string* cubin : candidates) {
        if (in.function.empty()) break;
        CUpti_GetSassToSourceCorrelationParams p{CUpti_GetSassToSourceCorrelationParamsSize};
        p.cubin = cubin->data();
        p.cubinSize = cubin->size();
        p.functionName = in.function.c_str();
        p.pcOffset = in.pc;
        if (c.cuptiGetSassToSourceCorrelation(&p) == CUPTI_SUCCESS) {
          in.line = p.lineNumber;
          std::string file = p.fileName ? p.fileName : "";
          if (p.dirName && *p.dirName && !file.empty() && file.front() != '/')
            file = std::string(p.dirName) + "/" + file;
          in.file = hw_short_file(file);
          std::free(p.fileName);
          std::free(p.dirName);
          break;
        }
      }
      hw.instructions.push_back(std::move(in));
    }
    std::sort(hw.instructions.begin(), hw.instructions.end(), [](const HwInstruction& a, const HwInstruction& b) {
      return a.function != b.function ? a.function < b.function : a.pc < b.pc;
    });
    if (std::getenv("REDLAB_HW_DEBUG"))
      std::fprintf(stderr, "redlab: CUPTI: %zu cubins loaded, %zu records, %zu instructions\n", cubins.images.size(),
                   data.size(), hw.instructions.size());
    if (hw.instructions.empty()) {
      std::string why = "CUPTI's SASS metrics returned no instruction of this launch";
      // Measured on an H100 with CUDA 13.0 and driver 580: every launch of a two-dimensional block (the
      // transposes' 32 x K threads) came back empty once the grid had more than one block; one block was counted.
      const KernelRecord* kr = find_kernel(s.kernel);
      if (kr && family_record(kr->family).takes_matrix && (s.rows > 32 || s.cols > 32))
        why += " (with this CUDA, a 2D block's launch is counted only in a grid of one block: try --rows 32 --cols 32)";
      throw CuptiError{why};
    }
    if (cubins.images.empty()) hw.why = "CUPTI gave no cubin, so no instruction has a source line";
    hw.collected = true;
  } catch (const CuptiError& e) {
    hw.why = e.why;
    hw.instructions.clear();
  } catch (const ScenarioError& e) {
    hw.why = e.what();
    hw.instructions.clear();
  }
  return hw;
}

std::string cupti_library(std::string* why) {
  Cupti c;
  if (std::string w = c.open(); !w.empty()) {
    *why = w;
    return {};
  }
  return c.path;
}

std::vector<std::pair<std::string, std::string>> hw_metric_list(std::string* why) {
  std::vector<std::pair<std::string, std::string>> out;
  Cupti c;
  if (std::string w = c.open(); !w.empty()) {
    *why = w;
    return out;
  }
  try {
    Session session(c);
    std::string w;
    if (!make_cuda_executor(&w)) {
      *why = "no CUDA GPU (" + w + ")";
      return out;
    }
    const std::string chip = session.init();
    CUpti_SassMetrics_GetNumOfMetrics_Params np{CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE};
    np.pChipName = chip.c_str();
    session.check(c.cuptiSassMetricsGetNumOfMetrics(&np), "cuptiSassMetricsGetNumOfMetrics");
    std::vector<CUpti_SassMetrics_MetricDetails> list(np.numOfMetrics);
    CUpti_SassMetrics_GetMetrics_Params mp{CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE};
    mp.pChipName = chip.c_str();
    mp.numOfMetrics = list.size();
    mp.pMetricsList = list.data();
    session.check(c.cuptiSassMetricsGetMetrics(&mp), "cuptiSassMetricsGetMetrics");
    for (const auto& m : list)
      out.emplace_back(m.pMetricName ? m.pMetricName : "", m.pMetricDescription ? m.pMetricDescription : "");
  } catch (const CuptiError& e) { *why = e.why; }
  return out;
}

#else  // a build without CUDA

HwCounts collect_hw_counts(const Scenario& s) {
  HwCounts hw;
  if (const KernelRecord* k = find_kernel(s.kernel)) hw.source_file = k->source_file;
  hw.why = "the hardware's counts need a CUDA GPU, and this redlab was built without CUDA (REDLAB_CUDA=OFF)";
  return hw;
}
std::string cupti_library(std::string* why) {
  *why = "this redlab was built without CUDA (REDLAB_CUDA=OFF)";
  return {};
}
std::vector<std::pair<std::string, std::string>> hw_metric_list(std::string* why) {
  *why = "this redlab was built without CUDA (REDLAB_CUDA=OFF)";
  return {};
}

#endif

}  // namespace redlab
