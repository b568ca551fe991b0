#include "daemon/bounded_executor.h"

#include <utility>

#include "absl/strings/str_format.h"

namespace npud::daemon {

BoundedExecutor::BoundedExecutor(std::string name, int workers, size_t max_queued)
    : name_(std::move(name)), max_queued_(max_queued) {
  for (int i = 0; i < workers; ++i) workers_.emplace_back([this] { WorkerLoop(); });
}

BoundedExecutor::~BoundedExecutor() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    queue_.clear();
  }
  for (std::thread& worker : workers_) worker.join();
}

absl::Status BoundedExecutor::Schedule(uint64_t owner, std::function<void()> job) {
  absl::MutexLock lock(&mu_);
  // Waiting jobs beyond the idle workers that will take them at once.
  const size_t waiting = queue_.size() + 1;
  if (stopping_ || waiting > static_cast<size_t>(idle_) + max_queued_) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "%s: all %d workers busy and %d jobs queued", name_, workers_.size(), queue_.size()));
  }
  queue_.push_back(Job{owner, std::move(job)});
  return absl::OkStatus();
}

void BoundedExecutor::Cancel(uint64_t owner) {
  std::deque<Job> dropped;  // destroyed after the lock
  absl::MutexLock lock(&mu_);
  for (auto it = queue_.begin(); it != queue_.end();) {
    if (it->owner == owner) {
      dropped.push_back(std::move(*it));
      it = queue_.erase(it);
    } else {
      ++it;
    }
  }
}

size_t BoundedExecutor::load() const {
  absl::MutexLock lock(&mu_);
  return queue_.size() + running_;
}

void BoundedExecutor::WorkerLoop() {
  absl::MutexLock lock(&mu_);
  while (true) {
    ++idle_;
    auto ready = [this]()
                     ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_ || !queue_.empty(); };
    mu_.Await(absl::Condition(&ready));
    --idle_;
    if (stopping_) return;
    Job job = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    mu_.Unlock();
    job.run();
    job.run = nullptr;  // what the job captured dies outside the lock
    mu_.Lock();
    --running_;
  }
}

}  // namespace npud::daemon
