// notify.h
//
// Notify: a device flag one stream sets (aclrtRecordNotify) and another
// waits for and clears (aclrtWaitAndResetNotify), possibly in another
// process. Unlike an event, a record before the wait is not lost and a wait
// consumes it.
//
// Thread-safe.

#ifndef NPUD_SIMDEVICE_NOTIFY_H_
#define NPUD_SIMDEVICE_NOTIFY_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "simdevice/task.h"

namespace npud::sim {

class Notify {
 public:
  Notify(int device_id, uint64_t id) : device_id_(device_id), id_(id) {}
  Notify(const Notify&) = delete;
  Notify& operator=(const Notify&) = delete;

  int device_id() const { return device_id_; }
  uint64_t id() const { return id_; }

  void Set() ABSL_LOCKS_EXCLUDED(mu_);
  // Clears the flag if set and returns true; otherwise `wake` is called
  // once it is set.
  bool TakeOrNotify(Waker wake) ABSL_LOCKS_EXCLUDED(mu_);
  void Reset() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  const int device_id_;
  const uint64_t id_;
  absl::Mutex mu_;
  bool set_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<Waker> waiters_ ABSL_GUARDED_BY(mu_);
};

std::unique_ptr<Task> MakeRecordNotifyTask(std::shared_ptr<Notify> notify);
std::unique_ptr<Task> MakeWaitNotifyTask(std::shared_ptr<Notify> notify);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_NOTIFY_H_
