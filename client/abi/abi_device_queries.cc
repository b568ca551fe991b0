// ACL entry points that describe devices and keep process settings: id
// mappings, UUID and PCI bus id, topology and atomics, device limits and
// system parameters.

#include <cstring>
#include <string>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/context_ops.h"
#include "client/core/device_identity.h"
#include "client/core/device_load.h"
#include "client/core/runtime_options.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace {

// CANN's RT_PCI_BUS_ID_MIN_LEN: 12 characters and the terminator.
constexpr int32_t kPciBusIdLength = 13;

aclError MapId(int32_t id, int32_t* out, const char* function) {
  return ResultInto(npud::client::MapDeviceId(id), out, function);
}

// The ACL layer's check of aclSysParamOpt: context calls take
// DETERMINISTIC .. STRONG_CONSISTENCY, process calls KERNEL_EARLY_START too.
bool KnownSysParam(aclSysParamOpt opt, bool context_scope) {
  // 2 is ACL_OPT_STRONG_CONSISTENCY, whose name is deprecated.
  const int last = context_scope ? 2 : ACL_OPT_ENABLE_KERNEL_EARLY_START;
  return opt >= ACL_OPT_DETERMINISTIC && opt <= last;
}

aclError UnknownSysParam(aclSysParamOpt opt, const char* function) {
  return Result(npud::AclError(npud::kAclInvalidParam,
                               std::to_string(opt) + " is not an aclSysParamOpt this call takes"),
                function);
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t* const logicDevId) {
  NPUD_REQUIRE_NOT_NULL(logicDevId);
  return MapId(userDevid, logicDevId, __func__);
}

aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t* const userDevid) {
  NPUD_REQUIRE_NOT_NULL(userDevid);
  return MapId(logicDevId, userDevid, __func__);
}

aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t* const logicDevId) {
  NPUD_REQUIRE_NOT_NULL(logicDevId);
  return MapId(phyDevId, logicDevId, __func__);
}

aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t* const phyDevId) {
  NPUD_REQUIRE_NOT_NULL(phyDevId);
  return MapId(logicDevId, phyDevId, __func__);
}

aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t* const userDevId) {
  NPUD_REQUIRE_NOT_NULL(userDevId);
  return MapId(phyDevId, userDevId, __func__);
}

aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t* const phyDevId) {
  NPUD_REQUIRE_NOT_NULL(phyDevId);
  return MapId(userDevId, phyDevId, __func__);
}

aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo) {
  NPUD_REQUIRE_NOT_NULL(utilizationInfo);
  if (utilizationInfo->utilizationExtend != nullptr) {
    return Result(
        npud::AclError(npud::kAclInvalidParam, "utilizationExtend is reserved and must be null"),
        __func__);
  }
  absl::StatusOr<npud::client::DeviceLoad> load = npud::client::DeviceUtilization(deviceId);
  if (!load.ok()) return Result(load.status(), __func__);
  // CANN's -1: what the device does not measure (npud has no AI CPU, and
  // CANN reports no memory utilization).
  constexpr int32_t kNotSupported = -1;
  utilizationInfo->cubeUtilization = load->cube_percent;
  utilizationInfo->vectorUtilization = load->vector_percent;
  utilizationInfo->aicpuUtilization = kNotSupported;
  utilizationInfo->memoryUtilization = kNotSupported;
  return ACL_SUCCESS;
}

aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid* uuid) {
  NPUD_REQUIRE_NOT_NULL(uuid);
  return ResultInto(npud::client::DeviceUuid(deviceId), uuid, __func__, [](const auto& bytes) {
    aclrtUuid out;
    std::memcpy(out.bytes, bytes.data(), sizeof(out.bytes));
    return out;
  });
}

aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char* pciBusId, int32_t len) {
  NPUD_REQUIRE_NOT_NULL(pciBusId);
  if (deviceId < 0) {
    return Result(npud::AclError(npud::kRtInvalidDeviceId, "device id is negative"), __func__);
  }
  if (len < kPciBusIdLength) {
    return Result(npud::AclError(npud::kRtParamInvalid,
                                 "len must be at least 13 (a bus id and its terminator)"),
                  __func__);
  }
  absl::StatusOr<std::string> id = npud::client::DevicePciBusId(deviceId);
  if (!id.ok()) return Result(id.status(), __func__);
  std::memcpy(pciBusId, id->c_str(), id->size() + 1);
  return ACL_SUCCESS;
}

aclError aclrtDeviceGetByPCIBusId(const char* pciBusId, int32_t* deviceId) {
  NPUD_REQUIRE_NOT_NULL(pciBusId);
  NPUD_REQUIRE_NOT_NULL(deviceId);
  return ResultInto(npud::client::DeviceByPciBusId(pciBusId), deviceId, __func__);
}

aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value) {
  return Result(npud::client::RuntimeOptions::Get().SetDeviceLimit(limit, value), __func__);
}

aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  return ResultInto(npud::client::RuntimeOptions::Get().DeviceLimit(limit), value, __func__);
}

aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  return ResultInto(npud::client::DevicesTopology(static_cast<int32_t>(deviceId),
                                                  static_cast<int32_t>(otherDeviceId)),
                    value, __func__);
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status) {
  NPUD_REQUIRE_NOT_NULL(status);
  return ResultInto(npud::client::PeerAccessStatus(deviceId, peerDeviceId), status, __func__);
}

aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t* capabilities,
                                              const aclrtAtomicOperation* operations,
                                              const uint32_t count, int32_t deviceId) {
  static_assert(sizeof(aclrtAtomicOperation) == sizeof(int32_t));
  return Result(
      npud::client::AtomicCapabilities(capabilities, reinterpret_cast<const int32_t*>(operations),
                                       count, deviceId, nullptr),
      __func__);
}

aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t* capabilities,
                                             const aclrtAtomicOperation* operations,
                                             const uint32_t count, int32_t srcDeviceId,
                                             int32_t dstDeviceId) {
  return Result(
      npud::client::AtomicCapabilities(capabilities, reinterpret_cast<const int32_t*>(operations),
                                       count, srcDeviceId, &dstDeviceId),
      __func__);
}

aclError aclrtSetTsDevice(aclrtTsId tsId) {
  if (tsId != ACL_TS_ID_AICORE && tsId != ACL_TS_ID_AIVECTOR) {
    return Result(
        npud::AclError(npud::kAclInvalidParam, std::to_string(tsId) + " is not an aclrtTsId"),
        __func__);
  }
  // A simulated device has one task scheduler for both kinds of core, as
  // the chips where CANN ignores this choice.
  return ACL_SUCCESS;
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  if (!KnownSysParam(opt, /*context_scope=*/false)) return UnknownSysParam(opt, __func__);
  *value = npud::client::RuntimeOptions::Get().SysParam(opt);
  return ACL_SUCCESS;
}

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  if (!KnownSysParam(opt, /*context_scope=*/false)) return UnknownSysParam(opt, __func__);
  return Result(npud::client::RuntimeOptions::Get().SetSysParam(opt, value), __func__);
}

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  if (!KnownSysParam(opt, /*context_scope=*/true)) return UnknownSysParam(opt, __func__);
  return ResultInto(npud::client::ContextSysParam(opt), value, __func__);
}

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  if (!KnownSysParam(opt, /*context_scope=*/true)) return UnknownSysParam(opt, __func__);
  return Result(npud::client::SetContextSysParam(opt, value), __func__);
}

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active) {
  NPUD_REQUIRE_NOT_NULL(active);
  if (flags != nullptr) {
    return Result(npud::AclError(npud::kAclInvalidParam, "flags is reserved and must be null"),
                  __func__);
  }
  return ResultInto(npud::client::PrimaryContextActive(deviceId), active, __func__,
                    [](bool open) { return open ? 1 : 0; });
}

}  // namespace npud::abi_impl
