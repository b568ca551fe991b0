// libruntime.so: the part of CANN's runtime API (rt*, runtime/rt.h) that
// programs and CANN's own tiling code call directly, over libacl_rt.so, which
// is the runtime here. CANN's ACL layer is a wrapper of these calls; npud
// implements the ACL layer, so each function is its ACL counterpart. The rest
// of the rt* API is not in this library: a program calling it fails to link
// instead of meeting a silent stand-in.
//
// Codes are the runtime's external ones (rt_error_codes.h), which the ACL
// calls return too.

#include <cstdint>

#include "acl/acl.h"
#include "client/toolkit/device_query.h"

#define NPUD_RT_API extern "C" __attribute__((visibility("default")))

using rtError_t = int32_t;
using rtStream_t = void*;

namespace {

// rtMemcpyKind_t: the four directions have ACL's values; *_EX are the same
// directions for small copies, DEFAULT lets the runtime infer it.
constexpr uint32_t kMemcpyHostToDeviceEx = 6;
constexpr uint32_t kMemcpyDeviceToHostEx = 7;
constexpr uint32_t kMemcpyDefault = 8;

bool AclCopyKind(uint32_t kind, aclrtMemcpyKind* out) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_DEVICE_TO_HOST:
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      *out = static_cast<aclrtMemcpyKind>(kind);
      return true;
    case kMemcpyHostToDeviceEx:
      *out = ACL_MEMCPY_HOST_TO_DEVICE;
      return true;
    case kMemcpyDeviceToHostEx:
      *out = ACL_MEMCPY_DEVICE_TO_HOST;
      return true;
    case kMemcpyDefault:
      *out = ACL_MEMCPY_DEFAULT;
      return true;
    default:
      return false;
  }
}

}  // namespace

NPUD_RT_API rtError_t rtGetSocVersion(char* ver, const uint32_t maxLen) {
  return npud::toolkit::CopySocName(ver, maxLen);
}

NPUD_RT_API rtError_t rtGetDeviceCount(int32_t* cnt) {
  if (cnt == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
  uint32_t count = 0;
  const aclError ret = aclrtGetDeviceCount(&count);
  if (ret == ACL_SUCCESS) *cnt = static_cast<int32_t>(count);
  return ret;
}

NPUD_RT_API rtError_t rtSetDevice(int32_t devId) { return aclrtSetDevice(devId); }

NPUD_RT_API rtError_t rtGetDevice(int32_t* devId) { return aclrtGetDevice(devId); }

NPUD_RT_API rtError_t rtDeviceReset(int32_t devId) { return aclrtResetDevice(devId); }

NPUD_RT_API rtError_t rtGetDeviceInfo(uint32_t deviceId, int32_t moduleType, int32_t infoType,
                                      int64_t* val) {
  return npud::toolkit::DeviceInfo("rtGetDeviceInfo", deviceId, moduleType, infoType, val);
}

NPUD_RT_API rtError_t rtGetAiCoreCount(uint32_t* aiCoreCnt) {
  if (aiCoreCnt == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
  int32_t device = 0;
  aclError ret = aclrtGetDevice(&device);
  if (ret != ACL_SUCCESS) return ret;
  int64_t count = 0;
  ret =
      npud::toolkit::DeviceInfo("rtGetAiCoreCount", static_cast<uint32_t>(device),
                                npud::toolkit::kModuleAicore, npud::toolkit::kInfoCoreNum, &count);
  if (ret == ACL_SUCCESS) *aiCoreCnt = static_cast<uint32_t>(count);
  return ret;
}

// Every memory type is the device's one kind of memory here (HBM), and the
// module id only tags allocations for CANN's memory statistics.
NPUD_RT_API rtError_t rtMalloc(void** devPtr, uint64_t size, uint32_t /*type*/,
                               const uint16_t /*moduleId*/) {
  return aclrtMalloc(devPtr, size, ACL_MEM_MALLOC_HUGE_FIRST);
}

NPUD_RT_API rtError_t rtFree(void* devPtr) { return aclrtFree(devPtr); }

NPUD_RT_API rtError_t rtMemcpy(void* dst, uint64_t destMax, const void* src, uint64_t cnt,
                               uint32_t kind) {
  aclrtMemcpyKind acl_kind;
  if (!AclCopyKind(kind, &acl_kind)) return ACL_ERROR_RT_PARAM_INVALID;
  return aclrtMemcpy(dst, destMax, src, cnt, acl_kind);
}

NPUD_RT_API rtError_t rtStreamCreate(rtStream_t* stm, int32_t priority) {
  if (priority < 0) return ACL_ERROR_RT_PARAM_INVALID;
  return aclrtCreateStreamWithConfig(stm, static_cast<uint32_t>(priority), 0);
}

NPUD_RT_API rtError_t rtStreamDestroy(rtStream_t stm) { return aclrtDestroyStream(stm); }

NPUD_RT_API rtError_t rtStreamSynchronize(rtStream_t stm) { return aclrtSynchronizeStream(stm); }
