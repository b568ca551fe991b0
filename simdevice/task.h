// task.h
//
// Task: one unit of work in a stream (a copy, a memset, an event record, a
// wait, a kernel launch, a synchronize marker).
//
// A task never blocks a scheduler worker. A task that has to wait (for an
// event, a notify, a kernel running on the AI cores) arranges for `wake` to
// be called once it can make progress and returns kPending; the stream is
// then parked and polled again after the wake. Run() is called only from the
// stream's current worker, never concurrently with itself.

#ifndef NPUD_SIMDEVICE_TASK_H_
#define NPUD_SIMDEVICE_TASK_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"

namespace npud::sim {

// What a task does, for timelines and metrics.
// kBlock: one block of a kernel, inside the kernel's span (traces that asked
// for blocks); never a task's own kind.
enum class TaskKind { kOther, kCopy, kMemset, kKernel, kEventRecord, kWait, kMarker, kBlock };

// A piece of a finished task's time: the whole task, one kernel of a batch
// of launches, or one block of a kernel. Times are steady-clock nanoseconds
// (MonotonicNanos).
struct TaskSpan {
  std::string name;
  TaskKind kind = TaskKind::kOther;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint64_t bytes = 0;      // copies and memsets
  uint32_t block_dim = 0;  // kernels and blocks
  uint32_t block = 0;      // blocks: which, and the AI core it ran on
  uint32_t core = 0;
  bool has_blocks = false;   // kernels: the spans of its blocks follow it
  uint32_t kernel_type = 0;  // kernels: KernelType (vector, cube, mix)
};

// Makes a parked stream runnable again. Cheap, thread-safe, may be called
// more than once and from any thread (but must not be called with locks held
// that the scheduler might need: it only takes scheduler and stream locks).
using Waker = std::function<void()>;

// Calls the waker at (or soon after) the given time: how a waiting task
// arms its timeout.
using WakeAt = std::function<void(absl::Time, Waker)>;

class Task {
 public:
  enum class Progress { kDone, kPending };

  virtual ~Task() = default;

  // Runs or continues the task. On kDone, *status holds its outcome.
  virtual Progress Run(const Waker& wake, absl::Status* status) = 0;

  // Called instead of Run() when the stream drops the task (force destroy,
  // or stop-on-failure after an earlier error).
  virtual void Cancel(const absl::Status& /*why*/) {}

  // Called once the task has left its stream's queue after a kDone Run(),
  // just before it is destroyed. Whatever the task announces here is seen
  // by a stream that no longer holds it (e.g. a synchronize reply that
  // must not find its own marker still queued).
  virtual void AfterRetire() {}

  // True for tasks that wait for something outside their stream (an event,
  // a notify): a force-destroyed stream drops these instead of waiting.
  virtual bool WaitsOnOthers() const { return false; }

  // True for tasks that must still run when the stream has stopped after a
  // failure (synchronize markers report that failure; event records keep
  // other streams from waiting forever).
  virtual bool RunsWhenStopped() const { return false; }

  // Called by Stream::Submit, under the stream's lock, while this task is
  // queued behind another and has not started: it may take `next` into
  // itself (kernel launches queued back to back become one batch sent to
  // their kernel host at once) and return true; `next` is then empty.
  // Must not block or take other locks.
  virtual bool Absorb(std::unique_ptr<Task>& /*next*/) { return false; }

  // Whether the next Run() returns within microseconds without blocking or
  // touching memory at scale (a kernel launch handed to its host). Such a
  // task at the head of an idle stream starts on the thread that submits
  // it, sparing a scheduler worker's wake-up; anything else waits for a
  // worker. Asked under the stream's lock: must not block or take locks.
  virtual bool StartsQuickly() const { return false; }

  virtual const char* name() const = 0;
  virtual TaskKind kind() const { return TaskKind::kOther; }

  // The kernel launch a failed kernel task failed on (for exception
  // reports); nullopt for other tasks. Asked only after a failure.
  struct Launch {
    uint64_t binary_id = 0;  // npud's id of the kernel's binary
    uint32_t kernel = 0;     // the kernel's index in it
    std::string args;        // the packed arguments it was given
  };
  virtual std::optional<Launch> FailedLaunch() const { return std::nullopt; }

  // The task's number in its stream (CANN's task id): 1 for the first task
  // submitted, set by Stream::Submit; 0 outside streams. A task that
  // absorbed later ones keeps its own number.
  uint32_t id() const { return id_; }
  void set_id(uint32_t id) { id_ = id; }

  // Appends what the task did between `start_ns` (its first Run) and
  // `end_ns` (its kDone): by default one span of name() and kind().
  virtual void Spans(int64_t start_ns, int64_t end_ns, std::vector<TaskSpan>* out) const {
    out->push_back(TaskSpan{name(), kind(), start_ns, end_ns});
  }

 private:
  uint32_t id_ = 0;
};

// A task that runs one function to completion.
class FunctionTask final : public Task {
 public:
  // `bytes`: what a copy or memset moves, for its span.
  FunctionTask(const char* name, std::function<absl::Status()> fn, TaskKind kind = TaskKind::kOther,
               uint64_t bytes = 0)
      : name_(name), fn_(std::move(fn)), kind_(kind), bytes_(bytes) {}

  Progress Run(const Waker&, absl::Status* status) override {
    *status = fn_();
    return Progress::kDone;
  }
  const char* name() const override { return name_; }
  TaskKind kind() const override { return kind_; }
  void Spans(int64_t start_ns, int64_t end_ns, std::vector<TaskSpan>* out) const override {
    out->push_back(TaskSpan{name_, kind_, start_ns, end_ns, bytes_});
  }

 private:
  const char* name_;
  std::function<absl::Status()> fn_;
  const TaskKind kind_;
  const uint64_t bytes_;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_TASK_H_
