#include "simdevice/host_callback_task.h"

#include <utility>

namespace npud::sim {

void HostCallbackGate::Open() {
  Waker wake;
  {
    absl::MutexLock lock(&mu_);
    if (open_) return;
    open_ = true;
    wake = std::move(wake_);
  }
  if (wake) wake();
}

bool HostCallbackGate::OpenOrNotify(Waker wake) {
  absl::MutexLock lock(&mu_);
  if (open_) return true;
  wake_ = std::move(wake);
  return false;
}

namespace {

class HostCallbackTask final : public Task {
 public:
  HostCallbackTask(std::function<void(bool)> announce, std::shared_ptr<HostCallbackGate> gate)
      : announce_(std::move(announce)), gate_(std::move(gate)) {}

  Progress Run(const Waker& wake, absl::Status* status) override {
    if (!announced_) {
      announced_ = true;
      announce_(/*dropped=*/false);
    }
    if (gate_ != nullptr && !gate_->OpenOrNotify(wake)) return Progress::kPending;
    *status = absl::OkStatus();
    return Progress::kDone;
  }

  // A callback the client has already been told of runs there regardless;
  // only one it has not heard of is announced as dropped.
  void Cancel(const absl::Status& /*why*/) override {
    if (!announced_) {
      announced_ = true;
      announce_(/*dropped=*/true);
    }
  }

  // It waits for the client process: a force-destroyed stream or an ended
  // session must not wait for it.
  bool WaitsOnOthers() const override { return true; }
  const char* name() const override { return "host callback"; }

 private:
  const std::function<void(bool)> announce_;
  const std::shared_ptr<HostCallbackGate> gate_;
  // Run() and Cancel() are never concurrent (task.h).
  bool announced_ = false;
};

}  // namespace

std::unique_ptr<Task> MakeHostCallbackTask(std::function<void(bool dropped)> announce,
                                           std::shared_ptr<HostCallbackGate> gate) {
  return std::make_unique<HostCallbackTask>(std::move(announce), std::move(gate));
}

}  // namespace npud::sim
