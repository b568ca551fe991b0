#include "client/core/process_snapshot.h"

#include <cstdlib>
#include <mutex>
#include <string>

#include "absl/strings/str_format.h"
#include "client/core/client_log.h"
#include "client/core/daemon_calls.h"
#include "client/core/runtime.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

const char* StageName(int stage) {
  static const char* const kNames[] = {"LOCK_PRE",    "BACKUP_PRE",   "BACKUP_POST",
                                       "RESTORE_PRE", "RESTORE_POST", "UNLOCK_POST"};
  return kNames[stage];
}

absl::Status CheckStage(int stage) {
  if (stage >= ProcessSnapshot::kLockPre && stage < ProcessSnapshot::kStageCount) {
    return absl::OkStatus();
  }
  return AclError(kRtParamInvalid, absl::StrFormat("snapshot stage %d is not in [0, %d]", stage,
                                                   ProcessSnapshot::kStageCount - 1));
}

absl::Status AskDaemon(v1::Snapshot::Action action) {
  v1::Call call;
  call.mutable_snapshot()->set_action(action);
  return CallDaemon(std::move(call)).status();
}

}  // namespace

std::atomic<bool> ProcessSnapshot::held_{false};

ProcessSnapshot& ProcessSnapshot::Get() {
  static ProcessSnapshot* const instance = new ProcessSnapshot();
  return *instance;
}

void ProcessSnapshot::WaitUntilRunning(const char* function) {
  absl::MutexLock lock(&mu_);
  if (state_ == State::kRunning) return;
  ClientLog().info(
      "{} waits: the process is locked for a snapshot until aclrtSnapShotProcessUnlock", function);
  mu_.Await(absl::Condition(
      +[](State* state) { return *state == State::kRunning; }, &state_));
}

ProcessSnapshot::State ProcessSnapshot::state() const {
  absl::MutexLock lock(&mu_);
  return state_;
}

void ProcessSnapshot::SetState(State state) {
  absl::MutexLock lock(&mu_);
  state_ = state;
  held_.store(state != State::kRunning, std::memory_order_release);
}

void ProcessSnapshot::UnlockAtExit() { Get().SetState(State::kRunning); }

absl::Status ProcessSnapshot::RunCallbacks(Stage stage) {
  std::vector<std::pair<Callback, void*>> callbacks;
  {
    absl::MutexLock lock(&mu_);
    callbacks = callbacks_[stage];
  }
  if (callbacks.empty()) return absl::OkStatus();
  for (const auto& [callback, args] : callbacks) {
    for (const int32_t device : Runtime::Get().objects().OpenDevices()) {
      const uint32_t result = callback(device, args);
      if (result != 0) {
        return AclError(kSnapshotCallbackFailed,
                        absl::StrFormat("the %s snapshot callback returned %u on device %d",
                                        StageName(stage), result, device));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status ProcessSnapshot::Lock() {
  absl::MutexLock step(&step_mu_);
  // CANN runs the callbacks before it looks at the state.
  NPUD_RETURN_IF_ERROR(RunCallbacks(kLockPre));
  {
    absl::MutexLock lock(&mu_);
    if (state_ != State::kRunning) {
      return AclError(kSnapshotLockFailed, "the process is already locked for a snapshot");
    }
  }
  static std::once_flag at_exit;
  std::call_once(at_exit, [] { std::atexit(&ProcessSnapshot::UnlockAtExit); });
  SetState(State::kLocked);
  return absl::OkStatus();
}

absl::Status ProcessSnapshot::Unlock() {
  absl::MutexLock step(&step_mu_);
  if (state() == State::kRunning) {
    return AclError(kSnapshotUnlockFailed, "the process is not locked for a snapshot");
  }
  SetState(State::kRunning);
  if (backup_kept_) {
    backup_kept_ = false;
    const absl::Status dropped = AskDaemon(v1::Snapshot::ACTION_DISCARD);
    if (!dropped.ok()) ClientLog().warn("npud kept the snapshot backup: {}", dropped.ToString());
  }
  return RunCallbacks(kUnlockPost);
}

absl::Status ProcessSnapshot::Backup() {
  absl::MutexLock step(&step_mu_);
  if (state() != State::kLocked) {
    return AclError(kSnapshotBackupFailed,
                    "a snapshot backup needs the process locked (aclrtSnapShotProcessLock) and "
                    "not yet backed up");
  }
  NPUD_RETURN_IF_ERROR(RunCallbacks(kBackupPre));
  backup_kept_ = true;
  NPUD_RETURN_IF_ERROR(AskDaemon(v1::Snapshot::ACTION_BACKUP));
  NPUD_RETURN_IF_ERROR(RunCallbacks(kBackupPost));
  SetState(State::kBackedUp);
  return absl::OkStatus();
}

absl::Status ProcessSnapshot::Restore() {
  absl::MutexLock step(&step_mu_);
  if (state() != State::kBackedUp) {
    return AclError(kSnapshotRestoreFailed,
                    "a snapshot restore needs a backup (aclrtSnapShotProcessBackup) first");
  }
  NPUD_RETURN_IF_ERROR(RunCallbacks(kRestorePre));
  NPUD_RETURN_IF_ERROR(AskDaemon(v1::Snapshot::ACTION_RESTORE));
  NPUD_RETURN_IF_ERROR(RunCallbacks(kRestorePost));
  SetState(State::kLocked);
  return absl::OkStatus();
}

absl::Status ProcessSnapshot::RegisterCallback(int stage, Callback callback, void* args) {
  NPUD_RETURN_IF_ERROR(CheckStage(stage));
  if (callback == nullptr) return AclError(kRtParamInvalid, "the snapshot callback is null");
  absl::MutexLock lock(&mu_);
  for (const auto& [registered, unused] : callbacks_[stage]) {
    if (registered == callback) {
      return AclError(
          kSnapshotRegisterCallbackFailed,
          absl::StrFormat("the callback is already registered for stage %s", StageName(stage)));
    }
  }
  callbacks_[stage].emplace_back(callback, args);
  return absl::OkStatus();
}

absl::Status ProcessSnapshot::UnregisterCallback(int stage, Callback callback) {
  NPUD_RETURN_IF_ERROR(CheckStage(stage));
  if (callback == nullptr) return AclError(kRtParamInvalid, "the snapshot callback is null");
  absl::MutexLock lock(&mu_);
  auto& list = callbacks_[stage];
  for (auto it = list.begin(); it != list.end(); ++it) {
    if (it->first == callback) {
      list.erase(it);
      return absl::OkStatus();
    }
  }
  return AclError(kRtParamInvalid,
                  absl::StrFormat("the callback is not registered for stage %s", StageName(stage)));
}

}  // namespace npud::client
