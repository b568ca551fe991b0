// ACL stream entry points.

#include <utility>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/handles.h"
#include "client/core/state_callbacks.h"
#include "client/core/stream_ops.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace {

// CANN accepts -1 (wait forever) or a positive number of milliseconds.
bool ValidTimeout(int32_t timeout) { return timeout == -1 || timeout > 0; }

}  // namespace

namespace npud::abi_impl {

aclError aclrtCreateStream(aclrtStream* stream) {
  NPUD_REQUIRE_NOT_NULL(stream);
  return ResultInto(npud::client::CreateStream(0, 0), stream, __func__);
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(stream);
  return ResultInto(npud::client::CreateStream(priority, flag), stream, __func__);
}

aclError aclrtDestroyStream(aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(npud::client::DestroyStream(stream, /*force=*/false), __func__);
}

aclError aclrtDestroyStreamForce(aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(npud::client::DestroyStream(stream, /*force=*/true), __func__);
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return Result(npud::client::SynchronizeStream(stream, -1), __func__);
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  if (!ValidTimeout(timeout)) {
    return Result(npud::AclError(npud::kRtParamInvalid, "timeout must be -1 or > 0"), __func__);
  }
  return Result(npud::client::SynchronizeStream(stream, timeout), __func__);
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
  NPUD_REQUIRE_NOT_NULL(status);
  return ResultInto(npud::client::StreamIdle(stream), status, __func__, [](bool idle) {
    return idle ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  });
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
  return Result(npud::client::SetStreamFailureMode(stream, mode), __func__);
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
  NPUD_REQUIRE_NOT_NULL(streamId);
  return ResultInto(
      npud::client::ResolveStream(stream), streamId, __func__,
      [](const npud::client::StreamTarget& target) { return static_cast<int32_t>(target.id); });
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority) {
  NPUD_REQUIRE_NOT_NULL(leastPriority);
  NPUD_REQUIRE_NOT_NULL(greatestPriority);
  // Priorities are recorded but do not change scheduling in the simulator.
  *leastPriority = 7;
  *greatestPriority = 0;
  return ACL_SUCCESS;
}

aclError aclrtGetThreadLastTaskId(uint32_t* taskId) {
  NPUD_REQUIRE_NOT_NULL(taskId);
  return ResultInto(npud::client::LastTaskIdOfThread(), taskId, __func__);
}

aclError aclrtRegStreamStateCallback(const char* regName, aclrtStreamStateCallback callback,
                                     void* args) {
  NPUD_REQUIRE_NOT_NULL(regName);
  npud::client::StreamStateFn fn;
  if (callback != nullptr) {
    fn = [callback, args](void* stream, int state) {
      callback(stream, static_cast<aclrtStreamState>(state), args);
    };
  }
  return Result(npud::client::RegisterStreamStateCallback(regName, std::move(fn)), __func__);
}

}  // namespace npud::abi_impl
