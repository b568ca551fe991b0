// ACL device and context entry points.

#include <utility>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/context_ops.h"
#include "client/core/handles.h"
#include "client/core/runtime.h"
#include "client/core/state_callbacks.h"
#include "client/core/stream_ops.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

using npud::client::HandleId;
using npud::client::HandleKind;
using npud::client::MakeHandle;
using npud::client::Result;
using npud::client::ResultInto;

namespace {

// The inventory entry of `device`, or `invalid_code` for a bad id.
absl::StatusOr<npud::v1::DeviceDescription> Describe(
    int32_t device, npud::AclCode invalid_code = npud::kRtInvalidDeviceId) {
  npud::client::Runtime& runtime = npud::client::Runtime::Get();
  NPUD_RETURN_IF_ERROR(runtime.CheckDevice(device, invalid_code));
  return (*runtime.Devices())[device];
}

// What aclGetDeviceCapability answers for `info` of `device_id`.
absl::StatusOr<int64_t> DeviceCapability(int32_t device_id, aclDeviceInfo info) {
  NPUD_ASSIGN_OR_RETURN(const npud::v1::DeviceDescription device, Describe(device_id));
  switch (info) {
    case ACL_DEVICE_INFO_AI_CORE_NUM:
      return device.cube_cores();
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
      return device.vector_cores();
    case ACL_DEVICE_INFO_L2_SIZE:
      return static_cast<int64_t>(device.l2_bytes());
    default:
      return npud::AclError(npud::kAclInvalidParam, "unknown aclDeviceInfo");
  }
}

// What aclrtGetDeviceInfo answers for `attr` of `device_id`.
absl::StatusOr<int64_t> DeviceAttribute(int32_t device_id, aclrtDevAttr attr) {
  NPUD_ASSIGN_OR_RETURN(const npud::v1::DeviceDescription device,
                        Describe(device_id, npud::kRtParamInvalid));
  switch (attr) {
    case ACL_DEV_ATTR_AICPU_CORE_NUM:
      return 6;
    case ACL_DEV_ATTR_AICORE_CORE_NUM:
    case ACL_DEV_ATTR_CUBE_CORE_NUM:
      return device.cube_cores();
    case ACL_DEV_ATTR_VECTOR_CORE_NUM:
      return device.vector_cores();
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
      return static_cast<int64_t>(device.ub_bytes());
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
      return static_cast<int64_t>(device.hbm_bytes());
    case ACL_DEV_ATTR_L2_CACHE_SIZE:
      return static_cast<int64_t>(device.l2_bytes());
    case ACL_DEV_ATTR_PHY_CHIP_ID:
    case ACL_DEV_ATTR_SMP_ID:
      return device.device_id();
    case ACL_DEV_ATTR_IS_VIRTUAL:
      return 0;
    case ACL_DEV_ATTR_NPU_ARCH:
      return 2201;
    default:
      return npud::AclError(npud::kRtParamInvalid, "this device attribute is not supported");
  }
}

}  // namespace

namespace npud::abi_impl {

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
  return npud::client::UnrecordedInto(npud::client::CurrentDevice(), deviceId, __func__);
}

aclError aclrtGetHardwareSyncAddr(void** addr) {
  NPUD_REQUIRE_NOT_NULL(addr);
  return ResultInto(npud::client::HardwareSyncAddress(), addr, __func__);
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  NPUD_REQUIRE_NOT_NULL(count);
  return ResultInto(npud::client::Runtime::Get().Devices(), count, __func__,
                    [](const auto& devices) { return static_cast<uint32_t>(devices.size()); });
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
  return ResultInto(Describe(deviceId), deviceStatus, __func__,
                    [](const auto&) { return ACL_RT_DEVICE_STATUS_NORMAL; });
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  return ResultInto(DeviceCapability(static_cast<int32_t>(deviceId), deviceInfo), value, __func__);
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  return ResultInto(DeviceAttribute(static_cast<int32_t>(deviceId), attr), value, __func__);
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                  int32_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  (void)devFeatureType;  // No optional hardware feature is simulated.
  return ResultInto(Describe(deviceId), value, __func__,
                    [](const auto&) { return ACL_DEV_FEATURE_NOT_SUPPORT; });
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  NPUD_REQUIRE_NOT_NULL(context);
  return ResultInto(npud::client::CreateContext(deviceId), context, __func__,
                    [](uint64_t id) { return MakeHandle(HandleKind::kContext, id); });
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
  return npud::client::UnrecordedInto(
      npud::client::CurrentContext(), context, __func__,
      [](const auto& current) { return MakeHandle(HandleKind::kContext, current.id); });
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) {
  NPUD_REQUIRE_NOT_NULL(stream);
  return ResultInto(npud::client::CurrentContext(), stream, __func__, [](const auto& current) {
    return MakeHandle(HandleKind::kStream, current.record.default_stream);
  });
}

aclError aclrtRegDeviceStateCallback(const char* regName, aclrtDeviceStateCallback callback,
                                     void* args) {
  NPUD_REQUIRE_NOT_NULL(regName);
  npud::client::DeviceStateFn fn;
  if (callback != nullptr) {
    fn = [callback, args](int32_t device, int state) {
      callback(device, static_cast<aclrtDeviceState>(state), args);
    };
  }
  return Result(npud::client::RegisterDeviceStateCallback(regName, std::move(fn)), __func__);
}

}  // namespace npud::abi_impl
