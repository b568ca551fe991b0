#include "simdevice/range_allocator.h"

#include <cstdint>

#include "gtest/gtest.h"

namespace npud::sim {
namespace {

constexpr uint64_t kBase = 0x10000;
constexpr uint64_t kSize = 0x10000;

TEST(RangeAllocatorTest, TakesAlignedRangesInsideTheSpace) {
  RangeAllocator ranges(kBase + 0x100, kSize - 0x100);
  const uint64_t a = ranges.Take(0x100, 0x1000);
  EXPECT_EQ(a % 0x1000, 0u);
  EXPECT_GE(a, kBase + 0x100);
  const uint64_t b = ranges.Take(0x100, 0x1000);
  EXPECT_EQ(b % 0x1000, 0u);
  EXPECT_GE(b, a + 0x100);
  EXPECT_LE(b + 0x100, kBase + kSize);
}

TEST(RangeAllocatorTest, FreedRangeIsReusedOnlyAfterWrapping) {
  RangeAllocator ranges(kBase, kSize);
  const uint64_t first = ranges.Take(0x4000, 1);
  ranges.Return(first, 0x4000);
  const uint64_t second = ranges.Take(0x4000, 1);
  EXPECT_NE(second, first) << "next-fit hands out the range after the cursor first";
  EXPECT_NE(ranges.Take(0x4000, 1), 0u);
  EXPECT_NE(ranges.Take(0x4000, 1), 0u);
  // Only the first range is free now: reached after wrapping.
  EXPECT_EQ(ranges.Take(0x4000, 1), first);
  EXPECT_EQ(ranges.Take(1, 1), 0u) << "the space is full";
}

TEST(RangeAllocatorTest, ReturnedNeighboursCoalesce) {
  RangeAllocator ranges(kBase, kSize);
  const uint64_t a = ranges.Take(kSize / 2, 1);
  const uint64_t b = ranges.Take(kSize / 2, 1);
  ASSERT_NE(a, 0u);
  ASSERT_NE(b, 0u);
  ranges.Return(b, kSize / 2);
  ranges.Return(a, kSize / 2);
  EXPECT_EQ(ranges.Take(kSize, 1), kBase) << "the two halves merged into one range";
}

TEST(RangeAllocatorTest, TakeAtOnlySucceedsOnFreeRanges) {
  RangeAllocator ranges(kBase, kSize);
  EXPECT_TRUE(ranges.TakeAt(kBase + 0x2000, 0x1000));
  EXPECT_FALSE(ranges.TakeAt(kBase + 0x2800, 0x100)) << "inside the range just taken";
  EXPECT_FALSE(ranges.TakeAt(kBase + 0x1800, 0x1000)) << "overlaps its start";
  EXPECT_FALSE(ranges.TakeAt(kBase + kSize - 0x100, 0x200)) << "runs past the end";
  EXPECT_FALSE(ranges.TakeAt(kBase - 0x1000, 0x100)) << "before the space";
  EXPECT_TRUE(ranges.TakeAt(kBase + 0x1000, 0x1000)) << "the free neighbour";
}

}  // namespace
}  // namespace npud::sim
