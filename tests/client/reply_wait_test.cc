// ReplyWait: the polling policy, and that a wait returns once notified
// whether the reply comes within the window or long after it.

#include "client/core/reply_wait.h"

#include <thread>

#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace npud::client {
namespace {

TEST(ReplyWaitTest, PollsUntilRepliesKeepComingLateThenOnlyProbes) {
  ReplyWait wait(absl::Microseconds(100));
  for (int i = 0; i < ReplyWait::kMissesBeforeBackoff; ++i) {
    ASSERT_TRUE(wait.ShouldPoll()) << i;
    wait.Record(/*in_time=*/false);
  }
  int polls = 0;
  for (uint32_t i = 0; i < 4 * ReplyWait::kProbeInterval; ++i) {
    if (wait.ShouldPoll()) {
      ++polls;
      wait.Record(/*in_time=*/false);
    }
  }
  EXPECT_EQ(polls, 4);
}

TEST(ReplyWaitTest, AProbeInTimeRestoresPolling) {
  ReplyWait wait(absl::Microseconds(100));
  for (int i = 0; i < ReplyWait::kMissesBeforeBackoff; ++i) wait.Record(/*in_time=*/false);
  while (!wait.ShouldPoll()) {
  }
  wait.Record(/*in_time=*/true);
  EXPECT_TRUE(wait.ShouldPoll());
  EXPECT_TRUE(wait.ShouldPoll());
}

TEST(ReplyWaitTest, AZeroWindowNeverPolls) {
  ReplyWait wait(absl::ZeroDuration());
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(wait.ShouldPoll());
}

TEST(ReplyWaitTest, AReplyWithinTheWindowCountsAsInTime) {
  ReplyWait wait(absl::Seconds(10));
  for (int i = 0; i < ReplyWait::kMissesBeforeBackoff - 1; ++i) wait.Record(/*in_time=*/false);
  absl::Notification done;
  std::thread replier([&] {
    absl::SleepFor(absl::Milliseconds(5));
    done.Notify();
  });
  wait.Wait(done);
  replier.join();
  EXPECT_TRUE(done.HasBeenNotified());
  // The in-time reply cleared the earlier misses: one more miss does not
  // stop polling.
  wait.Record(/*in_time=*/false);
  EXPECT_TRUE(wait.ShouldPoll());
}

TEST(ReplyWaitTest, AReplyAfterTheWindowIsStillAwaitedAndCountsAsAMiss) {
  ReplyWait wait(absl::Microseconds(50));
  for (int i = 0; i < ReplyWait::kMissesBeforeBackoff - 1; ++i) wait.Record(/*in_time=*/false);
  absl::Notification done;
  std::thread replier([&] {
    absl::SleepFor(absl::Milliseconds(20));
    done.Notify();
  });
  wait.Wait(done);
  replier.join();
  EXPECT_TRUE(done.HasBeenNotified());
  EXPECT_FALSE(wait.ShouldPoll());
}

}  // namespace
}  // namespace npud::client
