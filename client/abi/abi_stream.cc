// ACL stream entry points.

#include <cstring>
#include <new>
#include <string>
#include <utility>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/handles.h"
#include "client/core/state_callbacks.h"
#include "client/core/stream_ops.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace {

// CANN accepts -1 (wait forever) or a positive number of milliseconds.
bool ValidTimeout(int32_t timeout) { return timeout == -1 || timeout > 0; }

constexpr uint32_t kLowestPriority = 7;

aclError InvalidConfig(const std::string& why, const char* function) {
  return Result(npud::AclError(npud::kAclInvalidParam, why), function);
}

// The union member aclrtStreamAttr `attr` uses: only the failure mode is 64
// bits wide.
uint64_t AttributeValue(aclrtStreamAttr attr, const aclrtStreamAttrValue& value) {
  return attr == ACL_STREAM_ATTR_FAILURE_MODE ? value.failureMode : value.reserve[0];
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtCreateStream(aclrtStream* stream) {
  NPUD_REQUIRE_NOT_NULL(stream);
  return ResultInto(npud::client::CreateStream(0, 0), stream, __func__);
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(stream);
  return ResultInto(npud::client::CreateStream(priority, flag), stream, __func__);
}

aclError aclrtDestroyStream(aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(npud::client::DestroyStream(stream, /*force=*/false), __func__);
}

aclError aclrtDestroyStreamForce(aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(npud::client::DestroyStream(stream, /*force=*/true), __func__);
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return Result(npud::client::SynchronizeStream(stream, -1), __func__);
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  if (!ValidTimeout(timeout)) {
    return Result(npud::AclError(npud::kRtParamInvalid, "timeout must be -1 or > 0"), __func__);
  }
  return Result(npud::client::SynchronizeStream(stream, timeout), __func__);
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
  NPUD_REQUIRE_NOT_NULL(status);
  return ResultInto(npud::client::StreamIdle(stream), status, __func__, [](bool idle) {
    return idle ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  });
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
  return Result(npud::client::SetStreamFailureMode(stream, mode), __func__);
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
  NPUD_REQUIRE_NOT_NULL(streamId);
  return ResultInto(
      npud::client::ResolveStream(stream), streamId, __func__,
      [](const npud::client::StreamTarget& target) { return static_cast<int32_t>(target.id); });
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority) {
  NPUD_REQUIRE_NOT_NULL(leastPriority);
  NPUD_REQUIRE_NOT_NULL(greatestPriority);
  // Priorities are recorded but do not change scheduling in the simulator.
  *leastPriority = 7;
  *greatestPriority = 0;
  return ACL_SUCCESS;
}

aclError aclrtGetThreadLastTaskId(uint32_t* taskId) {
  NPUD_REQUIRE_NOT_NULL(taskId);
  return ResultInto(npud::client::LastTaskIdOfThread(), taskId, __func__);
}

aclError aclrtRegStreamStateCallback(const char* regName, aclrtStreamStateCallback callback,
                                     void* args) {
  NPUD_REQUIRE_NOT_NULL(regName);
  npud::client::StreamStateFn fn;
  if (callback != nullptr) {
    fn = [callback, args](void* stream, int state) {
      callback(stream, static_cast<aclrtStreamState>(state), args);
    };
  }
  return Result(npud::client::RegisterStreamStateCallback(regName, std::move(fn)), __func__);
}

// The configuration handle of aclrtCreateStreamV2 is CANN's public struct;
// the stream's work memory (WORK_ADDR_PTR, WORK_SIZE) is kept in it but
// unused: npud gives every stream what it needs.
aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void) {
  return new (std::nothrow) aclrtStreamConfigHandle{};
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle) {
  NPUD_REQUIRE_NOT_NULL(handle);
  delete handle;
  return ACL_SUCCESS;
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr,
                                 const void* attrValue, size_t valueSize) {
  NPUD_REQUIRE_NOT_NULL(handle);
  NPUD_REQUIRE_NOT_NULL(attrValue);
  switch (attr) {
    case ACL_RT_STREAM_WORK_ADDR_PTR:
      if (valueSize != sizeof(void*))
        return InvalidConfig("the work address takes 8 bytes", __func__);
      std::memcpy(&handle->workptr, attrValue, sizeof(void*));
      return ACL_SUCCESS;
    case ACL_RT_STREAM_WORK_SIZE:
      if (valueSize != sizeof(size_t))
        return InvalidConfig("the work size takes 8 bytes", __func__);
      std::memcpy(&handle->workSize, attrValue, sizeof(size_t));
      return ACL_SUCCESS;
    case ACL_RT_STREAM_FLAG:
      // CANN's own C library wants a size_t, its sample passes a uint32_t:
      // both are taken.
      if (valueSize == sizeof(uint32_t)) {
        uint32_t flag = 0;
        std::memcpy(&flag, attrValue, sizeof(flag));
        handle->flag = flag;
      } else if (valueSize == sizeof(size_t)) {
        std::memcpy(&handle->flag, attrValue, sizeof(size_t));
      } else {
        return InvalidConfig("the flag takes 4 or 8 bytes", __func__);
      }
      return ACL_SUCCESS;
    case ACL_RT_STREAM_PRIORITY: {
      uint32_t priority = 0;
      if (valueSize != sizeof(priority))
        return InvalidConfig("the priority takes 4 bytes", __func__);
      std::memcpy(&priority, attrValue, sizeof(priority));
      if (priority > kLowestPriority) {
        return InvalidConfig("priority " + std::to_string(priority) + " is not in [0, 7]",
                             __func__);
      }
      handle->priority = priority;
      return ACL_SUCCESS;
    }
  }
  return InvalidConfig(std::to_string(attr) + " is not an aclrtStreamConfigAttr", __func__);
}

aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle) {
  NPUD_REQUIRE_NOT_NULL(stream);
  const aclrtStreamConfigHandle config = handle != nullptr ? *handle : aclrtStreamConfigHandle{};
  if (config.flag > UINT32_MAX) return InvalidConfig("the stream flag is above 32 bits", __func__);
  return ResultInto(npud::client::CreateStream(config.priority, static_cast<uint32_t>(config.flag)),
                    stream, __func__);
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) {
  NPUD_REQUIRE_NOT_NULL(priority);
  return ResultInto(npud::client::StreamInfo(stream), priority, __func__,
                    [](const auto& record) { return record.priority; });
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) {
  NPUD_REQUIRE_NOT_NULL(flags);
  return ResultInto(npud::client::StreamInfo(stream), flags, __func__,
                    [](const auto& record) { return record.flags; });
}

aclError aclrtGetStreamAvailableNum(uint32_t* streamCount) {
  NPUD_REQUIRE_NOT_NULL(streamCount);
  return ResultInto(npud::client::AvailableStreams(), streamCount, __func__);
}

aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  return Result(
      npud::client::SetStreamAttribute(stream, stmAttrType, AttributeValue(stmAttrType, *value)),
      __func__);
}

// `flags` is unused, as in CANN.
aclError aclrtNonBlockingLaunchBegin(aclrtStream stream, uint32_t flags) {
  (void)flags;
  return Result(npud::client::BeginNonBlockingLaunches(stream), __func__);
}

aclError aclrtNonBlockingLaunchEnd(aclrtStream stream, uint32_t flags) {
  (void)flags;
  return Result(npud::client::EndNonBlockingLaunches(stream), __func__);
}

aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  absl::StatusOr<uint64_t> got = npud::client::GetStreamAttribute(stream, stmAttrType);
  if (!got.ok()) return Result(got.status(), __func__);
  if (stmAttrType == ACL_STREAM_ATTR_FAILURE_MODE) {
    value->failureMode = *got;
  } else {
    value->reserve[0] = static_cast<uint32_t>(*got);
  }
  return ACL_SUCCESS;
}

}  // namespace npud::abi_impl
