#include "simdevice/count_notify.h"

#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "simdevice/stream.h"
#include "simdevice/stream_scheduler.h"
#include "tests/simdevice/test_util.h"

namespace npud::sim {
namespace {

using ::npud::sim::testing::Drain;
using ::npud::sim::testing::DrainWaiter;
using ::npud::sim::testing::kShortWait;
using Record = CountNotify::RecordMode;
using Wait = CountNotify::WaitMode;

// Wakes at the requested time from a thread of its own.
WakeAt ThreadTimer() {
  return [](absl::Time when, Waker wake) {
    std::thread([when, wake = std::move(wake)] {
      absl::SleepFor(when - absl::Now());
      wake();
    }).detach();
  };
}

class CountNotifyTest : public ::testing::Test {
 protected:
  std::shared_ptr<Stream> NewStream() {
    auto stream = std::make_shared<Stream>(/*device_id=*/0, next_id_++, &scheduler_);
    streams_.push_back(stream);
    return stream;
  }

  StreamScheduler scheduler_{2};
  std::vector<std::shared_ptr<Stream>> streams_;  // destroyed before the scheduler
  uint64_t next_id_ = 1;
};

TEST_F(CountNotifyTest, RecordModesUpdateTheCount) {
  CountNotify notify(0, 1);
  notify.Record(Record::kSet, 0b1100);
  notify.Record(Record::kAdd, 1);
  EXPECT_EQ(notify.count(), 0b1101u);
  notify.Record(Record::kOr, 0b0010);
  EXPECT_EQ(notify.count(), 0b1111u);
  notify.Record(Record::kAnd, 0b0110);
  EXPECT_EQ(notify.count(), 0b0110u);
  notify.Reset();
  EXPECT_EQ(notify.count(), 0u);
}

TEST_F(CountNotifyTest, WaitModesCompareAndClear) {
  CountNotify notify(0, 1);
  notify.Record(Record::kSet, 5);
  const auto never = [] { ADD_FAILURE() << "woken although satisfied"; };
  EXPECT_TRUE(notify.CheckOrNotify(Wait::kLess, 6, false, never));
  EXPECT_TRUE(notify.CheckOrNotify(Wait::kEqual, 5, false, never));
  EXPECT_TRUE(notify.CheckOrNotify(Wait::kGreater, 4, false, never));
  EXPECT_TRUE(notify.CheckOrNotify(Wait::kGreaterOrEqual, 5, false, never));
  EXPECT_TRUE(notify.CheckOrNotify(Wait::kAllBits, 0b101, false, never));
  int woken = 0;
  EXPECT_FALSE(notify.CheckOrNotify(Wait::kAllBits, 0b110, false, [&woken] { ++woken; }));
  EXPECT_FALSE(notify.CheckOrNotify(Wait::kLess, 5, false, [&woken] { ++woken; }));
  EXPECT_TRUE(notify.CheckOrNotify(Wait::kEqual, 5, /*clear=*/true, never));
  EXPECT_EQ(notify.count(), 0u) << "a satisfied clearing wait resets the count";
  EXPECT_EQ(woken, 0);
  notify.Record(Record::kAdd, 1);
  EXPECT_EQ(woken, 2) << "every waiter is woken by a change";
}

TEST_F(CountNotifyTest, StreamWaitsUntilAnotherStreamCountsUp) {
  auto notify = std::make_shared<CountNotify>(0, 1);
  auto waiter = NewStream();
  auto producer = NewStream();
  waiter->Submit(MakeCountWaitTask(notify, Wait::kGreaterOrEqual, 3, /*clear=*/true,
                                   absl::ZeroDuration(), ThreadTimer()));
  DrainWaiter drained(*waiter);
  producer->Submit(MakeCountRecordTask(notify, Record::kAdd, 1));
  producer->Submit(MakeCountRecordTask(notify, Record::kAdd, 1));
  SIM_ASSERT_DRAINS_OK(*producer);
  EXPECT_FALSE(drained.Wait(kShortWait)) << "count 2 does not satisfy >= 3";
  producer->Submit(MakeCountRecordTask(notify, Record::kAdd, 1));
  ASSERT_TRUE(drained.Wait(absl::Seconds(10)));
  SIM_EXPECT_OK(drained.status());
  EXPECT_EQ(notify->count(), 0u);
}

TEST_F(CountNotifyTest, WaitTimesOutWithAnError) {
  auto notify = std::make_shared<CountNotify>(0, 1);
  auto stream = NewStream();
  const absl::Time start = absl::Now();
  stream->Submit(
      MakeCountWaitTask(notify, Wait::kEqual, 1, false, absl::Milliseconds(50), ThreadTimer()));
  auto drained = Drain(*stream);
  ASSERT_TRUE(drained.ok()) << drained.status();
  EXPECT_EQ(ToAclCode(*drained), kRtWaitTimeout) << *drained;
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(50));
}

}  // namespace
}  // namespace npud::sim
