// aclrtMemcpyBatch, BatchV2, BatchAsync and BatchAsyncV2: the ACL layer's
// checks, then one call into the core (client/core/memcpy_batch.h).

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/memcpy_batch.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;

namespace {

struct BatchArgs {
  void** dsts;
  size_t* dest_maxs;
  void** srcs;
  size_t* sizes;
  size_t count;
  aclrtMemcpyBatchAttr* attrs;
  size_t* attr_indexes;
  size_t attr_count;
};

aclError InvalidBatch(const char* why, const char* function) {
  return Result(npud::AclError(npud::kAclInvalidParam, why), function);
}

// `fail_index` may be null only for the V2 calls (`needs_fail_index` false).
aclError Batch(const BatchArgs& args, size_t* fail_index, bool needs_fail_index, bool async,
               aclrtStream stream, const char* function) {
  if (needs_fail_index && fail_index == nullptr) return InvalidBatch("failIndex is null", function);
  if (args.sizes == nullptr) return InvalidBatch("sizes is null", function);
  if (args.count == 0) return InvalidBatch("numBatches must be positive", function);
  bool all_empty = true;
  for (size_t i = 0; i < args.count; ++i) all_empty = all_empty && args.sizes[i] == 0;
  if (all_empty) {  // CANN returns before any other check.
    if (fail_index != nullptr) *fail_index = SIZE_MAX;
    return ACL_SUCCESS;
  }
  if (args.dsts == nullptr || args.dest_maxs == nullptr || args.srcs == nullptr ||
      args.attrs == nullptr || args.attr_indexes == nullptr) {
    return InvalidBatch("dsts, destMaxs, srcs, attrs and attrsIndexes must not be null", function);
  }
  std::vector<npud::client::BatchCopy> copies(args.count);
  for (size_t i = 0; i < args.count; ++i) {
    if (args.dest_maxs[i] < args.sizes[i])
      return InvalidBatch("a size is above its destMax", function);
    copies[i] = {args.dsts[i], args.dest_maxs[i], args.srcs[i], args.sizes[i]};
  }
  std::vector<npud::client::BatchAttr> attrs(args.attr_count);
  for (size_t k = 0; k < args.attr_count; ++k) {
    const aclrtMemcpyBatchAttr& attr = args.attrs[k];
    for (uint8_t byte : attr.rsv) {
      if (byte != 0) return InvalidBatch("the reserved bytes of an attribute must be 0", function);
    }
    attrs[k] = {attr.dstLoc.id, static_cast<uint32_t>(attr.dstLoc.type), attr.srcLoc.id,
                static_cast<uint32_t>(attr.srcLoc.type)};
  }
  return Result(npud::client::MemcpyBatch(copies, attrs,
                                          absl::MakeConstSpan(args.attr_indexes, args.attr_count),
                                          async, stream, fail_index),
                function);
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtMemcpyBatch(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                          size_t numBatches, aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes,
                          size_t numAttrs, size_t* failIndex) {
  return Batch({dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs}, failIndex,
               /*needs_fail_index=*/true, /*async=*/false, nullptr, __func__);
}

aclError aclrtMemcpyBatchV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                            size_t numBatches, aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes,
                            size_t numAttrs) {
  return Batch({dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs}, nullptr,
               /*needs_fail_index=*/false, /*async=*/false, nullptr, __func__);
}

aclError aclrtMemcpyBatchAsync(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                               size_t numBatches, aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes,
                               size_t numAttrs, size_t* failIndex, aclrtStream stream) {
  return Batch({dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs}, failIndex,
               /*needs_fail_index=*/true, /*async=*/true, stream, __func__);
}

aclError aclrtMemcpyBatchAsyncV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                                 size_t numBatches, aclrtMemcpyBatchAttr* attrs,
                                 size_t* attrsIndexes, size_t numAttrs, aclrtStream stream) {
  return Batch({dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs}, nullptr,
               /*needs_fail_index=*/false, /*async=*/true, stream, __func__);
}

}  // namespace npud::abi_impl
