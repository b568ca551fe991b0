// ACL managed (unified) memory entry points: argument checks, then one call
// into the core (client/core/managed_memory.h).

#include <vector>

#include "absl/strings/str_format.h"
#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/managed_memory.h"
#include "client/core/runtime.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::ManagedLocation;
using npud::client::ManagedPrefetch;
using npud::client::Result;
using npud::client::ResultInto;

namespace {

npud::client::ManagedMemory& Managed() { return npud::client::Runtime::Get().managed_memory(); }

ManagedLocation Location(const aclrtMemManagedLocation& location) {
  return ManagedLocation{static_cast<uint32_t>(location.type), location.id};
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(ptr);
  return ResultInto(Managed().Allocate(size, flag), ptr, __func__);
}

aclError aclrtMemManagedAdvise(const void* const ptr, uint64_t size,
                               aclrtMemManagedAdviseType advise, aclrtMemManagedLocation location) {
  NPUD_REQUIRE_NOT_NULL(ptr);
  return Result(Managed().Advise(ptr, size, advise, Location(location)), __func__);
}

aclError aclrtMemManagedPrefetchAsync(const void* ptr, size_t size,
                                      aclrtMemManagedLocation location, uint32_t flags,
                                      aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(ptr);
  return Result(Managed().Prefetch({ManagedPrefetch{ptr, size, Location(location)}}, flags, stream),
                __func__);
}

aclError aclrtMemManagedPrefetchBatchAsync(const void** ptrs, size_t* sizes, size_t count,
                                           aclrtMemManagedLocation* prefetchLocs,
                                           size_t* prefetchLocIdxs, size_t numPrefetchLocs,
                                           uint64_t flags, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(ptrs);
  NPUD_REQUIRE_NOT_NULL(sizes);
  NPUD_REQUIRE_NOT_NULL(prefetchLocs);
  NPUD_REQUIRE_NOT_NULL(prefetchLocIdxs);
  // prefetchLocs[k] applies to ptrs[prefetchLocIdxs[k]] up to the next
  // index (or the end): the indexes start at 0 and rise strictly below count.
  if (count == 0 || numPrefetchLocs == 0 || numPrefetchLocs > count || prefetchLocIdxs[0] != 0) {
    return Result(npud::AclError(npud::kRtParamInvalid,
                                 absl::StrFormat("%d prefetches with %d locations: the first "
                                                 "location index must be 0 and there may not be "
                                                 "more locations than prefetches",
                                                 count, numPrefetchLocs)),
                  __func__);
  }
  std::vector<ManagedPrefetch> prefetches;
  for (size_t k = 0; k < numPrefetchLocs; ++k) {
    const size_t end = k + 1 < numPrefetchLocs ? prefetchLocIdxs[k + 1] : count;
    if (end <= prefetchLocIdxs[k] || end > count) {
      return Result(npud::AclError(npud::kRtParamInvalid,
                                   absl::StrFormat("prefetch location indexes must rise "
                                                   "strictly below %d",
                                                   count)),
                    __func__);
    }
    for (size_t i = prefetchLocIdxs[k]; i < end; ++i) {
      NPUD_REQUIRE_NOT_NULL(ptrs[i]);
      prefetches.push_back(ManagedPrefetch{ptrs[i], sizes[i], Location(prefetchLocs[k])});
    }
  }
  return Result(Managed().Prefetch(prefetches, flags, stream), __func__);
}

aclError aclrtMemP2PMap(void* devPtr, size_t size, int32_t dstDevId, uint64_t flags) {
  NPUD_REQUIRE_NOT_NULL(devPtr);
  if (flags != 0) {
    return Result(npud::AclError(npud::kAclInvalidParam, "aclrtMemP2PMap flags must be 0"),
                  __func__);
  }
  return Result(Managed().PrefetchToDevice(devPtr, size, dstDevId), __func__);
}

aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void* ptr,
                                size_t size, void* data, size_t dataSize) {
  NPUD_REQUIRE_NOT_NULL(ptr);
  NPUD_REQUIRE_NOT_NULL(data);
  return Result(Managed().GetAttribute(attribute, ptr, size, data, dataSize), __func__);
}

aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute* attributes, size_t numAttributes,
                                 const void* ptr, size_t size, void** data, size_t* dataSizes) {
  NPUD_REQUIRE_NOT_NULL(attributes);
  NPUD_REQUIRE_NOT_NULL(ptr);
  NPUD_REQUIRE_NOT_NULL(data);
  NPUD_REQUIRE_NOT_NULL(dataSizes);
  if (numAttributes == 0) {
    return Result(npud::AclError(npud::kRtParamInvalid, "no attributes to query"), __func__);
  }
  for (size_t i = 0; i < numAttributes; ++i) {
    NPUD_REQUIRE_NOT_NULL(data[i]);
    if (aclError error = Result(
            Managed().GetAttribute(attributes[i], ptr, size, data[i], dataSizes[i]), __func__);
        error != ACL_SUCCESS) {
      return error;
    }
  }
  return ACL_SUCCESS;
}

}  // namespace npud::abi_impl
