#include "simdevice/detached_task.h"

#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace npud::sim {
namespace {

class Detached : public std::enable_shared_from_this<Detached> {
 public:
  Detached(std::shared_ptr<Task> task, std::function<void(const absl::Status&)> done)
      : task_(std::move(task)), done_(std::move(done)) {}

  // Runs the task until it is done or parks. A wake while it runs makes the
  // running thread go round once more instead of running it a second time.
  void Step() ABSL_LOCKS_EXCLUDED(mu_) {
    {
      absl::MutexLock lock(&mu_);
      if (running_) {
        woken_ = true;
        return;
      }
      running_ = true;
    }
    while (true) {
      absl::Status status;
      // The waker keeps the task alive while it is parked: whoever will
      // wake it holds the only reference.
      const Task::Progress progress =
          task_->Run([self = shared_from_this()] { self->Step(); }, &status);
      if (progress == Task::Progress::kDone) {
        done_(status);
        return;  // running_ stays set: nothing runs it again
      }
      absl::MutexLock lock(&mu_);
      if (!woken_) {
        running_ = false;
        return;
      }
      woken_ = false;
    }
  }

 private:
  const std::shared_ptr<Task> task_;
  const std::function<void(const absl::Status&)> done_;
  absl::Mutex mu_;
  bool running_ ABSL_GUARDED_BY(mu_) = false;
  bool woken_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace

void RunDetached(std::shared_ptr<Task> task, std::function<void(const absl::Status&)> done) {
  auto detached = std::make_shared<Detached>(std::move(task), std::move(done));
  detached->Step();
}

}  // namespace npud::sim
