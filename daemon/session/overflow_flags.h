// overflow_flags.h
//
// OverflowFlags: a session's float overflow status per device — the flag an
// AI core raises when its floating-point arithmetic overflows (kernel_blocks.h
// reads it from the CPU). Kernel launches of the session raise it; the client
// reads and clears it (aclrtGetOverflowStatus, aclrtResetOverflowStatus). On
// the 910B the status is per process, so one session's launches never show in
// another's.
//
// Shared with launch tasks, which may outlive the session. Thread-safe.

#ifndef NPUD_DAEMON_SESSION_OVERFLOW_FLAGS_H_
#define NPUD_DAEMON_SESSION_OVERFLOW_FLAGS_H_

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"

namespace npud::daemon {

class OverflowFlags {
 public:
  void Raise(int device_id) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    raised_.insert(device_id);
  }
  // Whether the flag of `device_id` is up; `reset` lowers it.
  bool Test(int device_id, bool reset) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return reset ? raised_.erase(device_id) != 0 : raised_.contains(device_id);
  }

 private:
  absl::Mutex mu_;
  absl::flat_hash_set<int> raised_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_OVERFLOW_FLAGS_H_
