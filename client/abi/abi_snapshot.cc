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

// A snapshot step of the calling process: CANN snapshots only the caller,
// and its reserved pointer argument must be null.
aclError Step(int pid, const void* reserved, const char* reserved_name,
              absl::Status (ProcessSnapshot::*step)(), const char* function) {
  if (pid != static_cast<int>(getpid())) {
    return Result(npud::AclError(npud::kAclInvalidParam,
                                 "pid " + std::to_string(pid) +
                                     " is not this process: snapshots of other processes are "
                                     "not supported"),
                  function);
  }
  if (reserved != nullptr) {
    return Result(npud::AclError(npud::kAclInvalidParam,
                                 std::string(reserved_name) + " is reserved and must be null"),
                  function);
  }
  return Result((ProcessSnapshot::Get().*step)(), function);
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtSnapShotProcessLock(int pid, void* reserve) {
  return Step(pid, reserve, "reserve", &ProcessSnapshot::Lock, __func__);
}

aclError aclrtSnapShotProcessUnlock(int pid, void* reserve) {
  return Step(pid, reserve, "reserve", &ProcessSnapshot::Unlock, __func__);
}

aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs* args) {
  return Step(pid, args, "args", &ProcessSnapshot::Backup, __func__);
}

aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs* args) {
  return Step(pid, args, "args", &ProcessSnapshot::Restore, __func__);
}

aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback,
                                       void* args) {
  return Result(ProcessSnapshot::Get().RegisterCallback(stage, callback, args), __func__);
}

aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback) {
  return Result(ProcessSnapshot::Get().UnregisterCallback(stage, callback), __func__);
}

}  // namespace npud::abi_impl
