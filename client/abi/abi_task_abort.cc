// Aborting queued work (aclrtStreamAbort, aclrtDeviceTaskAbort and its
// callbacks; see client/core/task_abort.h).

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/task_abort.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;

namespace npud::abi_impl {
namespace {

// CANN's longest aclrtDeviceTaskAbort timeout: 36 minutes.
constexpr uint32_t kMaxAbortTimeoutMs = 36 * 60 * 1000;

}  // namespace

aclError aclrtStreamAbort(aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(client::AbortStream(stream), __func__);
}

aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout) {
  if (timeout > kMaxAbortTimeoutMs) {
    return Result(AclError(kAclInvalidParam, "the timeout is at most 36 minutes"), __func__);
  }
  return Result(client::AbortDeviceTasks(deviceId, timeout), __func__);
}

aclError aclrtSetDeviceTaskAbortCallback(const char* regName, aclrtDeviceTaskAbortCallback callback,
                                         void* args) {
  NPUD_REQUIRE_NOT_NULL(regName);
  client::TaskAbortCallback fn;
  if (callback != nullptr) {
    fn = [callback, args](int32_t device, int stage, uint32_t timeout) {
      return callback(device, static_cast<aclrtDeviceTaskAbortStage>(stage), timeout, args);
    };
  }
  return Result(client::SetTaskAbortCallback(regName, std::move(fn)), __func__);
}

}  // namespace npud::abi_impl
