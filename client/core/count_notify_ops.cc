#include "client/core/count_notify_ops.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "client/core/context_ops.h"
#include "client/core/daemon_calls.h"
#include "client/core/handles.h"
#include "client/core/runtime.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {
namespace {

// Count notifies share the registry's notify table (ids are unique per
// process); the handle kind keeps the two apart.
absl::StatusOr<uint64_t> ResolveCountNotify(void* notify) {
  if (notify == nullptr) return AclError(kAclInvalidParam, "cntNotify is null");
  const uint64_t id = HandleId(notify, HandleKind::kCountNotify);
  if (id == 0 || !Runtime::Get().objects().FindNotify(id)) {
    return AclError(kRtInvalidHandle, absl::StrFormat("%p is not a live count notify", notify));
  }
  return id;
}

}  // namespace

absl::StatusOr<void*> CreateCountNotify(uint64_t flags) {
  if (flags != 0) return AclError(kRtParamInvalid, "aclrtCntNotifyCreate flag must be 0");
  NPUD_ASSIGN_OR_RETURN(const int32_t device, CurrentDevice());
  ObjectRegistry& objects = Runtime::Get().objects();
  const uint64_t id = objects.MintId();
  v1::Call call;
  call.mutable_create_count_notify()->set_notify_id(id);
  call.mutable_create_count_notify()->set_device_id(device);
  NPUD_RETURN_IF_ERROR(PostToDaemon(std::move(call)));
  objects.AddNotify(id, device);
  return MakeHandle(HandleKind::kCountNotify, id);
}

absl::Status DestroyCountNotify(void* notify) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveCountNotify(notify));
  Runtime::Get().objects().RemoveNotify(id);
  v1::Call call;
  call.mutable_destroy_count_notify()->set_notify_id(id);
  return PostToDaemon(std::move(call));
}

absl::Status RecordCountNotify(void* notify, void* stream, uint32_t mode, uint32_t value) {
  // ACL_RT_CNT_NOTIFY_RECORD_*: set 0, add 1, bit-or 2, bit-and 4.
  if (mode != 0 && mode != 1 && mode != 2 && mode != 4) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%u is not an aclrtCntNotifyRecordMode", mode));
  }
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveCountNotify(notify));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  v1::RecordCountNotify* op = call.mutable_record_count_notify();
  op->set_notify_id(id);
  op->set_stream_id(target.id);
  op->set_mode(mode);
  op->set_value(value);
  return PostToDaemon(std::move(call));
}

absl::Status WaitCountNotify(void* notify, void* stream, uint32_t mode, uint32_t value,
                             uint32_t timeout_ms, bool clear) {
  // ACL_RT_CNT_NOTIFY_WAIT_*: less 0 ... equal-with-bitmask 4.
  if (mode > 4) {
    return AclError(kRtParamInvalid, absl::StrFormat("%u is not an aclrtCntNotifyWaitMode", mode));
  }
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveCountNotify(notify));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  v1::WaitCountNotify* op = call.mutable_wait_count_notify();
  op->set_notify_id(id);
  op->set_stream_id(target.id);
  op->set_mode(mode);
  op->set_value(value);
  op->set_timeout_ms(timeout_ms);
  op->set_clear(clear);
  return PostToDaemon(std::move(call));
}

absl::Status ResetCountNotify(void* notify, void* stream) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveCountNotify(notify));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  call.mutable_reset_count_notify()->set_notify_id(id);
  call.mutable_reset_count_notify()->set_stream_id(target.id);
  return PostToDaemon(std::move(call));
}

absl::StatusOr<uint32_t> CountNotifyId(void* notify) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveCountNotify(notify));
  return static_cast<uint32_t>(id);
}

}  // namespace npud::client
