#include "daemon/launch_counter.h"

#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace npud::daemon {
namespace {

TEST(LaunchCounterTest, CountsPerNameFromManyThreads) {
  LaunchCounter counter;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&counter] {
      for (int i = 0; i < 1000; ++i) counter.Count(i % 2 == 0 ? "add_custom" : "mul_custom");
    });
  }
  for (std::thread& thread : threads) thread.join();
  const auto counts = counter.Snapshot();
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts.at("add_custom"), 2000u);
  EXPECT_EQ(counts.at("mul_custom"), 2000u);
}

// A program that names thousands of kernels cannot grow npud's metrics past
// the bound: later names count together.
TEST(LaunchCounterTest, NamesPastTheBoundCountAsOther) {
  LaunchCounter counter;
  for (size_t i = 0; i < LaunchCounter::kMaxNames + 100; ++i) {
    counter.Count("kernel_" + std::to_string(i));
  }
  counter.Count("kernel_0");
  const auto counts = counter.Snapshot();
  EXPECT_EQ(counts.size(), LaunchCounter::kMaxNames + 1);
  EXPECT_EQ(counts.at(LaunchCounter::kOther), 100u);
  EXPECT_EQ(counts.at("kernel_0"), 2u);
}

}  // namespace
}  // namespace npud::daemon
