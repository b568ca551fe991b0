#include "simdevice/event.h"

#include <time.h>

#include <utility>

namespace npud::sim {

uint64_t MonotonicMicros() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

uint64_t Event::SubmitRecord() {
  absl::MutexLock lock(&mu_);
  reset_pending_ = false;
  return ++submitted_;
}

void Event::SubmitReset() {
  absl::MutexLock lock(&mu_);
  reset_pending_ = true;
}

uint64_t Event::WaitTarget() const {
  if ((flags_ & kFlagEvent) != 0) return kUntilSet;
  absl::MutexLock lock(&mu_);
  if (submitted_ == 0) return 0;
  return reset_pending_ ? submitted_ + 1 : submitted_;
}

uint64_t Event::SyncTarget() const {
  absl::MutexLock lock(&mu_);
  return submitted_;
}

void Event::CompleteRecord(uint64_t ticket) {
  std::vector<Waker> ready;
  {
    absl::MutexLock lock(&mu_);
    if (ticket > executed_) executed_ = ticket;
    reset_done_ = false;
    timestamp_us_ = MonotonicMicros();
    for (auto it = waiters_.begin(); it != waiters_.end();) {
      if (it->target <= executed_ || it->target == kUntilSet) {
        ready.push_back(std::move(it->wake));
        it = waiters_.erase(it);
      } else {
        ++it;
      }
    }
  }
  // Woken outside the lock: a waker may run a stream inline.
  for (auto& wake : ready) wake();
}

void Event::CompleteReset() {
  absl::MutexLock lock(&mu_);
  reset_done_ = true;
}

bool Event::ReachedOrNotify(uint64_t target, Waker wake) {
  absl::MutexLock lock(&mu_);
  if (target == kUntilSet ? executed_ > 0 && !reset_done_ : target <= executed_) return true;
  waiters_.push_back(Waiter{target, std::move(wake)});
  return false;
}

bool Event::Complete() const {
  absl::MutexLock lock(&mu_);
  return submitted_ > 0 && executed_ >= submitted_ && !reset_done_ && !reset_pending_;
}

bool Event::Recorded() const {
  absl::MutexLock lock(&mu_);
  return submitted_ > 0;
}

bool Event::RecordsExecuted() const {
  absl::MutexLock lock(&mu_);
  return submitted_ > 0 && executed_ >= submitted_;
}

uint64_t Event::timestamp_us() const {
  absl::MutexLock lock(&mu_);
  return timestamp_us_;
}

}  // namespace npud::sim
