// model_captures.h
//
// ModelCaptures: the models of a session (aclmdlRI) and the streams that
// record into them. A model is, per stream it was recorded from, the list
// of the calls that queued work there, kept as they came; running it
// (model_run.h) dispatches copies of them on streams of the run, so every
// run builds fresh tasks (a copy reads its host window again, a kernel its
// arguments).
//
// A model is filled either by capturing one stream (aclmdlRICaptureBegin
// ... CaptureEnd) or by binding streams to it (aclmdlRIBuildBegin,
// BindStream ... BuildEnd). Either way it is unfinished until then, and
// finished models never change, except the calls of their task groups,
// which an update replaces (aclmdlRICaptureTaskUpdateBegin/End).
//
// Calls whose replay cannot be honoured invalidate the model (its
// CaptureEnd or BuildEnd fails): copies whose host bytes travel on the bulk
// channel or come back as data chunks (one-time transfers), and host
// callbacks (the client runs each once). What a session keeps recorded is
// bounded.
//
// Thread-safe.

#ifndef NPUD_DAEMON_SESSION_MODEL_CAPTURES_H_
#define NPUD_DAEMON_SESSION_MODEL_CAPTURES_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "npud/v1/calls.pb.h"

namespace npud::daemon {

using CallList = std::vector<v1::Call>;

// What the application cached on a recorded call
// (aclrtCacheLastTaskOpInfo / ExtendInfo).
struct TaskInfo {
  std::string op_info;
  std::string extend_info;
};

// One stream's part of a model.
struct ModelStream {
  uint64_t stream_id = 0;  // the stream it was recorded from
  bool head = true;        // starts with the run (else when activated)
  CallList calls;
  // By index into `calls`.
  std::map<uint32_t, TaskInfo> infos;
};

struct CapturedModel {
  std::vector<ModelStream> streams;
  // ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT conditions: (address, value)
  // written at the start of every run.
  std::vector<std::pair<uint64_t, uint64_t>> conditions;
  size_t bytes = 0;
  // Set when the model is finished: where each recorded-from stream is in
  // `streams`, and where each label is (stream index, call index).
  absl::flat_hash_map<uint64_t, size_t> stream_index;
  absl::flat_hash_map<uint64_t, std::pair<size_t, size_t>> labels;
};

using GroupCalls = std::shared_ptr<const CallList>;

// A task group's calls as updates leave them. Shared with the tasks that
// apply updates, which may outlive the session's tables.
class TaskGroup {
 public:
  TaskGroup(uint64_t model_id, GroupCalls calls) : model_id_(model_id), calls_(std::move(calls)) {}
  uint64_t model_id() const { return model_id_; }
  GroupCalls calls() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return calls_;
  }
  void set_calls(GroupCalls calls) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    calls_ = std::move(calls);
  }

 private:
  const uint64_t model_id_;
  mutable absl::Mutex mu_;
  GroupCalls calls_ ABSL_GUARDED_BY(mu_);
};

class ModelCaptures {
 public:
  // What one session may keep recorded, in serialized call bytes (inline
  // copy data counts in full).
  static constexpr size_t kMaxRecordedBytes = size_t{1} << 30;

  // --- Filling models ------------------------------------------------------
  // Stream `stream_id` captures into a new model `model_id`, or with
  // `into_existing` into that empty unfinished model (a branch of a
  // condition). kRtStreamCaptured if the stream already records;
  // kRtParamInvalid for a model id in use (or, into_existing, not an empty
  // unfinished model).
  absl::Status Begin(uint64_t stream_id, uint64_t model_id, bool into_existing)
      ABSL_LOCKS_EXCLUDED(mu_);
  // An empty unfinished model, to bind streams to or capture into.
  absl::Status Create(uint64_t model_id) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Bind(uint64_t model_id, uint64_t stream_id, bool head) ABSL_LOCKS_EXCLUDED(mu_);
  // kRtStreamModel if the stream is not bound to the model.
  absl::Status Unbind(uint64_t model_id, uint64_t stream_id) ABSL_LOCKS_EXCLUDED(mu_);
  // Drops what bound stream `stream_id` recorded (aclrtPersistentTaskClean).
  absl::Status CleanStream(uint64_t stream_id) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status AddCondition(uint64_t model_id, uint64_t address, uint64_t value)
      ABSL_LOCKS_EXCLUDED(mu_);
  // True if `call` queues work on a recording stream: it has then been
  // recorded (or has invalidated the model) and must not run now.
  bool Record(const v1::Call& call) ABSL_LOCKS_EXCLUDED(mu_);
  // Ends the capture of `stream_id`; its model is finished from now on.
  // kRtStreamNotCaptured if the stream does not capture;
  // kRtStreamCaptureInvalidated (and no model) if a call invalidated it.
  absl::Status End(uint64_t stream_id) ABSL_LOCKS_EXCLUDED(mu_);
  // Ends the building of `model_id`: its bound streams stop recording.
  absl::Status BuildEnd(uint64_t model_id) ABSL_LOCKS_EXCLUDED(mu_);

  // --- Task group updates --------------------------------------------------
  // Stream `stream_id` records the new calls of task group `group_id`.
  absl::Status UpdateBegin(uint64_t stream_id, uint64_t group_id) ABSL_LOCKS_EXCLUDED(mu_);
  // New calls for a group, to set in the updating stream's order.
  struct Update {
    std::shared_ptr<TaskGroup> group;
    GroupCalls calls;
  };
  // Ends the update recording of `stream_id`. kRtModelUpdateFailed unless
  // the calls match the group's in number and kind.
  absl::StatusOr<Update> UpdateEnd(uint64_t stream_id) ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<GroupCalls> Group(uint64_t group_id) const ABSL_LOCKS_EXCLUDED(mu_);

  // Attaches `info` to the newest call stream `stream_id` recorded into a
  // model (op information, or with `extend` the extended information).
  // kRtStreamNotCaptured if the stream does not record into a model;
  // kRtParamInvalid if it has recorded nothing yet.
  absl::Status CacheInfo(uint64_t stream_id, std::string info, bool extend)
      ABSL_LOCKS_EXCLUDED(mu_);

  // --- Finished models -----------------------------------------------------
  // Applies aclmdlRIUpdate's edits to finished model `model_id`, all or
  // none. Runs already started keep the calls they began with. A new call
  // must be of its task's kind; tasks of task groups change by updates only
  // (kRtParamInvalid).
  absl::Status Edit(uint64_t model_id, const v1::ModelEditTasks& edits) ABSL_LOCKS_EXCLUDED(mu_);
  // kRtInvalidHandle for no such model, kRtModelExecute for an unfinished
  // one.
  absl::StatusOr<std::shared_ptr<const CapturedModel>> Find(uint64_t model_id) const
      ABSL_LOCKS_EXCLUDED(mu_);
  // Finished or not; a stream still recording into it stops.
  absl::Status Destroy(uint64_t model_id) ABSL_LOCKS_EXCLUDED(mu_);
  // True while stream `stream_id` records into a model or an update.
  bool Records(uint64_t stream_id) const ABSL_LOCKS_EXCLUDED(mu_);
  // The stream is destroyed: its capture ends unfinished, its binding goes.
  void Abandon(uint64_t stream_id) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Entry {
    std::shared_ptr<CapturedModel> model = std::make_shared<CapturedModel>();
    bool finished = false;
    absl::Status invalid;
  };
  // A stream that records: into stream `stream_index` of model `model_id`,
  // or (update) the new calls of group `group_id`.
  struct Recorder {
    uint64_t model_id = 0;
    size_t stream_index = 0;
    bool bound = false;  // by BindStream, not by a capture
    uint64_t group_id = 0;
    CallList update;
    absl::Status invalid;
  };
  void StartRecording(uint64_t stream_id, Recorder recorder) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void StopRecording(uint64_t stream_id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // An unfinished model forgets bound stream `stream_id` and its calls.
  void ForgetBoundStream(uint64_t stream_id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ClearCalls(CapturedModel& model, CallList& calls) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Finishes `model_id`: indexes its streams and labels, checks the control
  // tasks, registers its task groups.
  absl::Status Finish(uint64_t model_id, Entry& entry) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Drop(uint64_t model_id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  // Skips the lock for every call while nothing records.
  std::atomic<int> recording_count_{0};
  absl::flat_hash_map<uint64_t, Recorder> recording_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, Entry> models_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, std::shared_ptr<TaskGroup>> groups_ ABSL_GUARDED_BY(mu_);
  size_t recorded_bytes_ ABSL_GUARDED_BY(mu_) = 0;
};

// The stream a call queues work on (the op's stream_id), or 0 for calls
// that are not stream work (creating, synchronizing or querying a stream,
// capture control, synchronous calls).
uint64_t StreamOfWork(const v1::Call& call);
// Points a recorded call at `stream_id`.
void SetStreamOfWork(v1::Call* call, uint64_t stream_id);
// The call's kind ("launch_kernel"), for descriptions and update checks.
std::string CallKind(const v1::Call& call);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_MODEL_CAPTURES_H_
