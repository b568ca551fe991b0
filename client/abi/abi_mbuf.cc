// ACL entry points of shared buffers (aclrt*Buf), checked in the order
// CANN's ACL layer checks them. acl_tdt_queue.h's acltdt*Buf take the same
// handles and forward here (abi_tdt_queue.cc).

#include "absl/strings/str_format.h"
#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/mbufs.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace {

// The private area's bound comes before the null checks in CANN.
bool UserDataFits(size_t size, size_t offset) {
  return offset <= npud::client::kMbufUserDataBytes &&
         size <= npud::client::kMbufUserDataBytes - offset;
}

aclError UserDataOutside(size_t size, size_t offset, const char* function) {
  return Result(npud::AclError(npud::kAclInvalidParam,
                               absl::StrFormat("size %u + offset %u exceed the %u-byte user data",
                                               size, offset, npud::client::kMbufUserDataBytes)),
                function);
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtAllocBuf(aclrtMbuf* buf, size_t size) {
  NPUD_REQUIRE_NOT_NULL(buf);
  if (size == 0) {
    return npud::client::Unrecorded(npud::AclError(npud::kAclInvalidParam, "size must not be 0"),
                                    __func__);
  }
  return ResultInto(npud::client::AllocMbuf(size), buf, __func__);
}

aclError aclrtFreeBuf(aclrtMbuf buf) {
  NPUD_REQUIRE_NOT_NULL(buf);
  return Result(npud::client::FreeMbuf(buf), __func__);
}

aclError aclrtGetBufData(const aclrtMbuf buf, void** dataPtr, size_t* size) {
  NPUD_REQUIRE_NOT_NULL(buf);
  NPUD_REQUIRE_NOT_NULL(dataPtr);
  NPUD_REQUIRE_NOT_NULL(size);
  auto data = npud::client::MbufDataOf(buf);
  if (!data.ok()) return Result(data.status(), __func__);
  *dataPtr = data->data;
  *size = data->size;
  return ACL_SUCCESS;
}

aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t* len) {
  NPUD_REQUIRE_NOT_NULL(buf);
  NPUD_REQUIRE_NOT_NULL(len);
  return ResultInto(npud::client::MbufDataLength(buf), len, __func__);
}

aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len) {
  NPUD_REQUIRE_NOT_NULL(buf);
  return Result(npud::client::SetMbufDataLength(buf, len), __func__);
}

aclError aclrtGetBufUserData(const aclrtMbuf buf, void* dataPtr, size_t size, size_t offset) {
  if (!UserDataFits(size, offset)) return UserDataOutside(size, offset, __func__);
  NPUD_REQUIRE_NOT_NULL(buf);
  NPUD_REQUIRE_NOT_NULL(dataPtr);
  return Result(npud::client::GetMbufUserData(buf, dataPtr, size, offset), __func__);
}

aclError aclrtSetBufUserData(aclrtMbuf buf, const void* dataPtr, size_t size, size_t offset) {
  if (!UserDataFits(size, offset)) return UserDataOutside(size, offset, __func__);
  NPUD_REQUIRE_NOT_NULL(buf);
  NPUD_REQUIRE_NOT_NULL(dataPtr);
  return Result(npud::client::SetMbufUserData(buf, dataPtr, size, offset), __func__);
}

aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf* newBuf) {
  NPUD_REQUIRE_NOT_NULL(buf);
  NPUD_REQUIRE_NOT_NULL(newBuf);
  return ResultInto(npud::client::CopyMbufRef(buf), newBuf, __func__);
}

aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf) {
  NPUD_REQUIRE_NOT_NULL(headBuf);
  NPUD_REQUIRE_NOT_NULL(buf);
  return Result(npud::client::AppendMbufChain(headBuf, buf), __func__);
}

aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t* num) {
  NPUD_REQUIRE_NOT_NULL(headBuf);
  NPUD_REQUIRE_NOT_NULL(num);
  return ResultInto(npud::client::MbufChainLength(headBuf), num, __func__);
}

aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf* buf) {
  NPUD_REQUIRE_NOT_NULL(headBuf);
  NPUD_REQUIRE_NOT_NULL(buf);
  return ResultInto(npud::client::MbufFromChain(headBuf, index), buf, __func__);
}

}  // namespace npud::abi_impl
