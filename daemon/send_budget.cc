#include "daemon/send_budget.h"

#include <algorithm>
#include <utility>

namespace npud::daemon {

bool SendBudget::Add(size_t bytes) {
  absl::MutexLock lock(&mu_);
  if (unread_ + bytes > hard_limit_) return false;
  unread_ += bytes;
  return true;
}

void SendBudget::Remove(size_t bytes) {
  {
    absl::MutexLock lock(&mu_);
    unread_ -= std::min(unread_, bytes);
  }
  WakeIfRoom();
}

void SendBudget::End() {
  {
    absl::MutexLock lock(&mu_);
    ended_ = true;
    unread_ = 0;
  }
  WakeIfRoom();
}

size_t SendBudget::unread() const {
  absl::MutexLock lock(&mu_);
  return unread_;
}

bool SendBudget::WaitForRoom(absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return RoomLocked(); };
  return mu_.AwaitWithTimeout(absl::Condition(&room), timeout);
}

bool SendBudget::ReadyOrWake(std::function<void()> wake) {
  absl::MutexLock lock(&mu_);
  if (RoomLocked()) return true;
  waiters_.push_back(std::move(wake));
  return false;
}

void SendBudget::WakeIfRoom() {
  std::vector<std::function<void()>> wake;
  {
    absl::MutexLock lock(&mu_);
    if (!RoomLocked() || waiters_.empty()) return;
    wake.swap(waiters_);
  }
  for (auto& fn : wake) fn();
}

}  // namespace npud::daemon
