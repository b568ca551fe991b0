#include "daemon/kernel_stats.h"

#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace npud::daemon {
namespace {

TEST(KernelStatsTest, CountsPerNameFromManyThreads) {
  KernelStats stats;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&stats] {
      for (int i = 0; i < 1000; ++i) {
        const char* name = i % 2 == 0 ? "add_custom" : "mul_custom";
        stats.CountLaunch(name);
        stats.AddRunTime(name, i % 2 == 0 ? 10 : 3);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  const auto kernels = stats.Kernels();
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels.at("add_custom").launches, 2000u);
  EXPECT_EQ(kernels.at("mul_custom").launches, 2000u);
  EXPECT_EQ(kernels.at("add_custom").run_ns, 20000);
  EXPECT_EQ(kernels.at("mul_custom").run_ns, 6000);
}

// A program that names thousands of kernels cannot grow npud's metrics past
// the bound: later names count together, their time too.
TEST(KernelStatsTest, NamesPastTheBoundCountAsOther) {
  KernelStats stats;
  for (size_t i = 0; i < KernelStats::kMaxNames + 100; ++i) {
    stats.CountLaunch("kernel_" + std::to_string(i));
  }
  stats.CountLaunch("kernel_0");
  stats.AddRunTime("kernel_99999", 7);
  const auto kernels = stats.Kernels();
  EXPECT_EQ(kernels.size(), KernelStats::kMaxNames + 1);
  EXPECT_EQ(kernels.at(KernelStats::kOther).launches, 100u);
  EXPECT_EQ(kernels.at(KernelStats::kOther).run_ns, 7);
  EXPECT_EQ(kernels.at("kernel_0").launches, 2u);
}

// Fault codes come from kernel hosts, which run client code: bounded too.
TEST(KernelStatsTest, FaultsPerCodeAreBounded) {
  KernelStats stats;
  stats.CountFault(507015);
  stats.CountFault(507015);
  for (int32_t code = 1; code <= 1000; ++code) stats.CountFault(code);
  const auto faults = stats.Faults();
  EXPECT_EQ(faults.size(), KernelStats::kMaxCodes + 1);
  EXPECT_EQ(faults.at(507015), 2u);
  EXPECT_EQ(faults.at(0), 1000u - (KernelStats::kMaxCodes - 1));
}

}  // namespace
}  // namespace npud::daemon
