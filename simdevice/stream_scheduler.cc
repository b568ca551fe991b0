#include "simdevice/stream_scheduler.h"

#include <utility>

#include "simdevice/stream.h"

namespace npud::sim {

StreamScheduler::StreamScheduler(int workers) {
  if (workers < 1) workers = 1;
  threads_.reserve(workers);
  for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { WorkerLoop(); });
}

StreamScheduler::~StreamScheduler() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  for (auto& thread : threads_) thread.join();
}

void StreamScheduler::Enqueue(std::shared_ptr<Stream> stream) {
  absl::MutexLock lock(&mu_);
  ready_.push_back(std::move(stream));
}

void StreamScheduler::WorkerLoop() {
  while (true) {
    std::shared_ptr<Stream> stream;
    {
      absl::MutexLock lock(&mu_);
      auto has_work = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return !ready_.empty() || stopping_;
      };
      mu_.Await(absl::Condition(&has_work));
      if (ready_.empty()) return;  // Stopping and nothing left.
      stream = std::move(ready_.front());
      ready_.pop_front();
    }
    stream->RunSome();
  }
}

}  // namespace npud::sim
