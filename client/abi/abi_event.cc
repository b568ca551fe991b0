// ACL event entry points.

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/event_ops.h"
#include "common/acl_status.h"

using npud::client::Result;

namespace {

aclError Create(const char* function, aclrtEvent* event, npud::client::EventApi api,
                uint32_t flags) {
  auto handle = npud::client::CreateEvent(api, flags);
  if (!handle.ok()) return Result(handle.status(), function);
  *event = *handle;
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) {
  NPUD_REQUIRE_NOT_NULL(event);
  return Create(__func__, event, npud::client::EventApi::kCreateEvent, 0);
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(event);
  return Create(__func__, event, npud::client::EventApi::kWithFlag, flag);
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(event);
  return Create(__func__, event, npud::client::EventApi::kExWithFlag, flag);
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
  (void)timeout;  // The wait is a stream task; the simulator does not time it out.
  return Result(npud::client::StreamWaitEvent(stream, event), __func__);
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  NPUD_REQUIRE_NOT_NULL(event);
  NPUD_REQUIRE_NOT_NULL(status);
  auto complete = npud::client::EventComplete(event);
  if (!complete.ok()) return Result(complete.status(), __func__);
  *status = *complete ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  NPUD_REQUIRE_NOT_NULL(event);
  NPUD_REQUIRE_NOT_NULL(status);
  auto complete = npud::client::EventComplete(event);
  if (!complete.ok()) return Result(complete.status(), __func__);
  *status = *complete ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status) {
  NPUD_REQUIRE_NOT_NULL(event);
  NPUD_REQUIRE_NOT_NULL(status);
  auto complete = npud::client::EventComplete(event);
  if (!complete.ok()) return Result(complete.status(), __func__);
  *status = *complete ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
  return ACL_SUCCESS;
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
  auto elapsed = npud::client::EventElapsedMs(startEvent, endEvent);
  if (!elapsed.ok()) return Result(elapsed.status(), __func__);
  *ms = *elapsed;
  return ACL_SUCCESS;
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) {
  NPUD_REQUIRE_NOT_NULL(event);
  NPUD_REQUIRE_NOT_NULL(timestamp);
  auto us = npud::client::EventTimestampUs(event);
  if (!us.ok()) return Result(us.status(), __func__);
  *timestamp = *us;
  return ACL_SUCCESS;
}

}  // extern "C"
