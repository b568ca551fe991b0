// ACL device and context entry points.

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/context_ops.h"
#include "client/core/handles.h"
#include "client/core/runtime.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"

using npud::client::HandleId;
using npud::client::HandleKind;
using npud::client::MakeHandle;
using npud::client::Result;

namespace {

// The inventory entry of `device`, or `invalid_code` for a bad id.
absl::StatusOr<npud::v1::DeviceDescription> Describe(
    int32_t device, npud::AclCode invalid_code = npud::kRtInvalidDeviceId) {
  npud::client::Runtime& runtime = npud::client::Runtime::Get();
  if (absl::Status s = runtime.CheckDevice(device, invalid_code); !s.ok()) return s;
  return (*runtime.Devices())[device];
}

}  // namespace

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
  return Result(npud::client::SetDevice(deviceId), __func__);
}

aclError aclrtResetDevice(int32_t deviceId) {
  return Result(npud::client::ResetDevice(deviceId, /*force=*/false), __func__);
}

aclError aclrtResetDeviceForce(int32_t deviceId) {
  return Result(npud::client::ResetDevice(deviceId, /*force=*/true), __func__);
}

aclError aclrtGetDevice(int32_t* deviceId) {
  NPUD_REQUIRE_NOT_NULL(deviceId);
  auto device = npud::client::CurrentDevice();
  if (!device.ok()) return npud::client::Unrecorded(device.status(), __func__);
  *deviceId = *device;
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  NPUD_REQUIRE_NOT_NULL(count);
  auto devices = npud::client::Runtime::Get().Devices();
  if (!devices.ok()) return Result(devices.status(), __func__);
  *count = static_cast<uint32_t>(devices->size());
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) {
  return Result(npud::client::SynchronizeDevice(-1), __func__);
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  if (timeout < -1 || timeout == 0) {
    return Result(npud::AclError(npud::kRtParamInvalid, "timeout must be -1 or > 0"), __func__);
  }
  return Result(npud::client::SynchronizeDevice(timeout), __func__);
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  NPUD_REQUIRE_NOT_NULL(runMode);
  // The program runs on a host that drives the (simulated) device.
  *runMode = ACL_HOST;
  return ACL_SUCCESS;
}

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus) {
  NPUD_REQUIRE_NOT_NULL(deviceStatus);
  if (auto device = Describe(deviceId); !device.ok()) return Result(device.status(), __func__);
  *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
  return ACL_SUCCESS;
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  auto device = Describe(static_cast<int32_t>(deviceId));
  if (!device.ok()) return Result(device.status(), __func__);
  switch (deviceInfo) {
    case ACL_DEVICE_INFO_AI_CORE_NUM:
      *value = device->cube_cores();
      return ACL_SUCCESS;
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
      *value = device->vector_cores();
      return ACL_SUCCESS;
    case ACL_DEVICE_INFO_L2_SIZE:
      *value = static_cast<int64_t>(device->l2_bytes());
      return ACL_SUCCESS;
    default:
      return Result(npud::AclError(npud::kAclInvalidParam, "unknown aclDeviceInfo"), __func__);
  }
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  auto device = Describe(static_cast<int32_t>(deviceId), npud::kRtParamInvalid);
  if (!device.ok()) return Result(device.status(), __func__);
  switch (attr) {
    case ACL_DEV_ATTR_AICPU_CORE_NUM:
      *value = 6;
      break;
    case ACL_DEV_ATTR_AICORE_CORE_NUM:
    case ACL_DEV_ATTR_CUBE_CORE_NUM:
      *value = device->cube_cores();
      break;
    case ACL_DEV_ATTR_VECTOR_CORE_NUM:
      *value = device->vector_cores();
      break;
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
      *value = static_cast<int64_t>(device->ub_bytes());
      break;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
      *value = static_cast<int64_t>(device->hbm_bytes());
      break;
    case ACL_DEV_ATTR_L2_CACHE_SIZE:
      *value = static_cast<int64_t>(device->l2_bytes());
      break;
    case ACL_DEV_ATTR_PHY_CHIP_ID:
    case ACL_DEV_ATTR_SMP_ID:
      *value = device->device_id();
      break;
    case ACL_DEV_ATTR_IS_VIRTUAL:
      *value = 0;
      break;
    case ACL_DEV_ATTR_NPU_ARCH:
      *value = 2201;
      break;
    default:
      return Result(npud::AclError(npud::kRtParamInvalid, "this device attribute is not supported"),
                    __func__);
  }
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                  int32_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  if (auto device = Describe(deviceId); !device.ok()) return Result(device.status(), __func__);
  (void)devFeatureType;  // No optional hardware feature is simulated.
  *value = ACL_DEV_FEATURE_NOT_SUPPORT;
  return ACL_SUCCESS;
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  NPUD_REQUIRE_NOT_NULL(context);
  auto id = npud::client::CreateContext(deviceId);
  if (!id.ok()) return Result(id.status(), __func__);
  *context = MakeHandle(HandleKind::kContext, *id);
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  NPUD_REQUIRE_NOT_NULL(context);
  return Result(npud::client::DestroyContext(HandleId(context, HandleKind::kContext)), __func__);
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  NPUD_REQUIRE_NOT_NULL(context);
  return Result(npud::client::SetCurrentContext(HandleId(context, HandleKind::kContext)), __func__);
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  NPUD_REQUIRE_NOT_NULL(context);
  auto current = npud::client::CurrentContext();
  if (!current.ok()) return npud::client::Unrecorded(current.status(), __func__);
  *context = MakeHandle(HandleKind::kContext, current->id);
  return ACL_SUCCESS;
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) {
  NPUD_REQUIRE_NOT_NULL(stream);
  auto current = npud::client::CurrentContext();
  if (!current.ok()) return Result(current.status(), __func__);
  *stream = MakeHandle(HandleKind::kStream, current->record.default_stream);
  return ACL_SUCCESS;
}

}  // extern "C"
