#include "simdevice/count_notify.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"

namespace npud::sim {
namespace {

bool Meets(uint32_t count, CountNotify::WaitMode mode, uint32_t value) {
  switch (mode) {
    case CountNotify::WaitMode::kLess:
      return count < value;
    case CountNotify::WaitMode::kEqual:
      return count == value;
    case CountNotify::WaitMode::kGreater:
      return count > value;
    case CountNotify::WaitMode::kGreaterOrEqual:
      return count >= value;
    case CountNotify::WaitMode::kAllBits:
      return (count & value) == value;
  }
  return false;
}

}  // namespace

void CountNotify::Record(RecordMode mode, uint32_t value) {
  {
    absl::MutexLock lock(&mu_);
    switch (mode) {
      case RecordMode::kSet:
        count_ = value;
        break;
      case RecordMode::kAdd:
        count_ += value;
        break;
      case RecordMode::kOr:
        count_ |= value;
        break;
      case RecordMode::kAnd:
        count_ &= value;
        break;
    }
  }
  Changed();
}

void CountNotify::Reset() {
  {
    absl::MutexLock lock(&mu_);
    count_ = 0;
  }
  Changed();
}

uint32_t CountNotify::count() const {
  absl::MutexLock lock(&mu_);
  return count_;
}

void CountNotify::Changed() {
  std::vector<Waker> waiters;
  {
    absl::MutexLock lock(&mu_);
    waiters.swap(waiters_);
  }
  for (Waker& wake : waiters) wake();
}

bool CountNotify::CheckOrNotify(WaitMode mode, uint32_t value, bool clear, Waker wake) {
  absl::MutexLock lock(&mu_);
  if (Meets(count_, mode, value)) {
    if (clear) count_ = 0;
    return true;
  }
  waiters_.push_back(std::move(wake));
  return false;
}

namespace {

class CountWaitTask final : public Task {
 public:
  CountWaitTask(std::shared_ptr<CountNotify> notify, CountNotify::WaitMode mode, uint32_t value,
                bool clear, absl::Duration timeout, WakeAt wake_at)
      : notify_(std::move(notify)),
        mode_(mode),
        value_(value),
        clear_(clear),
        timeout_(timeout),
        wake_at_(std::move(wake_at)) {}

  Progress Run(const Waker& wake, absl::Status* status) override {
    if (notify_->CheckOrNotify(mode_, value_, clear_, wake)) {
      *status = absl::OkStatus();
      return Progress::kDone;
    }
    if (timeout_ > absl::ZeroDuration()) {
      const absl::Time now = absl::Now();
      if (deadline_ == absl::InfiniteFuture()) {
        deadline_ = now + timeout_;
        wake_at_(deadline_, wake);
      } else if (now >= deadline_) {
        *status = AclError(kRtWaitTimeout,
                           absl::StrFormat("count notify %d did not reach the awaited value %u "
                                           "within %s (count %u)",
                                           notify_->id(), value_, absl::FormatDuration(timeout_),
                                           notify_->count()));
        return Progress::kDone;
      }
    }
    return Progress::kPending;
  }
  bool WaitsOnOthers() const override { return true; }
  const char* name() const override { return "count-notify-wait"; }
  TaskKind kind() const override { return TaskKind::kWait; }

 private:
  const std::shared_ptr<CountNotify> notify_;
  const CountNotify::WaitMode mode_;
  const uint32_t value_;
  const bool clear_;
  const absl::Duration timeout_;
  const WakeAt wake_at_;
  absl::Time deadline_ = absl::InfiniteFuture();
};

}  // namespace

std::unique_ptr<Task> MakeCountRecordTask(std::shared_ptr<CountNotify> notify,
                                          CountNotify::RecordMode mode, uint32_t value) {
  return std::make_unique<FunctionTask>("count-notify-record",
                                        [notify = std::move(notify), mode, value] {
                                          notify->Record(mode, value);
                                          return absl::OkStatus();
                                        });
}

std::unique_ptr<Task> MakeCountResetTask(std::shared_ptr<CountNotify> notify) {
  return std::make_unique<FunctionTask>("count-notify-reset", [notify = std::move(notify)] {
    notify->Reset();
    return absl::OkStatus();
  });
}

std::unique_ptr<Task> MakeCountWaitTask(std::shared_ptr<CountNotify> notify,
                                        CountNotify::WaitMode mode, uint32_t value, bool clear,
                                        absl::Duration timeout, WakeAt wake_at) {
  return std::make_unique<CountWaitTask>(std::move(notify), mode, value, clear, timeout,
                                         std::move(wake_at));
}

}  // namespace npud::sim
