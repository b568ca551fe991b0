// TdtQueues (daemon/tdt_queues): ownership, the bounds that keep a client
// from growing the daemon, forwarding along routes when destinations are
// full, and what a session's end releases.

#include "daemon/tdt_queues.h"

#include <string>

#include "common/acl_status.h"
#include "gtest/gtest.h"

namespace npud::daemon {
namespace {

constexpr uint64_t kAlice = 1, kBob = 2;

TEST(TdtQueuesTest, ASessionsQueuedBytesAreBounded) {
  TdtQueues queues;
  auto a = queues.Create(kAlice, 0, "", TdtQueues::kMaxDepth);
  auto b = queues.Create(kAlice, 0, "", TdtQueues::kMaxDepth);
  ASSERT_TRUE(a.ok() && b.ok());
  const std::string mib(1 << 20, 'x');
  const uint64_t fit = TdtQueues::kMaxSessionBytes / mib.size();
  for (uint64_t i = 0; i < fit; ++i) {
    ASSERT_TRUE(queues.Enqueue(kAlice, 0, i % 2 ? *a : *b, {mib, ""}).ok()) << i;
  }
  // The bound is the session's, whichever queue.
  EXPECT_EQ(ToAclCode(queues.Enqueue(kAlice, 0, *a, {mib, ""})), kRtQueueFull);
  // Another session is not held back by it.
  auto other = queues.Create(kBob, 0, "", 2);
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(queues.Enqueue(kBob, 0, *other, {mib, ""}).ok());
  // Taking one out makes room again.
  uint64_t too_large = 0;
  ASSERT_TRUE(queues.Dequeue(kAlice, 0, *a, 0, &too_large).ok());
  EXPECT_TRUE(queues.Enqueue(kAlice, 0, *a, {mib, ""}).ok());
  // Resetting a queue returns its bytes.
  ASSERT_TRUE(queues.Reset(kAlice, 0, *b).ok());
  EXPECT_TRUE(queues.Enqueue(kAlice, 0, *b, {mib, ""}).ok());
}

TEST(TdtQueuesTest, UserDataIsBounded) {
  TdtQueues queues;
  auto q = queues.Create(kAlice, 0, "", 2);
  ASSERT_TRUE(q.ok());
  const std::string big(TdtQueues::kMaxUserDataBytes + 1, 'u');
  EXPECT_EQ(ToAclCode(queues.Enqueue(kAlice, 0, *q, {"d", big})), kAclInvalidParam);
}

TEST(TdtQueuesTest, QueuesAreTheirSessionsOnly) {
  TdtQueues queues;
  auto q = queues.Create(kAlice, 3, "mine", 2);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(ToAclCode(queues.Create(kBob, 3, "mine", 2).status()), kAclInvalidParam);
  // The same name on another device is another queue.
  EXPECT_TRUE(queues.Create(kBob, 4, "mine", 2).ok());
  EXPECT_EQ(ToAclCode(queues.Enqueue(kBob, 3, *q, {"x", ""})), kRtParamInvalid);
  EXPECT_EQ(ToAclCode(queues.Size(kBob, 3, *q).status()), kRtParamInvalid);
  EXPECT_EQ(ToAclCode(queues.Destroy(kBob, 3, *q)), kRtParamInvalid);
  EXPECT_EQ(ToAclCode(queues.Bind(kBob, 3, {{*q, *q + 1, 0}}, false).status()), kAclFailure);
  queues.ReleaseSession(kAlice);
  EXPECT_TRUE(queues.Create(kBob, 3, "mine", 2).ok());
}

TEST(TdtQueuesTest, RoutesHoldMessagesUntilEveryDestinationHasRoom) {
  TdtQueues queues;
  const uint32_t src = *queues.Create(kAlice, 0, "", 4);
  const uint32_t d1 = *queues.Create(kAlice, 0, "", 2);
  const uint32_t d2 = *queues.Create(kAlice, 0, "", 2);
  ASSERT_TRUE(queues.Bind(kAlice, 0, {{src, d1, 0}, {src, d2, 0}}, false).ok());
  for (const char* m : {"1", "2", "3"}) ASSERT_TRUE(queues.Enqueue(kAlice, 0, src, {m, ""}).ok());
  // Two went on to both destinations; the third waits in src.
  EXPECT_EQ(*queues.Size(kAlice, 0, d1), 2u);
  EXPECT_EQ(*queues.Size(kAlice, 0, d2), 2u);
  EXPECT_EQ(*queues.Size(kAlice, 0, src), 1u);
  uint64_t too_large = 0;
  EXPECT_EQ(queues.Dequeue(kAlice, 0, d1, 0, &too_large)->data, "1");
  EXPECT_EQ(*queues.Size(kAlice, 0, src), 1u);  // d2 is still full
  EXPECT_EQ(queues.Dequeue(kAlice, 0, d2, 0, &too_large)->data, "1");
  EXPECT_EQ(*queues.Size(kAlice, 0, src), 0u);
  EXPECT_EQ(queues.Dequeue(kAlice, 0, d2, 0, &too_large)->data, "2");
  EXPECT_EQ(queues.Dequeue(kAlice, 0, d2, 0, &too_large)->data, "3");
  // Routes are reported, and go with the session.
  auto found = queues.Query(kAlice, 0, 0, src, 0);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->size(), 2u);
  queues.ReleaseSession(kAlice);
  EXPECT_TRUE(queues.Query(kAlice, 0, 0, src, 0)->empty());
}

TEST(TdtQueuesTest, ATooLargeMessageStaysQueued) {
  TdtQueues queues;
  const uint32_t q = *queues.Create(kAlice, 0, "", 2);
  ASSERT_TRUE(queues.Enqueue(kAlice, 0, q, {"0123456789", ""}).ok());
  uint64_t too_large = 0;
  EXPECT_EQ(ToAclCode(queues.Dequeue(kAlice, 0, q, 4, &too_large).status()), kRtParamInvalid);
  EXPECT_EQ(too_large, 10u);
  EXPECT_EQ(queues.Dequeue(kAlice, 0, q, 10, &too_large)->data, "0123456789");
  EXPECT_EQ(ToAclCode(queues.Dequeue(kAlice, 0, q, 0, &too_large).status()), kRtQueueEmpty);
}

}  // namespace
}  // namespace npud::daemon
