#include "simdevice/poller.h"

#include <utility>

#include "absl/time/clock.h"

namespace npud::sim {

Poller::Poller() : thread_([this] { Loop(); }) {}

Poller::~Poller() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  thread_.join();
}

void Poller::WakeSoon(Waker wake) {
  absl::MutexLock lock(&mu_);
  waiting_.push_back(std::move(wake));
}

void Poller::Loop() {
  while (true) {
    std::vector<Waker> due;
    {
      absl::MutexLock lock(&mu_);
      auto work = [this]()
                      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_ || !waiting_.empty(); };
      mu_.Await(absl::Condition(&work));
      if (stopping_) return;
      due.swap(waiting_);
    }
    absl::SleepFor(absl::Microseconds(100));
    for (Waker& wake : due) wake();
  }
}

}  // namespace npud::sim
