// drain_fence.h
//
// DrainFence: the work a session had queued on its streams at one moment;
// others wait until all of it has finished. Physical memory a session
// exports carries the fence of its export: an import is answered once the
// work the exporter queued before exporting (typically the kernel that
// fills the memory) is done, so the importer sees the memory as the
// exporter's program left it — as on a device, where that kernel is long
// done by the time another process has the handle.
//
// Thread-safe.

#ifndef NPUD_DAEMON_DRAIN_FENCE_H_
#define NPUD_DAEMON_DRAIN_FENCE_H_

#include <functional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace npud::daemon {

class DrainFence {
 public:
  // The work has finished: runs the waiting functions.
  void Pass() ABSL_LOCKS_EXCLUDED(mu_) {
    std::vector<std::function<void()>> waiting;
    {
      absl::MutexLock lock(&mu_);
      passed_ = true;
      waiting.swap(waiting_);
    }
    for (auto& fn : waiting) fn();
  }

  // Runs `fn` once the fence is passed: at once if it is, else on the
  // thread that passes it.
  void WhenPassed(std::function<void()> fn) ABSL_LOCKS_EXCLUDED(mu_) {
    {
      absl::MutexLock lock(&mu_);
      if (!passed_) {
        waiting_.push_back(std::move(fn));
        return;
      }
    }
    fn();
  }

 private:
  absl::Mutex mu_;
  bool passed_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::function<void()>> waiting_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_DRAIN_FENCE_H_
