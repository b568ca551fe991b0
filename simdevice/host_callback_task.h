// host_callback_task.h
//
// A host callback in a stream (aclrtLaunchCallback, aclrtLaunchHostFunc).
// The function runs in the client process, so the task only announces that
// the stream has reached it and, when blocking, holds the stream until the
// client says the function has returned (HostCallbackGate::Open). The
// stream does not poll meanwhile: it is parked until the gate opens.

#ifndef NPUD_SIMDEVICE_HOST_CALLBACK_TASK_H_
#define NPUD_SIMDEVICE_HOST_CALLBACK_TASK_H_

#include <functional>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "simdevice/task.h"

namespace npud::sim {

// What a blocking callback's task waits for. Shared by the task and
// whoever hears from the client.
class HostCallbackGate {
 public:
  // Lets the task finish. Thread-safe; later calls do nothing. Opening a
  // gate before its stream reaches the task lets it pass without waiting.
  void Open() ABSL_LOCKS_EXCLUDED(mu_);

  // True if open; otherwise `wake` is called once it opens.
  bool OpenOrNotify(Waker wake) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  absl::Mutex mu_;
  bool open_ ABSL_GUARDED_BY(mu_) = false;
  Waker wake_ ABSL_GUARDED_BY(mu_);
};

// `announce(dropped)` is called once: with false when the stream reaches
// the task, or with true if the stream drops the task before (stop on
// failure, forced destruction). A null `gate` makes the callback
// non-blocking: the stream goes on as soon as it has announced it.
std::unique_ptr<Task> MakeHostCallbackTask(std::function<void(bool dropped)> announce,
                                           std::shared_ptr<HostCallbackGate> gate);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_HOST_CALLBACK_TASK_H_
