// ACL model capture and replay (aclmdlRI*, see client/core/model_ops.h).

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/model_control.h"
#include "client/core/model_ops.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace npud::abi_impl {

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
  return Result(client::CaptureBegin(stream, static_cast<int>(mode)), __func__);
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status,
                                aclmdlRI* modelRI) {
  NPUD_REQUIRE_NOT_NULL(status);
  NPUD_REQUIRE_NOT_NULL(modelRI);
  absl::StatusOr<client::CaptureInfo> info = client::CaptureInfoOf(stream);
  if (!info.ok()) return Result(info.status(), __func__);
  *status = static_cast<aclmdlRICaptureStatus>(info->status);
  *modelRI = info->model;
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) {
  NPUD_REQUIRE_NOT_NULL(mode);
  int value = static_cast<int>(*mode);
  const aclError ret = Result(client::ExchangeCaptureMode(&value), __func__);
  if (ret == ACL_SUCCESS) *mode = static_cast<aclmdlRICaptureMode>(value);
  return ret;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  return ResultInto(client::CaptureEnd(stream), modelRI, __func__);
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  return Result(client::ExecuteModel(modelRI, stream), __func__);
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  if (timeout != -1 && timeout <= 0) {
    return Result(AclError(kAclInvalidParam, "timeout must be -1 or > 0"), __func__);
  }
  return Result(client::ExecuteModelAndWait(modelRI, timeout), __func__);
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  return Result(client::DestroyModel(modelRI), __func__);
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  return Result(client::PrintModel(modelRI), __func__);
}

// `flags` choose what CANN's dump holds; npud's always holds the task list.
aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t /*flags*/) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  NPUD_REQUIRE_NOT_NULL(path);
  return Result(client::WriteModelJson(modelRI, path), __func__);
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char* name) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  NPUD_REQUIRE_NOT_NULL(name);
  return Result(client::SetModelName(modelRI, name), __func__);
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  NPUD_REQUIRE_NOT_NULL(name);
  absl::StatusOr<std::string> value = client::ModelName(modelRI);
  if (!value.ok()) return Result(value.status(), __func__);
  if (value->size() + 1 > maxLen) {
    return Result(AclError(kRtParamInvalid, "maxLen cannot hold the name and its terminator"),
                  __func__);
  }
  std::memcpy(name, value->c_str(), value->size() + 1);
  return ACL_SUCCESS;
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  NPUD_REQUIRE_NOT_NULL(modelRIId);
  return ResultInto(client::ModelId(modelRI), modelRIId, __func__);
}

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void* userData) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  NPUD_REQUIRE_NOT_NULL(func);
  return Result(client::AddModelDestroyCallback(modelRI, reinterpret_cast<uintptr_t>(func),
                                                [func, userData] { func(userData); }),
                __func__);
}

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  NPUD_REQUIRE_NOT_NULL(func);
  return Result(client::RemoveModelDestroyCallback(modelRI, reinterpret_cast<uintptr_t>(func)),
                __func__);
}

namespace {

// The two-call convention of aclmdlRIGetStreams / GetTasksByStream: with
// `out` null, `*count` becomes the number; otherwise up to `*count`
// entries are filled and `*count` becomes the number written.
aclError FillList(const absl::StatusOr<std::vector<void*>>& list, void** out, uint32_t* count,
                  const char* func) {
  if (!list.ok()) return Result(list.status(), func);
  if (out == nullptr) {
    *count = static_cast<uint32_t>(list->size());
    return ACL_SUCCESS;
  }
  if (*count < list->size()) {
    return Result(
        AclError(kAclInvalidParam, absl::StrFormat("the array holds %d entries, %d are needed",
                                                   *count, list->size())),
        func);
  }
  std::copy(list->begin(), list->end(), out);
  *count = static_cast<uint32_t>(list->size());
  return ACL_SUCCESS;
}

}  // namespace

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream* streams, uint32_t* numStreams) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  NPUD_REQUIRE_NOT_NULL(numStreams);
  return FillList(client::ModelStreams(modelRI), streams, numStreams, __func__);
}

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask* tasks, uint32_t* numTasks) {
  NPUD_REQUIRE_NOT_NULL(stream);
  NPUD_REQUIRE_NOT_NULL(numTasks);
  return FillList(client::ModelTasks(stream), tasks, numTasks, __func__);
}

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType* type) {
  NPUD_REQUIRE_NOT_NULL(task);
  NPUD_REQUIRE_NOT_NULL(type);
  absl::StatusOr<client::ModelTaskInfo> info = client::ModelTaskOf(task);
  if (!info.ok()) return Result(info.status(), __func__);
  *type = static_cast<aclmdlRITaskType>(info->type);
  return ACL_SUCCESS;
}

aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t* id) {
  NPUD_REQUIRE_NOT_NULL(task);
  NPUD_REQUIRE_NOT_NULL(id);
  absl::StatusOr<client::ModelTaskInfo> info = client::ModelTaskOf(task);
  if (!info.ok()) return Result(info.status(), __func__);
  *id = info->seq_id;
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                       aclmdlRICaptureMode mode) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  return Result(client::CaptureIntoModel(stream, modelRI, static_cast<int>(mode)), __func__);
}

aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  if (flag != 0) return Result(AclError(kAclInvalidParam, "flag is reserved: pass 0"), __func__);
  return ResultInto(client::BuildBegin(), modelRI, __func__);
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  NPUD_REQUIRE_NOT_NULL(stream);
  if (flag != ACL_MODEL_STREAM_FLAG_HEAD && flag != ACL_MODEL_STREAM_FLAG_DEFAULT) {
    return Result(AclError(kAclInvalidParam, "flag must be ACL_MODEL_STREAM_FLAG_HEAD or _DEFAULT"),
                  __func__);
  }
  return Result(client::BindStream(modelRI, stream, flag == ACL_MODEL_STREAM_FLAG_HEAD), __func__);
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(client::UnbindStream(modelRI, stream), __func__);
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(client::EndTask(modelRI, stream), __func__);
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* /*reserve*/) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  return Result(client::BuildEnd(modelRI), __func__);
}

aclError aclmdlRIAbort(aclmdlRI modelRI) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  return Result(client::AbortModel(modelRI), __func__);
}

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                  aclmdlRICondHandleFlag flag, aclmdlRICondHandle* handle) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  NPUD_REQUIRE_NOT_NULL(handle);
  return ResultInto(
      client::CreateCondHandle(modelRI, defaultLaunchValue, static_cast<uint32_t>(flag)), handle,
      __func__);
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t** ptr) {
  NPUD_REQUIRE_NOT_NULL(handle);
  NPUD_REQUIRE_NOT_NULL(ptr);
  return ResultInto(client::CondPointer(handle), ptr, __func__);
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream,
                             uint32_t /*flags*/) {
  NPUD_REQUIRE_NOT_NULL(params.handle);
  NPUD_REQUIRE_NOT_NULL(params.modelRIArray);
  return Result(client::AddCondTask(params.handle, static_cast<uint32_t>(params.type), params.size,
                                    params.modelRIArray, stream),
                __func__);
}

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
  return Result(client::BeginTaskGroup(stream), __func__);
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle) {
  NPUD_REQUIRE_NOT_NULL(handle);
  return ResultInto(client::EndTaskGroup(stream), handle, __func__);
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
  NPUD_REQUIRE_NOT_NULL(handle);
  return Result(client::BeginTaskUpdate(stream, handle), __func__);
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
  return Result(client::EndTaskUpdate(stream), __func__);
}

}  // namespace npud::abi_impl
