// process_snapshot.h
//
// ProcessSnapshot: CANN's process snapshots (aclrtSnapShot*). The process
// goes RUNNING -> LOCKED (Lock) -> BACKED_UP (Backup) -> LOCKED (Restore),
// and back to RUNNING from LOCKED or BACKED_UP (Unlock); a step from any
// other state fails with its ACL_ERROR_SNAPSHOT_* code.
//
// While the process is not RUNNING, the calls CANN holds — setting and
// resetting devices, allocating, freeing and copying memory, creating and
// destroying contexts, streams, events and notifies, submitting tasks —
// wait in WaitIfLocked until Unlock, on every thread: also on the thread
// that locked, as in CANN. Queries, synchronizes and the snapshot calls
// themselves go on.
//
// Backup has npud save the contents of the process's device allocations
// once its streams have drained (daemon/session/memory_snapshot.h);
// Restore writes them back to the same addresses. Unlock drops the copy.
//
// Callbacks registered for a stage run on the thread of the step, once per
// device the process has set, before (..._PRE) or after (..._POST) it. One
// that returns nonzero fails the step with ACL_ERROR_SNAPSHOT_CALLBACK_
// FAILED before the state changes.
//
// Process-wide and thread-safe; never destroyed. At exit a locked process
// is unlocked, so that threads held at the gate can finish.

#ifndef NPUD_CLIENT_CORE_PROCESS_SNAPSHOT_H_
#define NPUD_CLIENT_CORE_PROCESS_SNAPSHOT_H_

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/base/optimization.h"
#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

namespace npud::client {

class ProcessSnapshot {
 public:
  // aclrtSnapShotCallBack.
  using Callback = uint32_t (*)(int32_t device, void* args);
  // aclrtSnapShotStage.
  enum Stage : int {
    kLockPre = 0,
    kBackupPre,
    kBackupPost,
    kRestorePre,
    kRestorePost,
    kUnlockPost,
    kStageCount,
  };

  static ProcessSnapshot& Get();

  // First thing in every ACL function CANN holds while the process is
  // locked (the generated entry points, tools/gen_abi.py).
  static void WaitIfLocked(const char* function) {
    if (ABSL_PREDICT_TRUE(!held_.load(std::memory_order_acquire))) return;
    Get().WaitUntilRunning(function);
  }

  absl::Status Lock() ABSL_LOCKS_EXCLUDED(step_mu_, mu_);
  absl::Status Unlock() ABSL_LOCKS_EXCLUDED(step_mu_, mu_);
  absl::Status Backup() ABSL_LOCKS_EXCLUDED(step_mu_, mu_);
  absl::Status Restore() ABSL_LOCKS_EXCLUDED(step_mu_, mu_);

  // ACL_ERROR_RT_PARAM_INVALID for a stage out of range or a null
  // callback; ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED if `callback` is
  // already registered for `stage`.
  absl::Status RegisterCallback(int stage, Callback callback, void* args) ABSL_LOCKS_EXCLUDED(mu_);
  // ACL_ERROR_RT_PARAM_INVALID unless `callback` is registered for `stage`.
  absl::Status UnregisterCallback(int stage, Callback callback) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  enum class State { kRunning, kLocked, kBackedUp };

  ProcessSnapshot() = default;
  void WaitUntilRunning(const char* function) ABSL_LOCKS_EXCLUDED(mu_);
  // Runs the callbacks of `stage` for each device the process has set.
  absl::Status RunCallbacks(Stage stage) ABSL_LOCKS_EXCLUDED(mu_);
  State state() const ABSL_LOCKS_EXCLUDED(mu_);
  void SetState(State state) ABSL_LOCKS_EXCLUDED(mu_);
  static void UnlockAtExit();

  // True while the state is not kRunning: the gate's fast path.
  static std::atomic<bool> held_;
  // One step at a time, callbacks and daemon calls included.
  absl::Mutex step_mu_;
  mutable absl::Mutex mu_ ABSL_ACQUIRED_AFTER(step_mu_);
  State state_ ABSL_GUARDED_BY(mu_) = State::kRunning;
  // Whether npud may hold a backup of this process (Unlock drops it).
  bool backup_kept_ ABSL_GUARDED_BY(step_mu_) = false;
  std::vector<std::pair<Callback, void*>> callbacks_[kStageCount] ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_PROCESS_SNAPSHOT_H_
