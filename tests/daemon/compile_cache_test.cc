// Tests of daemon/compile_cache: least-recently-used eviction, what is kept, and
// identical requests in flight sharing one computation. Computations here are
// lambdas, not compiler runs, so the tests are exact about when they run.

#include "daemon/compile_cache.h"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace npud::daemon {
namespace {

CompileOutput Output(const std::string& log) {
  CompileOutput output;
  output.log = log;
  return output;
}

// Computes "<key> #<n>" (n counting the computations) and keeps it if `keep`.
class Counter {
 public:
  CompileOutput Get(CompileCache* cache, const std::string& key, bool keep = true) {
    return cache->GetOrCompute(key, [&](bool* cacheable) {
      *cacheable = keep;
      return Output(key + " #" + std::to_string(++runs_));
    });
  }
  int runs() const { return runs_; }

 private:
  int runs_ = 0;
};

TEST(CompileCacheTest, KeepsTheMostRecentlyUsed) {
  CompileCache cache(2);
  Counter counter;
  EXPECT_EQ(counter.Get(&cache, "a").log, "a #1");
  EXPECT_FALSE(counter.Get(&cache, "b").from_cache);
  const CompileOutput again = counter.Get(&cache, "a");  // a is now the most recent
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(again.log, "a #1");
  counter.Get(&cache, "c");  // evicts b
  EXPECT_EQ(counter.runs(), 3);
  EXPECT_TRUE(counter.Get(&cache, "a").from_cache);
  EXPECT_TRUE(counter.Get(&cache, "c").from_cache);
  EXPECT_EQ(counter.Get(&cache, "b").log, "b #4");
  EXPECT_EQ(counter.runs(), 4);
}

TEST(CompileCacheTest, KeepsOnlyCacheableResults) {
  CompileCache cache(8);
  Counter counter;
  counter.Get(&cache, "flaky", /*keep=*/false);
  EXPECT_EQ(counter.Get(&cache, "flaky", /*keep=*/false).log, "flaky #2");
  counter.Get(&cache, "flaky", /*keep=*/true);
  EXPECT_EQ(counter.Get(&cache, "flaky").log, "flaky #3");
  EXPECT_EQ(counter.runs(), 3);
}

TEST(CompileCacheTest, CapacityZeroKeepsNothing) {
  CompileCache cache(0);
  Counter counter;
  counter.Get(&cache, "a");
  EXPECT_FALSE(counter.Get(&cache, "a").from_cache);
  EXPECT_EQ(counter.runs(), 2);
}

TEST(CompileCacheTest, IdenticalRequestsInFlightShareOneComputation) {
  for (size_t capacity : {size_t{0}, size_t{4}}) {
    CompileCache cache(capacity);
    absl::Notification started, release;
    std::atomic<int> runs{0};
    auto compute = [&](bool* cacheable) {
      ++runs;
      started.Notify();
      release.WaitForNotification();
      *cacheable = true;  // shared even where nothing is kept (capacity 0)
      return Output("shared");
    };
    CompileOutput first;
    std::thread computing([&] { first = cache.GetOrCompute("key", compute); });
    started.WaitForNotification();
    std::vector<CompileOutput> waiting(3);
    std::vector<std::thread> waiters;
    std::atomic<int> arriving{0};
    for (CompileOutput& output : waiting) {
      waiters.emplace_back([&cache, &output, &compute, &arriving] {
        ++arriving;
        output = cache.GetOrCompute("key", compute);
      });
    }
    // The waiters are a few instructions from waiting once they have arrived; a
    // late one would compute again (nothing is kept) and fail the test.
    while (arriving.load() < 3) absl::SleepFor(absl::Milliseconds(1));
    absl::SleepFor(absl::Milliseconds(50));
    // Another key is not held up by the computation in flight.
    EXPECT_EQ(cache
                  .GetOrCompute("other",
                                [](bool* cacheable) {
                                  *cacheable = false;
                                  return Output("other");
                                })
                  .log,
              "other");
    release.Notify();
    computing.join();
    for (std::thread& waiter : waiters) waiter.join();
    EXPECT_EQ(runs.load(), 1) << capacity;
    EXPECT_FALSE(first.from_cache);
    for (const CompileOutput& output : waiting) {
      EXPECT_EQ(output.log, "shared");
      EXPECT_TRUE(output.from_cache);
    }
  }
}

// A result that may not be kept (the compiler was killed with the session
// that asked, or ran out of time) is not handed to the requests that waited
// for it: the first of them computes again, the others share that. Before,
// another session's identical program failed with the first one's kill.
TEST(CompileCacheTest, AFailureOfItsOwnIsNotHandedToWaiters) {
  CompileCache cache(4);
  absl::Notification started, release;
  std::atomic<int> runs{0};
  auto compute = [&](bool* cacheable) {
    const int run = ++runs;
    if (run == 1) {
      started.Notify();
      release.WaitForNotification();
      *cacheable = false;
      return Output("killed");
    }
    *cacheable = true;
    return Output("compiled");
  };
  CompileOutput first;
  std::thread computing([&] { first = cache.GetOrCompute("key", compute); });
  started.WaitForNotification();
  std::vector<CompileOutput> waiting(2);
  std::vector<std::thread> waiters;
  std::atomic<int> arriving{0};
  for (CompileOutput& output : waiting) {
    waiters.emplace_back([&cache, &output, &compute, &arriving] {
      ++arriving;
      output = cache.GetOrCompute("key", compute);
    });
  }
  while (arriving.load() < 2) absl::SleepFor(absl::Milliseconds(1));
  absl::SleepFor(absl::Milliseconds(50));
  release.Notify();
  computing.join();
  for (std::thread& waiter : waiters) waiter.join();
  EXPECT_EQ(first.log, "killed");
  for (const CompileOutput& output : waiting) EXPECT_EQ(output.log, "compiled");
  EXPECT_EQ(runs.load(), 2);
}

}  // namespace
}  // namespace npud::daemon
