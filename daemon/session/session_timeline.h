// session_timeline.h
//
// SessionTimeline: watches every task of one session's streams (their
// TaskObserver). Always: adds each kernel's device time and failures to the
// daemon's KernelStats, and tells the client of every failed task (a
// TaskFailed notification, for its exception callbacks). While someone traces the session
// (NPUD_TRACE in the client, `npuctl trace`): records the spans of every task, which Stop() hands
// out as a v1::TraceResult — with one span per kernel block while a tracer asked for blocks.
//
// Thread-safe.

#ifndef NPUD_DAEMON_SESSION_SESSION_TIMELINE_H_
#define NPUD_DAEMON_SESSION_SESSION_TIMELINE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

#include "daemon/kernel_stats.h"
#include "daemon/message_sink.h"
#include "npud/v1/calls.pb.h"
#include "simdevice/device_set.h"
#include "simdevice/task_observer.h"
#include "simdevice/trace_recorder.h"

namespace npud::daemon {

class SessionTimeline final : public sim::TaskObserver {
 public:
  // `stats` and `devices` (either may be null) must outlive the timeline;
  // kernel launches count into their device's utilization. Failures go to
  // `client` (may be null).
  SessionTimeline(uint64_t session_id, KernelStats* stats, sim::DeviceSet* devices,
                  std::shared_ptr<MessageSink> client)
      : session_id_(session_id), stats_(stats), devices_(devices), client_(std::move(client)) {}

  bool tracing() const { return recorder_.active(); }
  // Whether kernels launched now should time their blocks: some trace asked.
  bool tracing_blocks() const { return block_tracers_.load(std::memory_order_relaxed) > 0; }
  // A trace begins (with block spans if `blocks`); the cursor and `blocks`
  // go to Stop().
  uint64_t Start(bool blocks);
  // The trace begun at `cursor` ends: its spans (block spans only if it
  // asked for them: another trace running beside it may have).
  v1::TraceResult Stop(uint64_t cursor, bool blocks);

  // The client's own traces (StartTrace/StopTrace calls): one at a time per
  // `tracer` (NPUD_TRACE, profiling), kRtParamInvalid for a second start or
  // a stop without a start — so a client can never end someone else's trace
  // of it.
  absl::Status StartClientTrace(uint32_t tracer, bool blocks) ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<v1::TraceResult> StopClientTrace(uint32_t tracer) ABSL_LOCKS_EXCLUDED(mu_);

  void Finished(int device_id, uint64_t stream_id, const sim::Task& task, int64_t start_ns,
                int64_t end_ns, const absl::Status& status) override;

  // Keeps a failed launch's arguments in device memory of the session and
  // returns their address (0: none), for the failure's report. The session
  // sets it, and clears it before it ends (tasks may fail after that).
  using ArgsKeeper = std::function<uint64_t(int device_id, const std::string& args)>;
  void SetArgsKeeper(ArgsKeeper keeper) ABSL_LOCKS_EXCLUDED(keeper_mu_);

 private:
  const uint64_t session_id_;
  KernelStats* const stats_;
  sim::DeviceSet* const devices_;
  const std::shared_ptr<MessageSink> client_;
  sim::TraceRecorder recorder_;
  std::atomic<int> block_tracers_{0};
  absl::Mutex mu_;
  struct ClientTrace {
    uint64_t cursor = 0;
    bool blocks = false;
  };
  // By tracer.
  absl::flat_hash_map<uint32_t, ClientTrace> client_traces_ ABSL_GUARDED_BY(mu_);
  // Held while the keeper runs, so that clearing it waits for the calls.
  absl::Mutex keeper_mu_;
  ArgsKeeper keeper_ ABSL_GUARDED_BY(keeper_mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_SESSION_TIMELINE_H_
