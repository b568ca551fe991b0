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

absl::Status ModelCaptures::Begin(uint64_t stream_id, uint64_t model_id) {
  absl::MutexLock lock(&mu_);
  if (capturing_.contains(stream_id)) {
    return AclError(kRtStreamCaptured,
                    absl::StrFormat("stream %d is already capturing", stream_id));
  }
  if (model_id == 0 || models_.contains(model_id)) {
    return AclError(kRtParamInvalid, absl::StrFormat("model id %d is in use", model_id));
  }
  for (const auto& [stream, capture] : capturing_) {
    if (capture.model_id == model_id) {
      return AclError(kRtParamInvalid, absl::StrFormat("model id %d is in use", model_id));
    }
  }
  Capture& capture = capturing_[stream_id];
  capture.model_id = model_id;
  capture.model->stream_id = stream_id;
  capturing_count_.fetch_add(1);
  return absl::OkStatus();
}

bool ModelCaptures::Record(const v1::Call& call) {
  if (capturing_count_.load(std::memory_order_relaxed) == 0) return false;
  const uint64_t stream_id = StreamOfWork(call);
  if (stream_id == 0) return false;
  absl::MutexLock lock(&mu_);
  auto it = capturing_.find(stream_id);
  if (it == capturing_.end()) return false;
  Capture& capture = it->second;
  if (!capture.invalid.ok()) return true;
  const size_t bytes = call.ByteSizeLong();
  absl::Status replayable = Replayable(call);
  if (replayable.ok() && recorded_bytes_ + bytes > kMaxRecordedBytes) {
    replayable = AclError(kRtNoModelResource,
                          absl::StrFormat("captured models of this session would hold more than "
                                          "%d bytes",
                                          kMaxRecordedBytes));
  }
  if (!replayable.ok()) {
    spdlog::warn("capture of stream {} invalidated: {}", stream_id,
                 std::string(replayable.message()));
    capture.invalid = std::move(replayable);
    return true;
  }
  v1::Call& recorded = capture.model->calls.emplace_back(call);
  recorded.set_call_id(0);
  capture.model->bytes += bytes;
  recorded_bytes_ += bytes;
  return true;
}

absl::Status ModelCaptures::End(uint64_t stream_id) {
  absl::MutexLock lock(&mu_);
  auto it = capturing_.find(stream_id);
  if (it == capturing_.end()) {
    return AclError(kRtStreamNotCaptured, absl::StrFormat("stream %d is not capturing", stream_id));
  }
  Capture capture = std::move(it->second);
  capturing_.erase(it);
  capturing_count_.fetch_sub(1);
  if (!capture.invalid.ok()) {
    recorded_bytes_ -= capture.model->bytes;
    return AclError(kRtStreamCaptureInvalidated,
                    absl::StrCat("the capture was invalidated: ", capture.invalid.message()));
  }
  models_[capture.model_id] = std::move(capture.model);
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const CapturedModel>> ModelCaptures::Find(uint64_t model_id) const {
  absl::MutexLock lock(&mu_);
  auto it = models_.find(model_id);
  if (it == models_.end()) {
    return AclError(kRtInvalidHandle, absl::StrFormat("model %d does not exist", model_id));
  }
  return it->second;
}

absl::Status ModelCaptures::Destroy(uint64_t model_id) {
  absl::MutexLock lock(&mu_);
  auto it = models_.find(model_id);
  if (it == models_.end()) {
    return AclError(kRtInvalidHandle, absl::StrFormat("model %d does not exist", model_id));
  }
  recorded_bytes_ -= it->second->bytes;
  models_.erase(it);
  return absl::OkStatus();
}

void ModelCaptures::Abandon(uint64_t stream_id) {
  absl::MutexLock lock(&mu_);
  auto it = capturing_.find(stream_id);
  if (it == capturing_.end()) return;
  recorded_bytes_ -= it->second.model->bytes;
  capturing_.erase(it);
  capturing_count_.fetch_sub(1);
}

}  // namespace npud::daemon
