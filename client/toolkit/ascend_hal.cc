// libascend_hal.so (<arch>-linux/devlib/, where CANN keeps the driver's link
// library): the driver queries programs make about the devices, answered from
// npud's devices through ACL. npud has no driver below the runtime, so the
// rest of the HAL (memory, events, queues of the real driver) is not in this
// library: a program calling it fails to link rather than run on a stand-in.

#include <cstdint>

#include "acl/acl.h"
#include "client/toolkit/device_query.h"

#define NPUD_HAL_API extern "C" __attribute__((visibility("default")))

using drvError_t = int32_t;

namespace {

// drvError_t values (ascend_hal_error.h).
constexpr drvError_t kDrvNone = 0;
constexpr drvError_t kDrvInvalidDevice = 2;
constexpr drvError_t kDrvInvalidValue = 3;
constexpr drvError_t kDrvInnerError = 7;
constexpr drvError_t kDrvNotSupport = 0xfffe;

drvError_t DrvCode(aclError ret) {
  switch (ret) {
    case ACL_SUCCESS:
      return kDrvNone;
    case ACL_ERROR_RT_PARAM_INVALID:
      return kDrvInvalidValue;
    case ACL_ERROR_RT_INVALID_DEVICEID:
      return kDrvInvalidDevice;
    case ACL_ERROR_RT_FEATURE_NOT_SUPPORT:
      return kDrvNotSupport;
    default:
      return kDrvInnerError;
  }
}

}  // namespace

NPUD_HAL_API drvError_t halGetSocVersion(uint32_t devId, char* socVersion, uint32_t len) {
  uint32_t count = 0;
  if (const aclError ret = aclrtGetDeviceCount(&count); ret != ACL_SUCCESS) return DrvCode(ret);
  if (devId >= count) return kDrvInvalidDevice;
  // Every device of a daemon is the same SoC.
  return DrvCode(npud::toolkit::CopySocName(socVersion, len));
}

NPUD_HAL_API drvError_t drvGetDevNum(uint32_t* num_dev) {
  if (num_dev == nullptr) return kDrvInvalidValue;
  return DrvCode(aclrtGetDeviceCount(num_dev));
}

NPUD_HAL_API drvError_t halGetDeviceInfo(uint32_t devId, int32_t moduleType, int32_t infoType,
                                         int64_t* value) {
  return DrvCode(npud::toolkit::DeviceInfo("halGetDeviceInfo", devId, moduleType, infoType, value));
}

// 1: the caller runs on the host side (0 would be code on the device's CPUs).
NPUD_HAL_API drvError_t drvGetPlatformInfo(uint32_t* info) {
  if (info == nullptr) return kDrvInvalidValue;
  *info = 1;
  return kDrvNone;
}
