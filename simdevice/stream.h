// stream.h
//
// Stream: an in-order task queue of one device, run by a StreamScheduler.
//
// Tasks run one at a time in submission order. Errors of tasks are kept (the
// first one since the last synchronize) and handed to the next drain
// notification, which is how asynchronous failures reach the client at its
// next aclrtSynchronizeStream. In stop-on-failure mode an error also drops
// every later task until the error has been reported.
//
// Thread-safe.

#ifndef NPUD_SIMDEVICE_STREAM_H_
#define NPUD_SIMDEVICE_STREAM_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "simdevice/task.h"
#include "simdevice/task_observer.h"

namespace npud::sim {

class StreamScheduler;
class DrainMarker;

enum class FailureMode { kContinue = 0, kStop = 1 };

class Stream : public std::enable_shared_from_this<Stream> {
 public:
  // `scheduler` must outlive the stream. `observer`, if given, hears of
  // every task the stream finishes.
  Stream(int device_id, uint64_t id, StreamScheduler* scheduler,
         std::shared_ptr<TaskObserver> observer = nullptr);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  int device_id() const { return device_id_; }
  uint64_t id() const { return id_; }

  // Appends a task; it runs after every task submitted before it. A task
  // that StartsQuickly() on an idle stream starts on the calling thread
  // (which must hold no lock a task may take); the rest of the stream's
  // work goes to the scheduler's workers.
  void Submit(std::unique_ptr<Task> task) ABSL_LOCKS_EXCLUDED(mu_);

  // Calls `done` once every task submitted before has finished, with the
  // stream's first error since the previous drain notification (which this
  // one then clears) or OK. With `take_error` false the error stays for the
  // next notification and `done` gets OK. Runs on a scheduler worker (or
  // inline when the stream is already idle); `done` must not block.
  void NotifyWhenDrained(std::function<void(absl::Status)> done, bool take_error = true)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Drops the queued tasks that wait for other streams or processes (event
  // waits), also one that is parked, so that what remains can only finish:
  // how a force-destroyed stream completes the work already given to it
  // without hanging on a dependency that may never come. Such a task that is
  // running right now is dropped if its Run() returns kPending.
  void CancelWaits(const absl::Status& why) ABSL_LOCKS_EXCLUDED(mu_);

  // Records an error found outside any task (an asynchronous call the daemon
  // rejected); it is reported like a task error.
  void RecordError(const absl::Status& error) ABSL_LOCKS_EXCLUDED(mu_);

  // Drops every task not yet started (the running one finishes); drain
  // notifications among them still fire, with `why`.
  void Discard(const absl::Status& why) ABSL_LOCKS_EXCLUDED(mu_);

  void SetFailureMode(FailureMode mode) ABSL_LOCKS_EXCLUDED(mu_);
  FailureMode failure_mode() const ABSL_LOCKS_EXCLUDED(mu_);

  // True when no task is queued or running.
  bool Idle() const ABSL_LOCKS_EXCLUDED(mu_);

  // Tasks queued or running.
  size_t pending() const ABSL_LOCKS_EXCLUDED(mu_);

  // The number (Task::id) of the last task submitted; 0 before the first.
  uint32_t last_task_id() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  friend class StreamScheduler;
  friend class DrainMarker;
  enum class State { kEmpty, kQueued, kRunning, kParked };

  // Runs tasks until the queue is empty, a task is pending, or the budget is
  // used up. Called by a scheduler worker for a stream in state kQueued, or
  // with `quick_only` by Submit(), which then hands the stream to the
  // scheduler at the first task that does not start quickly.
  void RunSome(bool quick_only = false) ABSL_LOCKS_EXCLUDED(mu_);

  // The waker handed to tasks of this stream.
  void Wake() ABSL_LOCKS_EXCLUDED(mu_);

  absl::Status TakeError() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void NoteError(const absl::Status& error) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // Constant after construction.
  const int device_id_;
  const uint64_t id_;
  StreamScheduler* const scheduler_;
  const std::shared_ptr<TaskObserver> observer_;

  mutable absl::Mutex mu_;
  std::deque<std::unique_ptr<Task>> tasks_ ABSL_GUARDED_BY(mu_);
  State state_ ABSL_GUARDED_BY(mu_) = State::kEmpty;
  // The task whose Run() is executing (always tasks_.front()), or null —
  // also while a finished task is being destroyed or a dropped one
  // cancelled, when the front is a task that has not started.
  Task* running_ ABSL_GUARDED_BY(mu_) = nullptr;
  // When the head task first ran (with an observer only); 0 before.
  int64_t head_started_ns_ ABSL_GUARDED_BY(mu_) = 0;
  // A wake arrived while the head task was running; poll it again.
  bool woken_ ABSL_GUARDED_BY(mu_) = false;
  // CancelWaits() came while the head task (one that waits on others) was
  // running: it is cancelled instead of parked if it does not finish.
  absl::Status cancel_running_ ABSL_GUARDED_BY(mu_);
  absl::Status error_ ABSL_GUARDED_BY(mu_);
  // Stop-on-failure tripped: later tasks are cancelled until reported.
  bool stopped_ ABSL_GUARDED_BY(mu_) = false;
  FailureMode failure_mode_ ABSL_GUARDED_BY(mu_) = FailureMode::kContinue;
  // Tasks submitted so far (drain markers do not count).
  uint32_t submitted_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_STREAM_H_
