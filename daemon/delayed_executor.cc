#include "daemon/delayed_executor.h"

#include <utility>

namespace npud::daemon {

DelayedExecutor::DelayedExecutor() : thread_([this] { Loop(); }) {}

DelayedExecutor::~DelayedExecutor() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  thread_.join();
}

void DelayedExecutor::RunAfter(absl::Duration delay, std::function<void()> fn) {
  absl::MutexLock lock(&mu_);
  queue_.emplace(absl::Now() + delay, std::move(fn));
}

void DelayedExecutor::Loop() {
  absl::MutexLock lock(&mu_);
  while (!stopping_) {
    if (queue_.empty()) {
      auto wake = [this]()
                      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_ || !queue_.empty(); };
      mu_.Await(absl::Condition(&wake));
      continue;
    }
    const absl::Time due = queue_.begin()->first;
    if (absl::Now() < due) {
      // Wakes early when an earlier deadline is added or on shutdown.
      const size_t size = queue_.size();
      auto changed = [this, size]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || queue_.size() != size;
      };
      mu_.AwaitWithDeadline(absl::Condition(&changed), due);
      continue;
    }
    std::function<void()> fn = std::move(queue_.begin()->second);
    queue_.erase(queue_.begin());
    mu_.Unlock();
    fn();
    mu_.Lock();
  }
}

}  // namespace npud::daemon
