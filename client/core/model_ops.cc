#include "client/core/model_ops.h"

#include <atomic>
#include <fstream>
#include <optional>
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
  uint64_t stream_id = 0;
  std::vector<std::pair<uintptr_t, std::function<void()>>> destroy_callbacks;
};

struct Registry {
  absl::Mutex mu;
  // Capturing stream -> the model id it captures into.
  absl::flat_hash_map<uint64_t, uint64_t> capturing ABSL_GUARDED_BY(mu);
  absl::flat_hash_map<uint64_t, Model> models ABSL_GUARDED_BY(mu);
  // Lets the copy paths skip the lock while nothing captures.
  std::atomic<int> capture_count{0};
};

// Never destroyed: models may go in static destructors of the application.
Registry& Models() {
  static auto* registry = new Registry();
  return *registry;
}

absl::StatusOr<uint64_t> ModelIdOf(void* handle) {
  const uint64_t id = HandleId(handle, HandleKind::kModel);
  Registry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  if (id == 0 || !registry.models.contains(id)) {
    return AclError(kRtInvalidHandle, absl::StrFormat("%p is not a model of this process", handle));
  }
  return id;
}

absl::StatusOr<v1::ModelResult> Describe(uint64_t id) {
  v1::Call call;
  call.mutable_model_describe()->set_model_id(id);
  NPUD_ASSIGN_OR_RETURN(v1::Reply reply, CallDaemon(std::move(call)));
  return reply.model();
}

}  // namespace

bool StreamCaptures(uint64_t stream_id) {
  Registry& registry = Models();
  if (registry.capture_count.load(std::memory_order_relaxed) == 0) return false;
  absl::MutexLock lock(&registry.mu);
  return registry.capturing.contains(stream_id);
}

absl::Status CaptureBegin(void* stream, int mode) {
  if (mode < kModeGlobal || mode > kModeRelaxed) {
    return AclError(kAclInvalidParam, absl::StrFormat("invalid capture mode %d", mode));
  }
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  Registry& registry = Models();
  const uint64_t model_id = Runtime::Get().objects().MintId();
  {
    absl::MutexLock lock(&registry.mu);
    if (registry.capturing.contains(target.id)) {
      return AclError(kRtStreamCaptured,
                      absl::StrFormat("stream %d is already capturing", target.id));
    }
    registry.capturing[target.id] = model_id;
    registry.capture_count.fetch_add(1);
  }
  v1::Call call;
  call.mutable_capture_begin()->set_stream_id(target.id);
  call.mutable_capture_begin()->set_model_id(model_id);
  absl::Status begun = CallDaemon(std::move(call)).status();
  if (!begun.ok()) {
    absl::MutexLock lock(&registry.mu);
    registry.capturing.erase(target.id);
    registry.capture_count.fetch_sub(1);
  }
  return begun;
}

absl::StatusOr<CaptureInfo> CaptureInfoOf(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  Registry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  auto it = registry.capturing.find(target.id);
  if (it == registry.capturing.end()) return CaptureInfo{};
  return CaptureInfo{kCaptureActive, MakeHandle(HandleKind::kModel, it->second)};
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
  Registry& registry = Models();
  uint64_t model_id = 0;
  {
    absl::MutexLock lock(&registry.mu);
    auto it = registry.capturing.find(target.id);
    if (it == registry.capturing.end()) {
      return AclError(kRtStreamNotCaptured,
                      absl::StrFormat("stream %d is not capturing", target.id));
    }
    model_id = it->second;
    registry.capturing.erase(it);
    registry.capture_count.fetch_sub(1);
  }
  v1::Call call;
  call.mutable_capture_end()->set_stream_id(target.id);
  NPUD_RETURN_IF_ERROR(CallDaemon(std::move(call)).status());
  absl::MutexLock lock(&registry.mu);
  registry.models[model_id].stream_id = target.id;
  return MakeHandle(HandleKind::kModel, model_id);
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
  Registry& registry = Models();
  Model model;
  {
    absl::MutexLock lock(&registry.mu);
    auto it = registry.models.find(id);
    if (it == registry.models.end()) return AclError(kRtInvalidHandle, "the model is gone");
    model = std::move(it->second);
    registry.models.erase(it);
  }
  for (auto& [key, fn] : model.destroy_callbacks) fn();
  v1::Call call;
  call.mutable_model_destroy()->set_model_id(id);
  return PostToDaemon(std::move(call));
}

absl::Status PrintModel(void* handle) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  NPUD_ASSIGN_OR_RETURN(const v1::ModelResult model, Describe(id));
  NPUD_ASSIGN_OR_RETURN(const std::string name, ModelName(handle));
  ClientLog().info("model {} '{}': {} tasks captured from stream {}", id, name, model.tasks_size(),
                   model.stream_id());
  for (int i = 0; i < model.tasks_size(); ++i) {
    ClientLog().info("  task {}: {}", i, model.tasks(i));
  }
  return absl::OkStatus();
}

absl::Status WriteModelJson(void* handle, const std::string& path) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  NPUD_ASSIGN_OR_RETURN(const v1::ModelResult model, Describe(id));
  NPUD_ASSIGN_OR_RETURN(const std::string name, ModelName(handle));
  std::string json = absl::StrCat("{\"modelRI\":{\"id\":", id, ",\"name\":");
  AppendJsonString(&json, name);
  absl::StrAppend(&json, ",\"stream\":", model.stream_id(), ",\"tasks\":[");
  for (int i = 0; i < model.tasks_size(); ++i) {
    absl::StrAppend(&json, i == 0 ? "" : ",", "{\"index\":", i, ",\"type\":");
    AppendJsonString(&json, model.tasks(i));
    json.push_back('}');
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
  Registry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  registry.models[id].name = std::move(name);
  return absl::OkStatus();
}

absl::StatusOr<std::string> ModelName(void* handle) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  Registry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  return registry.models[id].name;
}

absl::StatusOr<uint32_t> ModelId(void* handle) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  return static_cast<uint32_t>(id);
}

absl::Status AddModelDestroyCallback(void* handle, uintptr_t key, std::function<void()> fn) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  Registry& registry = Models();
  absl::MutexLock lock(&registry.mu);
  registry.models[id].destroy_callbacks.emplace_back(key, std::move(fn));
  return absl::OkStatus();
}

absl::Status RemoveModelDestroyCallback(void* handle, uintptr_t key) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ModelIdOf(handle));
  Registry& registry = Models();
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
