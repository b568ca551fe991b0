#include "simdevice/stream.h"

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "simdevice/stream_scheduler.h"
#include "simdevice/task.h"
#include "simdevice/task_observer.h"
#include "tests/simdevice/test_util.h"

namespace npud::sim {
namespace {

using ::npud::sim::testing::Blocker;
using ::npud::sim::testing::CodeOf;
using ::npud::sim::testing::Drain;
using ::npud::sim::testing::DrainWaiter;
using ::npud::sim::testing::Gate;
using ::npud::sim::testing::Iota;
using ::npud::sim::testing::kLongWait;
using ::npud::sim::testing::kShortWait;
using ::npud::sim::testing::MakeLogTask;
using ::npud::sim::testing::OrderLog;
using ::npud::sim::testing::Probe;

class StreamTest : public ::testing::Test {
 protected:
  std::shared_ptr<Stream> NewStream() {
    auto stream = std::make_shared<Stream>(/*device_id=*/0, next_id_++, scheduler_.get());
    streams_.push_back(stream);
    return stream;
  }

  // Stops the workers (after the run queue is empty) so that a stream's
  // state can be inspected without racing with a worker finishing up.
  void JoinScheduler() { scheduler_.reset(); }

  // Replaces the scheduler by one with a single worker; call before creating
  // streams.
  void UseOneWorker() { scheduler_ = std::make_unique<StreamScheduler>(1); }

  // With a single worker: returns once the worker has finished whatever it
  // was doing before (e.g. parking a stream whose task just returned
  // kPending), by running a task of another stream and draining it.
  void WaitForTheOnlyWorker() {
    ASSERT_EQ(scheduler_->workers(), 1);
    auto sync = NewStream();
    sync->Submit(std::make_unique<FunctionTask>("sync", [] { return absl::OkStatus(); }));
    SIM_ASSERT_DRAINS_OK(*sync);
  }

  std::unique_ptr<StreamScheduler> scheduler_ = std::make_unique<StreamScheduler>(2);
  // Destroyed before the scheduler.
  std::vector<std::shared_ptr<Stream>> streams_;
  uint64_t next_id_ = 1;
};

// A task that stays pending until told otherwise and keeps the newest waker,
// so the test can wake it whenever it likes.
class PollState {
 public:
  int polls() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return polls_;
  }
  int completions() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return completions_;
  }
  bool WaitPollsAbove(int n) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto above = [this, n]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return polls_ > n; };
    return mu_.AwaitWithTimeout(absl::Condition(&above), kLongWait);
  }
  Waker waker() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return waker_;
  }
  void SetReady() ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    ready_ = true;
  }

 private:
  friend class PollTask;
  mutable absl::Mutex mu_;
  int polls_ ABSL_GUARDED_BY(mu_) = 0;
  int completions_ ABSL_GUARDED_BY(mu_) = 0;
  bool ready_ ABSL_GUARDED_BY(mu_) = false;
  // Wakes itself before returning kPending this many more times.
  int self_wakes_ ABSL_GUARDED_BY(mu_) = 0;
  Waker waker_ ABSL_GUARDED_BY(mu_);

 public:
  void SetSelfWakes(int n) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    self_wakes_ = n;
  }
};

class PollTask final : public Task {
 public:
  explicit PollTask(std::shared_ptr<PollState> state) : state_(std::move(state)) {}
  Progress Run(const Waker& wake, absl::Status* status) override {
    bool wake_now = false;
    {
      absl::MutexLock lock(&state_->mu_);
      ++state_->polls_;
      state_->waker_ = wake;
      if (state_->self_wakes_ > 0) {
        --state_->self_wakes_;
        wake_now = true;
      } else if (state_->ready_) {
        ++state_->completions_;
        *status = absl::OkStatus();
        return Progress::kDone;
      }
    }
    if (wake_now) wake();  // The wake beats the kPending below.
    return Progress::kPending;
  }
  const char* name() const override { return "test-poll"; }

 private:
  std::shared_ptr<PollState> state_;
};

TEST_F(StreamTest, NewStreamIsIdle) {
  auto stream = std::make_shared<Stream>(3, 42, scheduler_.get());
  EXPECT_EQ(stream->device_id(), 3);
  EXPECT_EQ(stream->id(), 42u);
  EXPECT_TRUE(stream->Idle());
  EXPECT_EQ(stream->pending(), 0u);
}

TEST_F(StreamTest, RunsTasksInSubmissionOrder) {
  auto stream = NewStream();
  auto log = std::make_shared<OrderLog>();
  constexpr int kTasks = 1000;  // many times the per-turn budget
  for (int i = 0; i < kTasks; ++i) stream->Submit(MakeLogTask(log, i));
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(log->values(), Iota(kTasks));
}

TEST_F(StreamTest, SubmissionsFromManyThreadsKeepEachThreadsOrder) {
  auto stream = NewStream();
  auto log = std::make_shared<OrderLog>();
  constexpr int kThreads = 4;
  constexpr int kPerThread = 300;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) stream->Submit(MakeLogTask(log, t * 10000 + i));
    });
  }
  for (auto& thread : threads) thread.join();
  SIM_ASSERT_DRAINS_OK(*stream);
  const std::vector<int> values = log->values();
  ASSERT_EQ(values.size(), static_cast<size_t>(kThreads * kPerThread));
  std::vector<int> next(kThreads, 0);
  for (int v : values) {
    const int t = v / 10000;
    ASSERT_EQ(v % 10000, next[t]) << "thread " << t << "'s tasks ran out of order";
    ++next[t];
  }
}

TEST_F(StreamTest, DrainNotificationFiresAfterAllEarlierTasksOnly) {
  auto stream = NewStream();
  auto log = std::make_shared<OrderLog>();
  auto gate = std::make_shared<Gate>();
  stream->Submit(gate->NewTask());
  for (int i = 0; i < 10; ++i) stream->Submit(MakeLogTask(log, i));

  struct Seen {
    absl::Notification fired;
    absl::Status status;
    size_t tasks_done = 0;
  };
  auto seen = std::make_shared<Seen>();
  stream->NotifyWhenDrained([seen, log](absl::Status status) {
    seen->tasks_done = log->size();
    seen->status = std::move(status);
    seen->fired.Notify();
  });
  for (int i = 10; i < 15; ++i) stream->Submit(MakeLogTask(log, i));

  // The gate holds everything back, the notification included.
  EXPECT_FALSE(seen->fired.WaitForNotificationWithTimeout(kShortWait));
  EXPECT_EQ(log->size(), 0u);

  gate->Open();
  ASSERT_TRUE(seen->fired.WaitForNotificationWithTimeout(kLongWait));
  SIM_EXPECT_OK(seen->status);
  EXPECT_EQ(seen->tasks_done, 10u) << "fired before earlier tasks or after later ones";
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(log->values(), Iota(15));
}

TEST_F(StreamTest, DrainNotificationsFireInLineWithTasks) {
  auto stream = NewStream();
  auto log = std::make_shared<OrderLog>();
  auto gate = std::make_shared<Gate>();
  stream->Submit(gate->NewTask());
  for (int marker = 1; marker <= 3; ++marker) {
    stream->Submit(MakeLogTask(log, marker * 10));
    stream->NotifyWhenDrained([log, marker](absl::Status) { log->Add(-marker); });
  }
  gate->Open();
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(log->values(), (std::vector<int>{10, -1, 20, -2, 30, -3}));
}

TEST_F(StreamTest, DrainNotificationFiresInlineWhenIdle) {
  auto stream = NewStream();
  bool called = false;
  std::thread::id caller;
  absl::Status reported = absl::UnknownError("not called");
  stream->NotifyWhenDrained([&](absl::Status status) {
    called = true;
    caller = std::this_thread::get_id();
    reported = std::move(status);
  });
  // Synchronously, on this thread.
  EXPECT_TRUE(called);
  EXPECT_EQ(caller, std::this_thread::get_id());
  SIM_EXPECT_OK(reported);

  // An error recorded on the idle stream is handed over inline, once.
  stream->RecordError(AclError(kRtAicoreException, "async failure"));
  called = false;
  stream->NotifyWhenDrained([&](absl::Status status) {
    called = true;
    reported = std::move(status);
  });
  EXPECT_TRUE(called);
  EXPECT_EQ(CodeOf(reported), kRtAicoreException);
  called = false;
  stream->NotifyWhenDrained([&](absl::Status status) {
    called = true;
    reported = std::move(status);
  });
  EXPECT_TRUE(called);
  SIM_EXPECT_OK(reported);
}

TEST_F(StreamTest, TaskErrorIsReportedByNextDrainAndThenCleared) {
  auto stream = NewStream();
  auto before = std::make_shared<Probe>();
  auto failing = std::make_shared<Probe>();
  auto after = std::make_shared<Probe>();
  stream->Submit(before->NewTask());
  stream->Submit(failing->NewTask(AclError(kRtAicoreException, "first failure")));
  stream->Submit(failing->NewTask(AclError(kRtVectorCoreException, "second failure")));
  stream->Submit(after->NewTask());

  absl::StatusOr<absl::Status> first = Drain(*stream);
  ASSERT_TRUE(first.ok()) << first.status();
  // The first error since the last drain, not the latest.
  EXPECT_EQ(CodeOf(*first), kRtAicoreException);
  EXPECT_EQ(first->message(), "first failure");
  // Default mode is kContinue: everything ran.
  EXPECT_EQ(before->runs(), 1);
  EXPECT_EQ(failing->runs(), 2);
  EXPECT_EQ(after->runs(), 1);
  EXPECT_EQ(after->cancels(), 0);

  // Reported once, then cleared.
  SIM_ASSERT_DRAINS_OK(*stream);
  stream->Submit(after->NewTask());
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(after->runs(), 2);
}

TEST_F(StreamTest, StopModeCancelsLaterTasksUntilTheErrorIsReported) {
  auto stream = NewStream();
  stream->SetFailureMode(FailureMode::kStop);
  auto gate = std::make_shared<Gate>();
  auto before = std::make_shared<Probe>();
  auto failing = std::make_shared<Probe>();
  auto dropped = std::make_shared<Probe>();
  auto later = std::make_shared<Probe>();
  const absl::Status error = AclError(kRtAicoreException, "kernel failed");

  stream->Submit(gate->NewTask());
  stream->Submit(before->NewTask());
  stream->Submit(failing->NewTask(error));
  stream->Submit(dropped->NewTask());
  stream->Submit(dropped->NewTask(AclError(kRtVectorCoreException, "must not run")));
  DrainWaiter report(*stream);
  stream->Submit(later->NewTask());
  gate->Open();

  ASSERT_TRUE(report.Wait());
  EXPECT_EQ(report.status(), error);
  EXPECT_EQ(before->runs(), 1);
  EXPECT_EQ(failing->runs(), 1);
  EXPECT_EQ(dropped->runs(), 0);
  EXPECT_EQ(dropped->cancels(), 2);
  EXPECT_EQ(dropped->last_cancel_status(), error);

  // Reported: tasks after the report run again, and nothing is left over.
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(later->runs(), 1);
  EXPECT_EQ(later->cancels(), 0);
  stream->Submit(later->NewTask());
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(later->runs(), 2);
}

TEST_F(StreamTest, ContinueModeKeepsRunningLaterTasks) {
  auto stream = NewStream();
  stream->SetFailureMode(FailureMode::kStop);
  stream->SetFailureMode(FailureMode::kContinue);
  auto failing = std::make_shared<Probe>();
  auto after = std::make_shared<Probe>();
  stream->Submit(failing->NewTask(AclError(kRtAicoreException, "kernel failed")));
  for (int i = 0; i < 5; ++i) stream->Submit(after->NewTask());
  absl::StatusOr<absl::Status> drained = Drain(*stream);
  ASSERT_TRUE(drained.ok()) << drained.status();
  EXPECT_EQ(CodeOf(*drained), kRtAicoreException);
  EXPECT_EQ(after->runs(), 5);
  EXPECT_EQ(after->cancels(), 0);
}

TEST_F(StreamTest, RecordErrorIsReportedLikeATaskError) {
  auto stream = NewStream();
  auto gate = std::make_shared<Gate>();
  auto probe = std::make_shared<Probe>();
  stream->Submit(gate->NewTask());
  stream->Submit(probe->NewTask());
  stream->RecordError(AclError(kRtParamInvalid, "rejected async call"));
  // A later task error does not replace the first one.
  stream->Submit(probe->NewTask(AclError(kRtAicoreException, "later")));
  gate->Open();
  absl::StatusOr<absl::Status> drained = Drain(*stream);
  ASSERT_TRUE(drained.ok()) << drained.status();
  EXPECT_EQ(CodeOf(*drained), kRtParamInvalid);
  EXPECT_EQ(drained->message(), "rejected async call");
  EXPECT_EQ(probe->runs(), 2);  // kContinue
  SIM_ASSERT_DRAINS_OK(*stream);
}

TEST_F(StreamTest, RecordErrorInStopModeCancelsTasksUntilReported) {
  auto stream = NewStream();
  stream->SetFailureMode(FailureMode::kStop);
  const absl::Status error = AclError(kRtParamInvalid, "rejected async call");
  stream->RecordError(error);
  auto dropped = std::make_shared<Probe>();
  auto later = std::make_shared<Probe>();
  stream->Submit(dropped->NewTask());
  absl::StatusOr<absl::Status> drained = Drain(*stream);
  ASSERT_TRUE(drained.ok()) << drained.status();
  EXPECT_EQ(*drained, error);
  EXPECT_EQ(dropped->runs(), 0);
  EXPECT_EQ(dropped->cancels(), 1);
  EXPECT_EQ(dropped->last_cancel_status(), error);

  stream->Submit(later->NewTask());
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(later->runs(), 1);
}

TEST_F(StreamTest, DiscardCancelsQueuedTasksAndFiresDrainMarkersWithTheReason) {
  UseOneWorker();
  auto stream = NewStream();
  auto gate = std::make_shared<Gate>();
  auto probe = std::make_shared<Probe>();
  stream->Submit(gate->NewTask());
  for (int i = 0; i < 3; ++i) stream->Submit(probe->NewTask());
  DrainWaiter first(*stream);
  stream->Submit(probe->NewTask());
  DrainWaiter second(*stream);
  // Polled is not yet parked (the gate could still count as running):
  // wait until the worker has parked the stream.
  ASSERT_TRUE(gate->WaitPolled());
  WaitForTheOnlyWorker();

  const absl::Status why = absl::CancelledError("stream force-destroyed");
  stream->Discard(why);
  // Everything (the parked gate too) was dropped synchronously.
  EXPECT_EQ(probe->runs(), 0);
  EXPECT_EQ(probe->cancels(), 4);
  EXPECT_EQ(probe->last_cancel_status(), why);
  EXPECT_EQ(gate->cancels(), 1);
  ASSERT_TRUE(first.fired());
  ASSERT_TRUE(second.fired());
  EXPECT_EQ(first.status(), why);
  EXPECT_EQ(second.status(), why);
  EXPECT_TRUE(stream->Idle());
  EXPECT_EQ(stream->pending(), 0u);

  // The stream is usable afterwards, and a late wake of the dropped gate
  // task changes nothing.
  stream->Submit(probe->NewTask());
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(probe->runs(), 1);
  gate->Open();
  stream->Submit(probe->NewTask());
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(probe->runs(), 2);
  EXPECT_EQ(gate->completions(), 0);
}

TEST_F(StreamTest, DiscardLetsTheRunningTaskFinish) {
  auto stream = NewStream();
  auto blocker = std::make_shared<Blocker>();
  auto probe = std::make_shared<Probe>();
  stream->Submit(blocker->NewTask());
  stream->Submit(probe->NewTask());
  DrainWaiter marker(*stream);
  ASSERT_TRUE(blocker->WaitStarted());

  const absl::Status why = absl::CancelledError("discarded");
  stream->Discard(why);
  EXPECT_EQ(probe->cancels(), 1);
  ASSERT_TRUE(marker.fired());
  EXPECT_EQ(marker.status(), why);
  EXPECT_FALSE(blocker->finished());
  EXPECT_EQ(stream->pending(), 1u);  // only the running task
  EXPECT_FALSE(stream->Idle());

  blocker->Release();
  SIM_ASSERT_DRAINS_OK(*stream);  // the blocker finished normally
  EXPECT_TRUE(blocker->finished());
  EXPECT_EQ(probe->runs(), 0);
}

TEST_F(StreamTest, IdleAndPendingCountQueuedParkedAndRunningTasks) {
  auto stream = NewStream();
  auto gate = std::make_shared<Gate>();
  auto probe = std::make_shared<Probe>();
  stream->Submit(gate->NewTask());
  for (int i = 0; i < 3; ++i) stream->Submit(probe->NewTask());
  EXPECT_FALSE(stream->Idle());
  EXPECT_EQ(stream->pending(), 4u);
  ASSERT_TRUE(gate->WaitPolled());
  EXPECT_FALSE(stream->Idle());  // a parked task is still pending
  EXPECT_EQ(stream->pending(), 4u);

  gate->Open();
  SIM_ASSERT_DRAINS_OK(*stream);
  // Once the workers have stopped, nothing can still be in flight.
  JoinScheduler();
  EXPECT_TRUE(stream->Idle());
  EXPECT_EQ(stream->pending(), 0u);
  EXPECT_EQ(probe->runs(), 3);
}

TEST_F(StreamTest, PendingTaskIsPolledAgainOnEverySpuriousWake) {
  auto stream = NewStream();
  auto state = std::make_shared<PollState>();
  auto after = std::make_shared<Probe>();
  stream->Submit(std::make_unique<PollTask>(state));
  stream->Submit(after->NewTask());
  ASSERT_TRUE(state->WaitPollsAbove(0));

  for (int i = 0; i < 5; ++i) {
    const int polls = state->polls();
    state->waker()();
    state->waker()();  // a duplicate wake is just as harmless
    ASSERT_TRUE(state->WaitPollsAbove(polls)) << "wake " << i << " did not poll the task";
    EXPECT_EQ(after->runs(), 0) << "a later task ran while the head was pending";
  }
  state->SetReady();
  state->waker()();
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_GE(state->polls(), 7);
  EXPECT_EQ(state->completions(), 1);
  EXPECT_EQ(after->runs(), 1);
}

TEST_F(StreamTest, WakeDuringRunMakesTheTaskPollAgain) {
  auto stream = NewStream();
  auto state = std::make_shared<PollState>();
  state->SetSelfWakes(3);
  state->SetReady();
  stream->Submit(std::make_unique<PollTask>(state));
  SIM_ASSERT_DRAINS_OK(*stream);
  // Three pending polls that woke themselves, then the final one: no wake lost.
  EXPECT_EQ(state->polls(), 4);
  EXPECT_EQ(state->completions(), 1);
}

TEST_F(StreamTest, LateWakesAfterCompletionOrDestructionAreHarmless) {
  auto stream = NewStream();
  auto state = std::make_shared<PollState>();
  stream->Submit(std::make_unique<PollTask>(state));
  ASSERT_TRUE(state->WaitPollsAbove(0));
  state->SetReady();
  state->waker()();
  SIM_ASSERT_DRAINS_OK(*stream);
  const Waker stale = state->waker();

  stale();  // the task is gone: nothing to poll
  auto probe = std::make_shared<Probe>();
  stream->Submit(probe->NewTask());
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(probe->runs(), 1);
  EXPECT_EQ(state->completions(), 1);

  streams_.clear();
  stream.reset();
  stale();  // the stream may be gone: still harmless
  EXPECT_EQ(state->completions(), 1);
}

TEST_F(StreamTest, DestroyingAStreamCancelsItsQueuedTasks) {
  auto stream = NewStream();
  auto gate = std::make_shared<Gate>();
  auto probe = std::make_shared<Probe>();
  stream->Submit(gate->NewTask());
  stream->Submit(probe->NewTask());
  DrainWaiter marker(*stream);
  ASSERT_TRUE(gate->WaitPolled());

  streams_.clear();
  stream.reset();  // a worker may still hold the last reference for a moment
  ASSERT_TRUE(marker.Wait());
  EXPECT_EQ(marker.status().code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(probe->runs(), 0);
  EXPECT_EQ(probe->cancels(), 1);
  EXPECT_EQ(gate->cancels(), 1);
}

// A task whose destructor blocks until released: holds the stream in the
// window where a finished task is torn down (outside the stream lock).
class SlowTeardownTask final : public Task {
 public:
  struct State {
    absl::Notification in_destructor;
    absl::Notification release;
  };
  explicit SlowTeardownTask(std::shared_ptr<State> state) : state_(std::move(state)) {}
  ~SlowTeardownTask() override {
    state_->in_destructor.Notify();
    state_->release.WaitForNotificationWithTimeout(kLongWait);
  }
  Progress Run(const Waker&, absl::Status* status) override {
    *status = absl::OkStatus();
    return Progress::kDone;
  }
  const char* name() const override { return "test-slow-teardown"; }

 private:
  std::shared_ptr<State> state_;
};

// Regression: Discard() used to treat tasks_.front() as the running task
// whenever the stream was running, also while RunSome() destroyed a finished
// task with the lock released; a Discard() in that window kept the next,
// never-started task, which then ran.
TEST_F(StreamTest, DiscardWhileAFinishedTaskIsTornDownDropsTheNextTask) {
  auto stream = NewStream();
  auto teardown = std::make_shared<SlowTeardownTask::State>();
  auto next = std::make_shared<Probe>();
  stream->Submit(std::make_unique<SlowTeardownTask>(teardown));
  stream->Submit(next->NewTask());
  ASSERT_TRUE(teardown->in_destructor.WaitForNotificationWithTimeout(kLongWait));

  stream->Discard(absl::CancelledError("discarded"));
  EXPECT_EQ(next->cancels(), 1) << "the not-yet-started task was not dropped";
  EXPECT_EQ(stream->pending(), 0u);

  teardown->release.Notify();
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(next->runs(), 0) << "a discarded task ran";
}

// What an observer hears of each finished task.
class RecordingObserver final : public TaskObserver {
 public:
  struct Seen {
    int device_id;
    uint64_t stream_id;
    std::string name;
    TaskKind kind;
    int64_t start_ns;
    int64_t end_ns;
    absl::Status status;
  };
  void Finished(int device_id, uint64_t stream_id, const Task& task, int64_t start_ns,
                int64_t end_ns, const absl::Status& status) override {
    absl::MutexLock lock(&mu_);
    seen_.push_back(Seen{device_id, stream_id, task.name(), task.kind(), start_ns, end_ns, status});
  }
  std::vector<Seen> seen() const {
    absl::MutexLock lock(&mu_);
    return seen_;
  }

 private:
  mutable absl::Mutex mu_;
  std::vector<Seen> seen_ ABSL_GUARDED_BY(mu_);
};

// Every finished task is reported once, in stream order, with the time from
// its first run to its end: a parked task's time includes the wait, and
// tasks of one stream never overlap.
TEST_F(StreamTest, AnObserverSeesEachTaskWithItsTime) {
  auto observer = std::make_shared<RecordingObserver>();
  auto stream = std::make_shared<Stream>(/*device_id=*/3, /*id=*/42, scheduler_.get(), observer);
  auto gate = std::make_shared<Gate>();
  auto probe = std::make_shared<Probe>();
  stream->Submit(std::make_unique<FunctionTask>(
      "copy", [] { return absl::OkStatus(); }, TaskKind::kCopy, 4096));
  stream->Submit(gate->NewTask());
  stream->Submit(probe->NewTask(AclError(kRtAicoreException, "boom")));
  ASSERT_TRUE(gate->WaitPolled(1));
  absl::SleepFor(absl::Milliseconds(20));
  gate->Open();
  const absl::StatusOr<absl::Status> drained = Drain(*stream);
  ASSERT_TRUE(drained.ok());
  EXPECT_EQ(CodeOf(*drained), kRtAicoreException);

  const std::vector<RecordingObserver::Seen> seen = observer->seen();
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(seen[0].name, "copy");
  EXPECT_EQ(seen[0].kind, TaskKind::kCopy);
  EXPECT_EQ(CodeOf(seen[2].status), kRtAicoreException);
  EXPECT_GE(seen[1].end_ns - seen[1].start_ns, 20'000'000) << "the gate's wait is its time";
  for (size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].device_id, 3);
    EXPECT_EQ(seen[i].stream_id, 42u);
    EXPECT_GT(seen[i].start_ns, 0);
    EXPECT_LE(seen[i].start_ns, seen[i].end_ns);
    if (i > 0) {
      EXPECT_GE(seen[i].start_ns, seen[i - 1].end_ns) << "tasks " << i - 1 << ", " << i;
    }
  }
  // Past the three tasks only the drain marker, when the stream was still
  // busy at the drain (its kind lets observers skip it).
  for (size_t i = 3; i < seen.size(); ++i) EXPECT_EQ(seen[i].kind, TaskKind::kMarker) << i;

  stream->Submit(std::make_unique<FunctionTask>(
      "memset", [] { return absl::OkStatus(); }, TaskKind::kMemset, 64));
  SIM_ASSERT_DRAINS_OK(*stream);
  const std::vector<RecordingObserver::Seen> later = observer->seen();
  ASSERT_GT(later.size(), seen.size());
  EXPECT_EQ(later[seen.size()].name, "memset");
  EXPECT_EQ(later[seen.size()].kind, TaskKind::kMemset);
}

// Records the thread each Run() happened on; pending on its first Run
// when `park` (as a launch handed to its host is), done otherwise.
class ThreadRecordingTask final : public Task {
 public:
  using Runs = std::shared_ptr<std::vector<std::thread::id>>;
  ThreadRecordingTask(bool quick, bool park, Runs runs)
      : quick_(quick), park_(park), runs_(std::move(runs)) {}
  Progress Run(const Waker& wake, absl::Status*) override {
    runs_->push_back(std::this_thread::get_id());
    if (park_ && runs_->size() == 1) {
      wake_ = wake;
      return Progress::kPending;
    }
    return Progress::kDone;
  }
  bool StartsQuickly() const override { return quick_ && runs_->empty(); }
  const char* name() const override { return "thread-recording"; }
  Waker wake_;

 private:
  const bool quick_;
  const bool park_;
  const Runs runs_;
};

// A task that starts quickly starts on the submitting thread when the
// stream is idle, and nowhere else; its continuation and everything behind
// it run on the workers.
TEST_F(StreamTest, AQuickTaskOnAnIdleStreamStartsOnTheSubmittingThread) {
  UseOneWorker();
  auto stream = NewStream();
  auto quick_runs = std::make_shared<std::vector<std::thread::id>>();
  auto slow_runs = std::make_shared<std::vector<std::thread::id>>();
  auto quick = std::make_unique<ThreadRecordingTask>(true, true, quick_runs);
  ThreadRecordingTask* parked = quick.get();
  stream->Submit(std::move(quick));
  WaitForTheOnlyWorker();  // had it gone to the worker, it has run there by now
  ASSERT_EQ(quick_runs->size(), 1u);
  EXPECT_EQ((*quick_runs)[0], std::this_thread::get_id());
  // Behind a running task nothing starts here.
  stream->Submit(std::make_unique<ThreadRecordingTask>(true, false, slow_runs));
  EXPECT_TRUE(slow_runs->empty());
  parked->wake_();
  SIM_ASSERT_DRAINS_OK(*stream);
  ASSERT_EQ(quick_runs->size(), 2u);
  EXPECT_NE((*quick_runs)[1], std::this_thread::get_id());
  ASSERT_EQ(slow_runs->size(), 1u);
  EXPECT_NE((*slow_runs)[0], std::this_thread::get_id());
}

TEST_F(StreamTest, OtherTasksWaitForAWorker) {
  auto stream = NewStream();
  auto runs = std::make_shared<std::vector<std::thread::id>>();
  stream->Submit(std::make_unique<ThreadRecordingTask>(false, false, runs));
  SIM_ASSERT_DRAINS_OK(*stream);
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_NE((*runs)[0], std::this_thread::get_id());
}

}  // namespace
}  // namespace npud::sim
