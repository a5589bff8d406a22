#include "exec/executor.h"

#include <utility>

#include "core/plan.h"
#include "exec/device.h"

namespace redlab {

std::unique_ptr<Device> make_cpu_device();
#if REDLAB_HAVE_CUDA
std::unique_ptr<Device> make_cuda_device(std::string* why);
#endif

namespace {

class DeviceExecutor final : public Executor {
 public:
  explicit DeviceExecutor(std::unique_ptr<Device> d) : dev_(std::move(d)) {}
  Backend backend() const override { return dev_->backend(); }
  std::string device() const override { return dev_->name(); }
  Trace run(const Scenario& s, const RunOptions& o) override {
    const Plan plan = make_plan(s);
    if (plan.kernel->gpu_only && dev_->backend() != Backend::cuda)
      throw ScenarioError("--backend: kernel '" + s.kernel +
                          "' runs on the GPU only and no CUDA device is in use; use a machine with an NVIDIA GPU");
    return run_plan(*dev_, plan, o);
  }

 private:
  std::unique_ptr<Device> dev_;
};

}  // namespace

std::unique_ptr<Executor> make_cpu_executor() { return std::make_unique<DeviceExecutor>(make_cpu_device()); }

std::unique_ptr<Executor> make_cuda_executor(std::string* why) {
#if REDLAB_HAVE_CUDA
  auto dev = make_cuda_device(why);
  if (!dev) return nullptr;
  return std::make_unique<DeviceExecutor>(std::move(dev));
#else
  if (why) *why = "no CUDA device: this redlab was built without CUDA (REDLAB_CUDA=OFF)";
  return nullptr;
#endif
}

std::unique_ptr<Executor> make_executor(BackendChoice choice, std::string* notice) {
  if (choice == BackendChoice::cpu) return make_cpu_executor();
  std::string why;
  auto cuda = make_cuda_executor(&why);
  if (cuda) return cuda;
  if (choice == BackendChoice::cuda) throw ScenarioError("--backend cuda: " + why);
  if (notice) *notice = why + ": using the CPU emulator";
  return make_cpu_executor();
}

}  // namespace redlab
