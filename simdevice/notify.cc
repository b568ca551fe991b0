#include "simdevice/notify.h"

#include <utility>

namespace npud::sim {

void Notify::Set() {
  std::vector<Waker> waiters;
  {
    absl::MutexLock lock(&mu_);
    set_ = true;
    waiters.swap(waiters_);
  }
  for (Waker& wake : waiters) wake();
}

bool Notify::TakeOrNotify(Waker wake) {
  absl::MutexLock lock(&mu_);
  if (set_) {
    set_ = false;
    return true;
  }
  waiters_.push_back(std::move(wake));
  return false;
}

void Notify::Reset() {
  absl::MutexLock lock(&mu_);
  set_ = false;
}

namespace {

class RecordNotifyTask final : public Task {
 public:
  explicit RecordNotifyTask(std::shared_ptr<Notify> notify) : notify_(std::move(notify)) {}
  Progress Run(const Waker&, absl::Status* status) override {
    notify_->Set();
    *status = absl::OkStatus();
    return Progress::kDone;
  }
  bool RunsWhenStopped() const override { return true; }
  const char* name() const override { return "record-notify"; }
  TaskKind kind() const override { return TaskKind::kEventRecord; }

 private:
  const std::shared_ptr<Notify> notify_;
};

class WaitNotifyTask final : public Task {
 public:
  explicit WaitNotifyTask(std::shared_ptr<Notify> notify) : notify_(std::move(notify)) {}
  Progress Run(const Waker& wake, absl::Status* status) override {
    if (!notify_->TakeOrNotify(wake)) return Progress::kPending;
    *status = absl::OkStatus();
    return Progress::kDone;
  }
  bool WaitsOnOthers() const override { return true; }
  const char* name() const override { return "wait-notify"; }
  TaskKind kind() const override { return TaskKind::kWait; }

 private:
  const std::shared_ptr<Notify> notify_;
};

}  // namespace

std::unique_ptr<Task> MakeRecordNotifyTask(std::shared_ptr<Notify> notify) {
  return std::make_unique<RecordNotifyTask>(std::move(notify));
}

std::unique_ptr<Task> MakeWaitNotifyTask(std::shared_ptr<Notify> notify) {
  return std::make_unique<WaitNotifyTask>(std::move(notify));
}

}  // namespace npud::sim
