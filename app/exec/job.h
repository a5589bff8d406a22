// One piece of background work: for the window, what it waits for without blocking a frame (a run, a measurement, a
// kernel file's compile and trace, the hardware's counts); for the command line, a run it reports the progress of.
// Every one has the same life: started with its inputs copied in, it reports progress and can be asked to stop
// through its RunControl, and it ends with a value or an error, which its owner collects once, on its own thread.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "exec/device.h"

namespace redlab {

// What a finished job left: its value, or why there is none.
template <class T>
struct JobOutcome {
  std::optional<T> value;
  std::string error;  // what the work threw ("" when it returned)
  bool cancelled = false;  // it threw RunCancelled: stopped on request
};

template <class T>
class Job {
 public:
  Job() = default;
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;
  // No thread outlives its job: the work is asked to stop and waited for.
  ~Job() {
    cancel();
    wait();
  }

  // Runs `work(control)` on a thread of its own. The work must own what it reads (copies, not references into
  // the model), apart from the control. False, and nothing started, while the previous work is under way.
  template <class Work>
  bool start(Work&& work) {
    if (running()) return false;
    control_ = std::make_unique<RunControl>();
    started_ = std::chrono::steady_clock::now();
    RunControl* control = control_.get();
    future_ =
        std::async(std::launch::async, [work = std::forward<Work>(work), control]() mutable { return work(*control); });
    return true;
  }
  // Started and not collected yet (its work may have returned already).
  bool running() const { return future_.valid(); }
  // Asks the work to stop: it sees control.cancel at its next look (between blocks, chunks, or a child's wait).
  void cancel() {
    if (control_) control_->cancel = true;
  }
  bool cancel_asked() const { return control_ && control_->cancel; }
  // The work has returned (`wait`: waits until it has). Nothing is collected.
  bool finished(bool wait = false) const {
    if (!future_.valid()) return false;
    if (wait) future_.wait();
    return future_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  }
  void wait() const {
    if (future_.valid()) future_.wait();
  }
  // The work has returned by then (waits until it has, or until then).
  template <class Clock, class Duration>
  bool finished_by(const std::chrono::time_point<Clock, Duration>& then) const {
    return future_.valid() && future_.wait_until(then) == std::future_status::ready;
  }
  // Waits for the work and returns its value, or throws what it threw (the command line's exit code follows the
  // exception's kind); the job is idle again.
  T get() { return future_.get(); }
  // The outcome of work that has returned, once (the job is idle again); nothing while it is under way.
  std::optional<JobOutcome<T>> collect(bool wait = false) {
    if (!finished(wait)) return std::nullopt;
    JobOutcome<T> out;
    try {
      out.value = future_.get();
    } catch (const RunCancelled&) { out.cancelled = true; } catch (const std::exception& e) {
      out.error = e.what();
      if (out.error.empty()) out.error = "the work failed without a message";
    } catch (...) { out.error = "the work failed without a message"; }
    return out;
  }
  // Progress the work reports through its control: the share of blocks run over all its chunks (0 until the
  // work says how many it expects).
  double progress() const {
    if (!control_) return 0.0;
    const std::uint64_t expected = control_->blocks_expected;
    return expected ? std::min(1.0, double(control_->blocks_run) / double(expected)) : 0.0;
  }
  const RunControl* control() const { return control_.get(); }
  // Seconds since the work started.
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count(); }
  std::chrono::steady_clock::time_point started() const { return started_; }

 private:
  mutable std::future<T> future_;
  std::unique_ptr<RunControl> control_;
  std::chrono::steady_clock::time_point started_{};
};

}  // namespace redlab
