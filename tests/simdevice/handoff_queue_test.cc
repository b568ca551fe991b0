#include "simdevice/handoff_queue.h"

#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace npud::sim {
namespace {

void WaitForIdle(HandOffQueue<int>& queue, size_t workers) {
  while (queue.idle_workers() != workers) absl::SleepFor(absl::Microseconds(100));
}

TEST(HandOffQueueTest, QueuedItemsComeOutInOrderThenStopEndsTakes) {
  HandOffQueue<int> queue;
  for (int i = 0; i < 3; ++i) queue.Put(i);
  queue.Stop();
  int item = -1;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(queue.Take(&item));
    EXPECT_EQ(item, i);
  }
  EXPECT_FALSE(queue.Take(&item));
}

TEST(HandOffQueueTest, AnItemGoesToTheWorkerThatWentIdleLast) {
  HandOffQueue<int> queue;
  absl::Mutex mu;
  std::vector<std::string> got;
  auto worker = [&](std::string name) {
    int item = 0;
    while (queue.Take(&item)) {
      absl::MutexLock lock(&mu);
      got.push_back(name + std::to_string(item));
    }
  };
  std::thread first(worker, "first:");
  WaitForIdle(queue, 1);
  std::thread second(worker, "second:");
  WaitForIdle(queue, 2);
  queue.Put(1);
  WaitForIdle(queue, 2);  // second took it and is idle (and last) again
  queue.Put(2);
  WaitForIdle(queue, 2);
  queue.Stop();
  first.join();
  second.join();
  EXPECT_EQ(got, (std::vector<std::string>{"second:1", "second:2"}));
}

TEST(HandOffQueueTest, StopWakesIdleWorkers) {
  HandOffQueue<int> queue;
  bool took = true;
  std::thread worker([&] {
    int item = 0;
    took = queue.Take(&item);
  });
  WaitForIdle(queue, 1);
  queue.Stop();
  worker.join();
  EXPECT_FALSE(took);
}

}  // namespace
}  // namespace npud::sim
