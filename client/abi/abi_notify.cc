// ACL entry points of notifies and stream-ordered values.

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/count_notify_ops.h"
#include "client/core/notify_ops.h"
#include "common/acl_status.h"

using npud::client::Result;

extern "C" {

aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag) {
  NPUD_REQUIRE_NOT_NULL(notify);
  auto created = npud::client::CreateNotify(flag);
  if (!created.ok()) return Result(created.status(), __func__);
  *notify = *created;
  return ACL_SUCCESS;
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
  NPUD_REQUIRE_NOT_NULL(notify);
  return Result(npud::client::DestroyNotify(notify), __func__);
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
  auto id = npud::client::NotifyId(notify);
  if (!id.ok()) return Result(id.status(), __func__);
  *notifyId = *id;
  return ACL_SUCCESS;
}

aclError aclrtNotifyGetExportKey(aclrtNotify notify, char* key, size_t len, uint64_t flags) {
  NPUD_REQUIRE_NOT_NULL(notify);
  NPUD_REQUIRE_NOT_NULL(key);
  auto exported = npud::client::ExportNotify(notify, flags);
  if (!exported.ok()) return Result(exported.status(), __func__);
  if (len <= exported->size()) {
    return Result(npud::AclError(npud::kRtParamInvalid, "the key buffer is too small"), __func__);
  }
  std::memcpy(key, exported->c_str(), exported->size() + 1);
  return ACL_SUCCESS;
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
  auto imported = npud::client::ImportNotify(key, flags);
  if (!imported.ok()) return Result(imported.status(), __func__);
  *notify = *imported;
  return ACL_SUCCESS;
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
  auto created = npud::client::CreateCountNotify(flag);
  if (!created.ok()) return Result(created.status(), __func__);
  *cntNotify = *created;
  return ACL_SUCCESS;
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
  auto id = npud::client::CountNotifyId(cntNotify);
  if (!id.ok()) return Result(id.status(), __func__);
  *notifyId = *id;
  return ACL_SUCCESS;
}

}  // extern "C"
