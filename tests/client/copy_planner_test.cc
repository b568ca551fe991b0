#include "client/core/copy_planner.h"

#include "gtest/gtest.h"

namespace npud::client {
namespace {

constexpr size_t kLarge = kBulkThreshold + 1;
constexpr size_t kSmall = 4096;

CopyFacts ToDevice(size_t count, bool sync) {
  CopyFacts facts;
  facts.to_device = true;
  facts.count = count;
  facts.sync = sync;
  return facts;
}

CopyFacts ToHost(size_t count, bool sync) {
  CopyFacts facts = ToDevice(count, sync);
  facts.to_device = false;
  return facts;
}

TEST(PlanCopyTest, SharedHostMemoryGoesThroughItsWindowWhateverElseHolds) {
  for (bool to_device : {true, false}) {
    for (bool sync : {true, false}) {
      CopyFacts facts = to_device ? ToDevice(kLarge, sync) : ToHost(kLarge, sync);
      facts.in_window = true;
      facts.local = facts.bulk = facts.captured = true;
      EXPECT_EQ(PlanCopy(facts), CopyRoute::kWindow) << to_device << sync;
    }
  }
}

TEST(PlanCopyTest, LargeSynchronousCopiesWithALocalDaemonUseTheStagingRing) {
  for (bool to_device : {true, false}) {
    CopyFacts facts =
        to_device ? ToDevice(kStagingThreshold, true) : ToHost(kStagingThreshold, true);
    facts.local = true;
    facts.bulk = true;
    EXPECT_EQ(PlanCopy(facts), CopyRoute::kStaging);
    facts.count = kStagingThreshold - 1;  // small: inline
    EXPECT_EQ(PlanCopy(facts), CopyRoute::kInline);
    facts.count = kStagingThreshold;
    facts.sync = false;  // asynchronous: never the ring
    EXPECT_NE(PlanCopy(facts), CopyRoute::kStaging);
  }
}

TEST(PlanCopyTest, ToTheDeviceTheBulkChannelTakesOnlyBytesThatStayReadable) {
  CopyFacts facts = ToDevice(kLarge, /*sync=*/true);
  facts.bulk = true;
  EXPECT_EQ(PlanCopy(facts), CopyRoute::kBulk);
  facts.count = kSmall;
  EXPECT_EQ(PlanCopy(facts), CopyRoute::kInline);
  // Asynchronous pageable bytes are captured at the call.
  facts = ToDevice(kLarge, /*sync=*/false);
  facts.bulk = true;
  EXPECT_EQ(PlanCopy(facts), CopyRoute::kInline);
  facts.pinned_host = true;
  EXPECT_EQ(PlanCopy(facts), CopyRoute::kBulk);
  // A capture keeps its copies' bytes.
  facts.captured = true;
  EXPECT_EQ(PlanCopy(facts), CopyRoute::kInline);
  // No channel.
  facts = ToDevice(kLarge, /*sync=*/true);
  EXPECT_EQ(PlanCopy(facts), CopyRoute::kInline);
}

TEST(PlanCopyTest, ToTheHostLargeReadsUseTheBulkChannelAndCapturedOnesAreRefused) {
  CopyFacts facts = ToHost(kLarge, /*sync=*/false);
  facts.bulk = true;
  EXPECT_EQ(PlanCopy(facts), CopyRoute::kBulk);
  facts.count = kSmall;
  EXPECT_EQ(PlanCopy(facts), CopyRoute::kInline);
  facts.captured = true;
  EXPECT_EQ(PlanCopy(facts), CopyRoute::kRefused);
  facts = ToHost(kLarge, /*sync=*/true);
  EXPECT_EQ(PlanCopy(facts), CopyRoute::kInline);
}

}  // namespace
}  // namespace npud::client
