// model_control.h
//
// Control tasks inside models: labels and label switches, stream
// activation and switches (aclrtSetLabel ... aclrtSwitchStream), conditions
// with their branch models (aclmdlRICondHandleCreate, aclmdlRIAddCondTask),
// and task groups with their updates (aclmdlRICaptureTaskGrpBegin ...
// TaskUpdateEnd). Each is queued on a stream that records into a model
// (captures or is bound to one); npud decides it when a run reaches it
// (daemon/session/model_run.h). Elsewhere they fail with
// ACL_ERROR_RT_STREAM_MODEL, as in CANN.
//
// Labels, label lists, condition handles and task groups are handles of
// this process, checked at every use.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_MODEL_CONTROL_H_
#define NPUD_CLIENT_CORE_MODEL_CONTROL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

absl::StatusOr<void*> CreateLabel();
absl::Status DestroyLabel(void* label);
absl::Status SetLabel(void* label, void* stream);
absl::StatusOr<void*> CreateLabelList(void* const* labels, size_t count);
absl::Status DestroyLabelList(void* list);
// Jumps to the label of `list` whose index is the uint32 at `index` (the
// last one past `max_value`).
absl::Status SwitchLabelByIndex(const void* index, uint32_t max_value, void* list, void* stream);

absl::Status ActivateStream(void* target, void* stream);
// aclrtCondition `condition` and aclrtCompareDataType `data_type`.
absl::Status SwitchStream(const void* left, uint32_t condition, const void* right,
                          uint32_t data_type, void* true_stream, void* false_stream, void* stream);

// aclmdlRICondHandleFlag `flag`: 0, or 1 to reset the condition to
// `default_value` at the start of every run.
absl::StatusOr<void*> CreateCondHandle(void* model, uint32_t default_value, uint32_t flag);
absl::StatusOr<uint64_t*> CondPointer(void* handle);
// aclmdlRICondTaskType `type`; the branch models' handles go to
// `branches` (`count` of them).
absl::Status AddCondTask(void* handle, uint32_t type, uint32_t count, void** branches,
                         void* stream);

absl::Status BeginTaskGroup(void* stream);
absl::StatusOr<void*> EndTaskGroup(void* stream);
absl::Status BeginTaskUpdate(void* stream, void* group);
absl::Status EndTaskUpdate(void* stream);
// aclrtPersistentTaskClean: drops what a bound stream recorded.
absl::Status CleanStream(void* stream);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_MODEL_CONTROL_H_
