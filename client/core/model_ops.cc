#include "client/core/model_ops.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "client/core/client_log.h"
#include "client/core/daemon_calls.h"
#include "client/core/handles.h"
#include "client/core/memory_ops.h"
#include "client/core/model_task_params.h"
#include "client/core/runtime.h"
#include "client/core/stream_ops.h"
#include "client/core/thread_state.h"
#include "common/acl_status.h"
#include "common/json_string.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

// aclmdlRICaptureMode values.
constexpr int kModeGlobal = 0;
constexpr int kModeRelaxed = 2;

struct Model {
  std::string name;
  uint64_t stream_id = 0;  // captured from
  std::vector<uint64_t> bound_streams;
  std::vector<std::pair<uintptr_t, std::function<void()>>> destroy_callbacks;
  // Branch models of its conditions, and their condition variables: both
  // go with the model.
  std::vector<uint64_t> children;
  std::vector<void*> memory;
};

// A stream that records into a model (model 0: a task group update).
struct Recording {
  uint64_t model_id = 0;
  bool bound = false;  // aclmdlRIBindStream, not a capture
};

// A task of a model (aclmdlRITask): its stream and place there.
struct TaskRef {
  uint64_t model_id = 0;
  uint64_t stream_id = 0;
  uint32_t seq_id = 0;
  uint32_t call_index = 0;  // counts group marks too, unlike seq_id
  std::string kind;
};

struct ModelRegistry {
  absl::Mutex mu;
  absl::flat_hash_map<uint64_t, Recording> capturing ABSL_GUARDED_BY(mu);
  absl::flat_hash_map<uint64_t, Model> models ABSL_GUARDED_BY(mu);
  // Task handles, one per task (found again by model, stream and place).
  absl::flat_hash_map<uint64_t, TaskRef> tasks ABSL_GUARDED_BY(mu);
  absl::flat_hash_map<std::tuple<uint64_t, uint64_t, uint32_t>, uint64_t> task_ids
      ABSL_GUARDED_BY(mu);
  // Lets the copy paths skip the lock while nothing captures.
  std::atomic<int> capture_count{0};
};

// Never destroyed: models may go in static destructors of the application.
ModelRegistry& Models() {
  static auto* registry = new ModelRegistry();
  return *registry;
}

absl::StatusOr<v1::ModelResult> Describe(uint64_t id) {
  v1::Call call;
  call.mutable_model_describe()->set_model_id(id);
  NPUD_ASSIGN_OR_RETURN(v1::Reply reply, CallDaemon(std::move(call)));
  return reply.model();
}

// Marks `stream_id` as recording; kRtStreamCaptured if it already does.
absl::Status StartRecording(uint64_t stream_id, Recording recording) {
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  if (!registry.capturing.try_emplace(stream_id, recording).second) {
    return AclError(kRtStreamCaptured,
                    absl::StrFormat("stream %d already records into a model", stream_id));
  }
  registry.capture_count.fetch_add(1);
  return absl::OkStatus();
}

void StopRecording(uint64_t stream_id) {
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  if (registry.capturing.erase(stream_id) != 0) registry.capture_count.fetch_sub(1);
}

// Sends `call`, which starts `stream_id` recording, and keeps the client's
// view in step: recording only if npud agreed.
absl::Status CallRecording(uint64_t stream_id, Recording recording, v1::Call call) {
  NPUD_RETURN_IF_ERROR(StartRecording(stream_id, recording));
  absl::Status begun = CallDaemon(std::move(call)).status();
  if (!begun.ok()) StopRecording(stream_id);
  return begun;
}

absl::Status CheckMode(int mode) {
  if (mode < kModeGlobal || mode > kModeRelaxed) {
    return AclError(kAclInvalidParam, absl::StrFormat("invalid capture mode %d", mode));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<uint64_t> ModelIdOf(void* handle) {
  const uint64_t id = HandleId(handle, HandleKind::kModel);
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  if (id == 0 || !registry.models.contains(id)) {
    return AclError(kRtInvalidHandle, absl::StrFormat("%p is not a model of this process", handle));
  }
  return id;
}

bool StreamCaptures(uint64_t stream_id) { return RecordingModel(stream_id).has_value(); }

std::optional<uint64_t> RecordingModel(uint64_t stream_id) {
  ModelRegistry& registry = Models();
  if (registry.capture_count.load(std::memory_order_relaxed) == 0) return std::nullopt;
  absl::MutexLock lock(&registry.mu);
  auto it = registry.capturing.find(stream_id);
  if (it == registry.capturing.end()) return std::nullopt;
  return it->second.model_id;
}

absl::Status StartUpdateRecording(uint64_t stream_id) {
  return StartRecording(stream_id, Recording{0, false});
}

void StopUpdateRecording(uint64_t stream_id) { StopRecording(stream_id); }

absl::Status CaptureBegin(void* stream, int mode) {
  NPUD_RETURN_IF_ERROR(CheckMode(mode));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  const uint64_t model_id = Runtime::Get().objects().MintId();
  v1::Call call;
  call.mutable_capture_begin()->set_stream_id(target.id);
  call.mutable_capture_begin()->set_model_id(model_id);
  NPUD_RETURN_IF_ERROR(CallRecording(target.id, Recording{model_id, false}, std::move(call)));
  // The model exists while it is captured: conditions are made on it.
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  registry.models[model_id].stream_id = target.id;
  return absl::OkStatus();
}

absl::Status CaptureIntoModel(void* stream, void* model, int mode) {
  NPUD_RETURN_IF_ERROR(CheckMode(mode));
  NPUD_ASSIGN_OR_RETURN(const uint64_t model_id, ModelIdOf(model));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  call.mutable_capture_begin()->set_stream_id(target.id);
  call.mutable_capture_begin()->set_model_id(model_id);
  call.mutable_capture_begin()->set_into_existing(true);
  NPUD_RETURN_IF_ERROR(CallRecording(target.id, Recording{model_id, false}, std::move(call)));
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  registry.models[model_id].stream_id = target.id;
  return absl::OkStatus();
}

absl::StatusOr<CaptureInfo> CaptureInfoOf(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  auto it = registry.capturing.find(target.id);
  if (it == registry.capturing.end() || it->second.bound) return CaptureInfo{};
  return CaptureInfo{kCaptureActive, MakeHandle(HandleKind::kModel, it->second.model_id)};
}

absl::Status ExchangeCaptureMode(int* mode) {
  if (*mode < kModeGlobal || *mode > kModeRelaxed) {
    return AclError(kAclInvalidParam, absl::StrFormat("invalid capture mode %d", *mode));
  }
  std::swap(ThisThread().capture_mode, *mode);
  return absl::OkStatus();
}

absl::StatusOr<void*> CaptureEnd(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  ModelRegistry& registry = Models();
  uint64_t model_id = 0;
  {
    absl::MutexLock lock(&registry.mu);
    auto it = registry.capturing.find(target.id);
    if (it == registry.capturing.end() || it->second.bound || it->second.model_id == 0) {
      return AclError(kRtStreamNotCaptured,
                      absl::StrFormat("stream %d is not capturing", target.id));
    }
    model_id = it->second.model_id;
    registry.capturing.erase(it);
    registry.capture_count.fetch_sub(1);
  }
  v1::Call call;
  call.mutable_capture_end()->set_stream_id(target.id);
  void* const model = MakeHandle(HandleKind::kModel, model_id);
  if (absl::Status ended = CallDaemon(std::move(call)).status(); !ended.ok()) {
    // npud has dropped the model: so does this side, with its branches.
    DestroyModel(model).IgnoreError();
    return ended;
  }
  return model;
}

absl::StatusOr<void*> BuildBegin() {
  const uint64_t model_id = Runtime::Get().objects().MintId();
  v1::Call call;
  call.mutable_model_create()->set_model_id(model_id);
  NPUD_RETURN_IF_ERROR(CallDaemon(std::move(call)).status());
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  registry.models[model_id];
  return MakeHandle(HandleKind::kModel, model_id);
}

absl::Status BindStream(void* model, void* stream, bool head) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t model_id, ModelIdOf(model));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  if (target.is_default) {
    return AclError(kAclInvalidParam, "the default stream cannot be bound to a model");
  }
  v1::Call call;
  call.mutable_model_bind_stream()->set_model_id(model_id);
  call.mutable_model_bind_stream()->set_stream_id(target.id);
  call.mutable_model_bind_stream()->set_head(head);
  NPUD_RETURN_IF_ERROR(CallRecording(target.id, Recording{model_id, true}, std::move(call)));
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  registry.models[model_id].bound_streams.push_back(target.id);
  return absl::OkStatus();
}

absl::Status UnbindStream(void* model, void* stream) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t model_id, ModelIdOf(model));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  call.mutable_model_unbind_stream()->set_model_id(model_id);
  call.mutable_model_unbind_stream()->set_stream_id(target.id);
  NPUD_RETURN_IF_ERROR(CallDaemon(std::move(call)).status());
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  auto it = registry.capturing.find(target.id);
  if (it != registry.capturing.end() && it->second.bound && it->second.model_id == model_id) {
    registry.capturing.erase(it);
    registry.capture_count.fetch_sub(1);
  }
  return absl::OkStatus();
}

absl::Status EndTask(void* model, void* stream) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t model_id, ModelIdOf(model));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  if (RecordingModel(target.id) != model_id) {
    return AclError(kRtStreamModel,
                    absl::StrFormat("stream %d is not bound to model %d", target.id, model_id));
  }
  v1::Call call;
  call.mutable_model_end_task()->set_stream_id(target.id);
  return PostToDaemon(std::move(call));
}

absl::Status BuildEnd(void* model) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t model_id, ModelIdOf(model));
  v1::Call call;
  call.mutable_model_build_end()->set_model_id(model_id);
  absl::Status built = CallDaemon(std::move(call)).status();
  // Built or not, the bound streams record no more.
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  absl::erase_if(registry.capturing, [&](const auto& entry) {
    const bool stops = entry.second.bound && entry.second.model_id == model_id;
    if (stops) registry.capture_count.fetch_sub(1);
    return stops;
  });
  return built;
}

absl::Status AbortModel(void* model) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t model_id, ModelIdOf(model));
  v1::Call call;
  call.mutable_model_abort()->set_model_id(model_id);
  return CallDaemon(std::move(call)).status();
}

absl::StatusOr<std::vector<uint64_t>> CreateBranchModels(uint64_t parent, size_t count) {
  std::vector<uint64_t> ids;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t id = Runtime::Get().objects().MintId();
    v1::Call call;
    call.mutable_model_create()->set_model_id(id);
    NPUD_RETURN_IF_ERROR(PostToDaemon(std::move(call)));
    ids.push_back(id);
  }
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  auto it = registry.models.find(parent);
  if (it == registry.models.end()) return AclError(kRtInvalidHandle, "the model is gone");
  for (uint64_t id : ids) {
    registry.models[id];
    it = registry.models.find(parent);
    it->second.children.push_back(id);
  }
  return ids;
}

absl::Status AddModelMemory(uint64_t model_id, void* memory) {
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  auto it = registry.models.find(model_id);
  if (it == registry.models.end()) return AclError(kRtInvalidHandle, "the model is gone");
  it->second.memory.push_back(memory);
  return absl::OkStatus();
}

absl::Status ExecuteModel(void* model, void* stream) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(model));
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  call.mutable_model_execute()->set_model_id(id);
  call.mutable_model_execute()->set_stream_id(target.id);
  return PostToDaemon(std::move(call));
}

absl::Status ExecuteModelAndWait(void* model, int32_t timeout_ms) {
  NPUD_RETURN_IF_ERROR(ExecuteModel(model, nullptr));
  return SynchronizeStream(nullptr, timeout_ms);
}

absl::Status DestroyModel(void* handle) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  ForgetTaskEdits(id);
  ModelRegistry& registry = Models();
  // The model, and the branch models of its conditions with theirs.
  std::vector<std::pair<uint64_t, Model>> gone;
  std::vector<uint64_t> ids = {id};
  {
    absl::MutexLock lock(&registry.mu);
    for (size_t i = 0; i < ids.size(); ++i) {
      auto it = registry.models.find(ids[i]);
      if (it == registry.models.end()) continue;
      ids.insert(ids.end(), it->second.children.begin(), it->second.children.end());
      gone.emplace_back(ids[i], std::move(it->second));
      registry.models.erase(it);
    }
    auto gone_model = [&](uint64_t model_id) {
      return std::find(ids.begin(), ids.end(), model_id) != ids.end();
    };
    absl::erase_if(registry.capturing, [&](const auto& entry) {
      const bool stops = gone_model(entry.second.model_id);
      if (stops) registry.capture_count.fetch_sub(1);
      return stops;
    });
    absl::erase_if(registry.tasks,
                   [&](const auto& task) { return gone_model(task.second.model_id); });
    absl::erase_if(registry.task_ids,
                   [&](const auto& task) { return gone_model(std::get<0>(task.first)); });
  }
  absl::Status destroyed;
  for (auto& [model_id, model] : gone) {
    for (auto& [key, fn] : model.destroy_callbacks) fn();
    v1::Call call;
    call.mutable_model_destroy()->set_model_id(model_id);
    destroyed.Update(PostToDaemon(std::move(call)));
    for (void* memory : model.memory) destroyed.Update(FreeDevice(memory));
  }
  return destroyed;
}

absl::StatusOr<std::vector<void*>> ModelStreams(void* handle) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  NPUD_ASSIGN_OR_RETURN(const v1::ModelResult model, Describe(id));
  std::vector<void*> streams;
  for (const v1::ModelStreamTasks& stream : model.streams()) {
    streams.push_back(MakeHandle(HandleKind::kStream, stream.stream_id()));
  }
  return streams;
}

absl::StatusOr<std::vector<void*>> ModelTasks(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  ModelRegistry& registry = Models();
  // The newest model the stream belongs to.
  uint64_t model_id = 0;
  {
    absl::MutexLock lock(&registry.mu);
    for (const auto& [id, model] : registry.models) {
      const bool belongs = model.stream_id == target.id ||
                           std::find(model.bound_streams.begin(), model.bound_streams.end(),
                                     target.id) != model.bound_streams.end();
      if (belongs && id > model_id) model_id = id;
    }
  }
  if (model_id == 0) {
    return AclError(kRtStreamModel,
                    absl::StrFormat("stream %d belongs to no model of this process", target.id));
  }
  NPUD_ASSIGN_OR_RETURN(const v1::ModelResult model, Describe(model_id));
  std::vector<void*> tasks;
  absl::MutexLock lock(&registry.mu);
  for (const v1::ModelStreamTasks& recorded : model.streams()) {
    if (recorded.stream_id() != target.id) continue;
    uint32_t seq_id = 0;
    for (int call_index = 0; call_index < recorded.tasks_size(); ++call_index) {
      const std::string& kind = recorded.tasks(call_index);
      // Group marks only delimit task groups.
      if (kind == "task_group_mark") continue;
      const auto key = std::make_tuple(model_id, target.id, seq_id);
      auto [it, added] = registry.task_ids.try_emplace(key, 0);
      if (added) {
        it->second = Runtime::Get().objects().MintId();
        registry.tasks[it->second] =
            TaskRef{model_id, target.id, seq_id, static_cast<uint32_t>(call_index), kind};
      }
      tasks.push_back(MakeHandle(HandleKind::kModelTask, it->second));
      ++seq_id;
    }
  }
  return tasks;
}

absl::StatusOr<ModelTaskInfo> ModelTaskOf(void* task) {
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  auto it = registry.tasks.find(HandleId(task, HandleKind::kModelTask));
  if (it == registry.tasks.end()) {
    return AclError(kRtParamInvalid, absl::StrFormat("%p is not a task of a model", task));
  }
  static const auto* const kTypes = new absl::flat_hash_map<std::string, int>{
      {"launch_kernel", kTaskKernel},        {"record_event", kTaskEventRecord},
      {"stream_wait_event", kTaskEventWait}, {"reset_event", kTaskEventReset},
      {"value_write", kTaskValueWrite},      {"value_wait", kTaskValueWait}};
  auto type = kTypes->find(it->second.kind);
  const TaskRef& ref = it->second;
  return ModelTaskInfo{type != kTypes->end() ? type->second : kTaskDefault, ref.seq_id,
                       ref.model_id, ref.stream_id, ref.call_index};
}

absl::Status PrintModel(void* handle) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  NPUD_ASSIGN_OR_RETURN(const v1::ModelResult model, Describe(id));
  NPUD_ASSIGN_OR_RETURN(const std::string name, ModelName(handle));
  ClientLog().info("model {} '{}': {} streams", id, name, model.streams_size());
  for (const v1::ModelStreamTasks& stream : model.streams()) {
    ClientLog().info(" stream {}{}: {} tasks", stream.stream_id(), stream.head() ? " (head)" : "",
                     stream.tasks_size());
    for (int i = 0; i < stream.tasks_size(); ++i) {
      ClientLog().info("  task {}: {}", i, stream.tasks(i));
    }
  }
  return absl::OkStatus();
}

absl::Status WriteModelJson(void* handle, const std::string& path) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  NPUD_ASSIGN_OR_RETURN(const v1::ModelResult model, Describe(id));
  NPUD_ASSIGN_OR_RETURN(const std::string name, ModelName(handle));
  std::string json = absl::StrCat("{\"modelRI\":{\"id\":", id, ",\"name\":");
  AppendJsonString(&json, name);
  json.append(",\"streams\":[");
  for (int i = 0; i < model.streams_size(); ++i) {
    const v1::ModelStreamTasks& stream = model.streams(i);
    absl::StrAppend(&json, i == 0 ? "" : ",", "{\"stream\":", stream.stream_id(),
                    ",\"head\":", stream.head() ? "true" : "false", ",\"tasks\":[");
    for (int j = 0; j < stream.tasks_size(); ++j) {
      absl::StrAppend(&json, j == 0 ? "" : ",", "{\"index\":", j, ",\"type\":");
      AppendJsonString(&json, stream.tasks(j));
      json.push_back('}');
    }
    json.append("]}");
  }
  json.append("]}}\n");
  std::ofstream out(path, std::ios::trunc);
  out << json;
  out.close();
  if (!out) return AclError(kAclWriteFile, absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

absl::Status SetModelName(void* handle, std::string name) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  registry.models[id].name = std::move(name);
  return absl::OkStatus();
}

absl::StatusOr<std::string> ModelName(void* handle) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  return registry.models[id].name;
}

absl::StatusOr<uint32_t> ModelId(void* handle) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  return static_cast<uint32_t>(id);
}

absl::Status AddModelDestroyCallback(void* handle, uintptr_t key, std::function<void()> fn) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  registry.models[id].destroy_callbacks.emplace_back(key, std::move(fn));
  return absl::OkStatus();
}

absl::Status RemoveModelDestroyCallback(void* handle, uintptr_t key) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  ModelRegistry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  auto& callbacks = registry.models[id].destroy_callbacks;
  for (auto it = callbacks.begin(); it != callbacks.end(); ++it) {
    if (it->first == key) {
      callbacks.erase(it);
      return absl::OkStatus();
    }
  }
  return AclError(kRtParamInvalid, "the function is not registered for this model");
}

}  // namespace npud::client
