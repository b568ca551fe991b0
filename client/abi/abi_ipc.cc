// ACL entry points for sharing between processes and devices.

#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/ipc_ops.h"
#include "common/acl_status.h"

using npud::client::Result;

namespace {

aclError CopyKey(const char* function, const std::string& key, char* out, size_t len) {
  if (len <= key.size()) {
    return Result(npud::AclError(npud::kRtParamInvalid, "the key buffer is too small (" +
                                                            std::to_string(key.size() + 1) +
                                                            " bytes needed)"),
                  function);
  }
  std::memcpy(out, key.c_str(), key.size() + 1);
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len, uint64_t flags) {
  NPUD_REQUIRE_NOT_NULL(devPtr);
  NPUD_REQUIRE_NOT_NULL(key);
  auto exported = npud::client::IpcExportMemory(devPtr, size, flags);
  if (!exported.ok()) return Result(exported.status(), __func__);
  return CopyKey(__func__, *exported, key, len);
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
  auto pointer = npud::client::IpcImportMemory(key, flags);
  if (!pointer.ok()) return Result(pointer.status(), __func__);
  *devPtr = *pointer;
  return ACL_SUCCESS;
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
  // The real pid: the daemon enforces allow-lists with the pid each client
  // announced in its hello.
  *pid = static_cast<int32_t>(getpid());
  return ACL_SUCCESS;
}

aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle* handle) {
  NPUD_REQUIRE_NOT_NULL(event);
  NPUD_REQUIRE_NOT_NULL(handle);
  auto key = npud::client::IpcExportEvent(event);
  if (!key.ok()) return Result(key.status(), __func__);
  std::memset(handle->reserved, 0, sizeof(handle->reserved));
  return CopyKey(__func__, *key, handle->reserved, sizeof(handle->reserved));
}

aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent* event) {
  NPUD_REQUIRE_NOT_NULL(event);
  const std::string key(handle.reserved, strnlen(handle.reserved, sizeof(handle.reserved)));
  auto opened = npud::client::IpcOpenEvent(key);
  if (!opened.ok()) return Result(opened.status(), __func__);
  *event = *opened;
  return ACL_SUCCESS;
}

aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  NPUD_REQUIRE_NOT_NULL(canAccessPeer);
  auto can = npud::client::CanAccessPeer(deviceId, peerDeviceId);
  if (!can.ok()) return Result(can.status(), __func__);
  *canAccessPeer = *can ? 1 : 0;
  return ACL_SUCCESS;
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  return Result(npud::client::SetPeerAccess(peerDeviceId, flags, true), __func__);
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  return Result(npud::client::SetPeerAccess(peerDeviceId, 0, false), __func__);
}

}  // extern "C"
