// model_ops.h
//
// Model capture and replay (aclmdlRI): aclmdlRICaptureBegin makes npud
// record the work queued on a stream instead of running it;
// aclmdlRICaptureEnd turns the recording into a model (aclmdlRI), which
// aclmdlRIExecuteAsync runs again on any stream with one call. A model may
// also be built from several streams bound to it (aclmdlRIBuildBegin,
// BindStream ... BuildEnd), with control tasks between them
// (model_control.h). The model's calls live in npud
// (daemon/session/model_captures.h, model_run.h); this side keeps the
// handles, names and destroy callbacks, and which streams record.
//
// What a capture cannot replay is refused: copies into host memory npud
// cannot reach itself (anything but aclrtMallocHost memory of a local
// daemon) and host callbacks fail with ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
// Host-to-device copies from pageable memory replay the bytes they had at
// capture (they travel inline); from aclrtMallocHost memory of a local
// daemon they read it again at each run, as on a device. Only the
// capturing stream is captured (streams joined through events run their
// work at once), and the capture modes are kept per thread but not
// enforced: synchronous calls run as in ACL_MODEL_RI_CAPTURE_MODE_RELAXED.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_MODEL_OPS_H_
#define NPUD_CLIENT_CORE_MODEL_OPS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

// aclmdlRICaptureStatus.
inline constexpr int kCaptureNone = 0;
inline constexpr int kCaptureActive = 1;

absl::Status CaptureBegin(void* stream, int mode);
struct CaptureInfo {
  int status = kCaptureNone;
  void* model = nullptr;  // the model being captured, while active
};
absl::StatusOr<CaptureInfo> CaptureInfoOf(void* stream);
// aclmdlRICaptureThreadExchangeMode: the calling thread's mode becomes
// `*mode`, and `*mode` the previous one.
absl::Status ExchangeCaptureMode(int* mode);
absl::StatusOr<void*> CaptureEnd(void* stream);
// aclmdlRICaptureToModelRIBegin: `model` is an empty branch model of a
// condition (CreateBranchModels).
absl::Status CaptureIntoModel(void* stream, void* model, int mode);

// aclmdlRIBuildBegin ... BuildEnd. `head`: the stream starts with the run
// (ACL_MODEL_STREAM_FLAG_HEAD), else when a task activates it.
absl::StatusOr<void*> BuildBegin();
absl::Status BindStream(void* model, void* stream, bool head);
absl::Status UnbindStream(void* model, void* stream);
absl::Status EndTask(void* model, void* stream);
absl::Status BuildEnd(void* model);
absl::Status AbortModel(void* model);

// The empty branch models of a condition of model `parent`, destroyed
// with it.
absl::StatusOr<std::vector<uint64_t>> CreateBranchModels(uint64_t parent, size_t count);
// Device memory freed with model `model_id` (condition variables).
absl::Status AddModelMemory(uint64_t model_id, void* memory);
// kRtInvalidHandle unless `handle` is a model of this process.
absl::StatusOr<uint64_t> ModelIdOf(void* handle);

absl::Status ExecuteModel(void* model, void* stream);
// On the current context's default stream, waiting `timeout_ms` (-1:
// forever).
absl::Status ExecuteModelAndWait(void* model, int32_t timeout_ms);
// Runs the destroy callbacks first.
absl::Status DestroyModel(void* model);

// aclmdlRIGetStreams: the streams the model was recorded from, as
// handles.
absl::StatusOr<std::vector<void*>> ModelStreams(void* model);
// aclmdlRIGetTasksByStream: the tasks of the newest model `stream` belongs
// to, in order. Handles stay the same for the same task.
absl::StatusOr<std::vector<void*>> ModelTasks(void* stream);
// aclmdlRITaskType values.
inline constexpr int kTaskDefault = 0;
inline constexpr int kTaskKernel = 1;
inline constexpr int kTaskEventRecord = 2;
inline constexpr int kTaskEventWait = 3;
inline constexpr int kTaskEventReset = 4;
inline constexpr int kTaskValueWrite = 5;
inline constexpr int kTaskValueWait = 6;
struct ModelTaskInfo {
  int type = kTaskDefault;
  uint32_t seq_id = 0;  // its place in its stream
  // Where npud keeps it: the model, the stream, and the place among the
  // stream's recorded calls (which count task group marks, unlike seq_id).
  uint64_t model_id = 0;
  uint64_t stream_id = 0;
  uint32_t call_index = 0;
};
absl::StatusOr<ModelTaskInfo> ModelTaskOf(void* task);

// aclmdlRIDebugPrint (to the log) and aclmdlRIDebugJsonPrint (to `path`).
absl::Status PrintModel(void* model);
absl::Status WriteModelJson(void* model, const std::string& path);

absl::Status SetModelName(void* model, std::string name);
absl::StatusOr<std::string> ModelName(void* model);
absl::StatusOr<uint32_t> ModelId(void* model);
// `key` identifies the function for RemoveModelDestroyCallback.
absl::Status AddModelDestroyCallback(void* model, uintptr_t key, std::function<void()> fn);
absl::Status RemoveModelDestroyCallback(void* model, uintptr_t key);

// True while stream `stream_id` records into a model: captures, is bound,
// or records a task group update (the copy paths ask).
bool StreamCaptures(uint64_t stream_id);
// The model stream `stream_id` records into (0 for an update), if any.
std::optional<uint64_t> RecordingModel(uint64_t stream_id);
// Marks `stream_id` as recording a task group update, or no longer.
absl::Status StartUpdateRecording(uint64_t stream_id);
void StopUpdateRecording(uint64_t stream_id);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_MODEL_OPS_H_
