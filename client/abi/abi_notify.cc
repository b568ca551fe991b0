// ACL entry points of notifies and stream-ordered values.

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/count_notify_ops.h"
#include "client/core/notify_ops.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace {

// Copies the export key of `notify` with its NUL to `key` (`len` bytes).
absl::Status ExportKey(aclrtNotify notify, uint64_t flags, char* key, size_t len) {
  NPUD_ASSIGN_OR_RETURN(const std::string exported, npud::client::ExportNotify(notify, flags));
  if (len <= exported.size()) {
    return npud::AclError(npud::kRtParamInvalid, "the key buffer is too small");
  }
  std::memcpy(key, exported.c_str(), exported.size() + 1);
  return absl::OkStatus();
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag) {
  NPUD_REQUIRE_NOT_NULL(notify);
  return ResultInto(npud::client::CreateNotify(flag), notify, __func__);
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
  NPUD_REQUIRE_NOT_NULL(notify);
  return Result(npud::client::DestroyNotify(notify), __func__);
}

aclError aclrtNotifyBatchReset(aclrtNotify* notifies, size_t num) {
  if (notifies == nullptr) {
    return Result(npud::AclError(npud::kRtParamInvalid, "notifies is null"), __func__);
  }
  return Result(npud::client::ResetNotifies(notifies, num), __func__);
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(notify);
  return Result(npud::client::RecordNotify(notify, stream), __func__);
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout) {
  NPUD_REQUIRE_NOT_NULL(notify);
  return Result(npud::client::WaitAndResetNotify(notify, stream, timeout), __func__);
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId) {
  NPUD_REQUIRE_NOT_NULL(notify);
  NPUD_REQUIRE_NOT_NULL(notifyId);
  return ResultInto(npud::client::NotifyId(notify), notifyId, __func__);
}

aclError aclrtNotifyGetExportKey(aclrtNotify notify, char* key, size_t len, uint64_t flags) {
  NPUD_REQUIRE_NOT_NULL(notify);
  NPUD_REQUIRE_NOT_NULL(key);
  return Result(ExportKey(notify, flags, key, len), __func__);
}

aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t* pid, size_t num) {
  NPUD_REQUIRE_NOT_NULL(notify);
  NPUD_REQUIRE_NOT_NULL(pid);
  if (num == 0) return npud::client::NullArgument(__func__, "num");
  return Result(npud::client::SetNotifyImportPids(notify, std::vector<int64_t>(pid, pid + num)),
                __func__);
}

aclError aclrtNotifyImportByKey(aclrtNotify* notify, const char* key, uint64_t flags) {
  NPUD_REQUIRE_NOT_NULL(notify);
  NPUD_REQUIRE_NOT_NULL(key);
  return ResultInto(npud::client::ImportNotify(key, flags), notify, __func__);
}

aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(devAddr);
  return Result(npud::client::ValueWrite(devAddr, value, flag, stream), __func__);
}

aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(devAddr);
  return Result(npud::client::ValueWait(devAddr, value, flag, stream), __func__);
}

aclError aclrtCntNotifyCreate(aclrtCntNotify* cntNotify, uint64_t flag) {
  NPUD_REQUIRE_NOT_NULL(cntNotify);
  return ResultInto(npud::client::CreateCountNotify(flag), cntNotify, __func__);
}

aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify) {
  NPUD_REQUIRE_NOT_NULL(cntNotify);
  return Result(npud::client::DestroyCountNotify(cntNotify), __func__);
}

aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
                              aclrtCntNotifyRecordInfo* info) {
  NPUD_REQUIRE_NOT_NULL(cntNotify);
  NPUD_REQUIRE_NOT_NULL(info);
  return Result(npud::client::RecordCountNotify(cntNotify, stream,
                                                static_cast<uint32_t>(info->mode), info->value),
                __func__);
}

aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
                                       aclrtCntNotifyWaitInfo* info) {
  NPUD_REQUIRE_NOT_NULL(cntNotify);
  NPUD_REQUIRE_NOT_NULL(info);
  return Result(npud::client::WaitCountNotify(cntNotify, stream, static_cast<uint32_t>(info->mode),
                                              info->value, info->timeout, info->isClear != 0),
                __func__);
}

aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(cntNotify);
  return Result(npud::client::ResetCountNotify(cntNotify, stream), __func__);
}

aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t* notifyId) {
  NPUD_REQUIRE_NOT_NULL(cntNotify);
  NPUD_REQUIRE_NOT_NULL(notifyId);
  return ResultInto(npud::client::CountNotifyId(cntNotify), notifyId, __func__);
}

}  // namespace npud::abi_impl
