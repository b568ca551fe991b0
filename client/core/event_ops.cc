#include "client/core/event_ops.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_format.h"
#include "client/core/context_ops.h"
#include "client/core/daemon_calls.h"
#include "client/core/handles.h"
#include "client/core/model_ops.h"
#include "client/core/runtime.h"
#include "client/core/runtime_options.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {
namespace {

// aclrtEvent flag bits (acl_rt.h).
constexpr uint32_t kSync = 0x01;
constexpr uint32_t kTimeLine = 0x08;
constexpr uint32_t kDeviceUseOnly = 0x10;
constexpr uint32_t kExternal = 0x20;
constexpr uint32_t kIpc = 0x40;

struct ResolvedEvent {
  uint64_t id;
  EventRecord record;
};

absl::StatusOr<ResolvedEvent> ResolveEvent(void* event) {
  if (event == nullptr) return AclError(kAclInvalidParam, "event is null");
  const uint64_t id = HandleId(event, HandleKind::kEvent);
  auto record = id != 0 ? Runtime::Get().objects().FindEvent(id) : std::nullopt;
  if (!record) {
    return AclError(kRtInvalidHandle,
                    absl::StrFormat("%p is not a live event of this process", event));
  }
  return ResolvedEvent{id, *record};
}

// The flag combinations CANN accepts for each creation call.
absl::Status CheckFlags(EventApi api, uint32_t flags) {
  const bool exclusive_bit_mixed = ((flags & (kDeviceUseOnly | kExternal | kIpc)) != 0) &&
                                   (flags & ~(kDeviceUseOnly | kExternal | kIpc)) != 0;
  switch (api) {
    case EventApi::kCreateEvent:
      return absl::OkStatus();
    case EventApi::kWithFlag:
      if (flags == 0 || flags > 0x3F || exclusive_bit_mixed) break;
      return absl::OkStatus();
    case EventApi::kExWithFlag:
      if ((flags & 0x4F) == 0 || flags > 0x4F || exclusive_bit_mixed) break;
      return absl::OkStatus();
  }
  return AclError(kRtParamInvalid, absl::StrFormat("invalid event flags %#x", flags));
}

// CANN fixes an event's record flag and wait flag at their first use, even
// if that call then fails.
absl::Status PinFlag(const ResolvedEvent& resolved, bool wait, uint32_t flag) {
  if (flag > kEventFlagExternal) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%u is not an event %s flag", flag, wait ? "wait" : "record"));
  }
  const int pinned = Runtime::Get().objects().PinEventFlag(resolved.id, wait, flag);
  if (pinned >= 0 && pinned != static_cast<int>(flag)) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("the event was first %s with flag %d; it keeps that flag",
                                    wait ? "waited on" : "recorded", pinned));
  }
  return absl::OkStatus();
}

// The external forms: an event of aclrtCreateEventExWithFlag(ACL_EVENT_SYNC),
// on a stream that captures.
absl::Status CheckExternal(const ResolvedEvent& resolved, const StreamTarget& stream) {
  if (!resolved.record.ex_mode || (resolved.record.flags & kSync) == 0) {
    return AclError(kRtFeatureNotSupport,
                    "external records and waits take events made by "
                    "aclrtCreateEventExWithFlag(ACL_EVENT_SYNC)");
  }
  if (!StreamCaptures(stream.id)) {
    return AclError(kRtStreamNotCaptured,
                    "external records and waits belong in a stream that captures a model");
  }
  return absl::OkStatus();
}

// A stream can wait on an event only if it was made to synchronize.
bool Waitable(const EventRecord& record) {
  return (record.flags & (kSync | kExternal | kIpc)) != 0;
}

absl::StatusOr<v1::Reply> Query(uint64_t id) {
  v1::Call call;
  call.mutable_query_event()->set_event_id(id);
  return CallDaemon(std::move(call));
}

}  // namespace

absl::StatusOr<void*> CreateEvent(EventApi api, uint32_t flags) {
  if (api == EventApi::kCreateEvent) flags = kSync | kTimeLine;
  NPUD_RETURN_IF_ERROR(CheckFlags(api, flags));
  NPUD_ASSIGN_OR_RETURN(CurrentContextInfo context, CurrentContext());
  ObjectRegistry& objects = Runtime::Get().objects();
  const uint64_t id = objects.MintId();
  v1::Call call;
  v1::CreateEvent* create = call.mutable_create_event();
  create->set_event_id(id);
  create->set_device_id(context.record.device);
  create->set_flags(flags);
  // Under an event limit npud may refuse: wait for its answer.
  NPUD_RETURN_IF_ERROR(Runtime::Get().limits().events != 0 ? CallDaemon(std::move(call)).status()
                                                           : PostToDaemon(std::move(call)));
  objects.AddEvent(id, EventRecord{context.record.device, flags, api == EventApi::kExWithFlag});
  return MakeHandle(HandleKind::kEvent, id);
}

absl::Status DestroyEvent(void* event) {
  NPUD_ASSIGN_OR_RETURN(const ResolvedEvent resolved, ResolveEvent(event));
  Runtime::Get().objects().RemoveEvent(resolved.id);
  v1::Call call;
  call.mutable_destroy_event()->set_event_id(resolved.id);
  return PostToDaemon(std::move(call));
}

absl::Status RecordEvent(void* event, void* stream, uint32_t flag) {
  NPUD_ASSIGN_OR_RETURN(const ResolvedEvent resolved, ResolveEvent(event));
  if (resolved.record.flags & kDeviceUseOnly) {
    return AclError(kRtParamInvalid, "a device-use-only event cannot be recorded from the host");
  }
  NPUD_RETURN_IF_ERROR(PinFlag(resolved, /*wait=*/false, flag));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  if (flag == kEventFlagExternal) NPUD_RETURN_IF_ERROR(CheckExternal(resolved, target));
  v1::Call call;
  call.mutable_record_event()->set_event_id(resolved.id);
  call.mutable_record_event()->set_stream_id(target.id);
  NPUD_RETURN_IF_ERROR(PostToDaemon(std::move(call)));
  // Only the first record gives the id; later ones skip the registry's lock.
  if (resolved.record.hardware_id == 0) Runtime::Get().objects().EventHardwareId(resolved.id);
  return absl::OkStatus();
}

absl::Status ResetEvent(void* event, void* stream) {
  NPUD_ASSIGN_OR_RETURN(const ResolvedEvent resolved, ResolveEvent(event));
  if (resolved.record.ex_mode || (resolved.record.flags & kIpc) || !Waitable(resolved.record)) {
    return AclError(kRtFeatureNotSupport,
                    "aclrtResetEvent is not supported for this event (created with "
                    "aclrtCreateEventExWithFlag, IPC, or without ACL_EVENT_SYNC)");
  }
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  call.mutable_reset_event()->set_event_id(resolved.id);
  call.mutable_reset_event()->set_stream_id(target.id);
  return PostToDaemon(std::move(call));
}

absl::Status StreamWaitEvent(void* stream, void* event, int64_t timeout_s, uint32_t flag) {
  NPUD_ASSIGN_OR_RETURN(const ResolvedEvent resolved, ResolveEvent(event));
  if (!Waitable(resolved.record)) {
    return AclError(kRtFeatureNotSupport,
                    "streams can only wait on events created with ACL_EVENT_SYNC, "
                    "ACL_EVENT_EXTERNAL or ACL_EVENT_IPC");
  }
  NPUD_RETURN_IF_ERROR(PinFlag(resolved, /*wait=*/true, flag));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  if (flag == kEventFlagExternal) NPUD_RETURN_IF_ERROR(CheckExternal(resolved, target));
  if (timeout_s == kOpWaitTimeout) timeout_s = RuntimeOptions::Get().OpWaitTimeout();
  v1::Call call;
  call.mutable_stream_wait_event()->set_event_id(resolved.id);
  call.mutable_stream_wait_event()->set_stream_id(target.id);
  call.mutable_stream_wait_event()->set_timeout_ms(
      static_cast<uint32_t>(std::min<int64_t>(timeout_s * 1000, UINT32_MAX)));
  return PostToDaemon(std::move(call));
}

absl::StatusOr<bool> EventComplete(void* event) {
  NPUD_ASSIGN_OR_RETURN(const ResolvedEvent resolved, ResolveEvent(event));
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, Query(resolved.id));
  const v1::Completion status = reply.status().status();
  if (status == v1::COMPLETION_NEVER_RECORDED) return resolved.record.ex_mode;
  return status == v1::COMPLETION_DONE;
}

absl::Status SynchronizeEvent(void* event, int32_t timeout_ms) {
  NPUD_ASSIGN_OR_RETURN(const ResolvedEvent resolved, ResolveEvent(event));
  v1::Call call;
  call.mutable_synchronize_event()->set_event_id(resolved.id);
  call.mutable_synchronize_event()->set_timeout_ms(timeout_ms);
  return CallDaemon(std::move(call)).status();
}

absl::StatusOr<float> EventElapsedMs(void* start, void* end) {
  NPUD_ASSIGN_OR_RETURN(const ResolvedEvent start_event, ResolveEvent(start));
  NPUD_ASSIGN_OR_RETURN(const ResolvedEvent end_event, ResolveEvent(end));
  if ((start_event.record.flags | end_event.record.flags) & (kExternal | kIpc)) {
    return AclError(kRtFeatureNotSupport, "external and IPC events carry no timestamps");
  }
  v1::Call call;
  call.mutable_event_elapsed_time()->set_start_event_id(start_event.id);
  call.mutable_event_elapsed_time()->set_end_event_id(end_event.id);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return reply.event_time().elapsed_ms();
}

absl::StatusOr<uint64_t> EventTimestampUs(void* event) {
  NPUD_ASSIGN_OR_RETURN(const ResolvedEvent resolved, ResolveEvent(event));
  if (resolved.record.flags & (kExternal | kIpc)) {
    return AclError(kRtFeatureNotSupport, "external and IPC events carry no timestamps");
  }
  v1::Call call;
  call.mutable_event_elapsed_time()->set_start_event_id(resolved.id);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return reply.event_time().timestamp_us();
}

absl::StatusOr<uint32_t> EventHardwareId(void* event) {
  NPUD_ASSIGN_OR_RETURN(const ResolvedEvent resolved, ResolveEvent(event));
  if (resolved.record.flags & kIpc) {
    return AclError(kRtFeatureNotSupport, "an IPC event has no id of its own here");
  }
  if (resolved.record.hardware_id == 0) {
    return AclError(kRtInternalError, "the event has no id before its first aclrtRecordEvent");
  }
  return resolved.record.hardware_id;
}

absl::StatusOr<uint32_t> AvailableEvents() {
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  Runtime& runtime = Runtime::Get();
  return AvailableObjects(runtime.limits().events, runtime.objects().EventCount());
}

}  // namespace npud::client
