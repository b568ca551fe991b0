// ACL entry points for the parameters of a model's tasks and the
// information cached on them: argument checks, the C layout of
// aclmdlRITaskParams, then one call into the core (model_task_params.h).

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/abi/launch_attributes.h"
#include "client/core/model_ops.h"
#include "client/core/model_task_params.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;
using npud::client::TaskParams;

namespace {

// What aclmdlRITaskGetParams's pointers point at: the arguments, the op
// information and the launch configuration, kept per task until the next
// query of the same task.
struct Answer {
  std::string args;
  std::string op_info;
  std::vector<aclrtLaunchKernelAttr> attrs;
  aclrtLaunchKernelCfg cfg{};
};

struct Answers {
  absl::Mutex mu;
  absl::flat_hash_map<void*, std::unique_ptr<Answer>> by_task ABSL_GUARDED_BY(mu);
};

// Never destroyed: the application may hold the pointers until exit.
// Takes the arguments and op information out of `params`.
Answer& AnswerFor(void* task, TaskParams& params) {
  static auto* answers = new Answers();
  absl::MutexLock lock(&answers->mu);
  auto& answer = answers->by_task[task];
  if (answer == nullptr) answer = std::make_unique<Answer>();
  answer->args = std::move(params.args);
  answer->op_info = std::move(params.op_info);
  answer->attrs.clear();
  for (const npud::client::LaunchAttribute& attribute : params.attributes) {
    aclrtLaunchKernelAttr attr{};
    attr.id = static_cast<aclrtLaunchKernelAttrId>(attribute.id);
    std::memcpy(&attr.value, attribute.value.data(),
                std::min(attribute.value.size(), sizeof(attr.value)));
    answer->attrs.push_back(attr);
  }
  answer->cfg.attrs = answer->attrs.data();
  answer->cfg.numAttrs = answer->attrs.size();
  return *answer;
}

aclError InvalidTask(const std::string& why, const char* function) {
  return Result(npud::AclError(npud::kRtParamInvalid, why), function);
}

}  // namespace

namespace npud::abi_impl {

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams* params) {
  NPUD_REQUIRE_NOT_NULL(task);
  NPUD_REQUIRE_NOT_NULL(params);
  absl::StatusOr<TaskParams> got = client::GetTaskParams(task);
  if (!got.ok()) return Result(got.status(), __func__);
  std::memset(params, 0, sizeof(*params));
  params->type = static_cast<aclmdlRITaskType>(got->type);
  Answer& answer = AnswerFor(task, *got);
  const TaskParams& kept = *got;
  if (!answer.op_info.empty()) {
    params->opInfoPtr = answer.op_info.data();
    params->opInfoSize = answer.op_info.size();
  }
  switch (kept.type) {
    case client::kTaskKernel: {
      aclmdlRIKernelTaskParams& kernel = params->kernelTaskParams;
      kernel.funcHandle = kept.function;
      kernel.cfg = answer.attrs.empty() ? nullptr : &answer.cfg;
      kernel.isHostArgs = kept.host_args ? 1 : 0;
      kernel.args = kept.host_args ? static_cast<void*>(answer.args.data())
                                   : reinterpret_cast<void*>(kept.args_address);
      kernel.argsSize = kept.args_size;
      kernel.numBlocks = kept.blocks;
      break;
    }
    case client::kTaskEventRecord:
      params->eventRecordTaskParams = {kept.event, kept.event_flags, kept.task_flag};
      break;
    case client::kTaskEventWait:
      params->eventWaitTaskParams = {kept.event, kept.event_flags, kept.task_flag};
      break;
    case client::kTaskEventReset:
      params->eventResetTaskParams = {kept.event, kept.event_flags, kept.task_flag};
      break;
    case client::kTaskValueWrite:
      params->valueWriteTaskParams = {reinterpret_cast<void*>(kept.address), kept.value};
      break;
    case client::kTaskValueWait:
      params->valueWaitTaskParams = {reinterpret_cast<void*>(kept.address), kept.value,
                                     kept.value_flag};
      break;
    default:
      break;
  }
  return ACL_SUCCESS;
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams* params) {
  NPUD_REQUIRE_NOT_NULL(task);
  NPUD_REQUIRE_NOT_NULL(params);
  TaskParams set;
  set.type = params->type;
  switch (params->type) {
    case ACL_MODEL_RI_TASK_KERNEL: {
      const aclmdlRIKernelTaskParams& kernel = params->kernelTaskParams;
      NPUD_REQUIRE_NOT_NULL(kernel.funcHandle);
      if (kernel.cfg != nullptr && kernel.cfg->numAttrs > 0) {
        NPUD_REQUIRE_NOT_NULL(kernel.cfg->attrs);
      }
      if (kernel.argsSize > 0 || kernel.isHostArgs == 0) NPUD_REQUIRE_NOT_NULL(kernel.args);
      set.function = kernel.funcHandle;
      set.host_args = kernel.isHostArgs != 0;
      if (set.host_args) {
        set.args.assign(static_cast<const char*>(kernel.args), kernel.argsSize);
      } else {
        set.args_address = reinterpret_cast<uint64_t>(kernel.args);
      }
      set.args_size = kernel.argsSize;
      set.blocks = kernel.numBlocks;
      set.attributes = client::AttributesOf(kernel.cfg);
      break;
    }
    case ACL_MODEL_RI_TASK_EVENT_RECORD:
      NPUD_REQUIRE_NOT_NULL(params->eventRecordTaskParams.event);
      set.event = params->eventRecordTaskParams.event;
      break;
    case ACL_MODEL_RI_TASK_EVENT_WAIT:
      NPUD_REQUIRE_NOT_NULL(params->eventWaitTaskParams.event);
      set.event = params->eventWaitTaskParams.event;
      break;
    case ACL_MODEL_RI_TASK_EVENT_RESET:
      NPUD_REQUIRE_NOT_NULL(params->eventResetTaskParams.event);
      set.event = params->eventResetTaskParams.event;
      break;
    case ACL_MODEL_RI_TASK_VALUE_WRITE:
      set.address = reinterpret_cast<uint64_t>(params->valueWriteTaskParams.devAddr);
      set.value = params->valueWriteTaskParams.value;
      break;
    case ACL_MODEL_RI_TASK_VALUE_WAIT:
      set.address = reinterpret_cast<uint64_t>(params->valueWaitTaskParams.devAddr);
      set.value = params->valueWaitTaskParams.value;
      set.value_flag = params->valueWaitTaskParams.flag;
      break;
    default:
      return InvalidTask(absl::StrFormat("task type %d has no parameters to set", params->type),
                         __func__);
  }
  return Result(client::SetTaskParams(task, set), __func__);
}

aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                        aclrtLaunchKernelAttrValue* attrValue) {
  NPUD_REQUIRE_NOT_NULL(task);
  NPUD_REQUIRE_NOT_NULL(attrValue);
  if (attrId < ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE ||
      attrId > ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING) {
    return InvalidTask(absl::StrFormat("invalid launch attribute %d", attrId), __func__);
  }
  absl::StatusOr<TaskParams> got = client::GetTaskParams(task);
  if (!got.ok()) return Result(got.status(), __func__);
  if (got->type != client::kTaskKernel)
    return InvalidTask("the task is not a kernel launch", __func__);
  // What the launch's configuration said; an attribute it left out has
  // its default, zero.
  std::memset(attrValue, 0, sizeof(*attrValue));
  for (const client::LaunchAttribute& attribute : got->attributes) {
    if (attribute.id != static_cast<uint32_t>(attrId)) continue;
    std::memcpy(attrValue, attribute.value.data(),
                std::min(attribute.value.size(), sizeof(*attrValue)));
  }
  return ACL_SUCCESS;
}

aclError aclmdlRITaskDisable(aclmdlRITask task) {
  NPUD_REQUIRE_NOT_NULL(task);
  return Result(client::DisableTask(task), __func__);
}

aclError aclmdlRIUpdate(aclmdlRI modelRI) {
  NPUD_REQUIRE_NOT_NULL(modelRI);
  return Result(client::UpdateModel(modelRI), __func__);
}

aclError aclrtCacheLastTaskOpInfo(const void* const infoPtr, const size_t infoSize) {
  NPUD_REQUIRE_NOT_NULL(infoPtr);
  return Result(client::CacheLastTaskInfo(infoPtr, infoSize, false), __func__);
}

aclError aclrtCacheLastTaskExtendInfo(const char* const extendInfoPtr, const size_t infoSize) {
  NPUD_REQUIRE_NOT_NULL(extendInfoPtr);
  return Result(client::CacheLastTaskInfo(extendInfoPtr, infoSize, true), __func__);
}

}  // namespace npud::abi_impl
