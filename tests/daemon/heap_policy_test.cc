// HeapTrimmer's decisions, against a scripted heap: it trims only once the
// bytes in use have stopped moving and enough is free, and not again until
// a new load has come and gone.

#include "daemon/heap_policy.h"

#include <cstdlib>
#include <vector>

#include "gtest/gtest.h"

namespace npud::daemon {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

class HeapTrimmerTest : public ::testing::Test {
 protected:
  HeapTrimmer trimmer_{HeapTrimmer::Options{32 * kMiB, 4 * kMiB, 2}, [this] { return heap_; },
                       [this] { ++trims_; }};
  HeapUsage heap_;
  int trims_ = 0;

  // Ticks with the heap at `in_use` / `free` MiB; returns whether it trimmed.
  bool TickAt(size_t in_use, size_t free) {
    heap_ = HeapUsage{in_use * kMiB, free * kMiB};
    return trimmer_.Tick();
  }
};

TEST_F(HeapTrimmerTest, TrimsOnceTheLoadHasLeft) {
  EXPECT_FALSE(TickAt(10, 0));
  EXPECT_FALSE(TickAt(200, 40));  // a load
  EXPECT_FALSE(TickAt(120, 120));
  EXPECT_FALSE(TickAt(12, 300));  // it ends: in use fell, not yet quiet
  EXPECT_FALSE(TickAt(12, 300));  // quiet once
  EXPECT_TRUE(TickAt(12, 300));   // quiet twice: trimmed
  EXPECT_EQ(trims_, 1);
}

TEST_F(HeapTrimmerTest, NeverDuringALoad) {
  for (int i = 0; i < 20; ++i) EXPECT_FALSE(TickAt(i % 2 == 0 ? 100 : 150, 200));
  EXPECT_EQ(trims_, 0);
}

TEST_F(HeapTrimmerTest, NotWhenLittleIsFree) {
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(TickAt(50, 31));
  EXPECT_EQ(trims_, 0);
}

TEST_F(HeapTrimmerTest, AgainOnlyAfterANewLoad) {
  TickAt(12, 300);
  TickAt(12, 300);
  ASSERT_TRUE(TickAt(12, 300));
  // glibc still counts the trimmed pages as free: no trim every other tick.
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(TickAt(12, 300));
  EXPECT_FALSE(TickAt(100, 250));  // a new load
  EXPECT_FALSE(TickAt(12, 300));
  EXPECT_FALSE(TickAt(12, 300));
  EXPECT_TRUE(TickAt(12, 300));
  EXPECT_EQ(trims_, 2);
}

// The real heap: freed blocks are given back (the process's own figures).
TEST(HeapTrimmerGlibcTest, GivesFreedMemoryBack) {
  if (NPUD_ADDRESS_SANITIZER) GTEST_SKIP() << "ASan's allocator is not glibc's";
  ConfigureHeap();
  std::vector<void*> blocks;
  for (int i = 0; i < 64; ++i) {
    blocks.push_back(std::malloc(kMiB));
    static_cast<char*>(blocks.back())[0] = 1;
  }
  for (void* block : blocks) std::free(block);
  HeapTrimmer trimmer(HeapTrimmer::Options{32 * kMiB, 4 * kMiB, 1});
  EXPECT_TRUE(trimmer.Tick());
}

}  // namespace
}  // namespace npud::daemon
