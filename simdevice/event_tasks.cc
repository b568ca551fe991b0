#include "simdevice/event_tasks.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"

namespace npud::sim {
namespace {

class RecordEventTask final : public Task {
 public:
  explicit RecordEventTask(std::shared_ptr<Event> event)
      : event_(std::move(event)), ticket_(event_->SubmitRecord()) {}

  Progress Run(const Waker&, absl::Status* status) override {
    event_->CompleteRecord(ticket_);
    *status = absl::OkStatus();
    return Progress::kDone;
  }
  // A record dropped by force-destroy still completes, so no other stream
  // waits forever for it.
  void Cancel(const absl::Status&) override { event_->CompleteRecord(ticket_); }
  bool RunsWhenStopped() const override { return true; }
  const char* name() const override { return "record-event"; }
  TaskKind kind() const override { return TaskKind::kEventRecord; }

 private:
  const std::shared_ptr<Event> event_;
  const uint64_t ticket_;
};

class WaitEventTask final : public Task {
 public:
  WaitEventTask(std::shared_ptr<Event> event, absl::Duration timeout, WakeAt wake_at)
      : event_(std::move(event)),
        target_(event_->WaitTarget()),
        timeout_(timeout),
        wake_at_(std::move(wake_at)) {}

  Progress Run(const Waker& wake, absl::Status* status) override {
    if (target_ == 0 || event_->ReachedOrNotify(target_, wake)) {
      *status = absl::OkStatus();
      return Progress::kDone;
    }
    if (timeout_ > absl::ZeroDuration() && wake_at_) {
      const absl::Time now = absl::Now();
      if (deadline_ == absl::InfiniteFuture()) {
        deadline_ = now + timeout_;
        wake_at_(deadline_, wake);
      } else if (now >= deadline_) {
        *status =
            AclError(kRtWaitTimeout, absl::StrFormat("the awaited event was not recorded within %s",
                                                     absl::FormatDuration(timeout_)));
        return Progress::kDone;
      }
    }
    return Progress::kPending;
  }
  bool WaitsOnOthers() const override { return true; }
  const char* name() const override { return "wait-event"; }
  TaskKind kind() const override { return TaskKind::kWait; }

 private:
  const std::shared_ptr<Event> event_;
  const uint64_t target_;
  const absl::Duration timeout_;
  const WakeAt wake_at_;
  absl::Time deadline_ = absl::InfiniteFuture();
};

class ResetEventTask final : public Task {
 public:
  explicit ResetEventTask(std::shared_ptr<Event> event) : event_(std::move(event)) {
    event_->SubmitReset();
  }

  Progress Run(const Waker&, absl::Status* status) override {
    event_->CompleteReset();
    *status = absl::OkStatus();
    return Progress::kDone;
  }
  const char* name() const override { return "reset-event"; }

 private:
  const std::shared_ptr<Event> event_;
};

}  // namespace

std::unique_ptr<Task> MakeRecordEventTask(std::shared_ptr<Event> event) {
  return std::make_unique<RecordEventTask>(std::move(event));
}

std::unique_ptr<Task> MakeWaitEventTask(std::shared_ptr<Event> event, absl::Duration timeout,
                                        WakeAt wake_at) {
  return std::make_unique<WaitEventTask>(std::move(event), timeout, std::move(wake_at));
}

std::unique_ptr<Task> MakeResetEventTask(std::shared_ptr<Event> event) {
  return std::make_unique<ResetEventTask>(std::move(event));
}

}  // namespace npud::sim
