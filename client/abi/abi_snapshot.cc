// Process snapshots (aclrtSnapShot*): argument checks, then the process's
// ProcessSnapshot (client/core/process_snapshot.h).

#include <unistd.h>

#include <string>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/process_snapshot.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::ProcessSnapshot;
using npud::client::Result;

namespace {

// CANN snapshots only the calling process, and its reserved pointers must
// be null.
absl::Status CheckArguments(int pid, const void* reserved, const char* reserved_name) {
  if (pid != static_cast<int>(getpid())) {
    return npud::AclError(npud::kAclInvalidParam,
                          "pid " + std::to_string(pid) +
                              " is not this process: snapshots of other processes are not "
                              "supported");
  }
  if (reserved != nullptr) {
    return npud::AclError(npud::kAclInvalidParam,
                          std::string(reserved_name) + " is reserved and must be null");
  }
  return absl::OkStatus();
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtSnapShotProcessLock(int pid, void* reserve) {
  absl::Status checked = CheckArguments(pid, reserve, "reserve");
  if (!checked.ok()) return Result(checked, __func__);
  return Result(ProcessSnapshot::Get().Lock(), __func__);
}

aclError aclrtSnapShotProcessUnlock(int pid, void* reserve) {
  absl::Status checked = CheckArguments(pid, reserve, "reserve");
  if (!checked.ok()) return Result(checked, __func__);
  return Result(ProcessSnapshot::Get().Unlock(), __func__);
}

aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs* args) {
  absl::Status checked = CheckArguments(pid, args, "args");
  if (!checked.ok()) return Result(checked, __func__);
  return Result(ProcessSnapshot::Get().Backup(), __func__);
}

aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs* args) {
  absl::Status checked = CheckArguments(pid, args, "args");
  if (!checked.ok()) return Result(checked, __func__);
  return Result(ProcessSnapshot::Get().Restore(), __func__);
}

aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback,
                                       void* args) {
  return Result(ProcessSnapshot::Get().RegisterCallback(stage, callback, args), __func__);
}

aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback) {
  return Result(ProcessSnapshot::Get().UnregisterCallback(stage, callback), __func__);
}

}  // namespace npud::abi_impl
