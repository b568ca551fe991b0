// BoundedExecutor, the queue in front of run-time compilations: work past
// its workers and its queue is refused (npud answers 207005), a session's
// queued work goes with the session, and everything accepted runs.

#include "daemon/bounded_executor.h"

#include <atomic>
#include <cstdint>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace npud::daemon {
namespace {

TEST(BoundedExecutorTest, RefusesWorkBeyondWorkersAndQueue) {
  BoundedExecutor executor("test", /*workers=*/1, /*max_queued=*/2);
  absl::Notification release;
  absl::Notification started;
  std::atomic<int> ran{0};
  ASSERT_TRUE(executor
                  .Schedule(1,
                            [&] {
                              started.Notify();
                              release.WaitForNotification();
                              ++ran;
                            })
                  .ok());
  started.WaitForNotification();
  EXPECT_TRUE(executor.Schedule(1, [&] { ++ran; }).ok());
  EXPECT_TRUE(executor.Schedule(2, [&] { ++ran; }).ok());
  EXPECT_EQ(executor.load(), 3u);
  const absl::Status refused = executor.Schedule(2, [&] { ++ran; });
  EXPECT_TRUE(absl::IsResourceExhausted(refused)) << refused;
  // Session 1 ends: its queued job never runs; session 2's does.
  executor.Cancel(1);
  release.Notify();
  while (executor.load() != 0) absl::SleepFor(absl::Milliseconds(1));
  EXPECT_EQ(ran.load(), 2);
}

// A session that keeps the queue full holds half of its places at most,
// and waiting jobs start in turns: another session's single job runs
// second, not after all of the first session's. Before, it was refused.
TEST(BoundedExecutorTest, SessionsTakeTurnsAndHalfThePlacesAtMost) {
  BoundedExecutor executor("test", /*workers=*/1, /*max_queued=*/8);
  absl::Notification release;
  absl::Notification started;
  ASSERT_TRUE(executor
                  .Schedule(1,
                            [&] {
                              started.Notify();
                              release.WaitForNotification();
                            })
                  .ok());
  started.WaitForNotification();
  absl::Mutex mu;
  std::vector<uint64_t> order;
  auto job = [&](uint64_t owner) {
    return [&, owner] {
      absl::MutexLock lock(&mu);
      order.push_back(owner);
    };
  };
  int accepted = 0;
  while (executor.Schedule(1, job(1)).ok()) ++accepted;
  EXPECT_EQ(accepted, 4);
  ASSERT_TRUE(executor.Schedule(2, job(2)).ok());
  release.Notify();
  while (executor.load() != 0) absl::SleepFor(absl::Milliseconds(1));
  absl::MutexLock lock(&mu);
  EXPECT_EQ(order, (std::vector<uint64_t>{1, 2, 1, 1, 1}));
}

}  // namespace
}  // namespace npud::daemon
