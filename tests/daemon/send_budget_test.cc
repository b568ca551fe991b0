#include "daemon/send_budget.h"

#include <atomic>
#include <thread>

#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace npud::daemon {
namespace {

TEST(SendBudgetTest, TheHardLimitRefusesWithoutCounting) {
  SendBudget budget(/*soft_limit=*/10, /*hard_limit=*/100);
  EXPECT_TRUE(budget.Add(60));
  EXPECT_FALSE(budget.Add(41));
  EXPECT_EQ(budget.unread(), 60u);
  EXPECT_TRUE(budget.Add(40));
  EXPECT_EQ(budget.unread(), 100u);
}

TEST(SendBudgetTest, ParkedProducersWakeOnceBelowTheSoftLimit) {
  SendBudget budget(10, 100);
  std::atomic<int> woken{0};
  EXPECT_TRUE(budget.ReadyOrWake([&] { ++woken; }));  // room: not kept
  ASSERT_TRUE(budget.Add(30));
  EXPECT_FALSE(budget.ReadyOrWake([&] { ++woken; }));
  EXPECT_FALSE(budget.ReadyOrWake([&] { ++woken; }));
  budget.Remove(15);  // 15 unread: still no room
  EXPECT_EQ(woken.load(), 0);
  budget.Remove(10);  // 5 unread
  EXPECT_EQ(woken.load(), 2);
  budget.Remove(5);  // called once each
  EXPECT_EQ(woken.load(), 2);
}

TEST(SendBudgetTest, ReadersWaitForRoomOrTimeOut) {
  SendBudget budget(10, 100);
  ASSERT_TRUE(budget.Add(50));
  EXPECT_FALSE(budget.WaitForRoom(absl::Milliseconds(20)));
  std::thread reader([&] { budget.Remove(45); });
  EXPECT_TRUE(budget.WaitForRoom(absl::Seconds(10)));
  reader.join();
}

TEST(SendBudgetTest, TheEndWakesEveryoneAndLeavesRoom) {
  SendBudget budget(10, 100);
  ASSERT_TRUE(budget.Add(50));
  bool woken = false;
  EXPECT_FALSE(budget.ReadyOrWake([&] { woken = true; }));
  budget.End();
  EXPECT_TRUE(woken);
  EXPECT_TRUE(budget.WaitForRoom(absl::ZeroDuration()));
  EXPECT_TRUE(budget.ReadyOrWake([] {}));
}

}  // namespace
}  // namespace npud::daemon
