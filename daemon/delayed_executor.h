// delayed_executor.h
//
// DelayedExecutor: runs callbacks after a delay on one background thread.
// Used for the timeouts of synchronize calls. Callbacks must not block.
//
// Thread-safe. The destructor drops callbacks that have not run yet.

#ifndef NPUD_DAEMON_DELAYED_EXECUTOR_H_
#define NPUD_DAEMON_DELAYED_EXECUTOR_H_

#include <functional>
#include <map>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace npud::daemon {

class DelayedExecutor {
 public:
  DelayedExecutor();
  ~DelayedExecutor();
  DelayedExecutor(const DelayedExecutor&) = delete;
  DelayedExecutor& operator=(const DelayedExecutor&) = delete;

  void RunAfter(absl::Duration delay, std::function<void()> fn) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  void Loop() ABSL_LOCKS_EXCLUDED(mu_);

  absl::Mutex mu_;
  std::multimap<absl::Time, std::function<void()>> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_DELAYED_EXECUTOR_H_
