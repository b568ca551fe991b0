// ACL event entry points.

#include <cstdint>

#include "absl/strings/str_format.h"
#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/event_ops.h"
#include "client/core/runtime_options.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace npud::abi_impl {

aclError aclrtCreateEvent(aclrtEvent* event) {
  NPUD_REQUIRE_NOT_NULL(event);
  return ResultInto(npud::client::CreateEvent(npud::client::EventApi::kCreateEvent, 0), event,
                    __func__);
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(event);
  return ResultInto(npud::client::CreateEvent(npud::client::EventApi::kWithFlag, flag), event,
                    __func__);
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(event);
  return ResultInto(npud::client::CreateEvent(npud::client::EventApi::kExWithFlag, flag), event,
                    __func__);
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  NPUD_REQUIRE_NOT_NULL(event);
  return Result(npud::client::DestroyEvent(event), __func__);
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(event);
  return Result(npud::client::RecordEvent(event, stream), __func__);
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(event);
  return Result(npud::client::ResetEvent(event, stream), __func__);
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  NPUD_REQUIRE_NOT_NULL(event);
  return Result(npud::client::StreamWaitEvent(stream, event), __func__);
}

aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout) {
  NPUD_REQUIRE_NOT_NULL(event);
  if (timeout < 0) {
    return Result(npud::AclError(npud::kRtParamInvalid, "the timeout is negative"), __func__);
  }
  return Result(npud::client::StreamWaitEvent(stream, event, timeout), __func__);
}

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                      uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(event);
  if (flag > ACL_EVENT_WAIT_EXTERNAL || (flag == ACL_EVENT_WAIT_EXTERNAL && timeout != 0)) {
    return npud::client::Unrecorded(
        npud::AclError(npud::kAclInvalidParam,
                       absl::StrFormat("wait flag %u with timeout %u: the flag is 0 or 1, and "
                                       "an external wait takes timeout 0",
                                       flag, timeout)),
        __func__);
  }
  // 0xFFFFFFFF: the timeout aclrtSetOpWaitTimeout set.
  const int64_t seconds = timeout == UINT32_MAX ? npud::client::kOpWaitTimeout : timeout;
  return Result(npud::client::StreamWaitEvent(stream, event, seconds, flag), __func__);
}

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(event);
  if (flag > ACL_EVENT_RECORD_EXTERNAL) {
    return npud::client::Unrecorded(
        npud::AclError(npud::kAclInvalidParam,
                       absl::StrFormat("%u is not an ACL_EVENT_RECORD_* flag", flag)),
        __func__);
  }
  return Result(npud::client::RecordEvent(event, stream, flag), __func__);
}

aclError aclrtSetOpWaitTimeout(uint32_t timeout) {
  npud::client::RuntimeOptions::Get().SetOpWaitTimeout(timeout);
  return ACL_SUCCESS;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  NPUD_REQUIRE_NOT_NULL(event);
  NPUD_REQUIRE_NOT_NULL(status);
  return ResultInto(npud::client::EventComplete(event), status, __func__, [](bool complete) {
    return complete ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  });
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  NPUD_REQUIRE_NOT_NULL(event);
  NPUD_REQUIRE_NOT_NULL(status);
  return ResultInto(npud::client::EventComplete(event), status, __func__, [](bool complete) {
    return complete ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  });
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status) {
  NPUD_REQUIRE_NOT_NULL(event);
  NPUD_REQUIRE_NOT_NULL(status);
  return ResultInto(npud::client::EventComplete(event), status, __func__, [](bool complete) {
    return complete ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
  });
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  NPUD_REQUIRE_NOT_NULL(event);
  return Result(npud::client::SynchronizeEvent(event, -1), __func__);
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  if (timeout < -1) {
    return Result(npud::AclError(npud::kRtParamInvalid, "timeout must be -1 or > 0"), __func__);
  }
  NPUD_REQUIRE_NOT_NULL(event);
  if (timeout == 0) {
    return Result(npud::AclError(npud::kRtParamInvalid, "timeout must be -1 or > 0"), __func__);
  }
  return Result(npud::client::SynchronizeEvent(event, timeout), __func__);
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  NPUD_REQUIRE_NOT_NULL(ms);
  NPUD_REQUIRE_NOT_NULL(startEvent);
  NPUD_REQUIRE_NOT_NULL(endEvent);
  return ResultInto(npud::client::EventElapsedMs(startEvent, endEvent), ms, __func__);
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) {
  NPUD_REQUIRE_NOT_NULL(event);
  NPUD_REQUIRE_NOT_NULL(timestamp);
  return ResultInto(npud::client::EventTimestampUs(event), timestamp, __func__);
}

aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId) {
  NPUD_REQUIRE_NOT_NULL(event);
  NPUD_REQUIRE_NOT_NULL(eventId);
  return ResultInto(npud::client::EventHardwareId(event), eventId, __func__);
}

aclError aclrtGetEventAvailNum(uint32_t* eventCount) {
  NPUD_REQUIRE_NOT_NULL(eventCount);
  return ResultInto(npud::client::AvailableEvents(), eventCount, __func__);
}

}  // namespace npud::abi_impl
