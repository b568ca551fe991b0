// Copies and cache operations whose addresses live in device memory:
// memcpy descriptors, base-address slots with offsets, cache maintenance
// descriptors (client/core/memcpy_indirect.h).

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/memcpy_indirect.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;

namespace {

// aclrtMemcpyKind values past the last one are refused by the ACL layer;
// of the valid ones only INNER_DEVICE_TO_DEVICE has descriptors.
constexpr int kMemcpyKinds = 8;

// Through int: the enumeration's own range says nothing of what callers pass.
bool KnownKind(aclrtMemcpyKind kind) {
  const int value = static_cast<int>(kind);
  return value >= 0 && value < kMemcpyKinds;
}

aclError InvalidIndirect(const char* why, const char* function) {
  return Result(npud::AclError(npud::kAclInvalidParam, why), function);
}

aclError NoDescriptorKind(const char* function) {
  return Result(npud::AclError(npud::kRtFeatureNotSupport,
                               "descriptors exist for ACL_MEMCPY_INNER_DEVICE_TO_DEVICE only"),
                function);
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t* descSize) {
  NPUD_REQUIRE_NOT_NULL(descSize);
  if (!KnownKind(kind)) return InvalidIndirect("invalid aclrtMemcpyKind", __func__);
  if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) return NoDescriptorKind(__func__);
  *descSize = npud::client::kMemcpyDescriptorBytes;
  return ACL_SUCCESS;
}

aclError aclrtSetMemcpyDesc(void* desc, aclrtMemcpyKind kind, void* srcAddr, void* dstAddr,
                            size_t count, void* config) {
  NPUD_REQUIRE_NOT_NULL(desc);
  if (!KnownKind(kind)) return InvalidIndirect("invalid aclrtMemcpyKind", __func__);
  NPUD_REQUIRE_NOT_NULL(srcAddr);
  NPUD_REQUIRE_NOT_NULL(dstAddr);
  if (count == 0) return InvalidIndirect("count must be positive", __func__);
  if (config != nullptr) return InvalidIndirect("config is reserved and must be null", __func__);
  if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) return NoDescriptorKind(__func__);
  return Result(npud::client::SetMemcpyDescriptor(desc, srcAddr, dstAddr, count), __func__);
}

aclError aclrtMemcpyAsyncWithDesc(void* desc, aclrtMemcpyKind kind, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(desc);
  if (!KnownKind(kind)) return InvalidIndirect("invalid aclrtMemcpyKind", __func__);
  NPUD_REQUIRE_NOT_NULL(stream);  // Not the default stream.
  if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) return NoDescriptorKind(__func__);
  return Result(npud::client::MemcpyWithDescriptor(desc, stream), __func__);
}

aclError aclrtMemcpyAsyncWithOffset(void** dst, size_t destMax, size_t dstDataOffset,
                                    const void** src, size_t count, size_t srcDataOffset,
                                    aclrtMemcpyKind kind, aclrtStream stream) {
  if (count == 0) return ACL_SUCCESS;  // CANN checks nothing then.
  if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) {
    return Result(npud::AclError(npud::kRtParamInvalid,
                                 "offset copies are ACL_MEMCPY_INNER_DEVICE_TO_DEVICE only"),
                  __func__);
  }
  return Result(npud::client::MemcpyWithOffsets(dst, destMax, dstDataOffset, src, count,
                                                srcDataOffset, stream),
                __func__);
}

aclError aclrtCmoGetDescSize(size_t* size) {
  if (size == nullptr) {
    return Result(npud::AclError(npud::kRtParamInvalid, "size is null"), __func__);
  }
  *size = npud::client::kCacheDescriptorBytes;
  return ACL_SUCCESS;
}

aclError aclrtCmoSetDesc(void* cmoDesc, void* src, size_t size) {
  return Result(npud::client::SetCacheDescriptor(cmoDesc, src, size), __func__);
}

aclError aclrtCmoAsyncWithDesc(void* cmoDesc, aclrtCmoType cmoType, aclrtStream stream,
                               const void* reserve) {
  if (reserve != nullptr) {
    return Result(npud::AclError(npud::kRtParamInvalid, "reserve must be null"), __func__);
  }
  if (cmoType < ACL_RT_CMO_TYPE_PREFETCH || cmoType > ACL_RT_CMO_TYPE_FLUSH) {
    return Result(npud::AclError(npud::kRtParamInvalid, "invalid cache operation type"), __func__);
  }
  return Result(npud::client::CacheOperationWithDescriptor(cmoDesc, stream), __func__);
}

}  // namespace npud::abi_impl
