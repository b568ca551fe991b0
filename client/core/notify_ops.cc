#include "client/core/notify_ops.h"

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

absl::StatusOr<uint64_t> ResolveNotify(void* notify) {
  if (notify == nullptr) return AclError(kAclInvalidParam, "notify is null");
  const uint64_t id = HandleId(notify, HandleKind::kNotify);
  if (id == 0 || !Runtime::Get().objects().FindNotify(id)) {
    return AclError(kRtInvalidHandle, absl::StrFormat("%p is not a live notify", notify));
  }
  return id;
}

}  // namespace

absl::StatusOr<void*> CreateNotify(uint64_t flags) {
  NPUD_ASSIGN_OR_RETURN(const int32_t device, CurrentDevice());
  ObjectRegistry& objects = Runtime::Get().objects();
  const uint64_t id = objects.MintId();
  v1::Call call;
  call.mutable_create_notify()->set_notify_id(id);
  call.mutable_create_notify()->set_device_id(device);
  call.mutable_create_notify()->set_flags(flags);
  NPUD_RETURN_IF_ERROR(PostToDaemon(std::move(call)));
  objects.AddNotify(id, device);
  return MakeHandle(HandleKind::kNotify, id);
}

absl::Status DestroyNotify(void* notify) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveNotify(notify));
  Runtime::Get().objects().RemoveNotify(id);
  v1::Call call;
  call.mutable_destroy_notify()->set_notify_id(id);
  return PostToDaemon(std::move(call));
}

absl::Status RecordNotify(void* notify, void* stream) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveNotify(notify));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  call.mutable_record_notify()->set_notify_id(id);
  call.mutable_record_notify()->set_stream_id(target.id);
  return PostToDaemon(std::move(call));
}

absl::Status WaitAndResetNotify(void* notify, void* stream, uint32_t timeout) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveNotify(notify));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  call.mutable_wait_notify()->set_notify_id(id);
  call.mutable_wait_notify()->set_stream_id(target.id);
  call.mutable_wait_notify()->set_timeout(timeout);
  return PostToDaemon(std::move(call));
}

absl::Status ResetNotifies(void* const* notifies, size_t count) {
  if (count == 0) return AclError(kRtParamInvalid, "no notify to reset");
  // As CANN: in order, up to the first bad handle; those before it are
  // reset. One call each: the notifies may live on different daemons.
  for (size_t i = 0; i < count; ++i) {
    NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveNotify(notifies[i]));
    v1::Call call;
    call.mutable_reset_notify()->set_notify_id(id);
    NPUD_RETURN_IF_ERROR(CallDaemon(std::move(call)).status());
  }
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> NotifyId(void* notify) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveNotify(notify));
  return static_cast<uint32_t>(id);
}

absl::StatusOr<std::string> ExportNotify(void* notify, uint64_t flags) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveNotify(notify));
  v1::Call call;
  call.mutable_ipc_export_notify()->set_notify_id(id);
  call.mutable_ipc_export_notify()->set_flags(flags);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return reply.ipc().key();
}

absl::Status SetNotifyImportPids(void* notify, const std::vector<int64_t>& pids) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveNotify(notify));
  v1::Call call;
  call.mutable_ipc_set_notify_pids()->set_notify_id(id);
  for (int64_t pid : pids) call.mutable_ipc_set_notify_pids()->add_pids(pid);
  return CallDaemon(std::move(call)).status();
}

absl::StatusOr<void*> ImportNotify(const char* key, uint64_t flags) {
  ObjectRegistry& objects = Runtime::Get().objects();
  const uint64_t id = objects.MintId();
  v1::Call call;
  call.mutable_ipc_import_notify()->set_key(key);
  call.mutable_ipc_import_notify()->set_notify_id(id);
  call.mutable_ipc_import_notify()->set_flags(flags);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  objects.AddNotify(id, reply.ipc().device_id());
  return MakeHandle(HandleKind::kNotify, id);
}

absl::Status ValueWrite(void* address, uint64_t value, uint32_t flag, void* stream) {
  if (flag != 0) return AclError(kRtParamInvalid, "aclrtValueWrite flag must be 0");
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  v1::ValueWrite* op = call.mutable_value_write();
  op->set_stream_id(target.id);
  op->set_address(reinterpret_cast<uint64_t>(address));
  op->set_value(value);
  op->set_flag(flag);
  return PostToDaemon(std::move(call));
}

absl::Status ValueWait(void* address, uint64_t value, uint32_t flag, void* stream) {
  if (flag > 3) return AclError(kRtParamInvalid, absl::StrFormat("invalid wait flag %d", flag));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  v1::ValueWait* op = call.mutable_value_wait();
  op->set_stream_id(target.id);
  op->set_address(reinterpret_cast<uint64_t>(address));
  op->set_value(value);
  op->set_flag(flag);
  return PostToDaemon(std::move(call));
}

}  // namespace npud::client
