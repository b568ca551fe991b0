#include "daemon/bounded_executor.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_format.h"

namespace npud::daemon {

BoundedExecutor::BoundedExecutor(std::string name, int workers, size_t max_queued)
    : name_(std::move(name)), max_queued_(max_queued) {
  for (int i = 0; i < workers; ++i) workers_.emplace_back([this] { WorkerLoop(); });
}

BoundedExecutor::~BoundedExecutor() {
  absl::flat_hash_map<uint64_t, std::deque<Job>> dropped;  // destroyed after the lock
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    dropped.swap(waiting_);
    turns_.clear();
    queued_ = 0;
  }
  for (std::thread& worker : workers_) worker.join();
}

absl::Status BoundedExecutor::Schedule(uint64_t owner, std::function<void()> job) {
  absl::MutexLock lock(&mu_);
  // Waiting jobs beyond the idle workers that will take them at once.
  if (stopping_ || queued_ + 1 > static_cast<size_t>(idle_) + max_queued_) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "%s: all %d workers busy and %d jobs queued", name_, workers_.size(), queued_));
  }
  std::deque<Job>& mine = waiting_[owner];
  if (max_queued_ >= 2 && mine.size() + 1 > static_cast<size_t>(idle_) + max_queued_ / 2) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("%s: this session already has %d jobs queued, half of the places "
                        "every session shares",
                        name_, mine.size()));
  }
  if (mine.empty()) turns_.push_back(owner);
  mine.push_back(Job{owner, std::move(job)});
  ++queued_;
  return absl::OkStatus();
}

void BoundedExecutor::Cancel(uint64_t owner) {
  std::deque<Job> dropped;  // destroyed after the lock
  absl::MutexLock lock(&mu_);
  const auto it = waiting_.find(owner);
  if (it == waiting_.end()) return;
  dropped.swap(it->second);
  waiting_.erase(it);
  queued_ -= dropped.size();
  turns_.erase(std::remove(turns_.begin(), turns_.end(), owner), turns_.end());
}

size_t BoundedExecutor::load() const {
  absl::MutexLock lock(&mu_);
  return queued_ + running_;
}

void BoundedExecutor::WorkerLoop() {
  absl::MutexLock lock(&mu_);
  while (true) {
    ++idle_;
    auto ready = [this]()
                     ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_ || !turns_.empty(); };
    mu_.Await(absl::Condition(&ready));
    --idle_;
    if (stopping_) return;
    // The session whose turn it is gives one job and, if it has more, goes
    // to the back of the line.
    const uint64_t owner = turns_.front();
    turns_.pop_front();
    std::deque<Job>& mine = waiting_[owner];
    Job job = std::move(mine.front());
    mine.pop_front();
    --queued_;
    if (mine.empty()) {
      waiting_.erase(owner);
    } else {
      turns_.push_back(owner);
    }
    ++running_;
    mu_.Unlock();
    job.run();
    job.run = nullptr;  // what the job captured dies outside the lock
    mu_.Lock();
    --running_;
  }
}

}  // namespace npud::daemon
