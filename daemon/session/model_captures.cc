#include "daemon/session/model_captures.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// The op field of `call`, or null.
const FieldDescriptor* OpOf(const v1::Call& call) {
  static const google::protobuf::OneofDescriptor* const op =
      v1::Call::descriptor()->FindOneofByName("op");
  return call.GetReflection()->GetOneofFieldDescriptor(call, op);
}

// Calls that name a stream without queueing work on it.
bool ControlsStream(const v1::Call& call) {
  switch (call.op_case()) {
    case v1::Call::kCreateStream:
    case v1::Call::kDestroyStream:
    case v1::Call::kSynchronizeStream:
    case v1::Call::kQueryStream:
    case v1::Call::kSetStreamFailureMode:
    case v1::Call::kCaptureBegin:
    case v1::Call::kCaptureEnd:
    case v1::Call::kModelBindStream:
    case v1::Call::kModelUnbindStream:
    case v1::Call::kModelCleanStream:
    case v1::Call::kTaskUpdateBegin:
    case v1::Call::kTaskUpdateEnd:
    case v1::Call::kAbortStream:
    case v1::Call::kCacheTaskInfo:
      return true;
    default:
      return false;
  }
}

const FieldDescriptor* StreamField(const Message& op) {
  const FieldDescriptor* field = op.GetDescriptor()->FindFieldByName("stream_id");
  if (field == nullptr || field->cpp_type() != FieldDescriptor::CPPTYPE_UINT64) return nullptr;
  return field;
}

// Why a recorded call could not be run again, or OK.
absl::Status Replayable(const v1::Call& call) {
  if (call.has_write_device() && call.write_device().bulk_transfer_id() != 0) {
    return AclError(kRtFeatureNotSupport,
                    "a captured copy cannot take its bytes from the bulk channel");
  }
  if (call.has_read_device()) {
    return AclError(kRtFeatureNotSupport,
                    "a captured copy to host memory needs memory npud shares "
                    "(aclrtMallocHost with a local daemon)");
  }
  if (call.has_launch_host_callback()) {
    return AclError(kRtFeatureNotSupport, "host callbacks cannot be captured");
  }
  return absl::OkStatus();
}

// Checks the control tasks of stream `index` against the model's labels
// and streams, and registers its task groups in `groups`.
absl::Status CheckControlTasks(const CapturedModel& model, size_t index,
                               std::vector<std::pair<uint64_t, CallList>>* groups) {
  const CallList& calls = model.streams[index].calls;
  const CallList* open = nullptr;
  for (const v1::Call& call : calls) {
    if (call.has_switch_label()) {
      for (uint64_t label : call.switch_label().label_ids()) {
        if (!model.labels.contains(label)) {
          return AclError(kRtParamInvalid,
                          absl::StrFormat("label %d is not set in the model", label));
        }
      }
    }
    std::vector<uint64_t> targets;
    if (call.has_activate_stream()) targets.push_back(call.activate_stream().target_stream_id());
    if (call.has_switch_stream()) {
      targets.push_back(call.switch_stream().true_stream_id());
      if (call.switch_stream().false_stream_id() != 0) {
        targets.push_back(call.switch_stream().false_stream_id());
      }
    }
    for (uint64_t target : targets) {
      if (!model.stream_index.contains(target)) {
        return AclError(kRtStreamModel,
                        absl::StrFormat("stream %d is not bound to the model", target));
      }
    }
    if (call.has_task_group_mark()) {
      const v1::TaskGroupMark& mark = call.task_group_mark();
      if (!mark.end() && open == nullptr) {
        groups->emplace_back(mark.group_id(), CallList());
        open = &groups->back().second;
      } else if (mark.end() && open != nullptr && groups->back().first == mark.group_id()) {
        open = nullptr;
      } else {
        return AclError(kRtParamInvalid,
                        absl::StrFormat("task group %d is not begun and ended once, unnested",
                                        mark.group_id()));
      }
      continue;
    }
    if (open != nullptr) groups->back().second.push_back(call);
  }
  if (open != nullptr) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("task group %d never ended", groups->back().first));
  }
  return absl::OkStatus();
}

}  // namespace

uint64_t StreamOfWork(const v1::Call& call) {
  if (ControlsStream(call)) return 0;
  const FieldDescriptor* op_field = OpOf(call);
  if (op_field == nullptr || op_field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) return 0;
  const Message& op = call.GetReflection()->GetMessage(call, op_field);
  const FieldDescriptor* stream = StreamField(op);
  return stream != nullptr ? op.GetReflection()->GetUInt64(op, stream) : 0;
}

void SetStreamOfWork(v1::Call* call, uint64_t stream_id) {
  const FieldDescriptor* op_field = OpOf(*call);
  if (op_field == nullptr || op_field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) return;
  Message* op = call->GetReflection()->MutableMessage(call, op_field);
  if (const FieldDescriptor* stream = StreamField(*op); stream != nullptr) {
    op->GetReflection()->SetUInt64(op, stream, stream_id);
  }
}

std::string CallKind(const v1::Call& call) {
  const FieldDescriptor* field = OpOf(call);
  return field != nullptr ? field->name() : "unknown";
}

void ModelCaptures::ClearCalls(CapturedModel& model, CallList& calls) {
  for (const v1::Call& call : calls) {
    const size_t bytes = call.ByteSizeLong();
    model.bytes -= bytes;
    recorded_bytes_ -= bytes;
  }
  calls.clear();
  for (ModelStream& stream : model.streams) {
    if (&stream.calls != &calls) continue;
    for (const auto& [index, info] : stream.infos) {
      model.bytes -= info.op_info.size() + info.extend_info.size();
      recorded_bytes_ -= info.op_info.size() + info.extend_info.size();
    }
    stream.infos.clear();
  }
}

void ModelCaptures::ForgetBoundStream(uint64_t stream_id) {
  const Recorder& recorder = recording_.at(stream_id);
  const uint64_t model_id = recorder.model_id;
  const size_t index = recorder.stream_index;
  StopRecording(stream_id);
  CapturedModel& model = *models_[model_id].model;
  ClearCalls(model, model.streams[index].calls);
  model.streams.erase(model.streams.begin() + static_cast<std::ptrdiff_t>(index));
  for (auto& [stream, other] : recording_) {
    if (other.group_id == 0 && other.model_id == model_id && other.stream_index > index) {
      --other.stream_index;
    }
  }
}

void ModelCaptures::StartRecording(uint64_t stream_id, Recorder recorder) {
  recording_[stream_id] = std::move(recorder);
  recording_count_.fetch_add(1);
}

void ModelCaptures::StopRecording(uint64_t stream_id) {
  if (recording_.erase(stream_id) != 0) recording_count_.fetch_sub(1);
}

absl::Status ModelCaptures::Begin(uint64_t stream_id, uint64_t model_id, bool into_existing) {
  absl::MutexLock lock(&mu_);
  if (recording_.contains(stream_id)) {
    return AclError(kRtStreamCaptured,
                    absl::StrFormat("stream %d is already capturing", stream_id));
  }
  auto it = models_.find(model_id);
  if (into_existing) {
    if (it == models_.end() || it->second.finished || !it->second.model->streams.empty()) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("model %d is not an empty model to capture into", model_id));
    }
  } else {
    if (model_id == 0 || it != models_.end()) {
      return AclError(kRtParamInvalid, absl::StrFormat("model id %d is in use", model_id));
    }
    it = models_.try_emplace(model_id).first;
  }
  it->second.model->streams.push_back(ModelStream{stream_id, true, {}, {}});
  Recorder recorder;
  recorder.model_id = model_id;
  StartRecording(stream_id, std::move(recorder));
  return absl::OkStatus();
}

absl::Status ModelCaptures::Create(uint64_t model_id) {
  absl::MutexLock lock(&mu_);
  if (model_id == 0 || !models_.try_emplace(model_id).second) {
    return AclError(kRtParamInvalid, absl::StrFormat("model id %d is in use", model_id));
  }
  return absl::OkStatus();
}

absl::Status ModelCaptures::Bind(uint64_t model_id, uint64_t stream_id, bool head) {
  absl::MutexLock lock(&mu_);
  auto it = models_.find(model_id);
  if (it == models_.end() || it->second.finished) {
    return AclError(kRtParamInvalid, absl::StrFormat("model %d is not being built", model_id));
  }
  if (recording_.contains(stream_id)) {
    return AclError(kRtStreamCaptured,
                    absl::StrFormat("stream %d already records into a model", stream_id));
  }
  std::vector<ModelStream>& streams = it->second.model->streams;
  streams.push_back(ModelStream{stream_id, head, {}, {}});
  Recorder recorder;
  recorder.model_id = model_id;
  recorder.stream_index = streams.size() - 1;
  recorder.bound = true;
  StartRecording(stream_id, std::move(recorder));
  return absl::OkStatus();
}

absl::Status ModelCaptures::Unbind(uint64_t model_id, uint64_t stream_id) {
  absl::MutexLock lock(&mu_);
  auto it = models_.find(model_id);
  if (it == models_.end()) {
    return AclError(kRtInvalidHandle, absl::StrFormat("model %d does not exist", model_id));
  }
  Entry& entry = it->second;
  if (entry.finished) {
    if (entry.model->stream_index.contains(stream_id)) return absl::OkStatus();
    return AclError(kRtStreamModel,
                    absl::StrFormat("stream %d is not bound to model %d", stream_id, model_id));
  }
  auto bound = recording_.find(stream_id);
  if (bound == recording_.end() || !bound->second.bound || bound->second.model_id != model_id) {
    return AclError(kRtStreamModel,
                    absl::StrFormat("stream %d is not bound to model %d", stream_id, model_id));
  }
  ForgetBoundStream(stream_id);
  return absl::OkStatus();
}

absl::Status ModelCaptures::CleanStream(uint64_t stream_id) {
  absl::MutexLock lock(&mu_);
  auto bound = recording_.find(stream_id);
  if (bound == recording_.end() || !bound->second.bound) {
    return AclError(kRtStreamModel,
                    absl::StrFormat("stream %d is not bound to a model being built", stream_id));
  }
  CapturedModel& model = *models_[bound->second.model_id].model;
  ClearCalls(model, model.streams[bound->second.stream_index].calls);
  return absl::OkStatus();
}

absl::Status ModelCaptures::AddCondition(uint64_t model_id, uint64_t address, uint64_t value) {
  absl::MutexLock lock(&mu_);
  auto it = models_.find(model_id);
  if (it == models_.end() || it->second.finished) {
    return AclError(kRtParamInvalid, absl::StrFormat("model %d is not being captured", model_id));
  }
  it->second.model->conditions.emplace_back(address, value);
  return absl::OkStatus();
}

bool ModelCaptures::Record(const v1::Call& call) {
  if (recording_count_.load(std::memory_order_relaxed) == 0) return false;
  const uint64_t stream_id = StreamOfWork(call);
  if (stream_id == 0) return false;
  absl::MutexLock lock(&mu_);
  auto it = recording_.find(stream_id);
  if (it == recording_.end()) return false;
  Recorder& recorder = it->second;
  absl::Status replayable = Replayable(call);
  if (recorder.group_id != 0) {
    if (!recorder.invalid.ok()) return true;
    auto group = groups_.find(recorder.group_id);
    // More calls than the group has fail at the update's end anyway.
    if (replayable.ok() &&
        (group == groups_.end() || recorder.update.size() >= group->second->calls()->size())) {
      replayable = AclError(kRtModelUpdateFailed, "more calls than the task group has");
    }
    if (!replayable.ok()) {
      recorder.invalid = std::move(replayable);
      return true;
    }
    recorder.update.push_back(call);
    recorder.update.back().set_call_id(0);
    return true;
  }
  Entry& entry = models_[recorder.model_id];
  if (!entry.invalid.ok()) return true;
  const size_t bytes = call.ByteSizeLong();
  if (replayable.ok() && recorded_bytes_ + bytes > kMaxRecordedBytes) {
    replayable = AclError(
        kRtNoModelResource,
        absl::StrFormat("models of this session would hold more than %d bytes", kMaxRecordedBytes));
  }
  if (!replayable.ok()) {
    spdlog::warn("model {} invalidated by a call on stream {}: {}", recorder.model_id, stream_id,
                 std::string(replayable.message()));
    entry.invalid = std::move(replayable);
    return true;
  }
  v1::Call& recorded = entry.model->streams[recorder.stream_index].calls.emplace_back(call);
  recorded.set_call_id(0);
  recorded.set_disabled(false);
  entry.model->bytes += bytes;
  recorded_bytes_ += bytes;
  return true;
}

absl::Status ModelCaptures::Finish(uint64_t model_id, Entry& entry) {
  if (!entry.invalid.ok()) {
    return AclError(kRtStreamCaptureInvalidated,
                    absl::StrCat("the model was invalidated: ", entry.invalid.message()));
  }
  CapturedModel& model = *entry.model;
  for (size_t i = 0; i < model.streams.size(); ++i) {
    model.stream_index[model.streams[i].stream_id] = i;
    const CallList& calls = model.streams[i].calls;
    for (size_t j = 0; j < calls.size(); ++j) {
      if (!calls[j].has_set_label()) continue;
      if (!model.labels.try_emplace(calls[j].set_label().label_id(), i, j).second) {
        return AclError(kRtParamInvalid,
                        absl::StrFormat("label %d is set twice in model %d",
                                        calls[j].set_label().label_id(), model_id));
      }
    }
  }
  std::vector<std::pair<uint64_t, CallList>> groups;
  for (size_t i = 0; i < model.streams.size(); ++i) {
    if (absl::Status checked = CheckControlTasks(model, i, &groups); !checked.ok()) return checked;
  }
  for (auto& [group_id, calls] : groups) {
    if (groups_.contains(group_id)) {
      return AclError(kRtParamInvalid, absl::StrFormat("task group %d exists already", group_id));
    }
  }
  for (auto& [group_id, calls] : groups) {
    groups_[group_id] =
        std::make_shared<TaskGroup>(model_id, std::make_shared<const CallList>(std::move(calls)));
  }
  entry.finished = true;
  return absl::OkStatus();
}

void ModelCaptures::Drop(uint64_t model_id) {
  auto it = models_.find(model_id);
  if (it == models_.end()) return;
  std::vector<uint64_t> streams;
  for (const auto& [stream, recorder] : recording_) {
    if (recorder.group_id == 0 && recorder.model_id == model_id) streams.push_back(stream);
  }
  for (uint64_t stream : streams) StopRecording(stream);
  absl::erase_if(groups_, [&](const auto& group) { return group.second->model_id() == model_id; });
  recorded_bytes_ -= it->second.model->bytes;
  models_.erase(it);
}

absl::Status ModelCaptures::End(uint64_t stream_id) {
  absl::MutexLock lock(&mu_);
  auto it = recording_.find(stream_id);
  if (it == recording_.end() || it->second.bound || it->second.group_id != 0) {
    return AclError(kRtStreamNotCaptured, absl::StrFormat("stream %d is not capturing", stream_id));
  }
  const uint64_t model_id = it->second.model_id;
  StopRecording(stream_id);
  absl::Status finished = Finish(model_id, models_[model_id]);
  if (!finished.ok()) Drop(model_id);
  return finished;
}

absl::Status ModelCaptures::BuildEnd(uint64_t model_id) {
  absl::MutexLock lock(&mu_);
  auto it = models_.find(model_id);
  if (it == models_.end()) {
    return AclError(kRtInvalidHandle, absl::StrFormat("model %d does not exist", model_id));
  }
  if (it->second.finished) {
    return AclError(kRtParamInvalid, absl::StrFormat("model %d is already built", model_id));
  }
  std::vector<uint64_t> bound;
  for (const auto& [stream, recorder] : recording_) {
    if (recorder.group_id == 0 && recorder.model_id == model_id) {
      if (!recorder.bound) {
        return AclError(kRtStreamCaptured, absl::StrFormat("stream %d still captures into model %d",
                                                           stream, model_id));
      }
      bound.push_back(stream);
    }
  }
  for (uint64_t stream : bound) StopRecording(stream);
  absl::Status finished = Finish(model_id, it->second);
  if (!finished.ok()) Drop(model_id);
  return finished;
}

absl::Status ModelCaptures::UpdateBegin(uint64_t stream_id, uint64_t group_id) {
  absl::MutexLock lock(&mu_);
  if (recording_.contains(stream_id)) {
    return AclError(kRtStreamCaptured,
                    absl::StrFormat("stream %d already records into a model", stream_id));
  }
  if (group_id == 0 || !groups_.contains(group_id)) {
    return AclError(kRtParamInvalid, absl::StrFormat("task group %d does not exist", group_id));
  }
  Recorder recorder;
  recorder.group_id = group_id;
  StartRecording(stream_id, std::move(recorder));
  return absl::OkStatus();
}

absl::StatusOr<ModelCaptures::Update> ModelCaptures::UpdateEnd(uint64_t stream_id) {
  absl::MutexLock lock(&mu_);
  auto it = recording_.find(stream_id);
  if (it == recording_.end() || it->second.group_id == 0) {
    return AclError(kRtStreamNotCaptured,
                    absl::StrFormat("stream %d is not updating a task group", stream_id));
  }
  Recorder recorder = std::move(it->second);
  StopRecording(stream_id);
  if (!recorder.invalid.ok()) {
    return AclError(kRtModelUpdateFailed,
                    absl::StrCat("the update was invalidated: ", recorder.invalid.message()));
  }
  auto group = groups_.find(recorder.group_id);
  if (group == groups_.end()) {
    return AclError(kRtModelUpdateFailed,
                    absl::StrFormat("task group %d is gone", recorder.group_id));
  }
  const GroupCalls old_calls = group->second->calls();
  const CallList& old = *old_calls;
  bool same = old.size() == recorder.update.size();
  for (size_t i = 0; same && i < old.size(); ++i) {
    same = old[i].op_case() == recorder.update[i].op_case();
  }
  if (!same) {
    return AclError(kRtModelUpdateFailed,
                    absl::StrFormat("an update of task group %d must queue as many tasks of the "
                                    "same kinds as the group has (%d)",
                                    recorder.group_id, old.size()));
  }
  return Update{group->second, std::make_shared<const CallList>(std::move(recorder.update))};
}

absl::StatusOr<GroupCalls> ModelCaptures::Group(uint64_t group_id) const {
  absl::MutexLock lock(&mu_);
  auto group = groups_.find(group_id);
  if (group == groups_.end()) {
    return AclError(kRtParamInvalid, absl::StrFormat("task group %d does not exist", group_id));
  }
  return group->second->calls();
}

absl::StatusOr<std::shared_ptr<const CapturedModel>> ModelCaptures::Find(uint64_t model_id) const {
  absl::MutexLock lock(&mu_);
  auto it = models_.find(model_id);
  if (it == models_.end()) {
    return AclError(kRtInvalidHandle, absl::StrFormat("model %d does not exist", model_id));
  }
  if (!it->second.finished) {
    return AclError(kRtModelExecute,
                    absl::StrFormat("model %d is still being captured or built", model_id));
  }
  return std::shared_ptr<const CapturedModel>(it->second.model);
}

absl::Status ModelCaptures::Destroy(uint64_t model_id) {
  absl::MutexLock lock(&mu_);
  if (!models_.contains(model_id)) {
    return AclError(kRtInvalidHandle, absl::StrFormat("model %d does not exist", model_id));
  }
  Drop(model_id);
  return absl::OkStatus();
}

absl::Status ModelCaptures::CacheInfo(uint64_t stream_id, std::string info, bool extend) {
  absl::MutexLock lock(&mu_);
  auto it = recording_.find(stream_id);
  if (it == recording_.end() || it->second.group_id != 0) {
    return AclError(kRtStreamNotCaptured,
                    absl::StrFormat("stream %d does not capture into a model", stream_id));
  }
  CapturedModel& model = *models_[it->second.model_id].model;
  ModelStream& stream = model.streams[it->second.stream_index];
  if (stream.calls.empty()) {
    return AclError(
        kRtParamInvalid,
        absl::StrFormat("stream %d has recorded no task to cache information on", stream_id));
  }
  std::string& slot = extend ? stream.infos[stream.calls.size() - 1].extend_info
                             : stream.infos[stream.calls.size() - 1].op_info;
  model.bytes += info.size() - slot.size();
  recorded_bytes_ += info.size() - slot.size();
  slot = std::move(info);
  return absl::OkStatus();
}

absl::Status ModelCaptures::Edit(uint64_t model_id, const v1::ModelEditTasks& edits) {
  absl::MutexLock lock(&mu_);
  auto it = models_.find(model_id);
  if (it == models_.end() || !it->second.finished) {
    return AclError(kRtParamInvalid, absl::StrFormat("model %d is not a finished model", model_id));
  }
  // Runs hold the model they started with: edit a copy.
  auto edited = std::make_shared<CapturedModel>(*it->second.model);
  for (const v1::ModelTaskEdit& edit : edits.edits()) {
    auto stream = edited->stream_index.find(edit.stream_id());
    if (stream == edited->stream_index.end() ||
        edit.call_index() >= edited->streams[stream->second].calls.size()) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("model %d has no task %d on stream %d", model_id,
                                      edit.call_index(), edit.stream_id()));
    }
    CallList& calls = edited->streams[stream->second].calls;
    // Inside a task group: a begin mark before it with no end between.
    for (size_t i = edit.call_index(); i-- > 0;) {
      if (!calls[i].has_task_group_mark()) continue;
      if (!calls[i].task_group_mark().end()) {
        return AclError(kRtParamInvalid,
                        "tasks of a task group change by aclmdlRICaptureTaskUpdateBegin/End");
      }
      break;
    }
    v1::Call& call = calls[edit.call_index()];
    const bool disabled = call.disabled() || edit.disable();  // for good: CANN has no enable
    if (edit.has_call()) {
      if (edit.call().op_case() != call.op_case()) {
        return AclError(kRtParamInvalid,
                        absl::StrFormat("task %d of stream %d is a %s, not a %s", edit.call_index(),
                                        edit.stream_id(), CallKind(call), CallKind(edit.call())));
      }
      const uint64_t stream_id = StreamOfWork(call);
      edited->bytes -= call.ByteSizeLong();
      call = edit.call();
      call.set_call_id(0);
      SetStreamOfWork(&call, stream_id);
      edited->bytes += call.ByteSizeLong();
    }
    call.set_disabled(disabled);
  }
  if (edited->bytes > it->second.model->bytes &&
      recorded_bytes_ + (edited->bytes - it->second.model->bytes) > kMaxRecordedBytes) {
    return AclError(
        kRtNoModelResource,
        absl::StrFormat("models of this session would hold more than %d bytes", kMaxRecordedBytes));
  }
  recorded_bytes_ += edited->bytes;
  recorded_bytes_ -= it->second.model->bytes;
  it->second.model = std::move(edited);
  return absl::OkStatus();
}

bool ModelCaptures::Records(uint64_t stream_id) const {
  absl::MutexLock lock(&mu_);
  return recording_.contains(stream_id);
}

void ModelCaptures::Abandon(uint64_t stream_id) {
  absl::MutexLock lock(&mu_);
  auto it = recording_.find(stream_id);
  if (it == recording_.end()) return;
  const Recorder& recorder = it->second;
  if (recorder.group_id != 0) {
    StopRecording(stream_id);
  } else if (recorder.bound) {
    ForgetBoundStream(stream_id);
  } else {
    Drop(recorder.model_id);
  }
}

}  // namespace npud::daemon
