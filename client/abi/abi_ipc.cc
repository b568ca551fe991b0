// ACL entry points for sharing between processes and devices.

#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/ipc_ops.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace {

// Copies `key` with its NUL to `out` (`len` bytes).
absl::Status CopyKey(const std::string& key, char* out, size_t len) {
  if (len <= key.size()) {
    return npud::AclError(
        npud::kRtParamInvalid,
        "the key buffer is too small (" + std::to_string(key.size() + 1) + " bytes needed)");
  }
  std::memcpy(out, key.c_str(), key.size() + 1);
  return absl::OkStatus();
}

absl::Status ExportMemoryKey(void* pointer, size_t size, uint64_t flags, char* key, size_t len) {
  NPUD_ASSIGN_OR_RETURN(const std::string exported,
                        npud::client::IpcExportMemory(pointer, size, flags));
  return CopyKey(exported, key, len);
}

absl::Status ExportEventKey(aclrtEvent event, aclrtIpcEventHandle* handle) {
  NPUD_ASSIGN_OR_RETURN(const std::string exported, npud::client::IpcExportEvent(event));
  std::memset(handle->reserved, 0, sizeof(handle->reserved));
  return CopyKey(exported, handle->reserved, sizeof(handle->reserved));
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len, uint64_t flags) {
  NPUD_REQUIRE_NOT_NULL(devPtr);
  NPUD_REQUIRE_NOT_NULL(key);
  return Result(ExportMemoryKey(devPtr, size, flags, key, len), __func__);
}

aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid, size_t num) {
  NPUD_REQUIRE_NOT_NULL(key);
  NPUD_REQUIRE_NOT_NULL(pid);
  if (num == 0) return npud::client::NullArgument(__func__, "num");
  std::vector<int64_t> pids(pid, pid + num);
  return Result(npud::client::IpcSetImportPids(key, pids), __func__);
}

aclError aclrtIpcMemImportByKey(void** devPtr, const char* key, uint64_t flags) {
  NPUD_REQUIRE_NOT_NULL(devPtr);
  NPUD_REQUIRE_NOT_NULL(key);
  return ResultInto(npud::client::IpcImportMemory(key, flags), devPtr, __func__);
}

aclError aclrtIpcMemClose(const char* key) {
  NPUD_REQUIRE_NOT_NULL(key);
  return Result(npud::client::IpcClose(key), __func__);
}

aclError aclrtIpcMemSetAttr(const char* key, aclrtIpcMemAttrType type, uint64_t attr) {
  NPUD_REQUIRE_NOT_NULL(key);
  (void)attr;  // The link type of a simulated device is not observable.
  if (type != ACL_RT_IPC_MEM_ATTR_ACCESS_LINK) {
    return Result(npud::AclError(npud::kRtParamInvalid, "unknown IPC memory attribute"), __func__);
  }
  return ACL_SUCCESS;
}

aclError aclrtDeviceGetBareTgid(int32_t* pid) {
  NPUD_REQUIRE_NOT_NULL(pid);
  *pid = static_cast<int32_t>(npud::client::BareTgid());
  return ACL_SUCCESS;
}

aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle* handle) {
  NPUD_REQUIRE_NOT_NULL(event);
  NPUD_REQUIRE_NOT_NULL(handle);
  return Result(ExportEventKey(event, handle), __func__);
}

aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent* event) {
  NPUD_REQUIRE_NOT_NULL(event);
  const std::string key(handle.reserved, strnlen(handle.reserved, sizeof(handle.reserved)));
  return ResultInto(npud::client::IpcOpenEvent(key), event, __func__);
}

aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  NPUD_REQUIRE_NOT_NULL(canAccessPeer);
  return ResultInto(npud::client::CanAccessPeer(deviceId, peerDeviceId), canAccessPeer, __func__,
                    [](bool can) { return can ? 1 : 0; });
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  return Result(npud::client::SetPeerAccess(peerDeviceId, flags, true), __func__);
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  return Result(npud::client::SetPeerAccess(peerDeviceId, 0, false), __func__);
}

}  // namespace npud::abi_impl
