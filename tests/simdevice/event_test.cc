#include "simdevice/event.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "simdevice/event_tasks.h"
#include "simdevice/stream.h"
#include "simdevice/stream_scheduler.h"
#include "simdevice/task.h"
#include "tests/simdevice/test_util.h"

namespace npud::sim {
namespace {

using ::npud::sim::testing::CodeOf;
using ::npud::sim::testing::Drain;
using ::npud::sim::testing::DrainWaiter;
using ::npud::sim::testing::Gate;
using ::npud::sim::testing::kShortWait;
using ::npud::sim::testing::Probe;

class EventTest : public ::testing::Test {
 protected:
  std::shared_ptr<Stream> NewStream() {
    auto stream = std::make_shared<Stream>(/*device_id=*/0, next_id_++, &scheduler_);
    streams_.push_back(stream);
    return stream;
  }
  std::shared_ptr<Event> NewEvent() { return std::make_shared<Event>(0, next_id_++, 0); }

  StreamScheduler scheduler_{2};
  std::vector<std::shared_ptr<Stream>> streams_;  // destroyed before the scheduler
  uint64_t next_id_ = 1;
};

// Runs a task directly (outside any stream) and expects it to finish OK.
void RunToCompletion(Task& task) {
  int wakes = 0;
  absl::Status status = absl::UnknownError("not set");
  EXPECT_EQ(task.Run([&wakes] { ++wakes; }, &status), Task::Progress::kDone) << task.name();
  SIM_EXPECT_OK(status);
  EXPECT_EQ(wakes, 0);
}

TEST_F(EventTest, NewEventHasNoRecords) {
  Event event(3, 17, 0x8);
  EXPECT_EQ(event.device_id(), 3);
  EXPECT_EQ(event.id(), 17u);
  EXPECT_EQ(event.flags(), 0x8u);
  EXPECT_FALSE(event.Recorded());
  EXPECT_FALSE(event.Complete());
  EXPECT_FALSE(event.RecordsExecuted());
  EXPECT_EQ(event.timestamp_us(), 0u);
  EXPECT_EQ(event.WaitTarget(), 0u);
  EXPECT_EQ(event.SyncTarget(), 0u);
}

TEST_F(EventTest, StateFollowsSubmittedAndExecutedRecordsAndResets) {
  auto event = NewEvent();
  auto record1 = MakeRecordEventTask(event);
  EXPECT_TRUE(event->Recorded());
  EXPECT_FALSE(event->RecordsExecuted());
  EXPECT_FALSE(event->Complete());
  EXPECT_EQ(event->WaitTarget(), 1u);
  EXPECT_EQ(event->SyncTarget(), 1u);
  EXPECT_EQ(event->timestamp_us(), 0u);

  RunToCompletion(*record1);
  EXPECT_TRUE(event->RecordsExecuted());
  EXPECT_TRUE(event->Complete());
  EXPECT_GT(event->timestamp_us(), 0u);

  auto reset = MakeResetEventTask(event);
  EXPECT_FALSE(event->Complete()) << "a submitted reset clears the completed state";
  EXPECT_TRUE(event->Recorded());
  EXPECT_TRUE(event->RecordsExecuted());
  EXPECT_EQ(event->WaitTarget(), 2u) << "after a reset, waits target the next record";
  EXPECT_EQ(event->SyncTarget(), 1u);
  RunToCompletion(*reset);
  EXPECT_FALSE(event->Complete());

  auto record2 = MakeRecordEventTask(event);
  EXPECT_FALSE(event->Complete());
  EXPECT_FALSE(event->RecordsExecuted());
  EXPECT_EQ(event->WaitTarget(), 2u);
  EXPECT_EQ(event->SyncTarget(), 2u);
  RunToCompletion(*record2);
  EXPECT_TRUE(event->Complete());
  EXPECT_TRUE(event->RecordsExecuted());
}

TEST_F(EventTest, ReachedOrNotifyWakesExactlyWhenTheTargetExecutes) {
  Event event(0, 1, 0);
  EXPECT_TRUE(event.ReachedOrNotify(0, [] { ADD_FAILURE() << "woken for target 0"; }));
  const uint64_t t1 = event.SubmitRecord();
  const uint64_t t2 = event.SubmitRecord();
  const uint64_t t3 = event.SubmitRecord();
  ASSERT_EQ(t1, 1u);
  ASSERT_EQ(t2, 2u);
  ASSERT_EQ(t3, 3u);
  int woken1 = 0, woken2 = 0, woken3 = 0;
  EXPECT_FALSE(event.ReachedOrNotify(t1, [&] { ++woken1; }));
  EXPECT_FALSE(event.ReachedOrNotify(t2, [&] { ++woken2; }));
  EXPECT_FALSE(event.ReachedOrNotify(t3, [&] { ++woken3; }));
  EXPECT_EQ(woken1 + woken2 + woken3, 0);

  // Records may complete out of order (different streams): a newer ticket
  // satisfies older targets too.
  event.CompleteRecord(t2);
  EXPECT_EQ(woken1, 1);
  EXPECT_EQ(woken2, 1);
  EXPECT_EQ(woken3, 0);
  event.CompleteRecord(t1);  // nothing new
  EXPECT_EQ(woken1, 1);
  EXPECT_EQ(woken2, 1);
  EXPECT_EQ(woken3, 0);
  EXPECT_FALSE(event.RecordsExecuted());
  event.CompleteRecord(t3);
  EXPECT_EQ(woken3, 1);
  EXPECT_TRUE(event.RecordsExecuted());
  EXPECT_TRUE(event.ReachedOrNotify(t3, [] { ADD_FAILURE() << "woken for a reached target"; }));
  EXPECT_EQ(woken1 + woken2 + woken3, 3);
}

TEST_F(EventTest, WaitOnNeverRecordedEventDoesNotWait) {
  auto event = NewEvent();
  auto direct = MakeWaitEventTask(event);
  RunToCompletion(*direct);

  // Reset alone does not make it a recorded event either.
  auto reset_only = NewEvent();
  auto stream = NewStream();
  auto probe = std::make_shared<Probe>();
  stream->Submit(MakeWaitEventTask(event));
  stream->Submit(MakeResetEventTask(reset_only));
  stream->Submit(MakeWaitEventTask(reset_only));
  stream->Submit(probe->NewTask());
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(probe->runs(), 1);
}

TEST_F(EventTest, WaitBlocksUntilTheLatestSubmittedRecordExecutes) {
  auto event = NewEvent();
  auto recorder = NewStream();
  auto waiter = NewStream();
  auto gate = std::make_shared<Gate>();
  auto after = std::make_shared<Probe>();

  recorder->Submit(MakeRecordEventTask(event));  // ticket 1: executes at once
  recorder->Submit(gate->NewTask());
  recorder->Submit(MakeRecordEventTask(event));  // ticket 2: held by the gate
  waiter->Submit(MakeWaitEventTask(event));      // targets ticket 2
  waiter->Submit(after->NewTask());
  DrainWaiter waiter_drained(*waiter);

  ASSERT_TRUE(gate->WaitPolled());
  EXPECT_TRUE(event->Recorded());
  EXPECT_FALSE(waiter_drained.Wait(kShortWait)) << "the wait was satisfied by an older record";
  EXPECT_EQ(after->runs(), 0);
  EXPECT_FALSE(event->RecordsExecuted());

  gate->Open();
  ASSERT_TRUE(waiter_drained.Wait());
  SIM_EXPECT_OK(waiter_drained.status());
  EXPECT_EQ(after->runs(), 1);
  SIM_ASSERT_DRAINS_OK(*recorder);
  EXPECT_TRUE(event->Complete());
}

TEST_F(EventTest, WaitIgnoresRecordsSubmittedAfterIt) {
  auto event = NewEvent();
  auto first = NewStream();
  auto waiter = NewStream();
  auto late = NewStream();
  auto first_gate = std::make_shared<Gate>();
  auto late_gate = std::make_shared<Gate>();
  auto after = std::make_shared<Probe>();

  first->Submit(first_gate->NewTask());
  first->Submit(MakeRecordEventTask(event));  // ticket 1
  waiter->Submit(MakeWaitEventTask(event));   // targets ticket 1
  waiter->Submit(after->NewTask());
  late->Submit(late_gate->NewTask());
  late->Submit(MakeRecordEventTask(event));  // ticket 2, stays unexecuted
  DrainWaiter waiter_drained(*waiter);

  first_gate->Open();
  ASSERT_TRUE(waiter_drained.Wait()) << "the wait also waited for a later record";
  SIM_EXPECT_OK(waiter_drained.status());
  EXPECT_EQ(after->runs(), 1);
  EXPECT_FALSE(event->RecordsExecuted());  // ticket 2 is still held back

  late_gate->Open();
  SIM_ASSERT_DRAINS_OK(*late);
  EXPECT_TRUE(event->RecordsExecuted());
}

TEST_F(EventTest, ResetThenWaitBlocksUntilTheNextRecord) {
  auto event = NewEvent();
  auto recorder = NewStream();
  auto waiter = NewStream();
  auto after = std::make_shared<Probe>();

  recorder->Submit(MakeRecordEventTask(event));
  SIM_ASSERT_DRAINS_OK(*recorder);
  ASSERT_TRUE(event->Complete());

  recorder->Submit(MakeResetEventTask(event));
  waiter->Submit(MakeWaitEventTask(event));
  waiter->Submit(after->NewTask());
  DrainWaiter waiter_drained(*waiter);
  SIM_ASSERT_DRAINS_OK(*recorder);
  EXPECT_FALSE(event->Complete());
  EXPECT_FALSE(waiter_drained.Wait(kShortWait)) << "the wait was satisfied by the old record";
  EXPECT_EQ(after->runs(), 0);

  recorder->Submit(MakeRecordEventTask(event));
  ASSERT_TRUE(waiter_drained.Wait());
  SIM_EXPECT_OK(waiter_drained.status());
  EXPECT_EQ(after->runs(), 1);
  SIM_ASSERT_DRAINS_OK(*recorder);
  EXPECT_TRUE(event->Complete());
}

TEST_F(EventTest, TimestampsAreMonotonicAndOrderedOnOneStream) {
  auto first = NewEvent();
  auto second = NewEvent();
  auto stream = NewStream();
  const uint64_t before = MonotonicMicros();
  stream->Submit(MakeRecordEventTask(first));
  stream->Submit(std::make_unique<FunctionTask>("work", [] { return absl::OkStatus(); }));
  stream->Submit(MakeRecordEventTask(second));
  SIM_ASSERT_DRAINS_OK(*stream);
  const uint64_t after = MonotonicMicros();

  const uint64_t t1 = first->timestamp_us();
  const uint64_t t2 = second->timestamp_us();
  EXPECT_LE(before, t1);
  EXPECT_LE(t1, t2) << "elapsed time between the two records would be negative";
  EXPECT_LE(t2, after);

  // Recording again moves the timestamp forward.
  stream->Submit(MakeRecordEventTask(first));
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_GE(first->timestamp_us(), t2);
  EXPECT_LE(first->timestamp_us(), MonotonicMicros());
}

TEST_F(EventTest, RecordDroppedByDiscardStillCompletes) {
  auto event = NewEvent();
  auto recorder = NewStream();
  auto waiter = NewStream();
  auto gate = std::make_shared<Gate>();
  auto after = std::make_shared<Probe>();

  recorder->Submit(gate->NewTask());
  recorder->Submit(MakeRecordEventTask(event));
  waiter->Submit(MakeWaitEventTask(event));
  waiter->Submit(after->NewTask());
  DrainWaiter waiter_drained(*waiter);
  ASSERT_TRUE(gate->WaitPolled());
  EXPECT_FALSE(waiter_drained.Wait(kShortWait));

  recorder->Discard(absl::CancelledError("force destroy"));
  EXPECT_TRUE(event->RecordsExecuted());
  ASSERT_TRUE(waiter_drained.Wait()) << "the waiter is stuck on a discarded record";
  SIM_EXPECT_OK(waiter_drained.status());
  EXPECT_EQ(after->runs(), 1);
}

TEST_F(EventTest, RecordDroppedByStreamDestructionStillCompletes) {
  auto event = NewEvent();
  auto recorder = std::make_shared<Stream>(0, 100, &scheduler_);
  auto waiter = NewStream();
  auto gate = std::make_shared<Gate>();

  recorder->Submit(gate->NewTask());
  recorder->Submit(MakeRecordEventTask(event));
  waiter->Submit(MakeWaitEventTask(event));
  DrainWaiter waiter_drained(*waiter);
  ASSERT_TRUE(gate->WaitPolled());

  recorder.reset();
  ASSERT_TRUE(waiter_drained.Wait());
  SIM_EXPECT_OK(waiter_drained.status());
  EXPECT_TRUE(event->RecordsExecuted());
}

TEST_F(EventTest, RecordRunsWhenItsStreamHasStoppedAfterAFailure) {
  auto event = NewEvent();
  auto recorder = NewStream();
  auto waiter = NewStream();
  recorder->SetFailureMode(FailureMode::kStop);
  auto failing = std::make_shared<Probe>();
  auto skipped = std::make_shared<Probe>();
  auto after = std::make_shared<Probe>();

  recorder->Submit(failing->NewTask(AclError(kRtAicoreException, "kernel failed")));
  recorder->Submit(skipped->NewTask());
  recorder->Submit(MakeRecordEventTask(event));
  waiter->Submit(MakeWaitEventTask(event));
  waiter->Submit(after->NewTask());

  SIM_ASSERT_DRAINS_OK(*waiter);
  EXPECT_EQ(after->runs(), 1);
  EXPECT_TRUE(event->Complete());
  absl::StatusOr<absl::Status> reported = Drain(*recorder);
  ASSERT_TRUE(reported.ok()) << reported.status();
  EXPECT_EQ(CodeOf(*reported), kRtAicoreException);
  EXPECT_EQ(skipped->runs(), 0);
  EXPECT_EQ(skipped->cancels(), 1);
}

TEST_F(EventTest, OneRecordReleasesWaitersOnManyStreams) {
  auto event = NewEvent();
  auto recorder = NewStream();
  auto gate = std::make_shared<Gate>();
  recorder->Submit(gate->NewTask());
  recorder->Submit(MakeRecordEventTask(event));
  auto after = std::make_shared<Probe>();
  std::vector<DrainWaiter> drained;
  for (int i = 0; i < 16; ++i) {
    auto waiter = NewStream();
    waiter->Submit(MakeWaitEventTask(event));
    waiter->Submit(after->NewTask());
    drained.emplace_back(*waiter);
  }
  ASSERT_TRUE(gate->WaitPolled());
  EXPECT_FALSE(drained[0].Wait(kShortWait));
  EXPECT_EQ(after->runs(), 0);
  gate->Open();
  for (auto& d : drained) {
    ASSERT_TRUE(d.Wait());
    SIM_EXPECT_OK(d.status());
  }
  EXPECT_EQ(after->runs(), 16);
}

TEST_F(EventTest, DiscardedWaitLeavesTheStreamUsable) {
  auto event = NewEvent();
  auto recorder = NewStream();
  auto waiter = NewStream();
  auto gate = std::make_shared<Gate>();
  auto after = std::make_shared<Probe>();
  recorder->Submit(gate->NewTask());
  recorder->Submit(MakeRecordEventTask(event));
  waiter->Submit(MakeWaitEventTask(event));
  waiter->Submit(after->NewTask());
  ASSERT_TRUE(gate->WaitPolled());

  waiter->Discard(absl::CancelledError("discarded"));
  EXPECT_EQ(after->cancels(), 1);
  // The record executes later and wakes the discarded wait: nothing happens.
  gate->Open();
  SIM_ASSERT_DRAINS_OK(*recorder);
  waiter->Submit(after->NewTask());
  SIM_ASSERT_DRAINS_OK(*waiter);
  EXPECT_EQ(after->runs(), 1);
}

}  // namespace
}  // namespace npud::sim
