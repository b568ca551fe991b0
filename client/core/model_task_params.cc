#include "client/core/model_task_params.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "client/core/daemon_calls.h"
#include "client/core/handles.h"
#include "client/core/model_ops.h"
#include "client/core/runtime.h"
#include "client/core/thread_state.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {
namespace {

// A change waiting for aclmdlRIUpdate.
struct Edit {
  ModelTaskInfo task;
  std::optional<v1::Call> call;
  bool disable = false;
};

struct TaskEditRegistry {
  absl::Mutex mu;
  // By task id.
  absl::flat_hash_map<uint64_t, Edit> edits ABSL_GUARDED_BY(mu);
};

TaskEditRegistry& Edits() {
  static auto* registry = new TaskEditRegistry();
  return *registry;
}

// The call npud recorded for `task`, and the op information cached on it.
absl::StatusOr<std::pair<v1::Call, std::string>> RecordedCall(const ModelTaskInfo& task) {
  v1::Call describe;
  describe.mutable_model_describe()->set_model_id(task.model_id);
  describe.mutable_model_describe()->set_with_calls(true);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(describe)));
  for (const v1::ModelStreamTasks& stream : reply.model().streams()) {
    if (stream.stream_id() != task.stream_id) continue;
    if (task.call_index >= static_cast<uint32_t>(stream.calls_size())) break;
    std::string op_info;
    for (const v1::TaskInfo& info : stream.infos()) {
      if (info.call_index() == task.call_index) op_info = info.op_info();
    }
    return std::make_pair(stream.calls(task.call_index), std::move(op_info));
  }
  return AclError(kRtParamInvalid, "the task is no longer in its model");
}

void DescribeEvent(uint64_t event_id, TaskParams* params) {
  params->event = MakeHandle(HandleKind::kEvent, event_id);
  if (auto record = Runtime::Get().objects().FindEvent(event_id)) {
    params->event_flags = record->flags;
  }
}

TaskParams ParamsOf(const v1::Call& call, int type, std::string op_info) {
  TaskParams params;
  params.type = type;
  params.op_info = std::move(op_info);
  switch (call.op_case()) {
    case v1::Call::kLaunchKernel: {
      const v1::LaunchKernel& launch = call.launch_kernel();
      params.function = FunctionHandleOf(launch.binary_id(), launch.kernel_index());
      params.blocks = launch.block_dim();
      params.host_args = launch.args_address() == 0;
      if (params.host_args) {
        params.args = launch.args();
        params.args_size = launch.args().size();
      } else {
        params.args_address = launch.args_address();
        params.args_size = launch.args_size();
      }
      for (const v1::LaunchAttribute& attribute : launch.attributes()) {
        params.attributes.push_back(LaunchAttribute{attribute.id(), attribute.value()});
      }
      break;
    }
    case v1::Call::kRecordEvent:
      DescribeEvent(call.record_event().event_id(), &params);
      break;
    case v1::Call::kStreamWaitEvent:
      DescribeEvent(call.stream_wait_event().event_id(), &params);
      break;
    case v1::Call::kResetEvent:
      DescribeEvent(call.reset_event().event_id(), &params);
      break;
    case v1::Call::kValueWrite:
      params.address = call.value_write().address();
      params.value = call.value_write().value();
      params.value_flag = call.value_write().flag();
      break;
    case v1::Call::kValueWait:
      params.address = call.value_wait().address();
      params.value = call.value_wait().value();
      params.value_flag = call.value_wait().flag();
      break;
    default:
      break;
  }
  return params;
}

absl::StatusOr<uint64_t> EventId(void* event) {
  const uint64_t id = HandleId(event, HandleKind::kEvent);
  if (id == 0 || !Runtime::Get().objects().FindEvent(id)) {
    return AclError(kRtInvalidHandle, absl::StrFormat("%p is not a live event", event));
  }
  return id;
}

// `call` (the task's current call) with `params` in it.
absl::StatusOr<v1::Call> WithParams(v1::Call call, const TaskParams& params) {
  switch (call.op_case()) {
    case v1::Call::kLaunchKernel: {
      NPUD_ASSIGN_OR_RETURN(const FunctionRef function, ResolveFunction(params.function));
      if (params.blocks == 0) return AclError(kRtParamInvalid, "numBlocks must be at least 1");
      v1::LaunchKernel* launch = call.mutable_launch_kernel();
      launch->set_binary_id(function.binary_id);
      launch->set_kernel_index(function.index);
      launch->set_block_dim(params.blocks);
      launch->clear_placeholders();
      launch->clear_args();
      launch->set_args_address(0);
      launch->set_args_size(0);
      if (params.host_args) {
        launch->set_args(params.args);
      } else {
        if (params.args_address == 0) return AclError(kAclInvalidParam, "args is null");
        launch->set_args_address(params.args_address);
        launch->set_args_size(params.args_size);
      }
      launch->clear_attributes();
      for (const LaunchAttribute& attribute : params.attributes) {
        v1::LaunchAttribute* kept = launch->add_attributes();
        kept->set_id(attribute.id);
        kept->set_value(attribute.value);
      }
      return call;
    }
    case v1::Call::kRecordEvent: {
      NPUD_ASSIGN_OR_RETURN(const uint64_t id, EventId(params.event));
      call.mutable_record_event()->set_event_id(id);
      return call;
    }
    case v1::Call::kStreamWaitEvent: {
      NPUD_ASSIGN_OR_RETURN(const uint64_t id, EventId(params.event));
      call.mutable_stream_wait_event()->set_event_id(id);
      return call;
    }
    case v1::Call::kResetEvent: {
      NPUD_ASSIGN_OR_RETURN(const uint64_t id, EventId(params.event));
      call.mutable_reset_event()->set_event_id(id);
      return call;
    }
    case v1::Call::kValueWrite:
    case v1::Call::kValueWait: {
      if (params.address == 0 || params.address % sizeof(uint64_t) != 0) {
        return AclError(kRtParamInvalid,
                        absl::StrFormat("value address %#x is not 8-byte aligned device memory",
                                        params.address));
      }
      if (call.has_value_write()) {
        call.mutable_value_write()->set_address(params.address);
        call.mutable_value_write()->set_value(params.value);
      } else {
        call.mutable_value_wait()->set_address(params.address);
        call.mutable_value_wait()->set_value(params.value);
        call.mutable_value_wait()->set_flag(params.value_flag);
      }
      return call;
    }
    default:
      return AclError(kRtFeatureNotSupport,
                      "only kernel, event and value tasks have parameters to set");
  }
}

}  // namespace

absl::StatusOr<TaskParams> GetTaskParams(void* task) {
  NPUD_ASSIGN_OR_RETURN(const ModelTaskInfo info, ModelTaskOf(task));
  NPUD_ASSIGN_OR_RETURN(auto recorded, RecordedCall(info));
  TaskEditRegistry& registry = Edits();
  absl::MutexLock lock(&registry.mu);
  auto edit = registry.edits.find(HandleId(task, HandleKind::kModelTask));
  if (edit != registry.edits.end() && edit->second.call) recorded.first = *edit->second.call;
  return ParamsOf(recorded.first, info.type, std::move(recorded.second));
}

absl::Status SetTaskParams(void* task, const TaskParams& params) {
  NPUD_ASSIGN_OR_RETURN(const ModelTaskInfo info, ModelTaskOf(task));
  if (params.type != info.type) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("the task is of type %d, not %d", info.type, params.type));
  }
  NPUD_ASSIGN_OR_RETURN(auto recorded, RecordedCall(info));
  NPUD_ASSIGN_OR_RETURN(v1::Call call, WithParams(std::move(recorded.first), params));
  TaskEditRegistry& registry = Edits();
  absl::MutexLock lock(&registry.mu);
  Edit& edit = registry.edits[HandleId(task, HandleKind::kModelTask)];
  edit.task = info;
  edit.call = std::move(call);
  return absl::OkStatus();
}

absl::Status DisableTask(void* task) {
  NPUD_ASSIGN_OR_RETURN(const ModelTaskInfo info, ModelTaskOf(task));
  TaskEditRegistry& registry = Edits();
  absl::MutexLock lock(&registry.mu);
  Edit& edit = registry.edits[HandleId(task, HandleKind::kModelTask)];
  edit.task = info;
  edit.disable = true;
  return absl::OkStatus();
}

absl::Status UpdateModel(void* model) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t model_id, ModelIdOf(model));
  TaskEditRegistry& registry = Edits();
  std::vector<std::pair<uint64_t, Edit>> taken;
  {
    absl::MutexLock lock(&registry.mu);
    for (auto it = registry.edits.begin(); it != registry.edits.end();) {
      if (it->second.task.model_id == model_id) {
        taken.emplace_back(it->first, std::move(it->second));
        registry.edits.erase(it++);
      } else {
        ++it;
      }
    }
  }
  v1::Call call;
  v1::ModelEditTasks* edits = call.mutable_model_edit_tasks();
  edits->set_model_id(model_id);
  for (const auto& [task_id, edit] : taken) {
    v1::ModelTaskEdit* out = edits->add_edits();
    out->set_stream_id(edit.task.stream_id);
    out->set_call_index(edit.task.call_index);
    if (edit.call) *out->mutable_call() = *edit.call;
    out->set_disable(edit.disable);
  }
  // npud checks the model even with nothing to change (a destroyed or
  // unfinished one fails).
  absl::Status updated = CallDaemon(std::move(call)).status();
  if (!updated.ok()) {
    // Still waiting, unless set again meanwhile.
    absl::MutexLock lock(&registry.mu);
    for (auto& [task_id, edit] : taken) registry.edits.try_emplace(task_id, std::move(edit));
  }
  return updated;
}

void ForgetTaskEdits(uint64_t model_id) {
  TaskEditRegistry& registry = Edits();
  absl::MutexLock lock(&registry.mu);
  absl::erase_if(registry.edits,
                 [model_id](const auto& entry) { return entry.second.task.model_id == model_id; });
}

absl::Status CacheLastTaskInfo(const void* info, size_t size, bool extend) {
  constexpr size_t kMaxInfo = 64 << 10;
  if (size == 0 || size > kMaxInfo) {
    return AclError(
        kRtParamInvalid,
        absl::StrFormat("cached task information must be 1 to 64K bytes, not %d", size));
  }
  const uint64_t stream_id = ThisThread().last_stream;
  auto stream = stream_id != 0 ? Runtime::Get().objects().FindStream(stream_id) : std::nullopt;
  if (!stream || !StreamCaptures(stream_id)) {
    return AclError(kRtStreamNotCaptured,
                    "this thread's last task is not on a stream that captures into a model");
  }
  if (stream->cache_op_info == 0) {
    return AclError(kRtParamInvalid,
                    "the stream's ACL_STREAM_ATTR_CACHE_OP_INFO switch is off "
                    "(aclrtSetStreamAttribute)");
  }
  v1::Call call;
  v1::CacheTaskInfo* cache = call.mutable_cache_task_info();
  cache->set_stream_id(stream_id);
  cache->set_info(info, size);
  cache->set_extend(extend);
  return CallDaemon(std::move(call)).status();
}

}  // namespace npud::client
