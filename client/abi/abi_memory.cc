// ACL memory entry points: argument checks, then one call into the core.

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/context_ops.h"
#include "client/core/memory_ops.h"
#include "client/core/stream_ops.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace {

// The core takes copy kinds as its own CopyKind (memory_ops.h), value for value.
using npud::client::CopyKind;
static_assert(static_cast<uint32_t>(CopyKind::kHostToHost) == ACL_MEMCPY_HOST_TO_HOST);
static_assert(static_cast<uint32_t>(CopyKind::kHostToDevice) == ACL_MEMCPY_HOST_TO_DEVICE);
static_assert(static_cast<uint32_t>(CopyKind::kDeviceToHost) == ACL_MEMCPY_DEVICE_TO_HOST);
static_assert(static_cast<uint32_t>(CopyKind::kDeviceToDevice) == ACL_MEMCPY_DEVICE_TO_DEVICE);
static_assert(static_cast<uint32_t>(CopyKind::kDefault) == ACL_MEMCPY_DEFAULT);
static_assert(static_cast<uint32_t>(CopyKind::kHostToBufToDevice) ==
              ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE);
static_assert(static_cast<uint32_t>(CopyKind::kInnerDeviceToDevice) ==
              ACL_MEMCPY_INNER_DEVICE_TO_DEVICE);
static_assert(static_cast<uint32_t>(CopyKind::kInterDeviceToDevice) ==
              ACL_MEMCPY_INTER_DEVICE_TO_DEVICE);

absl::Status StoreMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  NPUD_ASSIGN_OR_RETURN(const npud::client::MemInfo info, npud::client::GetMemInfo(attr));
  *free = info.free_bytes;
  *total = info.total_bytes;
  return absl::OkStatus();
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  NPUD_REQUIRE_NOT_NULL(devPtr);
  return ResultInto(npud::client::MallocDevice(size, policy), devPtr, __func__);
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  NPUD_REQUIRE_NOT_NULL(devPtr);
  // Page alignment covers 32 bytes.
  return ResultInto(npud::client::MallocDevice(size, policy), devPtr, __func__);
}

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  NPUD_REQUIRE_NOT_NULL(devPtr);
  return ResultInto(npud::client::MallocDevice(size, policy), devPtr, __func__);
}

aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                            aclrtMallocConfig* cfg) {
  NPUD_REQUIRE_NOT_NULL(devPtr);
  if (cfg != nullptr && cfg->numAttrs > 0 && cfg->attrs == nullptr) {
    return npud::client::NullArgument(__func__, "cfg->attrs");
  }
  if (size == 0) return ResultInto(npud::client::MallocDevice(size, policy), devPtr, __func__);
  int32_t device_attr = -1;
  if (cfg != nullptr) {
    if (cfg->attrs == nullptr) {
      return Result(npud::AclError(npud::kRtParamInvalid, "cfg has no attributes"), __func__);
    }
    for (size_t i = 0; i < cfg->numAttrs; ++i) {
      const aclrtMallocAttribute& attribute = cfg->attrs[i];
      if (attribute.attr > ACL_RT_MEM_ATTR_DEVICE_ID) {
        return Result(npud::AclError(npud::kRtParamInvalid, "unknown allocation attribute"),
                      __func__);
      }
      if (attribute.attr == ACL_RT_MEM_ATTR_DEVICE_ID) {
        device_attr = static_cast<int32_t>(attribute.value.deviceId);
      }
    }
  }
  return ResultInto(npud::client::MallocDevice(size, policy, device_attr), devPtr, __func__);
}

aclError aclrtFree(void* devPtr) {
  NPUD_REQUIRE_NOT_NULL(devPtr);
  return Result(npud::client::FreeDevice(devPtr), __func__);
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  NPUD_REQUIRE_NOT_NULL(hostPtr);
  return ResultInto(npud::client::MallocHost(size), hostPtr, __func__);
}

aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg) {
  (void)cfg;  // Attributes only tune placement on real hardware.
  return aclrtMallocHost(ptr, size);
}

aclError aclrtFreeHost(void* hostPtr) {
  NPUD_REQUIRE_NOT_NULL(hostPtr);
  return Result(npud::client::FreeHost(hostPtr), __func__);
}

aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr) {
  NPUD_REQUIRE_NOT_NULL(ptr);
  NPUD_REQUIRE_NOT_NULL(devPtr);
  // ACL_HOST_REGISTER_MAPPED is 0 in this enum and 2 among the V2 flags.
  const uint32_t flags =
      type == ACL_HOST_REGISTER_MAPPED ? ACL_HOST_REG_MAPPED : static_cast<uint32_t>(type);
  return ResultInto(npud::client::RegisterHost(ptr, size, flags), devPtr, __func__);
}

aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(ptr);
  return Result(npud::client::RegisterHost(ptr, size, flag).status(), __func__);
}

aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(pHost);
  NPUD_REQUIRE_NOT_NULL(pDevice);
  return ResultInto(npud::client::HostDevicePointer(pHost, flag), pDevice, __func__);
}

aclError aclrtHostUnregister(void* ptr) {
  NPUD_REQUIRE_NOT_NULL(ptr);
  return Result(npud::client::UnregisterHost(ptr), __func__);
}

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, aclrtMemcpyKind kind) {
  NPUD_REQUIRE_NOT_NULL(dst);
  NPUD_REQUIRE_NOT_NULL(src);
  return Result(
      npud::client::Memcpy2d(dst, dpitch, src, spitch, width, height, kind, false, nullptr),
      __func__);
}

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                            size_t height, aclrtMemcpyKind kind, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(dst);
  NPUD_REQUIRE_NOT_NULL(src);
  return Result(npud::client::Memcpy2d(dst, dpitch, src, spitch, width, height, kind, true, stream),
                __func__);
}

aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize) {
  NPUD_REQUIRE_NOT_NULL(ptr);
  if (pbase == nullptr && psize == nullptr) {
    return Result(npud::AclError(npud::kRtParamInvalid, "pbase and psize are both null"), __func__);
  }
  absl::StatusOr<npud::client::AddressRange> range = npud::client::AllocationRangeOf(ptr);
  if (!range.ok()) return Result(range.status(), __func__);
  if (pbase != nullptr) *pbase = range->base;
  if (psize != nullptr) *psize = range->size;
  return ACL_SUCCESS;
}

aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) {
  NPUD_REQUIRE_NOT_NULL(ptr);
  NPUD_REQUIRE_NOT_NULL(attributes);
  return ResultInto(npud::client::PointerAttributesOf(ptr), attributes, __func__,
                    [](const npud::client::PointerAttributes& a) {
                      aclrtPtrAttributes out{};
                      out.location.id = a.device;
                      out.location.type = static_cast<aclrtMemLocationType>(a.type);
                      out.pageSize = a.page_size;
                      return out;
                    });
}

aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo* memUsageInfo, size_t inputNum,
                              size_t* outputNum) {
  NPUD_REQUIRE_NOT_NULL(memUsageInfo);
  NPUD_REQUIRE_NOT_NULL(outputNum);
  if (inputNum == 0) {
    return Result(npud::AclError(npud::kAclInvalidParam, "inputNum must be at least 1"), __func__);
  }
  absl::StatusOr<std::vector<npud::client::MemUsage>> usage = npud::client::MemoryUsage(deviceId);
  if (!usage.ok()) return Result(usage.status(), __func__);
  const size_t count = std::min(inputNum, usage->size());
  for (size_t i = 0; i < count; ++i) {
    aclrtMemUsageInfo& out = memUsageInfo[i];
    out = aclrtMemUsageInfo{};
    const std::string& name = (*usage)[i].name;
    std::memcpy(out.name, name.data(), std::min(name.size(), sizeof(out.name) - 1));
    out.curMemSize = (*usage)[i].current_bytes;
    out.memPeakSize = (*usage)[i].peak_bytes;
  }
  *outputNum = count;
  return ACL_SUCCESS;
}

aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value, size_t N) {
  if (N == 0) return ACL_SUCCESS;
  NPUD_REQUIRE_NOT_NULL(ptr);
  return Result(npud::client::Memset32(ptr, memSize, value, N, false, nullptr), __func__);
}

aclError aclrtMemsetD32Async(void* ptr, size_t memSize, uint32_t value, size_t N,
                             aclrtStream stream) {
  if (N == 0) return ACL_SUCCESS;
  NPUD_REQUIRE_NOT_NULL(ptr);
  return Result(npud::client::Memset32(ptr, memSize, value, N, true, stream), __func__);
}

// Synchronizes the current device (its queued work may still use the
// memory), then frees.
aclError aclrtFreeWithDevSync(void* devPtr) {
  NPUD_REQUIRE_NOT_NULL(devPtr);
  if (aclError synced = Result(npud::client::SynchronizeDevice(-1), __func__);
      synced != ACL_SUCCESS) {
    return synced;
  }
  return Result(npud::client::FreeDevice(devPtr), __func__);
}

aclError aclrtFreeHostWithDevSync(void* hostPtr) {
  NPUD_REQUIRE_NOT_NULL(hostPtr);
  if (aclError synced = Result(npud::client::SynchronizeDevice(-1), __func__);
      synced != ACL_SUCCESS) {
    return synced;
  }
  return Result(npud::client::FreeHost(hostPtr), __func__);
}

aclError aclrtMemFlush(void* devPtr, size_t size) {
  NPUD_REQUIRE_NOT_NULL(devPtr);
  return Result(npud::client::CheckCacheRange(devPtr, size), __func__);
}

aclError aclrtMemInvalidate(void* devPtr, size_t size) {
  NPUD_REQUIRE_NOT_NULL(devPtr);
  return Result(npud::client::CheckCacheRange(devPtr, size), __func__);
}

aclError aclrtCmoAsync(void* src, size_t size, aclrtCmoType cmoType, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(src);
  if (cmoType < ACL_RT_CMO_TYPE_PREFETCH || cmoType > ACL_RT_CMO_TYPE_FLUSH) {
    return Result(npud::AclError(npud::kRtParamInvalid, "invalid cache operation type"), __func__);
  }
  if (aclError checked = Result(npud::client::CheckCacheRange(src, size), __func__);
      checked != ACL_SUCCESS) {
    return checked;
  }
  return Result(npud::client::ResolveStream(stream).status(), __func__);
}

aclError aclrtCheckMemType(void** addrList, uint32_t size, uint32_t memType, uint32_t* checkResult,
                           uint32_t reserve) {
  NPUD_REQUIRE_NOT_NULL(addrList);
  NPUD_REQUIRE_NOT_NULL(checkResult);
  *checkResult = 0;
  return ResultInto(npud::client::CheckMemoryTypes(addrList, size, memType, reserve), checkResult,
                    __func__, [](bool all) { return all ? 1u : 0u; });
}

aclError aclrtDeviceL2CacheFlush(void* rsv) {
  if (rsv != nullptr)
    return Result(npud::AclError(npud::kAclInvalidParam, "rsv must be null"), __func__);
  return Result(npud::client::CurrentContext().status(), __func__);
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  if (count == 0) return ACL_SUCCESS;
  NPUD_REQUIRE_NOT_NULL(devPtr);
  return Result(npud::client::Memset(devPtr, maxCount, value, count, false, nullptr), __func__);
}

namespace {

npud::client::RandomParamArg ParamOf(const aclrtRandomParaInfo& info) {
  npud::client::RandomParamArg param;
  std::memcpy(&param.bits, info.valueOrAddr, sizeof(param.bits));
  param.size = info.size;
  param.from_device = info.isAddr != 0;
  return param;
}

}  // namespace

aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream,
                             void* reserve) {
  NPUD_REQUIRE_NOT_NULL(taskInfo);
  if (reserve != nullptr)
    return Result(AclError(kAclInvalidParam, "reserve must be null"), __func__);
  npud::client::RandomNumbersArgs args;
  args.data_type = taskInfo->dataType;
  args.function = static_cast<uint32_t>(taskInfo->randomNumFuncParaInfo.funcType);
  const auto& params = taskInfo->randomNumFuncParaInfo.paramInfo;
  switch (taskInfo->randomNumFuncParaInfo.funcType) {
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK:
      args.a = ParamOf(params.dropoutBitmaskInfo.dropoutRation);
      break;
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
      args.a = ParamOf(params.uniformDisInfo.min);
      args.b = ParamOf(params.uniformDisInfo.max);
      break;
    default:  // normal and truncated normal; a bad type is refused inside
      args.a = ParamOf(params.normalDisInfo.mean);
      args.b = ParamOf(params.normalDisInfo.stddev);
      break;
  }
  args.seed = ParamOf(taskInfo->randomSeed);
  args.count = ParamOf(taskInfo->randomNum);
  args.result = taskInfo->randomResultAddr;
  args.counter = taskInfo->randomCounterAddr;
  return Result(npud::client::RandomNumbersAsync(args, stream), __func__);
}

aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind,
                          aclDataType type, aclrtStream stream, void* reserve) {
  NPUD_REQUIRE_NOT_NULL(dst);
  NPUD_REQUIRE_NOT_NULL(src);
  if (reserve != nullptr)
    return Result(AclError(kAclInvalidParam, "reserve must be null"), __func__);
  return Result(npud::client::ReduceAsync(dst, src, count, kind, type, stream), __func__);
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                          aclrtStream stream) {
  if (count == 0) return ACL_SUCCESS;
  NPUD_REQUIRE_NOT_NULL(devPtr);
  return Result(npud::client::Memset(devPtr, maxCount, value, count, true, stream), __func__);
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind) {
  if (count == 0) return ACL_SUCCESS;
  NPUD_REQUIRE_NOT_NULL(dst);
  NPUD_REQUIRE_NOT_NULL(src);
  return Result(npud::client::Memcpy(dst, destMax, src, count, kind, false, nullptr), __func__);
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
  if (count == 0) return ACL_SUCCESS;
  NPUD_REQUIRE_NOT_NULL(dst);
  NPUD_REQUIRE_NOT_NULL(src);
  return Result(npud::client::Memcpy(dst, destMax, src, count, kind, true, stream), __func__);
}

aclError aclrtMemcpyAsyncWithCondition(void* dst, size_t destMax, const void* src, size_t count,
                                       aclrtMemcpyKind kind, aclrtStream stream) {
  if (count == 0) return ACL_SUCCESS;
  NPUD_REQUIRE_NOT_NULL(dst);
  NPUD_REQUIRE_NOT_NULL(src);
  if (static_cast<int>(kind) < ACL_MEMCPY_HOST_TO_HOST ||
      static_cast<int>(kind) > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) {
    return npud::client::Unrecorded(
        npud::AclError(npud::kAclInvalidParam,
                       absl::StrFormat("%d is not an aclrtMemcpyKind this call takes", kind)),
        __func__);
  }
  return Result(npud::client::MemcpyPinnedOrSync(dst, destMax, src, count, kind, stream), __func__);
}

// The memory of the task scheduler is device memory like any other here.
aclError aclrtMallocForTaskScheduler(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                                     aclrtMallocConfig* cfg) {
  if (devPtr != nullptr && size == 0) {
    return npud::client::Unrecorded(npud::AclError(npud::kAclInvalidParam, "size must not be 0"),
                                    __func__);
  }
  return npud::abi_impl::aclrtMallocWithCfg(devPtr, size, policy, cfg);
}

aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                     aclrtHostMemMapCapability* capabilities) {
  NPUD_REQUIRE_NOT_NULL(capabilities);
  return ResultInto(npud::client::HostMapCapability(static_cast<int32_t>(deviceId), hacType),
                    capabilities, __func__, [](bool supported) {
                      return supported ? ACL_RT_HOST_MEM_MAP_SUPPORTED
                                       : ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
                    });
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  NPUD_REQUIRE_NOT_NULL(free);
  NPUD_REQUIRE_NOT_NULL(total);
  return Result(StoreMemInfo(attr, free, total), __func__);
}

}  // namespace npud::abi_impl
