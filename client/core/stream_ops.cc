#include "client/core/stream_ops.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "client/core/context_ops.h"
#include "client/core/daemon_calls.h"
#include "client/core/handles.h"
#include "client/core/host_callbacks.h"
#include "client/core/model_ops.h"
#include "client/core/runtime.h"
#include "client/core/state_callbacks.h"
#include "client/core/thread_state.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {

namespace {

// The ACL_STREAM_* flags (FAST_LAUNCH .. DEVICE_USE_ONLY).
constexpr uint32_t kAclStreamFlags = 0x3F;

// aclrtStreamAttr values.
constexpr uint32_t kAttrFailureMode = 1;
constexpr uint32_t kAttrFloatOverflowCheck = 2;
constexpr uint32_t kAttrUserCustomTag = 3;
constexpr uint32_t kAttrCacheOpInfo = 4;
constexpr uint32_t kAttrPriority = 5;
constexpr uint32_t kAttrLaunchBlockingMode = 6;
constexpr uint32_t kLowestPriority = 7;

absl::Status CheckAttribute(uint32_t attr) {
  if (attr < kAttrFailureMode || attr > kAttrLaunchBlockingMode) {
    return AclError(kRtParamInvalid, absl::StrFormat("%d is not an aclrtStreamAttr", attr));
  }
  if (attr == kAttrLaunchBlockingMode) {
    return AclError(kRtFeatureNotSupport, "launch blocking modes are not simulated");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status NotCapturing(uint64_t stream_id) {
  if (!StreamCaptures(stream_id)) return absl::OkStatus();
  return AclError(
      kRtStreamCaptured,
      absl::StrFormat("stream %d is capturing a model (aclmdlRICaptureEnd first)", stream_id));
}

absl::StatusOr<StreamTarget> ResolveStream(void* handle) {
  if (handle == nullptr) {
    NPUD_ASSIGN_OR_RETURN(const CurrentContextInfo context, CurrentContext());
    ThisThread().last_stream = context.record.default_stream;
    return StreamTarget{context.record.default_stream, context.record.device, true};
  }
  const uint64_t id = HandleId(handle, HandleKind::kStream);
  auto record = id != 0 ? Runtime::Get().objects().FindStream(id) : std::nullopt;
  if (!record) {
    return AclError(kRtInvalidHandle,
                    absl::StrFormat("%p is not a live stream of this process", handle));
  }
  ThisThread().last_stream = id;
  return StreamTarget{id, record->device, record->is_default};
}

absl::StatusOr<uint32_t> LastTaskIdOfThread() {
  const uint64_t stream = ThisThread().last_stream;
  if (stream == 0) return 0;
  v1::Call call;
  call.mutable_query_stream()->set_stream_id(stream);
  absl::StatusOr<v1::Reply> reply = CallDaemon(std::move(call));
  // A stream destroyed since has no tasks to name.
  if (!reply.ok()) {
    if (ToAclCode(reply.status()) == kRtInvalidHandle) return 0;
    return reply.status();
  }
  return reply->status().last_task_id();
}

absl::StatusOr<void*> CreateStream(uint32_t priority, uint32_t flags) {
  // CANN clamps priorities to [0, 7] rather than failing.
  priority = std::min<uint32_t>(priority, 7);
  NPUD_ASSIGN_OR_RETURN(const CurrentContextInfo context, CurrentContext());
  ObjectRegistry& objects = Runtime::Get().objects();
  const uint64_t id = objects.MintId();
  v1::Call call;
  v1::CreateStream* create = call.mutable_create_stream();
  create->set_stream_id(id);
  create->set_device_id(context.record.device);
  create->set_priority(priority);
  create->set_flags(flags);
  // Under a stream limit npud may refuse: wait for its answer.
  NPUD_RETURN_IF_ERROR(Runtime::Get().limits().streams != 0 ? CallDaemon(std::move(call)).status()
                                                            : PostToDaemon(std::move(call)));
  StreamRecord record{context.record.device, context.id, /*is_default=*/false};
  record.priority = priority;
  record.flags = flags & kAclStreamFlags;
  objects.AddStream(id, record);
  NotifyStreamState(id, kStreamCreated);
  return MakeHandle(HandleKind::kStream, id);
}

absl::Status DestroyStream(void* handle, bool force) {
  if (handle == nullptr) return AclError(kAclInvalidParam, "stream is null");
  NPUD_ASSIGN_OR_RETURN(const StreamTarget stream, ResolveStream(handle));
  if (stream.is_default) {
    return AclError(kRtParamInvalid, "the default stream of a context cannot be destroyed");
  }
  NPUD_RETURN_IF_ERROR(NotCapturing(stream.id));
  NotifyStreamState(stream.id, kStreamDestroying);
  Runtime::Get().objects().RemoveStream(stream.id);
  v1::Call call;
  call.mutable_destroy_stream()->set_stream_id(stream.id);
  call.mutable_destroy_stream()->set_force(force);
  absl::Status destroyed = CallDaemon(std::move(call)).status();
  HostCallbacks::Get().ForgetStream(stream.id);
  return destroyed;
}

absl::Status SynchronizeStream(void* handle, int32_t timeout_ms) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget stream, ResolveStream(handle));
  NPUD_RETURN_IF_ERROR(NotCapturing(stream.id));
  v1::Call call;
  call.mutable_synchronize_stream()->set_stream_id(stream.id);
  call.mutable_synchronize_stream()->set_timeout_ms(timeout_ms);
  return CallDaemon(std::move(call)).status();
}

absl::StatusOr<bool> StreamIdle(void* handle) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget stream, ResolveStream(handle));
  NPUD_RETURN_IF_ERROR(NotCapturing(stream.id));
  v1::Call call;
  call.mutable_query_stream()->set_stream_id(stream.id);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return reply.status().status() == v1::COMPLETION_DONE;
}

absl::Status SetStreamFailureMode(void* handle, uint64_t mode) {
  if (handle == nullptr) {
    return AclError(kRtParamInvalid, "the failure mode of the default stream cannot be changed");
  }
  NPUD_ASSIGN_OR_RETURN(const StreamTarget stream, ResolveStream(handle));
  // Only bit 0 means anything (0 continue, 1 stop); CANN ignores the rest.
  mode &= 1;
  ObjectRegistry& objects = Runtime::Get().objects();
  const std::optional<StreamRecord> record = objects.FindStream(stream.id);
  if (record && record->stop_on_failure && mode == 0) {
    return AclError(kRtFeatureNotSupport,
                    "a stream in stop-on-failure mode cannot go back to continue-on-failure");
  }
  objects.SetStopOnFailure(stream.id, mode == 1);
  v1::Call call;
  call.mutable_set_stream_failure_mode()->set_stream_id(stream.id);
  call.mutable_set_stream_failure_mode()->set_mode(mode == 1 ? v1::FAILURE_MODE_STOP
                                                             : v1::FAILURE_MODE_CONTINUE);
  return PostToDaemon(std::move(call));
}

absl::StatusOr<StreamRecord> StreamInfo(void* handle) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget stream, ResolveStream(handle));
  std::optional<StreamRecord> record = Runtime::Get().objects().FindStream(stream.id);
  if (!record) return AclError(kRtInvalidHandle, "the stream was destroyed");
  return *record;
}

absl::Status SetStreamAttribute(void* handle, uint32_t attr, uint64_t value) {
  NPUD_RETURN_IF_ERROR(CheckAttribute(attr));
  if (attr == kAttrFailureMode) return SetStreamFailureMode(handle, value);
  if (attr == kAttrPriority && handle == nullptr) {
    return AclError(kRtParamInvalid, "the priority of the default stream cannot be changed");
  }
  if ((attr == kAttrCacheOpInfo || attr == kAttrFloatOverflowCheck) && value > 1) {
    return AclError(kRtParamInvalid, absl::StrFormat("switch %d is not 0 or 1", value));
  }
  NPUD_ASSIGN_OR_RETURN(const StreamTarget stream, ResolveStream(handle));
  const uint32_t narrow = static_cast<uint32_t>(value);
  Runtime::Get().objects().UpdateStream(stream.id, [&](StreamRecord& record) {
    if (attr == kAttrUserCustomTag) record.user_tag = narrow;
    if (attr == kAttrCacheOpInfo) record.cache_op_info = narrow;
    if (attr == kAttrFloatOverflowCheck) record.overflow_switch = narrow;
    if (attr == kAttrPriority) record.priority = std::min(narrow, kLowestPriority);
  });
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> GetStreamAttribute(void* handle, uint32_t attr) {
  NPUD_RETURN_IF_ERROR(CheckAttribute(attr));
  NPUD_ASSIGN_OR_RETURN(const StreamRecord record, StreamInfo(handle));
  switch (attr) {
    case kAttrFailureMode:
      return record.stop_on_failure ? 1 : 0;
    case kAttrUserCustomTag:
      return record.user_tag;
    case kAttrCacheOpInfo:
      return record.cache_op_info;
    case kAttrFloatOverflowCheck:
      return record.overflow_switch;
    default:
      return record.priority;
  }
}

absl::Status BeginNonBlockingLaunches(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  Runtime::Get().objects().UpdateStream(target.id,
                                        [](StreamRecord& record) { ++record.nonblocking_depth; });
  return absl::OkStatus();
}

absl::Status EndNonBlockingLaunches(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  bool open = false;
  Runtime::Get().objects().UpdateStream(target.id, [&open](StreamRecord& record) {
    open = record.nonblocking_depth > 0;
    if (open) --record.nonblocking_depth;
  });
  if (!open) {
    return AclError(kRtParamInvalid,
                    "not in a non-blocking launch section: call aclrtNonBlockingLaunchBegin first");
  }
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> AvailableStreams() {
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  Runtime& runtime = Runtime::Get();
  return AvailableObjects(runtime.limits().streams, runtime.objects().StreamCount());
}

}  // namespace npud::client
