#include "simdevice/stream.h"

#include <utility>
#include <vector>

#include "common/monotonic_clock.h"
#include "simdevice/stream_scheduler.h"

namespace npud::sim {
namespace {

// Tasks one worker runs from a stream before letting other streams go first.
constexpr int kRunBudget = 64;

}  // namespace

// Reports the stream's error state once everything before it has run.
class DrainMarker final : public Task {
 public:
  DrainMarker(Stream* stream, std::function<void(absl::Status)> done, bool take_error)
      : stream_(stream), done_(std::move(done)), take_error_(take_error) {}

  Progress Run(const Waker&, absl::Status* status) override {
    if (take_error_) {
      absl::MutexLock lock(&stream_->mu_);
      error_ = stream_->TakeError();
    }
    *status = absl::OkStatus();
    return Progress::kDone;
  }
  void AfterRetire() override { done_(std::move(error_)); }
  void Cancel(const absl::Status& why) override { done_(why); }
  bool RunsWhenStopped() const override { return true; }
  const char* name() const override { return "drain-marker"; }
  TaskKind kind() const override { return TaskKind::kMarker; }

 private:
  Stream* const stream_;  // The marker lives in the stream's own queue.
  std::function<void(absl::Status)> done_;
  const bool take_error_;
  absl::Status error_;
};

Stream::Stream(int device_id, uint64_t id, StreamScheduler* scheduler,
               std::shared_ptr<TaskObserver> observer)
    : device_id_(device_id), id_(id), scheduler_(scheduler), observer_(std::move(observer)) {}

Stream::~Stream() {
  // Normally empty: the owner discards or drains before letting go.
  std::deque<std::unique_ptr<Task>> left;
  {
    absl::MutexLock lock(&mu_);
    left.swap(tasks_);
  }
  for (auto& task : left) task->Cancel(absl::CancelledError("stream destroyed"));
}

void Stream::Submit(std::unique_ptr<Task> task) {
  bool enqueue = false;
  bool run_here = false;
  {
    absl::MutexLock lock(&mu_);
    task->set_id(++submitted_);
    // The last task has not started if another one is ahead of it.
    if (tasks_.size() >= 2 && tasks_.back()->Absorb(task)) return;
    if (state_ == State::kEmpty) {
      state_ = State::kQueued;
      enqueue = true;
      run_here = task->StartsQuickly();
    }
    tasks_.push_back(std::move(task));
  }
  if (run_here) {
    RunSome(/*quick_only=*/true);
  } else if (enqueue) {
    scheduler_->Enqueue(shared_from_this());
  }
}

void Stream::NotifyWhenDrained(std::function<void(absl::Status)> done, bool take_error) {
  absl::Status error;
  {
    absl::MutexLock lock(&mu_);
    if (state_ != State::kEmpty || !tasks_.empty()) {
      // Not idle: the marker takes its place in line. Submit() would relock.
      tasks_.push_back(std::make_unique<DrainMarker>(this, std::move(done), take_error));
      return;
    }
    if (take_error) error = TakeError();
  }
  done(std::move(error));
}

void Stream::CancelWaits(const absl::Status& why) {
  std::vector<std::unique_ptr<Task>> dropped;
  bool enqueue = false;
  {
    absl::MutexLock lock(&mu_);
    if (running_ != nullptr && running_->WaitsOnOthers()) cancel_running_ = why;
    for (auto it = tasks_.begin(); it != tasks_.end();) {
      // The running task stays (see cancel_running_); a parked one is not
      // running.
      if (it->get() != running_ && (*it)->WaitsOnOthers()) {
        if (it == tasks_.begin() && state_ == State::kParked) {
          state_ = State::kQueued;
          enqueue = true;
          head_started_ns_ = 0;
        }
        dropped.push_back(std::move(*it));
        it = tasks_.erase(it);
      } else {
        ++it;
      }
    }
    if (enqueue && tasks_.empty()) {
      state_ = State::kEmpty;
      enqueue = false;
    }
  }
  for (auto& task : dropped) task->Cancel(why);
  if (enqueue) scheduler_->Enqueue(shared_from_this());
}

void Stream::RecordError(const absl::Status& error) {
  absl::MutexLock lock(&mu_);
  NoteError(error);
}

void Stream::NoteError(const absl::Status& error) {
  if (error_.ok()) error_ = error;
  if (failure_mode_ == FailureMode::kStop) stopped_ = true;
}

absl::Status Stream::TakeError() {
  stopped_ = false;
  return std::exchange(error_, absl::OkStatus());
}

void Stream::Discard(const absl::Status& why) {
  std::deque<std::unique_ptr<Task>> dropped;
  {
    absl::MutexLock lock(&mu_);
    if (running_ != nullptr) {
      // The running task finishes; everything behind it goes.
      auto running = std::move(tasks_.front());
      tasks_.pop_front();
      dropped.swap(tasks_);
      tasks_.push_back(std::move(running));
    } else {
      dropped.swap(tasks_);
      head_started_ns_ = 0;
      // A parked task is dropped too; a late wake finds the stream empty.
      if (state_ == State::kParked) state_ = State::kEmpty;
    }
  }
  for (auto& task : dropped) task->Cancel(why);
}

void Stream::SetFailureMode(FailureMode mode) {
  absl::MutexLock lock(&mu_);
  failure_mode_ = mode;
}

FailureMode Stream::failure_mode() const {
  absl::MutexLock lock(&mu_);
  return failure_mode_;
}

bool Stream::Idle() const {
  absl::MutexLock lock(&mu_);
  return tasks_.empty();
}

size_t Stream::pending() const {
  absl::MutexLock lock(&mu_);
  return tasks_.size();
}

void Stream::Wake() {
  {
    absl::MutexLock lock(&mu_);
    if (state_ == State::kRunning) {
      woken_ = true;
      return;
    }
    if (state_ != State::kParked) return;  // Stale wake.
    state_ = State::kQueued;
  }
  scheduler_->Enqueue(shared_from_this());
}

void Stream::RunSome(bool quick_only) {
  std::weak_ptr<Stream> weak = weak_from_this();
  const Waker wake = [weak] {
    if (auto stream = weak.lock()) stream->Wake();
  };
  int budget = kRunBudget;
  mu_.Lock();
  state_ = State::kRunning;
  while (true) {
    if (tasks_.empty()) {
      state_ = State::kEmpty;
      break;
    }
    Task* task = tasks_.front().get();
    if (budget-- == 0 || (quick_only && !task->StartsQuickly())) {
      // Let other streams have the worker (or the submitting thread go
      // back to its own work); continue later.
      state_ = State::kQueued;
      mu_.Unlock();
      scheduler_->Enqueue(shared_from_this());
      return;
    }
    if (stopped_ && !task->RunsWhenStopped()) {
      std::unique_ptr<Task> dropped = std::move(tasks_.front());
      tasks_.pop_front();
      head_started_ns_ = 0;
      const absl::Status why = error_;
      mu_.Unlock();
      dropped->Cancel(why);
      dropped.reset();
      mu_.Lock();
      continue;
    }
    woken_ = false;
    cancel_running_ = absl::OkStatus();
    running_ = task;
    if (observer_ != nullptr && head_started_ns_ == 0) head_started_ns_ = MonotonicNanos();
    // The task runs unlocked: it may take seconds (kernels) and may call
    // back into this stream (markers).
    mu_.Unlock();
    absl::Status status;
    const Task::Progress progress = task->Run(wake, &status);
    mu_.Lock();
    running_ = nullptr;
    if (progress == Task::Progress::kPending && !cancel_running_.ok()) {
      // CancelWaits() came while it ran: drop it rather than park.
      std::unique_ptr<Task> dropped = std::move(tasks_.front());
      tasks_.pop_front();
      head_started_ns_ = 0;
      const absl::Status why = std::exchange(cancel_running_, absl::OkStatus());
      mu_.Unlock();
      dropped->Cancel(why);
      dropped.reset();
      mu_.Lock();
      continue;
    }
    if (progress == Task::Progress::kPending) {
      if (woken_) continue;  // The wake beat us here: poll again.
      state_ = State::kParked;
      break;
    }
    if (!status.ok()) NoteError(status);
    std::unique_ptr<Task> finished = std::move(tasks_.front());
    tasks_.pop_front();
    const int64_t started_ns = std::exchange(head_started_ns_, 0);
    // Retired and destroyed unlocked: it may announce completion to a
    // waiter, and may hold the last reference to device memory.
    mu_.Unlock();
    if (observer_ != nullptr) {
      observer_->Finished(device_id_, id_, *finished, started_ns, MonotonicNanos(), status);
    }
    finished->AfterRetire();
    finished.reset();
    mu_.Lock();
  }
  mu_.Unlock();
}

uint32_t Stream::last_task_id() const {
  absl::MutexLock lock(&mu_);
  return submitted_;
}

}  // namespace npud::sim
