// model_task_params.h
//
// The parameters of a model's tasks: aclmdlRITaskGetParams / SetParams,
// aclmdlRIKernelTaskGetAttribute, aclmdlRITaskDisable and aclmdlRIUpdate,
// and the information aclrtCacheLastTaskOpInfo / ExtendInfo attach to a
// captured task.
//
// A task's parameters are read from the call npud recorded for it
// (ModelDescribe with_calls). New parameters and disabled tasks wait here
// until aclmdlRIUpdate sends them to npud together (ModelEditTasks); as in
// CANN, runs see them only after the update, and GetParams reads them at
// once. A task keeps its kind; tasks inside task groups change by updates
// of their group (model_control.h) only.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_MODEL_TASK_PARAMS_H_
#define NPUD_CLIENT_CORE_MODEL_TASK_PARAMS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "client/core/kernel_ops.h"

namespace npud::client {

// aclmdlRITaskParams without its C layout. Only the members of `type`
// (model_ops.h's kTask* values) mean anything.
struct TaskParams {
  int type = 0;
  std::string op_info;  // aclrtCacheLastTaskOpInfo's bytes, if any
  // Kernel tasks.
  void* function = nullptr;  // aclrtFuncHandle
  bool host_args = true;
  std::string args;           // host_args: the packed arguments
  uint64_t args_address = 0;  // else: device memory holding them
  uint64_t args_size = 0;
  uint32_t blocks = 0;
  LaunchAttributes attributes;
  // Event tasks: the event, the flags it was created with, and the task's
  // own record/wait/reset flag.
  void* event = nullptr;
  uint32_t event_flags = 0;
  uint32_t task_flag = 0;
  // Value write and wait tasks.
  uint64_t address = 0;
  uint64_t value = 0;
  uint32_t value_flag = 0;
};

absl::StatusOr<TaskParams> GetTaskParams(void* task);
// kRtParamInvalid if `params.type` is not the task's type.
absl::Status SetTaskParams(void* task, const TaskParams& params);
absl::Status DisableTask(void* task);
// Sends `model`'s pending parameters and disabled tasks to npud.
absl::Status UpdateModel(void* model);
// Drops what waits for an update of model `model_id` (it is destroyed).
void ForgetTaskEdits(uint64_t model_id);

// aclrtCacheLastTaskOpInfo (`extend` false) / ExtendInfo: attaches `size`
// bytes at `info` to the newest task of the stream this thread last gave
// work to, which must capture with ACL_STREAM_ATTR_CACHE_OP_INFO on.
absl::Status CacheLastTaskInfo(const void* info, size_t size, bool extend);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_MODEL_TASK_PARAMS_H_
