// CoreUtilization: the share of a device's core time launches took over the
// last second, by core kind, clipped to the window.

#include "simdevice/core_utilization.h"

#include "gtest/gtest.h"

namespace npud::sim {
namespace {

constexpr int64_t kMs = 1'000'000;

TEST(CoreUtilizationTest, IdleIsZero) {
  CoreUtilization cores(48, 24);
  const CoreUtilization::Percent busy = cores.At(5000 * kMs);
  EXPECT_EQ(busy.vector, 0);
  EXPECT_EQ(busy.cube, 0);
}

TEST(CoreUtilizationTest, ShareOfCoreTimeByKind) {
  CoreUtilization cores(48, 24);
  const int64_t now = 10'000 * kMs;
  // 24 vector blocks for half the window: a quarter of 48 cores' time.
  cores.Add(/*vector*/ 0, 24, now - 600 * kMs, now - 100 * kMs);
  // 12 cube blocks for the whole window: half of 24 cube cores.
  cores.Add(/*cube*/ 1, 12, now - 1000 * kMs, now);
  CoreUtilization::Percent busy = cores.At(now);
  EXPECT_EQ(busy.vector, 25);
  EXPECT_EQ(busy.cube, 50);
  // A mix kernel holds one cube and two vector cores per block.
  cores.Add(/*mix*/ 2, 6, now - 1000 * kMs, now);
  busy = cores.At(now);
  EXPECT_EQ(busy.vector, 50);
  EXPECT_EQ(busy.cube, 75);
}

TEST(CoreUtilizationTest, OnlyTheLastSecondCountsAndCoresAreCapped) {
  CoreUtilization cores(4, 2);
  const int64_t now = 10'000 * kMs;
  cores.Add(0, 1000, now - 500 * kMs, now);             // more blocks than cores: all 4
  cores.Add(0, 4, now - 3000 * kMs, now - 2000 * kMs);  // long over
  EXPECT_EQ(cores.At(now).vector, 50);
  // 750 ms later only its last 250 ms are still inside the window.
  EXPECT_EQ(cores.At(now + 750 * kMs).vector, 25);
  EXPECT_EQ(cores.At(now + 2000 * kMs).vector, 0);
  // Nonsense is ignored rather than counted.
  cores.Add(7, 4, now, now + 10 * kMs);
  cores.Add(0, 4, now + 10 * kMs, now);
  EXPECT_EQ(cores.At(now + 2000 * kMs).vector, 0);
}

}  // namespace
}  // namespace npud::sim
