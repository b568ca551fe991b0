#include "simdevice/stream_scheduler.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/notification.h"
#include "gtest/gtest.h"
#include "simdevice/event.h"
#include "simdevice/event_tasks.h"
#include "simdevice/stream.h"
#include "simdevice/task.h"
#include "tests/simdevice/test_util.h"

namespace npud::sim {
namespace {

using ::npud::sim::testing::Blocker;
using ::npud::sim::testing::DrainWaiter;
using ::npud::sim::testing::Gate;
using ::npud::sim::testing::Iota;
using ::npud::sim::testing::kLongWait;
using ::npud::sim::testing::kShortWait;
using ::npud::sim::testing::MakeLogTask;
using ::npud::sim::testing::OrderLog;
using ::npud::sim::testing::Probe;

std::shared_ptr<Stream> NewStream(StreamScheduler* scheduler, uint64_t id) {
  return std::make_shared<Stream>(/*device_id=*/0, id, scheduler);
}

TEST(StreamSchedulerTest, StartsTheRequestedNumberOfWorkersAtLeastOne) {
  EXPECT_EQ(StreamScheduler(3).workers(), 3);
  EXPECT_EQ(StreamScheduler(1).workers(), 1);
  EXPECT_EQ(StreamScheduler(0).workers(), 1);
  EXPECT_EQ(StreamScheduler(-4).workers(), 1);
}

TEST(StreamSchedulerTest, ParkedStreamDoesNotBlockTheOnlyWorker) {
  StreamScheduler scheduler(1);
  auto a = NewStream(&scheduler, 1);
  auto b = NewStream(&scheduler, 2);
  auto c = NewStream(&scheduler, 3);
  auto event = std::make_shared<Event>(0, 1, 0);

  // The event was recorded and reset: a wait now targets the next record,
  // which stream B will only submit later.
  b->Submit(MakeRecordEventTask(event));
  b->Submit(MakeResetEventTask(event));
  SIM_ASSERT_DRAINS_OK(*b);

  auto after_wait = std::make_shared<Probe>();
  a->Submit(MakeWaitEventTask(event));
  a->Submit(after_wait->NewTask());
  DrainWaiter a_drained(*a);

  // With A parked, the single worker still serves other streams.
  auto log = std::make_shared<OrderLog>();
  for (int i = 0; i < 200; ++i) c->Submit(MakeLogTask(log, i));
  SIM_ASSERT_DRAINS_OK(*c);
  EXPECT_EQ(log->values(), Iota(200));
  EXPECT_FALSE(a_drained.Wait(kShortWait));
  EXPECT_EQ(after_wait->runs(), 0);

  b->Submit(MakeRecordEventTask(event));
  ASSERT_TRUE(a_drained.Wait());
  SIM_EXPECT_OK(a_drained.status());
  EXPECT_EQ(after_wait->runs(), 1);
  SIM_ASSERT_DRAINS_OK(*b);
}

TEST(StreamSchedulerTest, StreamsParkedOnEachOthersGatesBothCompleteWithOneWorker) {
  StreamScheduler scheduler(1);
  auto a = NewStream(&scheduler, 1);
  auto b = NewStream(&scheduler, 2);
  auto event = std::make_shared<Event>(0, 1, 0);
  auto gate = std::make_shared<Gate>();
  auto a_done = std::make_shared<Probe>();
  auto b_done = std::make_shared<Probe>();

  // B: gate, then record. A: wait for B's record (submitted before the wait).
  b->Submit(gate->NewTask());
  b->Submit(MakeRecordEventTask(event));
  b->Submit(b_done->NewTask());
  a->Submit(MakeWaitEventTask(event));
  a->Submit(a_done->NewTask());
  DrainWaiter a_drained(*a);
  DrainWaiter b_drained(*b);
  ASSERT_TRUE(gate->WaitPolled());
  EXPECT_FALSE(a_drained.Wait(kShortWait));

  gate->Open();
  ASSERT_TRUE(a_drained.Wait());
  ASSERT_TRUE(b_drained.Wait());
  SIM_EXPECT_OK(a_drained.status());
  SIM_EXPECT_OK(b_drained.status());
  EXPECT_EQ(a_done->runs(), 1);
  EXPECT_EQ(b_done->runs(), 1);
}

TEST(StreamSchedulerTest, DifferentStreamsRunInParallelOnSeveralWorkers) {
  StreamScheduler scheduler(2);
  auto x = NewStream(&scheduler, 1);
  auto y = NewStream(&scheduler, 2);
  // Each task waits (bounded) for the other to have started: possible only
  // if two workers run the two streams at the same time.
  struct Rendezvous {
    absl::Notification x_started;
    absl::Notification y_started;
  };
  auto meet = std::make_shared<Rendezvous>();
  x->Submit(std::make_unique<FunctionTask>("x", [meet] {
    meet->x_started.Notify();
    return meet->y_started.WaitForNotificationWithTimeout(kLongWait)
               ? absl::OkStatus()
               : absl::DeadlineExceededError("y never ran alongside x");
  }));
  y->Submit(std::make_unique<FunctionTask>("y", [meet] {
    meet->y_started.Notify();
    return meet->x_started.WaitForNotificationWithTimeout(kLongWait)
               ? absl::OkStatus()
               : absl::DeadlineExceededError("x never ran alongside y");
  }));
  SIM_ASSERT_DRAINS_OK(*x);
  SIM_ASSERT_DRAINS_OK(*y);
}

TEST(StreamSchedulerTest, BusyStreamDoesNotStarveOthers) {
  StreamScheduler scheduler(1);
  auto busy = NewStream(&scheduler, 1);
  auto other = NewStream(&scheduler, 2);
  constexpr int kBusyTasks = 5000;
  auto done = std::make_shared<std::atomic<int>>(0);

  // Hold the only worker inside the busy stream while its backlog and the
  // other stream's task are queued.
  auto blocker = std::make_shared<Blocker>();
  busy->Submit(blocker->NewTask());
  ASSERT_TRUE(blocker->WaitStarted());
  for (int i = 0; i < kBusyTasks; ++i) {
    busy->Submit(std::make_unique<FunctionTask>("count", [done] {
      done->fetch_add(1);
      return absl::OkStatus();
    }));
  }
  auto seen_by_other = std::make_shared<std::atomic<int>>(-1);
  other->Submit(std::make_unique<FunctionTask>("peek", [done, seen_by_other] {
    seen_by_other->store(done->load());
    return absl::OkStatus();
  }));
  blocker->Release();

  SIM_ASSERT_DRAINS_OK(*other);
  SIM_ASSERT_DRAINS_OK(*busy);
  EXPECT_EQ(done->load(), kBusyTasks);
  EXPECT_GE(seen_by_other->load(), 0);
  EXPECT_LT(seen_by_other->load(), kBusyTasks)
      << "the other stream only ran after the busy stream's whole backlog";
}

TEST(StreamSchedulerTest, ManyStreamsOnFewWorkersAllCompleteInOrder) {
  StreamScheduler scheduler(2);
  constexpr int kStreams = 64;
  constexpr int kTasks = 200;
  std::vector<std::shared_ptr<Stream>> streams;
  std::vector<std::shared_ptr<OrderLog>> logs;
  for (int s = 0; s < kStreams; ++s) {
    streams.push_back(NewStream(&scheduler, s + 1));
    logs.push_back(std::make_shared<OrderLog>());
  }
  // Interleave submissions so all streams are runnable at once.
  for (int i = 0; i < kTasks; ++i) {
    for (int s = 0; s < kStreams; ++s) streams[s]->Submit(MakeLogTask(logs[s], i));
  }
  std::vector<DrainWaiter> drained;
  for (auto& stream : streams) drained.emplace_back(*stream);
  for (int s = 0; s < kStreams; ++s) {
    ASSERT_TRUE(drained[s].Wait()) << "stream " << s;
    SIM_EXPECT_OK(drained[s].status());
    EXPECT_EQ(logs[s]->values(), Iota(kTasks)) << "stream " << s;
  }
}

TEST(StreamSchedulerTest, DestructorRunsQueuedWorkThenJoins) {
  auto count = std::make_shared<std::atomic<int>>(0);
  constexpr int kStreams = 4;
  constexpr int kTasks = 1000;
  auto scheduler = std::make_unique<StreamScheduler>(2);
  std::vector<std::shared_ptr<Stream>> streams;
  for (int s = 0; s < kStreams; ++s) streams.push_back(NewStream(scheduler.get(), s + 1));
  for (int i = 0; i < kTasks; ++i) {
    for (auto& stream : streams) {
      stream->Submit(std::make_unique<FunctionTask>("count", [count] {
        count->fetch_add(1);
        return absl::OkStatus();
      }));
    }
  }
  scheduler.reset();  // stops the workers once the run queue is empty
  EXPECT_EQ(count->load(), kStreams * kTasks);
  for (auto& stream : streams) {
    EXPECT_TRUE(stream->Idle());
    EXPECT_EQ(stream->pending(), 0u);
  }
}

TEST(StreamSchedulerTest, DestroyingAfterWorkDrainsJoinsCleanly) {
  auto scheduler = std::make_unique<StreamScheduler>(3);
  auto event = std::make_shared<Event>(0, 1, 0);
  auto gate = std::make_shared<Gate>();
  auto a = NewStream(scheduler.get(), 1);
  auto b = NewStream(scheduler.get(), 2);
  auto probe = std::make_shared<Probe>();
  a->Submit(gate->NewTask());
  a->Submit(MakeRecordEventTask(event));
  b->Submit(MakeWaitEventTask(event));
  b->Submit(probe->NewTask());
  gate->Open();
  SIM_ASSERT_DRAINS_OK(*a);
  SIM_ASSERT_DRAINS_OK(*b);
  scheduler.reset();
  EXPECT_EQ(probe->runs(), 1);
  EXPECT_TRUE(a->Idle());
  EXPECT_TRUE(b->Idle());
}

// 8 streams x 2000 tasks on 4 workers, with random waits on events recorded
// by other streams. Every stream's tasks run in order, and a task after a
// wait sees every task the awaited record follows as done.
TEST(StreamSchedulerTest, StressManyStreamsWithCrossStreamEventWaits) {
  constexpr int kStreams = 8;
  constexpr int kTasksPerStream = 2000;
  struct PerStream {
    std::shared_ptr<Stream> stream;
    std::shared_ptr<Event> event;
    std::shared_ptr<OrderLog> log = std::make_shared<OrderLog>();
    std::shared_ptr<std::atomic<int>> executed = std::make_shared<std::atomic<int>>(0);
    int submitted = 0;
    // Counting tasks submitted before this stream's newest record; -1 if none.
    int recorded_after = -1;
  };
  auto violations = std::make_shared<std::atomic<int>>(0);
  StreamScheduler scheduler(4);
  std::vector<PerStream> per(kStreams);
  for (int s = 0; s < kStreams; ++s) {
    per[s].stream = NewStream(&scheduler, s + 1);
    per[s].event = std::make_shared<Event>(0, s + 1, 0);
  }

  std::mt19937 rng(20240611);
  int remaining = kStreams * kTasksPerStream;
  int waits = 0;
  while (remaining > 0) {
    const int s = rng() % kStreams;
    PerStream& me = per[s];
    if (me.submitted == kTasksPerStream) continue;
    const int dice = rng() % 100;
    if (dice < 6) {
      me.stream->Submit(MakeRecordEventTask(me.event));
      me.recorded_after = me.submitted;
    } else if (dice < 12) {
      const int other = (s + 1 + rng() % (kStreams - 1)) % kStreams;
      if (per[other].recorded_after < 0) continue;
      me.stream->Submit(MakeWaitEventTask(per[other].event));
      me.stream->Submit(std::make_unique<FunctionTask>(
          "check", [executed = per[other].executed, need = per[other].recorded_after, violations] {
            if (executed->load() < need) violations->fetch_add(1);
            return absl::OkStatus();
          }));
      ++waits;
    } else {
      me.stream->Submit(std::make_unique<FunctionTask>(
          "count", [log = me.log, executed = me.executed, value = me.submitted] {
            log->Add(value);
            executed->fetch_add(1);
            return absl::OkStatus();
          }));
      ++me.submitted;
      --remaining;
    }
  }
  EXPECT_GT(waits, 100);

  std::vector<DrainWaiter> drained;
  for (auto& p : per) drained.emplace_back(*p.stream);
  for (int s = 0; s < kStreams; ++s) {
    ASSERT_TRUE(drained[s].Wait(absl::Seconds(15))) << "stream " << s << " never drained";
    SIM_EXPECT_OK(drained[s].status());
    EXPECT_EQ(per[s].log->values(), Iota(kTasksPerStream)) << "stream " << s;
  }
  EXPECT_EQ(violations->load(), 0) << "a wait finished before the record it waited for";
}

}  // namespace
}  // namespace npud::sim
