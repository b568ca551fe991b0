// model_captures.h
//
// ModelCaptures: the streams a session is capturing (aclmdlRICaptureBegin)
// and the models it captured. A model is the list of the calls that queued
// work on its stream, kept as they came; executing it dispatches copies of
// them on the executing stream, so every run builds fresh tasks (a copy
// reads its host window again, a kernel its arguments), and a run of N
// tasks is one call from the client.
//
// Calls whose replay cannot be honoured invalidate the capture (its
// CaptureEnd fails): copies whose host bytes travel on the bulk channel or
// come back as data chunks (one-time transfers), and host callbacks (the
// client runs each once). What a session keeps recorded is bounded.
//
// Thread-safe.

#ifndef NPUD_DAEMON_SESSION_MODEL_CAPTURES_H_
#define NPUD_DAEMON_SESSION_MODEL_CAPTURES_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "npud/v1/calls.pb.h"

namespace npud::daemon {

struct CapturedModel {
  uint64_t stream_id = 0;
  std::vector<v1::Call> calls;
  size_t bytes = 0;
};

class ModelCaptures {
 public:
  // What one session may keep recorded, in serialized call bytes (inline
  // copy data counts in full).
  static constexpr size_t kMaxRecordedBytes = size_t{1} << 30;

  // kRtStreamCaptured if `stream_id` already captures; kRtParamInvalid for
  // a model id in use.
  absl::Status Begin(uint64_t stream_id, uint64_t model_id) ABSL_LOCKS_EXCLUDED(mu_);
  // True if `call` queues work on a capturing stream: it has then been
  // recorded (or has invalidated the capture) and must not run now.
  bool Record(const v1::Call& call) ABSL_LOCKS_EXCLUDED(mu_);
  // Ends the capture of `stream_id`: its model exists from now on.
  // kRtStreamNotCaptured if the stream does not capture;
  // kRtStreamCaptureInvalidated (and no model) if a call invalidated it.
  absl::Status End(uint64_t stream_id) ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<std::shared_ptr<const CapturedModel>> Find(uint64_t model_id) const
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Destroy(uint64_t model_id) ABSL_LOCKS_EXCLUDED(mu_);
  // The stream's capture ends unfinished (the stream is destroyed).
  void Abandon(uint64_t stream_id) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Capture {
    uint64_t model_id = 0;
    std::shared_ptr<CapturedModel> model = std::make_shared<CapturedModel>();
    absl::Status invalid;
  };

  mutable absl::Mutex mu_;
  // Skips the lock for every call while nothing captures.
  std::atomic<int> capturing_count_{0};
  absl::flat_hash_map<uint64_t, Capture> capturing_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, std::shared_ptr<const CapturedModel>> models_ ABSL_GUARDED_BY(mu_);
  size_t recorded_bytes_ ABSL_GUARDED_BY(mu_) = 0;
};

// The stream a call queues work on (the op's stream_id), or 0 for calls
// that are not stream work (creating, synchronizing or querying a stream,
// capture control, synchronous calls).
uint64_t StreamOfWork(const v1::Call& call);
// Points a recorded call at `stream_id`.
void SetStreamOfWork(v1::Call* call, uint64_t stream_id);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_MODEL_CAPTURES_H_
