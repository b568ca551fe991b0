#include "client/core/model_control.h"

#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "client/core/daemon_calls.h"
#include "client/core/handles.h"
#include "client/core/memory_ops.h"
#include "client/core/model_ops.h"
#include "client/core/runtime.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

// aclrtMemcpyKind, aclmdlRICondHandleFlag and aclmdlRICondTaskType values.
constexpr uint32_t kHostToDevice = 1;
constexpr uint32_t kAssignDefault = 1;
constexpr uint32_t kCondIf = 0;
constexpr uint32_t kCondWhile = 1;
constexpr uint32_t kCondSwitch = 2;
// aclrtCondition and aclrtCompareDataType ranges.
constexpr uint32_t kLastCondition = 5;
constexpr uint32_t kSwitchInt64 = 1;

struct CondHandle {
  uint64_t model_id = 0;
  uint64_t* address = nullptr;
};

struct ModelHandleRegistry {
  absl::Mutex mu;
  absl::flat_hash_map<uint64_t, bool> labels ABSL_GUARDED_BY(mu);
  absl::flat_hash_map<uint64_t, std::vector<uint64_t>> label_lists ABSL_GUARDED_BY(mu);
  absl::flat_hash_map<uint64_t, CondHandle> conditions ABSL_GUARDED_BY(mu);
  absl::flat_hash_map<uint64_t, bool> groups ABSL_GUARDED_BY(mu);
  // Streams with a task group begun and not ended.
  absl::flat_hash_map<uint64_t, uint64_t> open_groups ABSL_GUARDED_BY(mu);
};

// Never destroyed: handles may go in static destructors of the application.
ModelHandleRegistry& Handles() {
  static auto* registry = new ModelHandleRegistry();
  return *registry;
}

absl::Status BadHandle(const char* kind, const void* handle) {
  return AclError(kRtParamInvalid, absl::StrFormat("%p is not a %s of this process", handle, kind));
}

// The stream, which must record into a model.
absl::StatusOr<uint64_t> ModelStream(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  const std::optional<uint64_t> model = RecordingModel(target.id);
  if (!model.has_value() || *model == 0) {
    return AclError(
        kRtStreamModel,
        absl::StrFormat("stream %d neither captures nor is bound to a model", target.id));
  }
  return target.id;
}

}  // namespace

absl::StatusOr<void*> CreateLabel() {
  const uint64_t id = Runtime::Get().objects().MintId();
  ModelHandleRegistry& registry = Handles();
  absl::MutexLock lock(&registry.mu);
  registry.labels[id] = true;
  return MakeHandle(HandleKind::kLabel, id);
}

absl::Status DestroyLabel(void* label) {
  ModelHandleRegistry& registry = Handles();
  absl::MutexLock lock(&registry.mu);
  if (registry.labels.erase(HandleId(label, HandleKind::kLabel)) == 0) {
    return BadHandle("label", label);
  }
  return absl::OkStatus();
}

absl::Status SetLabel(void* label, void* stream) {
  const uint64_t id = HandleId(label, HandleKind::kLabel);
  {
    ModelHandleRegistry& registry = Handles();
    absl::MutexLock lock(&registry.mu);
    if (!registry.labels.contains(id)) return BadHandle("label", label);
  }
  NPUD_ASSIGN_OR_RETURN(const uint64_t stream_id, ModelStream(stream));
  v1::Call call;
  call.mutable_set_label()->set_stream_id(stream_id);
  call.mutable_set_label()->set_label_id(id);
  return PostToDaemon(std::move(call));
}

absl::StatusOr<void*> CreateLabelList(void* const* labels, size_t count) {
  if (count == 0) return AclError(kAclInvalidParam, "a label list needs labels");
  std::vector<uint64_t> ids;
  ModelHandleRegistry& registry = Handles();
  absl::MutexLock lock(&registry.mu);
  for (size_t i = 0; i < count; ++i) {
    const uint64_t id = HandleId(labels[i], HandleKind::kLabel);
    if (!registry.labels.contains(id)) return BadHandle("label", labels[i]);
    ids.push_back(id);
  }
  const uint64_t list = Runtime::Get().objects().MintId();
  registry.label_lists[list] = std::move(ids);
  return MakeHandle(HandleKind::kLabelList, list);
}

absl::Status DestroyLabelList(void* list) {
  ModelHandleRegistry& registry = Handles();
  absl::MutexLock lock(&registry.mu);
  if (registry.label_lists.erase(HandleId(list, HandleKind::kLabelList)) == 0) {
    return BadHandle("label list", list);
  }
  return absl::OkStatus();
}

absl::Status SwitchLabelByIndex(const void* index, uint32_t max_value, void* list, void* stream) {
  if (max_value == 0) return AclError(kAclInvalidParam, "maxValue must be at least 1");
  std::vector<uint64_t> labels;
  {
    ModelHandleRegistry& registry = Handles();
    absl::MutexLock lock(&registry.mu);
    auto it = registry.label_lists.find(HandleId(list, HandleKind::kLabelList));
    if (it == registry.label_lists.end()) return BadHandle("label list", list);
    labels = it->second;
  }
  NPUD_ASSIGN_OR_RETURN(const uint64_t stream_id, ModelStream(stream));
  v1::Call call;
  v1::SwitchLabel* op = call.mutable_switch_label();
  op->set_stream_id(stream_id);
  op->set_index_address(reinterpret_cast<uint64_t>(index));
  op->set_max_value(max_value);
  for (uint64_t label : labels) op->add_label_ids(label);
  return PostToDaemon(std::move(call));
}

absl::Status ActivateStream(void* target, void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget active, ResolveStream(target));
  NPUD_ASSIGN_OR_RETURN(const uint64_t stream_id, ModelStream(stream));
  v1::Call call;
  call.mutable_activate_stream()->set_stream_id(stream_id);
  call.mutable_activate_stream()->set_target_stream_id(active.id);
  return PostToDaemon(std::move(call));
}

absl::Status SwitchStream(const void* left, uint32_t condition, const void* right,
                          uint32_t data_type, void* true_stream, void* false_stream, void* stream) {
  if (condition > kLastCondition) {
    return AclError(kAclInvalidParam, absl::StrFormat("%d is not an aclrtCondition", condition));
  }
  if (data_type > kSwitchInt64) {
    return AclError(kAclInvalidParam,
                    absl::StrFormat("%d is not an aclrtCompareDataType", data_type));
  }
  NPUD_ASSIGN_OR_RETURN(const StreamTarget on_true, ResolveStream(true_stream));
  uint64_t on_false = 0;
  if (false_stream != nullptr) {
    NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(false_stream));
    on_false = target.id;
  }
  NPUD_ASSIGN_OR_RETURN(const uint64_t stream_id, ModelStream(stream));
  v1::Call call;
  v1::SwitchStream* op = call.mutable_switch_stream();
  op->set_stream_id(stream_id);
  op->set_left_address(reinterpret_cast<uint64_t>(left));
  op->set_right_address(reinterpret_cast<uint64_t>(right));
  op->set_condition(condition);
  op->set_int64(data_type == kSwitchInt64);
  op->set_true_stream_id(on_true.id);
  op->set_false_stream_id(on_false);
  return PostToDaemon(std::move(call));
}

absl::StatusOr<void*> CreateCondHandle(void* model, uint32_t default_value, uint32_t flag) {
  if (flag > kAssignDefault) {
    return AclError(kAclInvalidParam, absl::StrFormat("%d is not an aclmdlRICondHandleFlag", flag));
  }
  NPUD_ASSIGN_OR_RETURN(const uint64_t model_id, ModelIdOf(model));
  // The condition variable: 8 bytes of device memory the model owns.
  NPUD_ASSIGN_OR_RETURN(void* memory, MallocDevice(sizeof(uint64_t), 0));
  const uint64_t value = default_value;
  absl::Status made = Memcpy(memory, sizeof(value), &value, sizeof(value), kHostToDevice,
                             /*async=*/false, nullptr);
  if (made.ok() && flag == kAssignDefault) {
    v1::Call call;
    call.mutable_model_add_condition()->set_model_id(model_id);
    call.mutable_model_add_condition()->set_address(reinterpret_cast<uint64_t>(memory));
    call.mutable_model_add_condition()->set_value(value);
    made = CallDaemon(std::move(call)).status();
  }
  if (made.ok()) made = AddModelMemory(model_id, memory);
  if (!made.ok()) {
    FreeDevice(memory).IgnoreError();
    return made;
  }
  const uint64_t id = Runtime::Get().objects().MintId();
  ModelHandleRegistry& registry = Handles();
  absl::MutexLock lock(&registry.mu);
  registry.conditions[id] = CondHandle{model_id, static_cast<uint64_t*>(memory)};
  return MakeHandle(HandleKind::kCondHandle, id);
}

absl::StatusOr<uint64_t*> CondPointer(void* handle) {
  ModelHandleRegistry& registry = Handles();
  absl::MutexLock lock(&registry.mu);
  auto it = registry.conditions.find(HandleId(handle, HandleKind::kCondHandle));
  if (it == registry.conditions.end()) return BadHandle("condition handle", handle);
  return it->second.address;
}

absl::Status AddCondTask(void* handle, uint32_t type, uint32_t count, void** branches,
                         void* stream) {
  const bool counted = (type == kCondIf && (count == 1 || count == 2)) ||
                       (type == kCondWhile && count == 1) || (type == kCondSwitch && count > 0);
  if (type > kCondSwitch || !counted) {
    return AclError(kAclInvalidParam,
                    absl::StrFormat("a condition of type %d cannot have %d branches", type, count));
  }
  NPUD_ASSIGN_OR_RETURN(uint64_t * address, CondPointer(handle));
  NPUD_ASSIGN_OR_RETURN(const uint64_t stream_id, ModelStream(stream));
  const uint64_t parent = RecordingModel(stream_id).value_or(0);
  NPUD_ASSIGN_OR_RETURN(std::vector<uint64_t> models, CreateBranchModels(parent, count));
  v1::Call call;
  v1::CondTask* op = call.mutable_cond_task();
  op->set_stream_id(stream_id);
  op->set_cond_address(reinterpret_cast<uint64_t>(address));
  op->set_type(type);
  for (size_t i = 0; i < models.size(); ++i) {
    op->add_model_ids(models[i]);
    branches[i] = MakeHandle(HandleKind::kModel, models[i]);
  }
  return PostToDaemon(std::move(call));
}

absl::Status BeginTaskGroup(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t stream_id, ModelStream(stream));
  const uint64_t group = Runtime::Get().objects().MintId();
  {
    ModelHandleRegistry& registry = Handles();
    absl::MutexLock lock(&registry.mu);
    if (!registry.open_groups.try_emplace(stream_id, group).second) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("stream %d has a task group begun already", stream_id));
    }
  }
  v1::Call call;
  call.mutable_task_group_mark()->set_stream_id(stream_id);
  call.mutable_task_group_mark()->set_group_id(group);
  return PostToDaemon(std::move(call));
}

absl::StatusOr<void*> EndTaskGroup(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t stream_id, ModelStream(stream));
  uint64_t group = 0;
  {
    ModelHandleRegistry& registry = Handles();
    absl::MutexLock lock(&registry.mu);
    auto it = registry.open_groups.find(stream_id);
    if (it == registry.open_groups.end()) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("stream %d has no task group begun", stream_id));
    }
    group = it->second;
    registry.open_groups.erase(it);
    registry.groups[group] = true;
  }
  v1::Call call;
  call.mutable_task_group_mark()->set_stream_id(stream_id);
  call.mutable_task_group_mark()->set_group_id(group);
  call.mutable_task_group_mark()->set_end(true);
  NPUD_RETURN_IF_ERROR(PostToDaemon(std::move(call)));
  return MakeHandle(HandleKind::kTaskGroup, group);
}

absl::Status BeginTaskUpdate(void* stream, void* group) {
  const uint64_t group_id = HandleId(group, HandleKind::kTaskGroup);
  {
    ModelHandleRegistry& registry = Handles();
    absl::MutexLock lock(&registry.mu);
    if (!registry.groups.contains(group_id)) return BadHandle("task group", group);
  }
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  NPUD_RETURN_IF_ERROR(StartUpdateRecording(target.id));
  v1::Call call;
  call.mutable_task_update_begin()->set_stream_id(target.id);
  call.mutable_task_update_begin()->set_group_id(group_id);
  absl::Status begun = CallDaemon(std::move(call)).status();
  if (!begun.ok()) StopUpdateRecording(target.id);
  return begun;
}

absl::Status EndTaskUpdate(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  if (RecordingModel(target.id) != uint64_t{0}) {
    return AclError(kRtStreamNotCaptured,
                    absl::StrFormat("stream %d is not updating a task group", target.id));
  }
  StopUpdateRecording(target.id);
  v1::Call call;
  call.mutable_task_update_end()->set_stream_id(target.id);
  return CallDaemon(std::move(call)).status();
}

absl::Status CleanStream(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  call.mutable_model_clean_stream()->set_stream_id(target.id);
  return CallDaemon(std::move(call)).status();
}

}  // namespace npud::client
