// test_util.h
//
// Helpers shared by the simdevice unit tests: status assertions, tasks that
// park until opened (Gate), tasks that count how they were treated (Probe),
// tasks that block a worker (Blocker), and a drain-notification waiter.
//
// Everything a task captures lives in a shared_ptr, so a test that fails
// half-way cannot leave a queued task pointing at a dead stack frame.

#ifndef NPUD_TESTS_SIMDEVICE_TEST_UTIL_H_
#define NPUD_TESTS_SIMDEVICE_TEST_UTIL_H_

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "simdevice/stream.h"
#include "simdevice/task.h"

#define SIM_CONCAT_INNER_(a, b) a##b
#define SIM_CONCAT_(a, b) SIM_CONCAT_INNER_(a, b)

#define SIM_ASSERT_OK(expr)                       \
  do {                                            \
    const absl::Status& sim_status_ = (expr);     \
    ASSERT_TRUE(sim_status_.ok()) << sim_status_; \
  } while (0)

#define SIM_EXPECT_OK(expr)                       \
  do {                                            \
    const absl::Status& sim_status_ = (expr);     \
    EXPECT_TRUE(sim_status_.ok()) << sim_status_; \
  } while (0)

#define SIM_ASSERT_OK_AND_ASSIGN(lhs, expr) \
  SIM_ASSERT_OK_AND_ASSIGN_IMPL_(SIM_CONCAT_(sim_status_or_, __LINE__), lhs, expr)
#define SIM_ASSERT_OK_AND_ASSIGN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                   \
  ASSERT_TRUE(tmp.ok()) << tmp.status();               \
  lhs = *std::move(tmp)

// Asserts that the stream drains (its drain notification fires within
// kLongWait) and reports OK.
#define SIM_ASSERT_DRAINS_OK(stream)                                                       \
  do {                                                                                     \
    const absl::StatusOr<absl::Status> sim_drained_ = ::npud::sim::testing::Drain(stream); \
    ASSERT_TRUE(sim_drained_.ok()) << sim_drained_.status();                               \
    ASSERT_TRUE(sim_drained_->ok()) << *sim_drained_;                                      \
  } while (0)

namespace npud::sim::testing {

// Upper bound for things that must happen (never reached by a passing test).
inline constexpr absl::Duration kLongWait = absl::Seconds(10);
// How long a "must NOT happen" check watches.
inline constexpr absl::Duration kShortWait = absl::Milliseconds(100);

// The ACL code of a StatusOr's status.
template <typename T>
int32_t CodeOf(const absl::StatusOr<T>& s) {
  return ToAclCode(s.status());
}
inline int32_t CodeOf(const absl::Status& s) { return ToAclCode(s); }

// Waits for one drain notification of a stream.
class DrainWaiter {
 public:
  explicit DrainWaiter(Stream& stream) : state_(std::make_shared<State>()) {
    std::shared_ptr<State> state = state_;
    stream.NotifyWhenDrained([state](absl::Status status) {
      // A second call would be a bug; Notify() aborts on it.
      state->status = std::move(status);
      state->done.Notify();
    });
  }

  bool Wait(absl::Duration timeout = kLongWait) const {
    return state_->done.WaitForNotificationWithTimeout(timeout);
  }
  bool fired() const { return state_->done.HasBeenNotified(); }
  // Valid once fired() or Wait() returned true.
  const absl::Status& status() const { return state_->status; }

 private:
  struct State {
    absl::Notification done;
    absl::Status status;
  };
  std::shared_ptr<State> state_;
};

// Outer status: DeadlineExceeded if the notification did not fire within
// `timeout`; inner: the status it reported.
inline absl::StatusOr<absl::Status> Drain(Stream& stream, absl::Duration timeout = kLongWait) {
  DrainWaiter waiter(stream);
  if (!waiter.Wait(timeout)) {
    return absl::DeadlineExceededError("drain notification did not fire");
  }
  return waiter.status();
}

// A switch that tasks wait on without blocking a worker: its tasks return
// kPending (keeping the waker) until Open() is called.
class Gate : public std::enable_shared_from_this<Gate> {
 public:
  // Create with std::make_shared.
  std::unique_ptr<Task> NewTask();

  void Open() ABSL_LOCKS_EXCLUDED(mu_) {
    std::vector<Waker> wakers;
    {
      absl::MutexLock lock(&mu_);
      open_ = true;
      wakers.swap(wakers_);
    }
    for (auto& wake : wakers) wake();
  }

  // Waits until a task of this gate has been polled at least `n` times.
  bool WaitPolled(int n = 1, absl::Duration timeout = kLongWait) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto reached = [this, n]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return polls_ >= n; };
    return mu_.AwaitWithTimeout(absl::Condition(&reached), timeout);
  }

  int polls() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return polls_;
  }
  int cancels() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return cancels_;
  }
  int completions() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return completions_;
  }

 private:
  friend class GateTask;
  mutable absl::Mutex mu_;
  bool open_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<Waker> wakers_ ABSL_GUARDED_BY(mu_);
  int polls_ ABSL_GUARDED_BY(mu_) = 0;
  int cancels_ ABSL_GUARDED_BY(mu_) = 0;
  int completions_ ABSL_GUARDED_BY(mu_) = 0;
};

class GateTask final : public Task {
 public:
  explicit GateTask(std::shared_ptr<Gate> gate) : gate_(std::move(gate)) {}

  Progress Run(const Waker& wake, absl::Status* status) override {
    absl::MutexLock lock(&gate_->mu_);
    ++gate_->polls_;
    if (gate_->open_) {
      ++gate_->completions_;
      *status = absl::OkStatus();
      return Progress::kDone;
    }
    gate_->wakers_.push_back(wake);
    return Progress::kPending;
  }
  void Cancel(const absl::Status&) override {
    absl::MutexLock lock(&gate_->mu_);
    ++gate_->cancels_;
  }
  const char* name() const override { return "test-gate"; }

 private:
  std::shared_ptr<Gate> gate_;
};

// Records whether (and how) tasks were run or cancelled.
class Probe : public std::enable_shared_from_this<Probe> {
 public:
  // Create with std::make_shared.
  // A task that runs `on_run` (if any) and finishes with `result`.
  std::unique_ptr<Task> NewTask(absl::Status result = absl::OkStatus(),
                                std::function<void()> on_run = nullptr);

  int runs() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return runs_;
  }
  int cancels() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return cancels_;
  }
  absl::Status last_cancel_status() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return last_cancel_status_;
  }

 private:
  friend class ProbeTask;
  mutable absl::Mutex mu_;
  int runs_ ABSL_GUARDED_BY(mu_) = 0;
  int cancels_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Status last_cancel_status_ ABSL_GUARDED_BY(mu_);
};

class ProbeTask final : public Task {
 public:
  ProbeTask(std::shared_ptr<Probe> probe, absl::Status result, std::function<void()> on_run)
      : probe_(std::move(probe)), result_(std::move(result)), on_run_(std::move(on_run)) {}

  Progress Run(const Waker&, absl::Status* status) override {
    if (on_run_) on_run_();
    {
      absl::MutexLock lock(&probe_->mu_);
      ++probe_->runs_;
    }
    *status = result_;
    return Progress::kDone;
  }
  void Cancel(const absl::Status& why) override {
    absl::MutexLock lock(&probe_->mu_);
    ++probe_->cancels_;
    probe_->last_cancel_status_ = why;
  }
  const char* name() const override { return "test-probe"; }

 private:
  std::shared_ptr<Probe> probe_;
  absl::Status result_;
  std::function<void()> on_run_;
};

// A task that blocks its worker inside Run() until released (to hold a
// stream in the "running" state deterministically).
class Blocker : public std::enable_shared_from_this<Blocker> {
 public:
  // Create with std::make_shared.
  std::unique_ptr<Task> NewTask();
  bool WaitStarted(absl::Duration timeout = kLongWait) {
    return started_.WaitForNotificationWithTimeout(timeout);
  }
  void Release() { release_.Notify(); }
  bool finished() const { return finished_.HasBeenNotified(); }
  bool WaitFinished(absl::Duration timeout = kLongWait) {
    return finished_.WaitForNotificationWithTimeout(timeout);
  }

 private:
  friend class BlockerTask;
  absl::Notification started_;
  absl::Notification release_;
  absl::Notification finished_;
};

class BlockerTask final : public Task {
 public:
  explicit BlockerTask(std::shared_ptr<Blocker> blocker) : blocker_(std::move(blocker)) {}
  Progress Run(const Waker&, absl::Status* status) override {
    blocker_->started_.Notify();
    // Bounded so a broken test cannot hang the suite.
    const bool released = blocker_->release_.WaitForNotificationWithTimeout(kLongWait);
    blocker_->finished_.Notify();
    *status = released ? absl::OkStatus() : absl::DeadlineExceededError("blocker never released");
    return Progress::kDone;
  }
  const char* name() const override { return "test-blocker"; }

 private:
  std::shared_ptr<Blocker> blocker_;
};

// An ordered log of integers, appended to by tasks.
class OrderLog {
 public:
  void Add(int value) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    values_.push_back(value);
  }
  std::vector<int> values() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return values_;
  }
  size_t size() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return values_.size();
  }

 private:
  mutable absl::Mutex mu_;
  std::vector<int> values_ ABSL_GUARDED_BY(mu_);
};

// A task that appends `value` to `log`.
inline std::unique_ptr<Task> MakeLogTask(std::shared_ptr<OrderLog> log, int value) {
  return std::make_unique<FunctionTask>("test-log", [log = std::move(log), value] {
    log->Add(value);
    return absl::OkStatus();
  });
}

inline std::vector<int> Iota(int n, int from = 0) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = from + i;
  return v;
}

// Defined after the task classes they create.
inline std::unique_ptr<Task> Gate::NewTask() {
  return std::make_unique<GateTask>(shared_from_this());
}
inline std::unique_ptr<Task> Probe::NewTask(absl::Status result, std::function<void()> on_run) {
  return std::make_unique<ProbeTask>(shared_from_this(), std::move(result), std::move(on_run));
}
inline std::unique_ptr<Task> Blocker::NewTask() {
  return std::make_unique<BlockerTask>(shared_from_this());
}

}  // namespace npud::sim::testing

#endif  // NPUD_TESTS_SIMDEVICE_TEST_UTIL_H_
