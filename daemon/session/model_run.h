// model_run.h
//
// ModelRun: one execution of a model (aclmdlRIExecuteAsync). The stream it
// is executed on queues one task, the run's gate: when the stream reaches
// it, the run starts, and the stream moves on once the run has finished.
//
// Each stream of the model gets a stream of its own for the run (a lane),
// so the model's streams run side by side as on a device. A head lane
// starts with a task that waits for the gate, and dispatches its calls
// behind it at once (Launch), as CANN queues a model's tasks when it is
// executed: an event the model records counts as recorded from then on
// for streams that wait for it. A lane dispatches the model's calls on its
// stream up to the next control task
// (a label switch, a stream switch or activation, a condition, a task
// group), which it queues instead; when that task runs, every earlier task
// of the lane has finished, so the task can read the device memory it
// decides by, and dispatches what follows. Head streams start with the
// run, the others when a task activates them; the run ends when every
// started lane has run dry. The first error of a lane fails the run, and
// with it the gate's stream.
//
// Calls are dispatched through the session (Host), from the scheduler's
// threads; the Gate serializes them with the client's calls and ends when
// the session does.
//
// Thread-safe.

#ifndef NPUD_DAEMON_SESSION_MODEL_RUN_H_
#define NPUD_DAEMON_SESSION_MODEL_RUN_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "daemon/session/model_captures.h"
#include "npud/v1/calls.pb.h"
#include "simdevice/stream.h"
#include "simdevice/task.h"

namespace npud::daemon {

class SessionState;

class ModelRun : public std::enable_shared_from_this<ModelRun> {
 public:
  // What a run needs of its session. Called with the gate's lock held.
  class Host {
   public:
    virtual ~Host() = default;
    virtual SessionState& state() = 0;
    // Runs `call` (its stream set to a lane's) as if the client had sent
    // it; `depth` is the run's nesting (models run by models).
    virtual void DispatchRecorded(v1::Call& call, int depth) = 0;
  };
  struct Gate {
    absl::Mutex mu;
    Host* host ABSL_GUARDED_BY(mu) = nullptr;
  };

  // `device_id`: where the lanes run (the executing stream's device).
  ModelRun(uint64_t model_id, std::shared_ptr<const CapturedModel> model, int device_id, int depth,
           std::shared_ptr<Gate> gate);

  // Makes the lanes and queues the head lanes' calls up to their first
  // control task, behind their gates. With the gate's lock held. A failure
  // fails the run (its gate).
  void Launch(Host& host) ABSL_LOCKS_EXCLUDED(mu_);
  // The task the executing stream queues.
  std::unique_ptr<sim::Task> MakeGateTask();

  // Stops dispatching (aclmdlRIAbort, a dropped gate): queued tasks of the
  // lanes are dropped and the run fails with `why`.
  void Abort(const absl::Status& why) ABSL_LOCKS_EXCLUDED(mu_);

  uint64_t model_id() const { return model_id_; }
  // True once the gate has finished; the lanes' stream ids are then no
  // longer used and the session drops them from its table.
  bool Done() const ABSL_LOCKS_EXCLUDED(mu_);
  std::vector<uint64_t> LaneStreamIds() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  class GateTask;
  class LaneGateTask;
  class ControlTask;

  // A list of calls a lane works through, and where it is.
  struct Frame {
    std::shared_ptr<const void> keep;  // owns `calls`
    const CallList* calls = nullptr;
    size_t next = 0;
  };
  struct Lane {
    uint64_t stream_id = 0;
    std::shared_ptr<sim::Stream> stream;
    bool registered = false;  // in the session's stream table
    bool running = false;
    std::vector<Frame> frames;  // the innermost last
  };

  // Called from the gate task, on the executing stream's worker: lets the
  // head lanes go.
  void Start(const sim::Waker& wake) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Finish() ABSL_LOCKS_EXCLUDED(mu_);

  // With the gate's lock held:
  // Starts lane `lane` at call `at` of its stream, unless it runs;
  // `gated`: behind a task that waits for the run's start.
  void Activate(Host& host, size_t lane, size_t at = 0, bool gated = false)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Dispatches lane `lane`'s calls up to its next control task.
  void Advance(Host& host, size_t lane) ABSL_LOCKS_EXCLUDED(mu_);
  // Runs the control task lane `lane` stopped at (from its ControlTask).
  void Control(size_t lane) ABSL_LOCKS_EXCLUDED(mu_);
  // A lane to start, and where.
  struct LaneStart {
    int lane = -1;
    size_t at = 0;
  };
  // Decides control task `call` of `lane`: moves the lane on and says
  // which lane to start, if any.
  absl::StatusOr<LaneStart> Decide(Host& host, size_t lane, const v1::Call& call)
      ABSL_LOCKS_EXCLUDED(mu_);

  // The lane has nothing more to dispatch; it counts as running until its
  // stream has drained.
  void EndLane(size_t lane) ABSL_LOCKS_EXCLUDED(mu_);
  void LaneDrained(const absl::Status& status) ABSL_LOCKS_EXCLUDED(mu_);
  void Fail(const absl::Status& error) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const uint64_t model_id_;
  const std::shared_ptr<const CapturedModel> model_;
  const int device_id_;
  const int depth_;
  const std::shared_ptr<Gate> gate_;

  mutable absl::Mutex mu_;
  std::vector<Lane> lanes_ ABSL_GUARDED_BY(mu_);
  // Lanes started and not yet drained, and one more until the run starts.
  int active_ ABSL_GUARDED_BY(mu_) = 1;
  bool started_ ABSL_GUARDED_BY(mu_) = false;
  // Lane gates waiting for the start.
  std::vector<sim::Waker> lane_gates_ ABSL_GUARDED_BY(mu_);
  bool aborted_ ABSL_GUARDED_BY(mu_) = false;
  bool done_ ABSL_GUARDED_BY(mu_) = false;
  absl::Status error_ ABSL_GUARDED_BY(mu_);
  sim::Waker wake_gate_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_MODEL_RUN_H_
