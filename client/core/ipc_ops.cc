#include "client/core/ipc_ops.h"

#include <unistd.h>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "client/core/context_ops.h"
#include "client/core/daemon_calls.h"
#include "client/core/handles.h"
#include "client/core/runtime.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {
namespace {}  // namespace

absl::StatusOr<std::string> IpcExportMemory(void* pointer, size_t size, uint64_t flags) {
  v1::Call call;
  v1::IpcExportMemory* op = call.mutable_ipc_export_memory();
  op->set_address(reinterpret_cast<uint64_t>(pointer));
  op->set_size(size);
  op->set_flags(flags);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return reply.ipc().key();
}

absl::Status IpcSetImportPids(const char* key, const std::vector<int64_t>& pids) {
  v1::Call call;
  call.mutable_ipc_set_import_pids()->set_key(key);
  for (int64_t pid : pids) call.mutable_ipc_set_import_pids()->add_pids(pid);
  return CallDaemon(std::move(call)).status();
}

absl::StatusOr<void*> IpcImportMemory(const char* key, uint64_t flags) {
  v1::Call call;
  call.mutable_ipc_import_memory()->set_key(key);
  call.mutable_ipc_import_memory()->set_flags(flags);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return reinterpret_cast<void*>(reply.ipc().address());
}

absl::Status IpcClose(const char* key) {
  v1::Call call;
  call.mutable_ipc_close()->set_key(key);
  return CallDaemon(std::move(call)).status();
}

int64_t BareTgid() {
  const absl::StatusOr<int64_t> known = Runtime::Get().PeerPid();
  return known.ok() && *known > 0 ? *known : getpid();
}

absl::StatusOr<std::string> IpcExportEvent(void* event) {
  const uint64_t id = HandleId(event, HandleKind::kEvent);
  if (id == 0 || !Runtime::Get().objects().FindEvent(id)) {
    return AclError(kRtInvalidHandle, absl::StrFormat("%p is not a live event", event));
  }
  v1::Call call;
  call.mutable_ipc_export_event()->set_event_id(id);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return reply.ipc().key();
}

absl::StatusOr<void*> IpcOpenEvent(const std::string& key) {
  ObjectRegistry& objects = Runtime::Get().objects();
  const uint64_t id = objects.MintId();
  v1::Call call;
  call.mutable_ipc_open_event()->set_key(key);
  call.mutable_ipc_open_event()->set_event_id(id);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  objects.AddEvent(id, EventRecord{reply.ipc().device_id(), reply.ipc().event_flags(), false});
  return MakeHandle(HandleKind::kEvent, id);
}

absl::StatusOr<bool> CanAccessPeer(int32_t device, int32_t peer) {
  NPUD_RETURN_IF_ERROR(Runtime::Get().CheckDevice(device));
  NPUD_RETURN_IF_ERROR(Runtime::Get().CheckDevice(peer));
  return device != peer;
}

absl::Status SetPeerAccess(int32_t peer, uint32_t flags, bool enable) {
  NPUD_ASSIGN_OR_RETURN(const int32_t device, CurrentDevice());
  NPUD_RETURN_IF_ERROR(Runtime::Get().CheckDevice(peer));
  if (flags != 0) return AclError(kRtParamInvalid, "peer access flags must be 0");
  if (peer == device) {
    return AclError(kRtParamInvalid, "a device cannot be its own peer");
  }
  // The simulator copies between any two devices; the switch is only
  // reported back (aclrtDevicePeerAccessStatus).
  Runtime::Get().objects().SetPeerAccess(device, peer, enable);
  return absl::OkStatus();
}

}  // namespace npud::client
